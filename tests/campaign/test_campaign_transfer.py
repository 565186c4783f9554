"""Export and import of characters: exact round trip, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from meneur.campaign.store import Store


def sheet(name: str, level: int = 2) -> dict[str, object]:
    return {"name": name, "skills": {"Bagarre": level}, "characteristics": {"Force": 1}}


def fill(store: Store, count: int = 10) -> None:
    store.create_campaign("Table")
    for number in range(count):
        store.add_character(
            "krasses", f"Héros {number}", sheet(f"Héros {number}"), {"vecu": number}
        )


def test_export_import_round_trips_exactly(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(db_url) as store:
        fill(store)
    first = tmp_path / "table.json"
    assert invoke(capsys, "character", "export", "--out", str(first)).status == 0
    one = tmp_path / "one.json"
    assert invoke(capsys, "character", "export", "héros 3", "--out", str(one)).status == 0
    assert json.loads(one.read_text())["character"]["state"] == {"vecu": 3}
    with Store(db_url) as store:
        store.delete_campaign("Table")
        store.create_campaign("Table")
    result = invoke(capsys, "character", "import", str(first))
    assert result.status == 0, result.err
    second = tmp_path / "again.json"
    assert invoke(capsys, "character", "export", "--out", str(second)).status == 0
    assert second.read_bytes() == first.read_bytes()
    # one character's file imports into another campaign, identical too
    with Store(db_url) as store:
        store.create_campaign("Autre")
    assert invoke(capsys, "character", "import", str(one), "--campaign", "Autre").status == 0
    again = tmp_path / "one-again.json"
    invoke(capsys, "character", "export", "Héros 3", "--campaign", "Autre", "--out", str(again))
    assert again.read_bytes() == one.read_bytes()


def write_ten(tmp_path: Path, bad: dict[str, object]) -> Path:
    characters = [
        {"system": "krasses", "name": f"Héros {n}", "sheet": sheet(f"Héros {n}"), "state": {}}
        for n in range(10)
    ]
    characters[6] = {**characters[6], **bad}
    path = tmp_path / "ten.json"
    document = {
        "format": "meneur-campaign",
        "version": 1,
        "campaign": "X",
        "characters": characters,
    }
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"sheet": sheet("Héros 6", level=-4)}, "Skills"),  # by its label
        ({"sheet": {"name": "Héros 6", "charisme": 3}}, "charisme"),
        ({"sheet": ["not", "a", "sheet"]}, "sheet"),
        ({"system": "monopoly"}, "monopoly"),
        ({"state": 5}, "state"),
        ({"name": "x" * 10_000}, "10000"),
    ],
)
def test_one_invalid_character_among_ten_writes_nothing(
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    bad: dict[str, object],
    field: str,
) -> None:
    """Bad input: nothing is written, the error names the character and the field."""
    with Store(db_url) as store:
        store.create_campaign("Table")
    result = invoke(capsys, "--lang", "en", "character", "import", str(write_ten(tmp_path, bad)))
    assert result.status == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err
    assert field in lines[0]
    assert "Héros 6" in lines[0] or "#7" in lines[0]
    with Store(db_url) as store:
        assert store.characters() == []


def test_import_refuses_names_already_taken_unless_replace(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(db_url) as store:
        fill(store, 2)
    path = tmp_path / "two.json"
    invoke(capsys, "character", "export", "--out", str(path))
    refused = invoke(capsys, "character", "import", str(path))
    assert refused.status == 2 and "Héros 0" in refused.err
    assert invoke(capsys, "character", "import", str(path), "--replace").status == 0
    with Store(db_url) as store:
        assert len(store.characters()) == 2


def test_import_of_a_duplicate_within_the_file_writes_nothing(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_ten(tmp_path, {"name": "HÉROS 1"})
    result = invoke(capsys, "character", "import", str(path))
    assert result.status == 2 and "HÉROS 1" in result.err
    with Store(db_url) as store:
        assert store.campaigns() == []


@pytest.mark.parametrize(
    "content", ["{not json", "[]", '{"format": "other"}', '{"format": "meneur-character"}']
)
def test_import_of_a_malformed_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = invoke(capsys, "character", "import", str(path))
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1


def test_import_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "character", "import", str(tmp_path / "nowhere.json"))
    assert result.status == 2 and "nowhere.json" in result.err


def test_an_export_of_the_wrong_version_says_what_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A version written as the text "1" was refused as « version 1; this meneur reads
    version 1 »: the found value is shown as written."""
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"format": "meneur-character", "version": "1", "character": {}}))
    result = invoke(capsys, "character", "import", str(path))
    assert result.status == 2 and 'version "1"' in result.err, result.err


@pytest.mark.parametrize("version", [True, 1.0])
@pytest.mark.parametrize("kind", ["meneur-character", "meneur-campaign"])
def test_an_export_whose_version_only_equals_1_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: object, kind: str
) -> None:
    """In Python ``True == 1`` and ``1.0 == 1``: an export of ``"version": true`` or
    ``1.0`` was imported as version 1. Only the integer 1 is; nothing is written."""
    character = {"system": "krasses", "name": "Zoé", "sheet": sheet("Zoé")}
    document: dict[str, object] = {"format": kind, "version": version}
    if kind == "meneur-character":
        document["character"] = character
    else:
        document["characters"] = [character]
    path = tmp_path / "v.json"
    path.write_text(json.dumps(document))
    result = invoke(capsys, "--lang", "en", "character", "import", str(path))
    assert result.status == 2
    assert result.err == (
        f"Error: This export has version {json.dumps(version)}; this meneur reads version 1.\n"
    )
    assert invoke(capsys, "character", "list", "--json").json() == []
    document["version"] = 1  # the same file, of version 1, is imported
    path.write_text(json.dumps(document))
    assert invoke(capsys, "character", "import", str(path)).status == 0


ROOT = Path(__file__).resolve().parents[2]


def obscur_export(tmp_path: Path, **changes: object) -> Path:
    """Isaure's export file, with ``changes`` to its fields (``state``, ``sheet``...)."""
    isaure = json.loads((ROOT / "examples" / "obscur" / "isaure.json").read_text())
    character = {
        "system": "obscur",
        "name": "Isaure",
        "sheet": isaure,
        "state": {},
        "created_at": "2026-12-06T03:28:05.000000Z",
        "updated_at": "2026-12-06T03:28:09.000000Z",
    }
    path = tmp_path / "isaure-changed.json"
    document = {"format": "meneur-character", "version": 1, "character": character | changes}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("changes", "english", "french"),
    [
        (  # O-10: Vécu, Volonté, Moral are points spent, never below 0
            {"state": {"vecu": -3, "notes": "libres"}},
            "Error: 'Isaure': field Vécu: the points cannot fall below 0.",
            "Erreur : « Isaure » : champ Vécu : les points ne peuvent pas passer sous 0.",
        ),
        (
            {"state": {"moral": {"current": 9, "max": 5}}},
            "Error: 'Isaure': field Moral: the current points are above the maximum.",
            "Erreur : « Isaure » : champ Moral : les points actuels dépassent le maximum.",
        ),
        (
            {"updated_at": "2026-12-06T03:28:04Z"},
            "Error: Character Isaure: field 'updated_at' (2026-12-06T03:28:04.000000Z) is "
            "before 'created_at' (2026-12-06T03:28:05.000000Z).",
            "Erreur : Personnage Isaure : le champ « updated_at » (2026-12-06T03:28:04.000000Z) "
            "précède « created_at » (2026-12-06T03:28:05.000000Z).",
        ),
    ],
)
def test_import_refuses_a_state_out_of_its_range_or_an_update_before_the_creation(
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    changes: dict[str, object],
    english: str,
    french: str,
) -> None:
    """A state counter that names a resource is held to the sheet's range (O-10), and a
    character is not changed before it was made: the import said « 1 personnage importé »
    for both. Refused with the field named by its label (« Vécu », as a sheet's error
    names it, where the path « state.vecu » was shown), and nothing written
    (``--replace`` too)."""
    assert invoke(capsys, "character", "import", str(obscur_export(tmp_path))).status == 0
    before = invoke(capsys, "character", "export").out
    path = obscur_export(tmp_path, **changes)
    for language, said in (("en", english), ("fr", french)):
        refused = invoke(capsys, "--lang", language, "character", "import", str(path), "--replace")
        assert (refused.status, refused.out, refused.err) == (2, "", said + "\n"), language
    assert invoke(capsys, "character", "export").out == before


def test_every_way_a_state_is_stored_is_judged_by_the_rules(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check lives with the rules (``System.check_state``), not in ``import``:
    ``character edit --state`` and a roll's new state are refused alike; Vie may fall
    below 0 (O-31), and what names no resource is the player's own note."""
    from meneur.campaign.rolllog import log_roll
    from meneur.errors import SheetError

    assert invoke(capsys, "character", "import", str(obscur_export(tmp_path))).status == 0
    edited = invoke(capsys, "character", "edit", "Isaure", "--state", '{"volonte": -1}')
    assert edited.status == 2 and "champ Volonté :" in edited.err, edited.err
    with Store(db_url) as store:
        with pytest.raises(SheetError, match="champ Vécu :"):
            log_roll(
                store, "obscur", "test", {}, [[6]], {}, "physical", character="Isaure",
                state={"vecu": -3},
            )  # fmt: skip
        assert store.rolls() == []
        assert store.character("Isaure").state == {}
    kept = '{"vie": -2, "vecu": 4, "dette": -5}'
    assert invoke(capsys, "character", "edit", "Isaure", "--state", kept).status == 0
    assert invoke(capsys, "character", "show", "Isaure", "--json").json()["state"] == json.loads(
        kept
    )
    # the sheet's own counters were already held to their ranges (O-10), on import too
    isaure = json.loads((ROOT / "examples" / "obscur" / "isaure.json").read_text())
    isaure["ressources"]["vecu"] = -3
    refused = invoke(capsys, "character", "import", str(obscur_export(tmp_path, sheet=isaure)))
    assert refused.status == 2 and "champ Vécu" in refused.err


def _item(number: int, **changes: object) -> dict[str, object]:
    return {"system": "krasses", "name": f"H{number}", "sheet": sheet(f"H{number}"), **changes}


def _campaign(items: list[object], version: object = 1) -> dict[str, object]:
    return {"format": "meneur-campaign", "version": version, "characters": items}


def test_an_export_is_written_the_same_way_every_time() -> None:
    """Exporting again gives the same bytes: keys sorted, two spaces, accents as is."""
    from meneur.campaign.transfer import dumps

    assert dumps({"b": "é", "a": [1]}) == '{\n  "a": [\n    1\n  ],\n  "b": "é"\n}\n'


def test_an_export_is_read_as_json_whatever_its_name(tmp_path: Path) -> None:
    from meneur.campaign.transfer import read_document

    path = tmp_path / "export.toml"
    path.write_text(json.dumps(_campaign([_item(1)])), encoding="utf-8")
    assert read_document(path)["characters"][0]["name"] == "H1"


def test_an_import_holds_up_to_10000_characters() -> None:
    from meneur.campaign.transfer import MAX_CHARACTERS, parse_characters
    from meneur.errors import SheetError

    assert MAX_CHARACTERS == 10_000
    items = [_item(n) for n in range(MAX_CHARACTERS)]
    assert len(parse_characters(_campaign(items))) == MAX_CHARACTERS
    with pytest.raises(SheetError):
        parse_characters(_campaign([*items, _item(0)]))


def test_a_bad_character_is_named_by_its_name_and_place_or_its_place(english: None) -> None:
    """The error names the character as the file does (its name and its place from 1),
    or by its place alone when it has no usable name."""
    from meneur.campaign.transfer import parse_characters
    from meneur.errors import SheetError

    cases = [
        ([{"system": "krasses", "name": "x", "sheet": []}], "Character x (#1): field 'sheet'"),
        ([_item(1), _item(2, sheet=3)], "Character H2 (#2)"),
        ([{"name": 5, "system": "krasses"}], "Character #1: field 'sheet': missing"),
        ([{"name": " ", "system": "krasses"}], "Character #1:"),
        ([_item(1, created_at=5)], "field 'created_at': not a date"),
        ([_item(1, updated_at="2026-12-07T00:00:00" + "0" * 30)], "not a date"),
    ]
    for items, words in cases:
        with pytest.raises(SheetError) as caught:
            parse_characters(_campaign(items))
        assert words in str(caught.value), (items, str(caught.value))
    with pytest.raises(SheetError) as caught:
        parse_characters(_campaign([_item(1)], version="é" * 30))
    assert 'version "' + "é" * 19 + ";" in str(caught.value)
