"""What a sheet's state allows and what a roll writes back on it (O-1, O-3, O-10, O-28,
O-29, O-31): a body in a coma or dead rolls nothing from its sheet, an automatic test buys
no Dépassement, an opposition's two sides are two sheets, fire shocks round by round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke, one_line_error
from meneur.errors import RuleError
from meneur.systems.base import FaceReader
from meneur.systems.obscur import health
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.state import Body


def isaure_at(folder: Path, vie: int, **state: Any) -> Path:
    """Isaure (Vie 12, Vécu 8) at ``vie``, her wounds saying so."""
    path = folder / "isaure.json"
    raw = json.loads(path.read_text())
    raw["ressources"]["vie"]["current"] = vie
    raw["etat"] = {"blessures": [{"points": 12 - vie, "source": "coup"}], **state}
    path.write_text(json.dumps(raw, ensure_ascii=False))
    return path


@pytest.mark.parametrize(
    ("vie", "state", "words"),
    [
        (-12, {}, "is dead (O-31)"),
        (-2, {}, "in a coma (O-31)"),
        (3, {"coma_asphyxie": True}, "O-24"),
    ],
    ids=["dead", "coma", "asphyxia"],
)
def test_O31_a_body_in_a_coma_or_dead_rolls_nothing_from_its_sheet(
    capsys: pytest.CaptureFixture[str],
    sheets: Path,
    vie: int,
    state: dict[str, Any],
    words: str,
) -> None:
    """O-31: Vie at 0 or below is a coma, twice the Vie lost is death; such a body acts no
    more: a test, an opposition, the Dépassement advisor and the odds from its sheet are
    refused with the reason (the web table's roll too), and nothing is spent."""
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.web.systems import RollOptions

    path = isaure_at(sheets, vie, **state)
    before = path.read_bytes()
    sheet = ("--sheet", str(path), "--trait", "Esquive")
    commands = [
        ("test", "obscur", *sheet, "--push-dice", "6", "--faces", "6,6,6,6,6"),
        ("oppose", "obscur", *sheet, "--vs", "2", "--faces", "6,6", "--vs-faces", "1,1"),
        ("push", "obscur", *sheet),
        ("odds", "obscur", *sheet),
    ]
    for args in commands:
        assert words in one_line_error(invoke(capsys, *args, "--lang", "en")), args
    assert path.read_bytes() == before
    with pytest.raises(RuleError, match=r"O-24|O-31"):
        ObscurWeb().params(json.loads(before), "Esquive", RollOptions())


def test_O31_the_dead_may_still_hang_on_to_life(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-31: a dead character may spend 6 Vécu to test Trempe + Détermination: the one roll
    left to them, which the refusal above names."""
    path = isaure_at(sheets, -12)
    line = one_line_error(
        invoke(capsys, "test", "obscur", "--sheet", str(path), "--trait", "Esquive")
    )
    assert "meneur heal --hang-on" in line and "6 Vécu" in line
    hang = invoke(capsys, "heal", "obscur", "--sheet", str(path), "--hang-on", "--seed", "1")
    assert hang.status == 0, hang.err
    assert json.loads(path.read_text())["ressources"]["vecu"] == 2


def test_O1_O10_an_automatic_test_buys_no_depassement(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-1: an automatic test succeeds (or fails) with no roll; a Dépassement (O-10) buys
    dice, rerolls, adjustments or margin on a roll: on none it is refused, and the sheet
    keeps its Vécu (8 points were taken for nothing)."""
    path = sheets / "isaure.json"
    before = path.read_bytes()
    sheet = ("test", "obscur", "--sheet", str(path), "--trait", "Bagarre")
    for automatic, push in (
        ("success", ("--margin-points", "3")),
        ("failure", ("--push-dice", "1")),
    ):
        line = one_line_error(
            invoke(capsys, *sheet, "--automatic", automatic, *push, "--lang", "en")
        )
        assert "automatic test rolls no dice (O-1)" in line
    assert path.read_bytes() == before
    plain = invoke(capsys, *sheet, "--automatic", "success", "--json")
    assert plain.status == 0, plain.err
    assert plain.json()["passed"] is True
    assert path.read_bytes() == before


def test_O3_an_opposition_is_two_sheets_and_says_the_vecu_it_writes(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-3: each Maladresse earns 1 Vécu. One sheet on both sides of an opposition (a file,
    or one stored character) would write one side's point over the other's: refused. Two
    sheets that both fumble each gain their point, and the output says so."""
    isaure, mireille = sheets / "isaure.json", sheets / "mireille.toml"
    same = ("--sheet", str(isaure), "--trait", "Bagarre", "--vs-trait", "Bagarre")
    faces = ("--faces", "1,1,1,1", "--vs-faces", "1,1,1,1")
    alias = sheets / "." / "isaure.json"
    line = one_line_error(
        invoke(capsys, "oppose", "obscur", *same, "--vs-sheet", str(alias), *faces)
    )
    assert "une seule fiche" in line
    assert json.loads(isaure.read_text())["ressources"]["vecu"] == 8
    both = invoke(
        capsys, "oppose", "obscur", *same, "--vs-sheet", str(mireille), "--faces", "1,1,1,1",
        "--vs-faces", "1,1,1", "--lang", "en",
    )  # fmt: skip
    assert both.status == 0, both.err
    assert json.loads(isaure.read_text())["ressources"]["vecu"] == 9
    said = "".join(both.out.split())  # the console wraps long paths, even inside them
    for sheet in (isaure, mireille):
        assert "".join(f"+1 Vécu written to {sheet} (Maladresse)".split()) in said


def test_O28_O29_fire_shocks_each_round_with_the_pain_of_the_rounds_before() -> None:
    """O-28: any Vie lost shocks for the rest of its round; O-29: once the round is over,
    pain. A fire of two rounds shocks twice: round 2's Résistance + Choc has the pain of
    round 1's 4 HP (1 die, table provisoire), as round 2's Résistance has; not one shock
    at the end for the 8 HP, tested without the pain."""
    body = Body("Bruno", 15, 15)
    faces = (1, 1, 1, 6, 6, 3, 3, 3, 2, 1, 2, 3)
    out = health.fire(body, FaceReader((faces,)), 4, Dice(3), 0, rounds=2, choc=Dice(4))
    first, second = out["rounds"]
    assert [first["lost"], second["lost"]] == [4, 4]
    assert first["shock"]["test"]["pool"]["maluses"] == {}
    assert second["test"]["pool"]["maluses"] == {"pain": 1}
    assert second["shock"]["test"]["pool"]["maluses"] == {"pain": 1}
    assert second["shock"]["test"]["faces"] == [1, 2, 3]
    assert (first["shock"]["malus"], second["shock"]["malus"]) == (0, 2)


def test_O28_hurt_by_fire_or_poison_shows_each_rounds_shock(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-28 at the command line: ``hurt --fire`` over two rounds records each round's shock
    under its round (none for the whole), and says it round by round."""
    path = sheets / "bruno.toml"
    args = ("hurt", "obscur", "--sheet", str(path), "--fire", "4", "--steps", "2", "--dry-run")
    faces = ("--faces", "1,1,1,6,6,3,3,3,2,1,2,3")
    data = invoke(capsys, *args, *faces, "--json").json()
    assert "shock" not in data["result"]
    assert [r["shock"]["malus"] for r in data["result"]["rounds"]] == [0, 2]
    text = invoke(capsys, *args, *faces, "--lang", "en").out
    assert "Round 1: 4 HP lost · shock malus: -0 dice" in text
    assert "Round 2: 4 HP lost · shock malus: -2 dice" in text
    poison = invoke(capsys, "hurt", "obscur", "--sheet", str(path), "--poison", "4,4",
                    "--faces", "1,2,3,6,6,1,1", "--dry-run", "--json")  # fmt: skip
    assert poison.status == 0, poison.err
    (period,) = poison.json()["result"]["periods"]
    assert period["lost"] == 4 and period["shock"]["test"]["faces"] == [6, 6, 1, 1]
