"""A model's refusal in the user's words (meneur.model_errors): pydantic's English
never reaches a French user, and the reason is translated when shown, not when raised."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from meneur.errors import SheetError
from meneur.locale import N_, set_language
from meneur.model_errors import first_problem


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    points: int = Field(0, ge=0, le=12)
    name: str = Field("x", max_length=5)
    mode: Literal["public", "secret"] = "public"
    tags: list[str] = Field([], max_length=2)
    note: Annotated[str, AfterValidator(str.strip)] | None = Field(None, max_length=4)


def refusal(**data: object) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        Sample.model_validate(data)
    return caught.value


@pytest.fixture(autouse=True)
def _french() -> object:
    set_language("fr")
    yield
    set_language("fr")


@pytest.mark.parametrize(
    ("data", "where", "french", "english"),
    [
        ({"points": -1}, "points", "doit valoir au moins 0", "must be at least 0"),
        ({"points": 13}, "points", "doit valoir au plus 12", "must be at most 12"),
        ({"points": "douze"}, "points", "un nombre entier est attendu", "a whole number"),
        ({"name": "abcdefgh"}, "name", "5 caractères au plus", "at most 5 characters"),
        # a text checked after its validator (a Légendes regret): characters, not "items"
        ({"note": "abcdefgh"}, "note", "4 caractères au plus", "at most 4 characters"),
        ({"tags": ["a"] * 3}, "tags", "au plus 2 éléments", "at most 2 items"),
        ({"mode": "loud"}, "mode", "doit être l'une des valeurs", "must be one of"),
        ({"colour": 1}, "colour", "nom de champ inconnu", "unknown field name"),
    ],
)
def test_each_refusal_names_the_field_and_says_why_in_both_languages(
    data: dict[str, object], where: str, french: str, english: str
) -> None:
    problem = first_problem(refusal(**data))
    assert problem.where == where
    assert french in str(problem.reason)
    set_language("en")
    assert english in str(problem.reason)


def test_the_reason_follows_the_language_of_whoever_reads_the_error() -> None:
    error = SheetError(
        N_("The sheet refuses this value: {field}: {reason}."),
        field="points",
        reason=first_problem(refusal(points=-4)).reason,
    )
    assert "doit valoir au moins 0" in str(error)
    set_language("en")
    assert str(error) == "The sheet refuses this value: points: must be at least 0."


def test_a_validator_s_own_message_loses_pydantic_s_prefix_and_stays_short() -> None:
    class Checked(BaseModel):
        value: int

        def model_post_init(self, context: object) -> None:
            if self.value == 7:
                raise ValueError("sept " * 100)

    with pytest.raises(ValidationError) as caught:
        Checked.model_validate({"value": 7})
    reason = str(first_problem(caught.value).reason)
    assert not reason.startswith("Value error") and reason.startswith("sept")
    assert len(reason) <= 200


def test_a_caller_s_own_error_types_come_first() -> None:
    problem = first_problem(refusal(points=-1), {"greater_than_equal": N_("missing field")})
    assert str(problem.reason) == "champ manquant"


@pytest.mark.parametrize(
    ("raw", "french", "english"),
    [
        (
            {"skills": {"Bagarre": 5000}},
            "le niveau de « Bagarre » va de 0 à 1000",
            "the level of 'Bagarre' must be from 0 to 1000",
        ),
        (
            {"skills": {"Bagarre": 1, "bagarre": 2}},
            "la compétence « bagarre » figure deux fois",
            "the skill 'bagarre' is listed twice",
        ),
        ({"name": "[/]"}, "un nom ne peut pas contenir de crochets", "a name cannot hold"),
    ],
)
def test_a_validator_s_refusal_is_translated_when_shown(
    raw: dict[str, object], french: str, english: str
) -> None:
    """A sheet validator's own reason (``model_errors.refusal``) follows the reader's
    language, as pydantic's own refusals do: it reached French users in English."""
    from meneur.systems.krasses.sheet import validated

    sheet = {"system": "krasses", "name": "Zoé", **raw}
    with pytest.raises(SheetError) as caught:
        validated(sheet, "zoe.json")
    set_language("fr")
    assert french in str(caught.value), str(caught.value)
    set_language("en")
    assert english in str(caught.value), str(caught.value)


def test_a_reason_that_is_a_sentence_loses_its_full_stop_inside_another() -> None:
    """« ...Charisme.). »: a validator's reason quoted in a sentence of its own kept its
    full stop; the reason is a part of the sentence, which ends once."""
    from meneur.systems.tunnels.character import from_dict

    sheet = {
        "system": "tunnels", "name": "A",
        "characteristics": {"Agilité": 2, "Dextérité": 4, "Constitution": 2, "Volonté": 3,
                            "Intelligence": 2, "Charisme": 3},
        "endurance": {"current": 4, "max": 4}, "mana": {"current": 5, "max": 5},
        "chance": {"current": 3, "max": 3},
    }  # fmt: skip
    with pytest.raises(SheetError) as caught:
        from_dict(sheet, "a.json")
    shown = str(caught.value)
    assert "Agilité" in shown and ".)" not in shown and ".." not in shown


def test_a_number_that_is_not_finite_is_said(tmp_path: object) -> None:
    """``1e400`` read as infinity reached French users as pydantic's English (« Input
    should be a finite number »); so did a name that is not Unicode (``"\\ud800"`` in a
    JSON sheet: « unable to parse raw data as a unicode string »)."""
    import json
    from pathlib import Path

    from meneur.systems.obscur.sheet import load_character

    class Numbers(BaseModel):
        value: float = Field(allow_inf_nan=False)

    set_language("fr")
    with pytest.raises(ValidationError) as caught:
        Numbers.model_validate({"value": float("inf")})
    assert str(first_problem(caught.value).reason) == "un nombre fini est attendu (ni nan ni inf)"
    root = Path(__file__).resolve().parents[1]
    data = json.loads((root / "examples" / "obscur" / "isaure.json").read_text())
    path = Path(str(tmp_path)) / "surrogate.json"
    path.write_text(json.dumps(data).replace('"name": "', '"name": "\\ud800', 1))
    with pytest.raises(SheetError) as named:
        load_character(path)
    assert "Unicode" in str(named.value), str(named.value)


def test_an_obscur_resource_that_is_not_a_whole_number_is_said_so(tmp_path: object) -> None:
    """``vecu = 2.5`` (or ``"douze"``) was refused as « a table of fields is expected »:
    a bare resource is a whole number, or a table of current and max."""
    import json
    from pathlib import Path

    from meneur.systems.obscur.sheet import load_character

    root = Path(__file__).resolve().parents[1]
    data = json.loads((root / "examples" / "obscur" / "isaure.json").read_text())
    for value in (2.5, "douze"):
        data["ressources"]["vecu"] = value
        path = Path(str(tmp_path)) / "isaure.json"
        path.write_text(json.dumps(data))
        set_language("fr")
        with pytest.raises(SheetError) as caught:
            load_character(path)
        assert "champ Vécu :" in str(caught.value) and "nombre entier" in str(caught.value)


def test_a_pattern_and_a_choice_are_said_without_english() -> None:
    """A value not of its pattern showed pydantic's « String should match pattern
    '^[A-Za-z0-9_-]{20,64}$' »; the choices of a literal were joined with an English
    « or » inside the French sentence."""

    class Form(BaseModel):
        token: str = Field("x" * 20, pattern=r"^[a-z]{20}$")
        choice: Literal["explode", "stop"] = "stop"

    set_language("fr")
    with pytest.raises(ValidationError) as caught:
        Form.model_validate({"token": "short"})
    assert str(first_problem(caught.value).reason) == "n'a pas la forme attendue"
    with pytest.raises(ValidationError) as caught:
        Form.model_validate({"choice": "zzz"})
    said = str(first_problem(caught.value).reason)
    assert " or " not in said and "'explode', 'stop'" in said, said


def test_where_a_problem_stands_is_named_to_80_characters_however_it_was_refused() -> None:
    """A field's path is quoted back short, whatever refused it: a known pydantic type, a
    validator's own words, or a type known nowhere (pydantic's words)."""
    from uuid import UUID

    from meneur.model_errors import refusal as own_refusal

    def never(text: str) -> str:
        raise own_refusal(N_("a name cannot be empty or only spaces"))

    class Deep(BaseModel):
        items: dict[str, int] = {}
        ids: dict[str, UUID] = {}
        named: dict[str, Annotated[str, AfterValidator(never)]] = {}

    long_key = "c" * 200
    assert first_problem(refusal(**{long_key: 1})).where == "c" * 80
    for field in ("items", "ids", "named"):
        with pytest.raises(ValidationError) as caught:
            Deep.model_validate({field: {long_key: "x"}})
        where = first_problem(caught.value).where
        assert where == (field + "." + long_key)[:80], field


def test_a_type_known_nowhere_keeps_pydantics_words_without_a_final_stop() -> None:
    """A reason is quoted inside a sentence that has its own full stop."""
    from uuid import UUID

    class Identified(BaseModel):
        id: UUID

    with pytest.raises(ValidationError) as caught:
        Identified.model_validate({"id": "x"})
    reason = first_problem(caught.value).reason
    assert isinstance(reason, str) and reason.startswith("Input should be a valid UUID")
    assert not reason.endswith(".")
    assert reason == str(caught.value.errors()[0]["msg"]).rstrip(".")

    class Checked(BaseModel):
        value: int

        def model_post_init(self, context: object) -> None:
            raise ValueError("Nope, not this one.")

    with pytest.raises(ValidationError) as caught:
        Checked.model_validate({"value": 7})
    assert first_problem(caught.value).reason == "Nope, not this one"
