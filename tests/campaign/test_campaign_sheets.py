"""Every stored sheet is checked by its system (``System.check_sheet``), whoever stores it.

The campaign used to look for a ``sheet_model()`` hook that no system had, so any object
was stored: ``character new obscur --from`` kept a sheet without its traits, refused
only at the first roll (« field caracteristiques: missing field »).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.errors import SheetError
from meneur.files import read_sheet
from meneur.systems.registry import find_system

ROOT = Path(__file__).resolve().parents[2]


def valid_sheets() -> dict[str, dict[str, Any]]:
    from meneur.rng import SeededDice
    from meneur.systems.tunnels.character import create

    return {
        "tunnels": create("Pip", SeededDice(1)).model_dump(),
        "obscur": read_sheet(ROOT / "examples" / "obscur" / "garance.toml"),
        "krasses": {"name": "Zed", "skills": {"Bagarre": 2}},
        "legendes": read_sheet(ROOT / "examples" / "legendes" / "lyssia.json"),
    }


@pytest.mark.parametrize("system", ["tunnels", "obscur", "krasses", "legendes"])
def test_each_system_checks_its_sheets(system: str) -> None:
    checked = find_system(system)
    checked.check_sheet(valid_sheets()[system], "«Pip»")  # its own sheet passes
    with pytest.raises(SheetError, match="«Pip»"):
        checked.check_sheet({}, "«Pip»")  # an empty object is nobody's sheet


def test_a_sheet_file_missing_its_traits_is_not_stored(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garance = valid_sheets()["obscur"]
    del garance["caracteristiques"]
    broken = tmp_path / "garance.json"
    broken.write_text(json.dumps(garance), encoding="utf-8")
    made = invoke(
        capsys, "--lang", "en", "character", "new", "obscur", "Garance", "--from", str(broken)
    )
    assert made.status == 2 and len(made.err.strip().splitlines()) == 1
    assert "caracteristiques" in made.err and "Traceback" not in made.err
    listed = invoke(capsys, "character", "list", "--json")
    assert "Garance" not in listed.out  # nothing stored
    whole = tmp_path / "whole.json"
    whole.write_text(json.dumps(valid_sheets()["obscur"]), encoding="utf-8")
    made = invoke(capsys, "character", "new", "obscur", "Garance", "--from", str(whole))
    assert made.status == 0, made.err


def test_a_stored_character_is_quoted_as_each_language_quotes(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """« Zed » in French (spaced guillemets), 'Zed' in English: the stored character's
    label was «Zed» in both."""
    assert invoke(capsys, "character", "new", "tunnels", "Zed", "--seed", "3").status == 0
    bad = tmp_path / "bad.json"
    bad.write_text('{"system": "tunnels", "name": "Zed"}', encoding="utf-8")
    french = invoke(capsys, "character", "edit", "Zed", "--sheet", str(bad))
    assert french.status == 2 and "La fiche « Zed » n'est pas" in french.err, french.err
    english = invoke(capsys, "--lang", "en", "character", "edit", "Zed", "--sheet", str(bad))
    assert "The sheet 'Zed' is not" in english.err, english.err


@pytest.mark.parametrize(
    ("system", "name", "spoil", "french", "english"),
    [
        ("obscur", "Garance", ("ressources", "vecu", -3), "champ Vécu :", "field Vécu:"),
        (
            "obscur",
            "Garance",
            ("ressources", "vie", {"current": 1, "max": -1}),
            "champ Vie max :",
            "field Vie max:",
        ),
        (
            "legendes",
            "Lyssia",
            ("motivation_points", None, -1),
            ": Points de motivation :",
            ": Motivation points:",
        ),
        ("tunnels", "Pip", ("endurance", "current", "x"), "(Endurance :", "(Endurance:"),
        ("krasses", "Zed", ("skills", "Bagarre", -1), "(Compétences :", "at Skills:"),
    ],
)
def test_a_refused_sheet_edit_names_the_value_by_its_label(
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    system: str,
    name: str,
    spoil: tuple[str, str | None, Any],
    french: str,
    english: str,
) -> None:
    """``character edit`` refusing a value names it as the table's edit form does
    (« Vécu », « Points de motivation »), in each language, never by its path in the
    file (``ressources.vecu``); a value with no label (a Krâsses skill) keeps its path."""
    sheet = {**valid_sheets()[system], "name": name}
    stored = tmp_path / "good.json"
    stored.write_text(json.dumps(sheet), encoding="utf-8")
    if system == "tunnels":
        assert invoke(capsys, "character", "new", "tunnels", name, "--seed", "3").status == 0
    elif system == "krasses":
        made = invoke(capsys, "character", "new", "krasses", name, "--skill", "Bagarre=2")
        assert made.status == 0, made.err
    else:
        made = invoke(capsys, "character", "new", system, name, "--from", str(stored))
        assert made.status == 0, made.err
    table, key, value = spoil
    if key is None:
        sheet[table] = value
    else:
        sheet[table] = {**sheet[table], key: value}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sheet), encoding="utf-8")
    said = invoke(capsys, "character", "edit", name, "--sheet", str(bad))
    assert said.status == 2 and french in said.err, said.err
    told = invoke(capsys, "--lang", "en", "character", "edit", name, "--sheet", str(bad))
    assert told.status == 2 and english in told.err, told.err
    assert f"{table}." not in said.err + told.err
