"""A TOML sheet that a command writes back keeps what the user wrote: comments, key order,
bare or quoted keys, literal strings, inline tables; only the values that changed are
rewritten, and the file reads back as the JSON twin of the sheet would after the same
command (docs/obscur.md: writes keep the sheet's format)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.files import read_sheet
from meneur.systems.obscur.sheet import load_character, save_character, updated

SHEET = """\
# Mireille, written by hand: every comment here must survive a write.
system = "obscur"
name = 'Mireille'  # a literal string, kept as written

[caracteristiques]
"Agilité" = 3
Hargne = 2
"Résistance" = 2
Trempe = 2
Prestance = 1

[capacites]
Bagarre = 1
Esquive = 2
Choc = 1
Acrobaties = 2  # she climbs

[connaissances]
Nourrisseur = 1
Fouineur = 2
Marcheur = 2
"Gardien du feu" = 3

[ressources]
# Vie in an inline table, the others as bare numbers
vie = { max = 12, current = 12 }  # hit points
vecu = 5  # experience
volonte = 4
moral = 4
encombrement = 10
"""

OLD_WOUND = """
[[etat.blessures]]
points = 2  # an old wound
source = "chute"
soignee = false
"""


def twins(folder: Path, text: str) -> tuple[Path, Path]:
    """The sheet ``text`` as TOML, and the same data as a JSON sheet beside it."""
    toml, twin = folder / "mireille.toml", folder / "mireille.json"
    toml.write_text(text, encoding="utf-8")
    twin.write_text(json.dumps(tomllib.loads(text), ensure_ascii=False), encoding="utf-8")
    return toml, twin


def both(capsys: pytest.CaptureFixture[str], sheets: tuple[Path, Path], command: str) -> None:
    """Run ``command`` (words split on spaces) on each twin, ``SHEET`` standing for it."""
    for path in sheets:
        words = (str(path) if word == "SHEET" else word for word in command.split())
        result = invoke(capsys, *words)
        assert result.status == 0, result.err


def test_O10_a_fumble_rewrites_the_vecu_line_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """O-10: a Maladresse writes +1 Vécu; the file is the user's, with that one value
    changed (its comment after it kept), and reads as the JSON twin does."""
    sheets = twins(tmp_path, SHEET)
    both(capsys, sheets, "test obscur --sheet SHEET --trait Bagarre --faces 1,1,1")
    toml, twin = sheets
    written = toml.read_text(encoding="utf-8")
    assert written == SHEET.replace("vecu = 5  # experience", "vecu = 6  # experience")
    assert read_sheet(toml) == read_sheet(twin)
    assert read_sheet(toml)["ressources"]["vecu"] == 6


def test_O23_a_fall_keeps_the_comments_and_the_wounds_table_array(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """O-23: a fall changes Vie in its inline table, in place, and adds a wound to the
    ``[[etat.blessures]]`` the user wrote; every other line is kept as it was (a bare
    Volonté that did not change stays bare), and the data is the JSON twin's."""
    original = SHEET + OLD_WOUND
    sheets = twins(tmp_path, original)
    both(capsys, sheets, "hurt obscur --sheet SHEET --fall 6 --seed 3")
    toml, twin = sheets
    expected = read_sheet(twin)
    assert read_sheet(toml) == expected
    vie = expected["ressources"]["vie"]["current"]
    assert vie < 12 and len(expected["etat"]["blessures"]) == 2
    lines = toml.read_text(encoding="utf-8").splitlines()
    assert f"vie = {{ max = 12, current = {vie} }}  # hit points" in lines
    kept = [line for line in original.splitlines() if not line.startswith("vie = ")]
    rest = iter(lines)
    assert all(line in rest for line in kept)  # every one still there, in its order
    assert lines.count("[[etat.blessures]]") == 2


@pytest.mark.parametrize(
    "notes",
    [
        "Elle a dit \"non\" à l'aubergiste,\npuis s'en est allée.",
        "Guillemets ''' et \"\"\", barre \\ oblique, tabulation\t, 🗡 « Épée »",
        "",
    ],
)
def test_a_string_with_quotes_line_breaks_and_accents_reads_back_as_it_was(
    tmp_path: Path, notes: str
) -> None:
    """A new string value (the sheet's notes) is written so that it reads back exactly,
    and the user's comments stay around it."""
    path, _twin = twins(tmp_path, SHEET)

    def write_notes(raw: dict[str, Any]) -> None:
        raw["notes"] = notes

    save_character(updated(load_character(path), write_notes))
    assert load_character(path).sheet.notes == notes
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Mireille, written by hand") and "# hit points" in text
    assert "Acrobaties = 2  # she climbs" in text

    def drop_notes(raw: dict[str, Any]) -> None:
        del raw["notes"]

    save_character(updated(load_character(path), drop_notes))
    assert path.read_text(encoding="utf-8") == SHEET  # a key gone is removed, no trace left
