"""What a Tunnels command says when the data or the options cannot hold (T-2, T-8, T-13).

A user's formula file (T-2) that gives a character an impossible pool, a critical failure
(T-8) read as a Marge de Réussite, a spell's threshold (T-13) silently overridden: each
is one clear line in French, exit status 2, nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import Result, invoke, one_line_error
from data_helpers import WriteData

FORMULAS = '[formulas]\nEndurance = {}\nMana = "Intelligence + Volonté"\nChance = {}\n'
"""A user's derived.toml (T-2): Endurance and Chance to fill, Mana as shipped."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    return invoke(capsys, *args)


def create(capsys: pytest.CaptureFixture[str], out: Path) -> Result:
    """``character new tunnels A`` from the faces 1..6 (Force 2, Constitution 3,
    Charisme 4), written to ``out``."""
    return run(
        capsys, "character", "new", "tunnels", "A", "--faces", "1,2,3,4,5,6", "--out", str(out)
    )


@pytest.mark.parametrize(
    ("endurance", "chance", "said"),
    [
        ('"20000"', '"Charisme"', "« 20000 » contient un nombre supérieur à 10000"),
        ('"10000 + Force"', '"Charisme"', "Endurance 10002 (Endurance = 10000 + Force)"),
        ('"Force - 10"', '"Charisme"', "une Endurance de -8 (Endurance = Force - 10)"),
        ('"Force - 2"', '"Charisme"', "une Endurance de 0 (Endurance = Force - 2)"),
        ('"Force"', '"Charisme - 5"', "Chance -1 (Chance = Charisme - 5)"),
    ],
)
def test_T2_a_formula_out_of_a_pools_bounds_is_one_line_naming_file_and_formula(
    capsys: pytest.CaptureFixture[str],
    user_data: WriteData,
    tmp_path: Path,
    endurance: str,
    chance: str,
    said: str,
) -> None:
    """T-2 (formulas are data, editable), T-11: « 20000 » was a pydantic traceback (a
    pool holds at most 10000); « Force - 10 » made a character born at Endurance 0, the
    wound of T-11 (now refused below 1), and a negative Chance was made 0. Each is one
    line naming the file and the formula; no sheet is written."""
    user_data("derived", FORMULAS.format(endurance, chance))
    out = tmp_path / "a.json"
    line = one_line_error(create(capsys, out))
    assert "tunnels/derived.toml" in line and said in line, line
    assert not out.exists()


def test_T2_a_formula_at_a_pools_bounds_makes_the_character(
    capsys: pytest.CaptureFixture[str], user_data: WriteData, tmp_path: Path
) -> None:
    """T-2: Endurance 1 and Chance 0 are the least a formula may give a new character."""
    user_data("derived", FORMULAS.format('"Force - 1"', '"Charisme - 4"'))
    out = tmp_path / "a.json"
    assert create(capsys, out).status == 0
    sheet = json.loads(out.read_text(encoding="utf-8"))
    assert sheet["endurance"] == {"current": 1, "max": 1}
    assert sheet["chance"] == {"current": 0, "max": 0}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            FORMULAS.format('"Force + Foo"', '"Charisme"'),
            "la formule Endurance = « Force + Foo » nomme « Foo »",
        ),
        (FORMULAS.format('"Force * Force"', '"Charisme"'), "« Force * Force » n'est pas une somme"),
        (FORMULAS.format('"2*"', '"Charisme"'), "« 2* » n'est pas une somme"),
        ('[formulas]\nEndurance = "Force"\nChance = "Charisme"\n', "aucune formule pour Mana"),
    ],
)
def test_T2_a_bad_formula_is_said_in_french(
    capsys: pytest.CaptureFixture[str],
    user_data: WriteData,
    tmp_path: Path,
    text: str,
    said: str,
) -> None:
    """T-2: the reason a formula file is refused came in English inside the French line
    (« bad formula 'Force + Foo' », « missing formula for Mana »): it is catalogued."""
    user_data("derived", text)
    line = one_line_error(create(capsys, tmp_path / "a.json"))
    assert "tunnels/derived.toml" in line and said in line, line
    assert "formula" not in line.replace("formulas", ""), line


def test_T8_a_critical_failure_has_no_marge_de_reussite(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-8: a critical failure fails whatever its successes: 1,1,1,4 at threshold 1 said
    « (Marge de Réussite 0) » above « Échec critique ». It shows no margin then; short of
    the threshold it keeps its Marge d'Échec, as a plain failure; the JSON is unchanged
    (``margin`` is successes minus threshold, docs/tunnels.md)."""
    args = ("test", "tunnels", "--dice", "4", "--faces", "1,1,1,4", "--explode", "never")
    shown = run(capsys, *args, "--threshold", "1")
    assert shown.status == 0, shown.err
    assert "Marge" not in shown.out and "Réussites : 1 / seuil 1\n" in shown.out
    assert "Échec critique" in shown.out
    short = run(capsys, *args, "--threshold", "2")
    assert "Réussites : 1 / seuil 2 (Marge d'Échec 1)" in short.out
    assert "Échec critique" in short.out
    data = run(capsys, *args, "--threshold", "1", "--json").json()
    assert (data["passed"], data["margin"], data["critical"]) == (False, 0, True)


def test_T13_a_spell_and_another_threshold_are_refused_not_overridden(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-13 (a spell is data: name, cost, test): ``--threshold 1`` beside Boule de feu
    (threshold 3) made the spell pass at 1; refused like a conflicting ``--trait``, the
    sheet and its Mana untouched. The spell's own threshold, as a number or a level
    naming it (difficile = 3), is accepted."""
    path = tmp_path / "aria.json"
    assert (
        run(capsys, "character", "new", "tunnels", "Aria", "--seed", "5", "--out", str(path)).status
        == 0
    )
    before = path.read_bytes()
    cast = ("test", "tunnels", "--sheet", str(path), "--spell", "boule de feu")
    line = one_line_error(run(capsys, *cast, "--threshold", "1", "--faces", "4,5,6,1"))
    assert "Boule de feu" in line and "seuil de 3" in line and "--threshold 1" in line, line
    assert path.read_bytes() == before
    for same in ("3", "difficile"):
        r = run(capsys, *cast, "--threshold", same, "--faces", "4,5,6,1", "--json")
        assert r.status == 0, r.err
        assert (r.json()["threshold"], r.json()["passed"]) == (3, True)
