"""The Obscur sheet and trait catalogue (O-4): loading, pools, and every bad input named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meneur.errors import RuleError, SheetError
from meneur.systems.obscur.catalog import Kind, build_catalog, catalog
from meneur.systems.obscur.sheet import (
    add_to_resource,
    character_from,
    check_state,
    load_character,
    save_character,
    updated,
)

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"


def sheet(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "isaure.json").read_text(encoding="utf-8"))
    for path, value in changes.items():
        *parents, last = path.split("__")
        node = data
        for key in parents:
            node = node[key]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return data


def test_O4_catalogue_associations_from_data() -> None:
    """O-4: the associations of the rules are data: Bagarre→Hargne, Secourisme→Nourrisseur..."""
    known = catalog()
    expected = {
        "Bagarre": "Hargne",
        "Esquive": "Hargne",
        "Acrobaties": "Agilité",
        "Natation": "Agilité",
        "Endurance": "Résistance",
        "Choc": "Résistance",
        "Régénération": "Résistance",
        "Détermination": "Trempe",
        "Intimidation": "Prestance",
        "Secourisme": "Nourrisseur",
        "Éloquence": "Fouineur",
        "Milieu": "Marcheur",
        "Armes courtes": "Gardien du feu",
    }
    for trait, base in expected.items():
        found = known.find(trait)
        assert found is not None and found.base == base


def test_O4_a_broken_association_in_data_is_named() -> None:
    """O-4: an association naming no Caractéristique is a clear error naming it."""
    raw = {
        "caracteristiques": ["Hargne"],
        "connaissances": ["Fouineur"],
        "capacites": {"Bagarre": "Hargn"},
        "competences": {},
    }
    with pytest.raises(SheetError, match="Bagarre"):
        build_catalog(raw)
    raw = {
        "caracteristiques": ["Hargne"],
        "connaissances": ["Fouineur"],
        "capacites": {},
        "competences": {"Éloquence": "Hargne"},
    }
    with pytest.raises(SheetError, match="Éloquence"):
        build_catalog(raw)


def test_O4_O5_O6_pools_from_a_sheet() -> None:
    """O-4: a Capacité rolls with its Caractéristique, a Compétence with its Connaissance;
    O-5/O-6 follow from zero levels; a Caractéristique may be tested alone."""
    character = character_from(sheet(), "isaure")
    bagarre = character.pool("bagarre")
    assert (bagarre.name, bagarre.base_name, bagarre.dice) == ("Bagarre", "Hargne", 4)
    assert not bagarre.zero_skill and not bagarre.zero_attribute
    natation = character.pool("Natation")  # not on the sheet: 0
    assert natation.dice == 3 and natation.zero_skill and not natation.zero_attribute
    crochetage = character.pool("crochetage")  # the sheet's own association
    assert crochetage.base_name == "Fouineur" and crochetage.dice == 6
    alone = character.pool("AGILITE")
    assert alone.dice == 3 and not alone.zero_skill
    zero_base = character_from(sheet(connaissances__Nourrisseur=0), "x").pool("Secourisme")
    assert zero_base.zero_attribute and zero_base.zero_skill and zero_base.dice == 0
    with pytest.raises(RuleError):
        character.pool("Mère Ardoise")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"capacites__Bagarre": -1}, "capacites.Bagarre"),
        ({"capacites__Voltige": 2}, "capacites.Voltige"),
        ({"caracteristiques__Hargne": None}, "caracteristiques.Hargne"),
        ({"caracteristiques__Bagarre": 2}, "caracteristiques.Bagarre"),
        ({"associations__Crochetage": "Hargne"}, "associations.Crochetage"),
        ({"ressources__vecu": -2}, " Vécu "),
        ({"ressources__moral": {"max": 3, "current": 4}}, " Moral "),
        ({"capacites__Esquive": "3"}, "capacites.Esquive"),
        ({"ressources": None}, "ressources"),
        ({"pouvoirs": {}}, "pouvoirs"),
    ],
)
def test_O4_bad_sheets_name_the_field(changes: dict[str, Any], field: str) -> None:
    """O-4: a missing association, a negative trait, an unknown trait... name the field
    (a resource by its label, « Vécu »; a trait, which has none, by its path)."""
    with pytest.raises(SheetError) as caught:
        character_from(sheet(**changes), "isaure.json")
    assert field in str(caught.value)


def test_O4_malformed_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json", encoding="utf-8")
    with pytest.raises(SheetError, match="JSON"):
        load_character(broken)
    bad_toml = tmp_path / "broken.toml"
    bad_toml.write_text("name = ", encoding="utf-8")
    with pytest.raises(SheetError, match="TOML"):
        load_character(bad_toml)


def test_O3_updates_keep_unknown_form_and_write_atomically(tmp_path: Path) -> None:
    """O-3/O-40: updates change only what they must; TOML sheets stay TOML."""
    for name in ("isaure.json", "bruno.toml"):
        target = tmp_path / name
        target.write_bytes((EXAMPLES / name).read_bytes())
        character = load_character(target)
        before = character.resource("vecu").current
        save_character(updated(character, lambda raw: add_to_resource(raw, "vecu", 1)))
        again = load_character(target)
        assert again.resource("vecu").current == before + 1
        assert again.sheet.attributes == character.sheet.attributes
        assert list(tmp_path.glob(".*")) == []


def test_examples_load() -> None:
    for path in (EXAMPLES / "isaure.json", EXAMPLES / "bruno.toml"):
        character = load_character(path)
        assert character.sheet.table(Kind.ATTRIBUTE)


def test_O4_a_user_override_of_the_traits_data_is_validated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """O-4: a table's own traits.toml overrides the shipped one and is checked at load."""
    from cli_helpers import invoke

    folder = tmp_path / "obscur"
    folder.mkdir()
    (folder / "traits.toml").write_text(
        'caracteristiques = ["Hargne"]\nconnaissances = ["Fouineur"]\n'
        '[capacites]\nBagarre = "Hargen"\n[competences]\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    catalog.cache_clear()
    try:
        with pytest.raises(SheetError, match="Hargen"):
            catalog()
        result = invoke(
            capsys, "test", "obscur", "--sheet", str(EXAMPLES / "isaure.json"), "--trait", "Bagarre"
        )
        assert result.status == 2 and "Bagarre" in result.err and "Traceback" not in result.err
    finally:
        monkeypatch.delenv("MENEUR_DATA_DIR")
        catalog.cache_clear()


def test_a_malformed_equipment_names_its_field_in_correct_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The equipment's table was glued to the source with an English colon: « « IE »:
    equipement : champ armes : ... ». It is the start of the field's path now, and the
    colon has its space before it."""
    from cli_helpers import invoke

    path = tmp_path / "ie.json"
    path.write_text(json.dumps(sheet(equipement={"armes": "épée"})), encoding="utf-8")
    result = invoke(capsys, "character", "new", "obscur", "IE", "--from", str(path))
    assert result.status == 2
    assert result.err == ("Erreur : « IE » : champ equipement.armes : une liste est attendue.\n"), (
        result.err
    )
    english = invoke(
        capsys, "--lang", "en", "character", "new", "obscur", "IE", "--from", str(path)
    )
    assert english.err == "Error: 'IE': field equipement.armes: a list is expected.\n"


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"name": ""}, "Nom :"), ({"name": "   "}, "Nom :"), ({"contacts": {" ": 2}}, "Contacts :")],
)
def test_a_name_written_on_the_sheet_is_not_empty(changes: dict[str, Any], field: str) -> None:
    """A character's name written empty or blank (or a contact's) was taken, and a fight
    or a shot printed nothing where the name stood (a blank one beat the fallback to the
    file's path). Refused now, the field named (a contact by its label, not by the path
    « contacts.  .[key] »); a sheet may still leave its name out."""
    with pytest.raises(SheetError) as caught:
        character_from(sheet(**changes), "isaure.json")
    said = str(caught.value)
    assert f"champ {field}" in said and "un nom ne peut être ni vide ni fait que d'espaces" in said
    assert character_from(sheet(name=None), "isaure.json").sheet.name == ""


def test_a_sheets_etat_counts_up_to_100000_and_sources_up_to_200_characters() -> None:
    """The state a sheet records (O-31's wounds) is judged when it loads: a wound of
    100,000 points (Vie's own bound) and a source of 200 characters are taken, one more of
    either is refused, the field named. These are the sheet's bounds, not a rule's."""
    wound = {"points": 100_000, "source": "x" * 200}
    assert character_from(sheet(etat={"blessures": [wound]}), "isaure.json").state.blessures
    for too_much in ({"points": 100_001}, {"source": "x" * 201}):
        broken = sheet(etat={"blessures": [wound | too_much]})
        with pytest.raises(SheetError) as caught:
            character_from(broken, "isaure.json")
        assert "champ Blessures" in str(caught.value), caught.value


def test_O10_O31_resources_from_0_or_from_minus_100000_up_to_100000() -> None:
    """O-10: points spent never drive Vécu, Volonté, Moral or Encombrement below 0, so 0
    is a sheet's floor and −1 is refused; O-31: Vie may go below 0, down to −100,000.
    100,000 is every resource's bound, 100,001 is refused."""
    floor = {"vecu": 0, "volonte": {"max": 6, "current": 0}, "moral": 0, "encombrement": 0}
    for name, value in floor.items():
        assert (
            character_from(sheet(**{f"ressources__{name}": value}), "x").resource(name).current == 0
        )
    assert character_from(sheet(ressources__vie={"max": 12, "current": -100_000}), "x")
    assert character_from(sheet(ressources__vecu=100_000), "x").resource("vecu").current == 100_000
    for changes in (
        {"ressources__vecu": -1},
        {"ressources__vecu": 100_001},
        {"ressources__vie": {"max": 12, "current": -100_001}},
    ):
        with pytest.raises(SheetError):
            character_from(sheet(**changes), "x")


def test_O10_O31_a_stored_state_holds_its_resources_to_the_sheets_ranges() -> None:
    """O-10/O-31: a campaign's stored state (``{"vecu": 3}``) is a bare number for the
    current points, Vie may be below 0, the other fields are free notes; Vécu below 0
    (O-10) or not a whole number is refused, naming the resource by its label."""
    check_state({"vecu": 3, "vie": -5, "volonte": 0, "note": "libre"}, "Isaure")
    for refused, reason in (
        ({"vecu": -1}, "sous 0"),
        ({"vecu": "3"}, "nombre entier"),
        ({"vecu": 2.0}, "nombre entier"),
        ({"vecu": True}, "nombre entier"),
        ({"moral": {"current": -2}}, "sous 0"),
    ):
        with pytest.raises(SheetError) as caught:
            check_state(refused, "Isaure")
        said = str(caught.value)
        assert "Isaure" in said and reason in said, (refused, said)
        assert ("Vécu" if "vecu" in refused else "Moral") in said


def test_O4_a_sheet_may_use_the_models_own_field_names() -> None:
    """O-4: a sheet whose sections carry the model's names (``attributes``, ``abilities``,
    ``knowledge``, ``skills``, ``resources``) is read as the French one, and an update
    adds to its ``resources``."""
    french = sheet()
    names = {
        "caracteristiques": "attributes",
        "capacites": "abilities",
        "connaissances": "knowledge",
        "competences": "skills",
        "ressources": "resources",
    }
    english = {names.get(key, key): value for key, value in french.items()}
    character = character_from(english, "en.json")
    bagarre = character.pool("Bagarre")
    assert (bagarre.base_name, bagarre.dice) == ("Hargne", 4)
    more = updated(character, lambda raw: add_to_resource(raw, "vecu", 2))
    assert more.resource("vecu").current == 10 and more.raw["resources"]["vecu"] == 10


def test_O31_a_bare_vie_keeps_its_maximum_when_it_changes() -> None:
    """O-31: a Vie written as a bare number (``"vie": 12``, both current and maximum)
    that loses 4 points is written ``{"current": 8, "max": 12}``; Vécu stays bare."""
    character = character_from(sheet(ressources__vie=12), "x")
    hurt = updated(character, lambda raw: add_to_resource(raw, "vie", -4))
    assert hurt.raw["ressources"]["vie"] == {"current": 8, "max": 12}
    assert (hurt.resource("vie").current, hurt.resource("vie").max) == (8, 12)
    paid = updated(character, lambda raw: add_to_resource(raw, "vecu", -3))
    assert paid.raw["ressources"]["vecu"] == 5


def test_O10_an_update_that_breaks_the_sheet_names_its_file(tmp_path: Path) -> None:
    """O-10: an update that would leave Vécu below 0 is refused, the file named, and the
    file is left as it was."""
    target = tmp_path / "isaure.json"
    target.write_bytes((EXAMPLES / "isaure.json").read_bytes())
    character = load_character(target)
    with pytest.raises(SheetError) as caught:
        updated(character, lambda raw: add_to_resource(raw, "vecu", -9))
    assert str(target) in str(caught.value) and "Vécu" in str(caught.value)
    assert target.read_bytes() == (EXAMPLES / "isaure.json").read_bytes()


def test_O31_saved_sheets_read_back_as_they_were_and_keep_their_accents(
    tmp_path: Path,
) -> None:
    """O-31: a TOML sheet saved with a wound (a list of tables) and its gear (lists and
    inline tables) reads back as it was, in TOML; a JSON one too. Both keep their accents
    as written (« Agilité », « Épée »), not as escapes."""
    wound = {"points": 4, "source": "chute à pic", "soignee": False}

    def hurt(raw: dict[str, Any]) -> None:
        raw["etat"] = {"blessures": [wound], "intemperies": []}

    for name in ("garance.toml", "isaure.json"):
        target = tmp_path / name
        target.write_bytes((EXAMPLES / name).read_bytes())
        character = updated(load_character(target), hurt)
        save_character(character)
        again = load_character(target)
        assert again.raw == character.raw
        assert again.state.blessures[0].source == "chute à pic"
        text = target.read_text(encoding="utf-8")
        assert "Agilité" in text and "chute à pic" in text and "\\u" not in text
    assert '"Épée"' in (tmp_path / "garance.toml").read_text(encoding="utf-8")
