"""The Krâsses commands: the JSON contract of the issue, and every "Bad input" line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke


def test_K1_test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """K-1: `meneur test krasses` prints natural, total, difficulty, passed, margin."""
    result = invoke(
        capsys,
        "test",
        "krasses",
        "--bonus",
        "5",
        "--difficulty",
        "moyen",
        "--faces",
        "10",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert {
        k: data[k] for k in ("system", "natural", "total", "difficulty", "passed", "margin")
    } == {
        "system": "krasses",
        "natural": 10,
        "total": 15,
        "difficulty": 15,
        "passed": True,
        "margin": 0,
    }


def test_K2_faces_20_and_1_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """K-2 (issue check): faces 20, bonus 0 vs 40: success; faces 1, bonus 30 vs 5: failure."""
    win = invoke(
        capsys, "test", "krasses", "--bonus", "0", "--difficulty", "40", "--faces", "20", "--json"
    ).json()
    assert win["passed"] is True and win["margin"] == -20
    loss = invoke(
        capsys, "test", "krasses", "--bonus", "30", "--difficulty", "5", "--faces", "1", "--json"
    ).json()
    assert loss["passed"] is False


def test_K3_english_names_and_automatique(capsys: pytest.CaptureFixture[str]) -> None:
    """K-3: English names work; Automatique needs no roll (and no --faces)."""
    data = invoke(
        capsys,
        "test",
        "krasses",
        "--bonus",
        "3",
        "--difficulty",
        "heroic",
        "--faces",
        "19",
        "--json",
    ).json()
    assert data["difficulty"] == 40
    auto = invoke(
        capsys, "test", "krasses", "--bonus", "0", "--difficulty", "automatique", "--json"
    )
    assert auto.status == 0
    assert auto.json()["passed"] is True and auto.json()["natural"] is None
    human = invoke(capsys, "test", "krasses", "--bonus", "0", "--difficulty", "automatique")
    assert "Réussite" in human.out


def test_K5_modifiers_and_krasses(capsys: pytest.CaptureFixture[str]) -> None:
    """K-5: --modifier moves the total, --krasse the difficulty."""
    data = invoke(
        capsys,
        "test",
        "krasses",
        "--bonus",
        "5",
        "--difficulty",
        "moyen",
        "--modifier",
        "2",
        "--modifier",
        "-1",
        "--krasse",
        "pluie battante:+5",
        "--faces",
        "14",
        "--json",
    ).json()
    assert (data["total"], data["difficulty"], data["passed"]) == (20, 20, True)
    assert data["krasses"] == [{"name": "pluie battante", "value": 5}]


def test_K6_sheet_and_skill(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """K-6 via the sheet: a skill the hero lacks rolls with no bonus."""
    path = tmp_path / "hero.json"
    path.write_text(
        json.dumps(
            {
                "name": "Aurore",
                "skills": {"Escalade": 5},
                "equipment": [{"name": "Corde", "bonus": 1, "applies_to": ["escalade"]}],
            }
        ),
        encoding="utf-8",
    )
    data = invoke(
        capsys,
        "test",
        "krasses",
        "--sheet",
        str(path),
        "--skill",
        "Escalade",
        "--difficulty",
        "15",
        "--faces",
        "9",
        "--json",
    ).json()
    assert data["total"] == 15 and data["trait"]["modifiers"] == [{"name": "Corde", "value": 1}]
    none = invoke(
        capsys,
        "test",
        "krasses",
        "--sheet",
        str(path),
        "--skill",
        "Nage",
        "--difficulty",
        "15",
        "--faces",
        "9",
        "--json",
    ).json()
    assert none["total"] == 9 and none["trait"]["source"] == "none"
    odds = invoke(
        capsys,
        "odds",
        "krasses",
        "--sheet",
        str(path),
        "--skill",
        "escalade",
        "--difficulty",
        "moyen",
        "--json",
    ).json()
    assert odds["exact"] == {"p_success": "3/5"}


def test_human_output_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(
        capsys, "test", "krasses", "--bonus", "0", "--difficulty", "40", "--faces", "20"
    )
    assert result.status == 0
    assert "20 naturel" in result.out and "Réussite" in result.out


def test_K4_oppose_json_and_reroll(capsys: pytest.CaptureFixture[str]) -> None:
    """K-4: two PCs tied reroll, the output shows it; a PC beats an NPC on a tie."""
    data = invoke(
        capsys,
        "oppose",
        "krasses",
        "--bonus",
        "3",
        "--vs-bonus",
        "3",
        "--b-kind",
        "pc",
        "--faces",
        "8,12",
        "--vs-faces",
        "8,5",
        "--json",
    ).json()
    assert set(data) >= {"system", "a", "b", "winner", "rerolls"}
    assert (data["winner"], data["rerolls"]) == ("a", 1)
    assert [r["result"] for r in data["rounds"]] == ["reroll", "a"]
    human = invoke(
        capsys,
        "oppose",
        "krasses",
        "--bonus",
        "3",
        "--vs-bonus",
        "3",
        "--b-kind",
        "pj",
        "--faces",
        "8,12",
        "--vs-faces",
        "8,5",
    )
    assert "relance" in human.out.lower()
    tie = invoke(
        capsys,
        "oppose",
        "krasses",
        "--bonus",
        "3",
        "--vs-bonus",
        "3",
        "--a-kind",
        "npc",
        "--b-kind",
        "pc",
        "--faces",
        "8",
        "--vs-faces",
        "8",
        "--json",
    ).json()
    assert (tie["winner"], tie["rerolls"], tie["decided_by"]) == ("b", 0, "tie")


def test_K4_natural_20_beats_19_plus_10_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    """K-4 (issue check) and its option --ignore-naturals."""
    args = (
        "oppose",
        "krasses",
        "--bonus",
        "0",
        "--vs-bonus",
        "10",
        "--faces",
        "20",
        "--vs-faces",
        "19",
        "--json",
    )
    assert invoke(capsys, *args).json()["winner"] == "a"
    assert invoke(capsys, *args, "--ignore-naturals").json()["winner"] == "b"


def test_K7_cooperate_json(capsys: pytest.CaptureFixture[str]) -> None:
    """K-7 (issue checks): 15 with a level gives +2, 15 without gives nothing, best leads."""
    data = invoke(
        capsys,
        "cooperate",
        "krasses",
        "--member",
        "5:1",
        "--member",
        "5:1",
        "--member",
        "5:0",
        "--difficulty",
        "ardu",
        "--faces",
        "14,10,10",
        "--json",
    ).json()
    assert data["leader"] == 0 and data["helpers"] == [1]
    assert (data["total"], data["difficulty"], data["passed"]) == (21, 20, True)
    assert [m["helps"] for m in data["members"]] == [False, True, False]


def test_K7_a_helpers_natural_1_is_the_reason_it_does_not_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """K-7: a helper's natural 1 never helps; with a total of 15 it was shown as « n'aide
    pas (moins de 15) », a reason its own total belies."""
    done = invoke(capsys, "cooperate", "krasses", "--member", "10:1", "--member", "14:1",
                  "--difficulty", "20", "--faces", "10,1")  # fmt: skip
    assert done.status == 0 and "n'aide pas (un 1 naturel)" in done.out, done.out
    assert "moins de 15" not in done.out
    short = invoke(capsys, "cooperate", "krasses", "--member", "10:1", "--member", "4:1",
                   "--difficulty", "20", "--faces", "10,2")  # fmt: skip
    assert "n'aide pas (moins de 15)" in short.out, short.out


def test_odds_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """The odds of the issue: 11/20, 19/20, 1/20; opposed and cooperation keys."""
    for bonus, difficulty, p in (("5", "moyen", 0.55), ("15", "15", 0.95), ("0", "40", 0.05)):
        data = invoke(
            capsys, "odds", "krasses", "--bonus", bonus, "--difficulty", difficulty, "--json"
        ).json()
        assert data["system"] == "krasses" and data["p_success"] == pytest.approx(p)
    opposed = invoke(
        capsys, "odds", "krasses", "--bonus", "3", "--vs-bonus", "3", "--b-kind", "pc", "--json"
    ).json()
    assert opposed["p_a_wins"] == 0.5 and opposed["p_tie_round"] == 0.05
    coop = invoke(
        capsys,
        "odds",
        "krasses",
        "--member",
        "5:1",
        "--member",
        "5:1",
        "--difficulty",
        "15",
        "--json",
    ).json()
    assert 0 < coop["p_success"] < 1


@pytest.mark.parametrize(
    "args",
    [
        ("test", "krasses", "--bonus", "1", "--difficulty", "impossible-ish"),
        ("test", "krasses", "--bonus", "abc", "--difficulty", "15"),
        ("cooperate", "krasses", "--member", "3", "--difficulty", "15"),
        ("cooperate", "krasses", "--difficulty", "15"),
        ("odds", "krasses", "--member", "3", "--difficulty", "15"),
        ("odds", "krasses", "--bonus", "abc", "--difficulty", "15"),
        ("odds", "krasses", "--bonus", "1", "--difficulty", "impossible-ish"),
        ("test", "krasses", "--bonus", "99999999999999", "--difficulty", "15"),
        ("test", "krasses", "--bonus", "1"),
        ("test", "krasses", "--bonus", "1", "--difficulty", "15", "--faces", "21"),
        ("test", "krasses", "--bonus", "1", "--difficulty", "15", "--faces", "3,4"),
        ("test", "krasses", "--bonus", "1", "--difficulty", "15", "--krasse", "inconnue"),
        ("test", "krasses", "--bonus", "1", "--difficulty", "automatique", "--krasse", "2"),
        (
            "test",
            "krasses",
            "--sheet",
            "/nonexistent/sheet.json",
            "--skill",
            "x",
            "--difficulty",
            "5",
        ),
        ("oppose", "krasses", "--bonus", "1", "--vs-bonus", "2", "--a-kind", "dragon"),
        ("oppose", "krasses", "--bonus", "1"),
        (
            "oppose",
            "krasses",
            "--bonus",
            "1",
            "--vs-bonus",
            "1",
            "--b-kind",
            "pc",
            "--faces",
            "4",
            "--vs-faces",
            "4",
        ),
        ("cooperate", "krasses", "--member", "3:-1", "--difficulty", "15"),
        ("cooperate", "krasses", "--member", "3:1", "--difficulty", "automatique"),
        (
            "cooperate",
            "krasses",
            *[a for _ in range(13) for a in ("--member", "1:1")],
            "--difficulty",
            "5",
        ),
    ],
)
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """Bad input (issue list and more): exit 2, one line on stderr, no traceback."""
    result = invoke(capsys, *args)
    assert result.status == 2, result.out
    assert "Traceback" not in result.err + result.out
    assert len(result.err.strip().splitlines()) == 1, result.err


def test_character_new_writes_a_sheet_the_test_can_roll(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`character new krasses` writes a valid sheet; `test --sheet --skill` rolls from it."""
    path = tmp_path / "aurore.json"
    made = invoke(
        capsys,
        "character",
        "new",
        "krasses",
        "--name",
        "Aurore",
        "--out",
        str(path),
        "--characteristic",
        "Force=2",
        "--skill",
        "Escalade=5",
        "--json",
    )
    assert made.status == 0, made.err
    assert json.loads(path.read_text(encoding="utf-8"))["skills"] == {"Escalade": 5}
    again = invoke(capsys, "character", "new", "krasses", "--name", "X", "--out", str(path))
    assert again.status == 2 and "--force" in again.err
    rolled = invoke(
        capsys,
        "test",
        "krasses",
        "--sheet",
        str(path),
        "--skill",
        "force",
        "--difficulty",
        "facile",
        "--faces",
        "8",
        "--json",
    ).json()
    assert (rolled["total"], rolled["passed"]) == (10, True)
    bad = invoke(
        capsys,
        "character",
        "new",
        "krasses",
        "--name",
        "X",
        "--out",
        str(tmp_path / "b.json"),
        "--skill",
        "Escalade=-1",
    )
    assert bad.status == 2 and len(bad.err.strip().splitlines()) == 1
    assert not (tmp_path / "b.json").exists()


def test_english_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Messages in English with --lang en; French game terms stay in the data (Moyen)."""
    result = invoke(
        capsys,
        "--lang",
        "en",
        "test",
        "krasses",
        "--bonus",
        "5",
        "--difficulty",
        "average",
        "--faces",
        "1",
    )
    assert result.status == 0
    assert "Natural 1" in result.out and "Failure" in result.out and "Moyen (15)" in result.out
    bad = invoke(capsys, "--lang", "en", "test", "krasses", "--bonus", "1", "--difficulty", "zzz")
    assert bad.status == 2 and "Unknown difficulty 'zzz'" in bad.err


def test_K4_oppose_from_sheets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """K-4 with K-5/K-6 from sheets: each side rolls a skill with its equipment bonus."""
    hero = tmp_path / "hero.json"
    hero.write_text(
        json.dumps(
            {
                "name": "Aurore",
                "skills": {"Discrétion": 3},
                "equipment": [{"name": "Cape", "bonus": 1, "applies_to": ["discretion"]}],
            }
        ),
        encoding="utf-8",
    )
    data = invoke(
        capsys,
        "oppose",
        "krasses",
        "--sheet",
        str(hero),
        "--skill",
        "discrétion",
        "--vs-sheet",
        str(hero),
        "--vs-skill",
        "Vigilance",
        "--faces",
        "12",
        "--vs-faces",
        "15",
        "--json",
    ).json()
    assert (data["a"]["total"], data["b"]["total"], data["winner"]) == (16, 15, "a")
    assert data["b"]["trait"]["source"] == "none"
    both = invoke(
        capsys,
        "oppose",
        "krasses",
        "--sheet",
        str(hero),
        "--skill",
        "x",
        "--bonus",
        "2",
        "--vs-bonus",
        "1",
    )
    assert both.status == 2 and len(both.err.strip().splitlines()) == 1


def test_a_krasse_name_with_a_control_character_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """K-2: a krâsse typed NAME:VALUE is printed back; an escape sequence in its name
    (one that clears the terminal) is refused, not printed raw."""
    r = invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", "moyen",
               "--krasse", "a\x1b[2Jb:3", "--seed", "1")  # fmt: skip
    assert r.status == 2 and "\x1b" not in r.out + r.err and "krâsse" in r.err
    assert invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", "moyen",
                  "--krasse", "pluie:3", "--seed", "1").status == 0  # fmt: skip


def test_character_new_says_the_right_bound_and_refuses_a_name_twice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--skill Bagarre=1001`` was refused as « a number from -1000 to 1000 », where a
    skill's level is from 0 (the sheet's bound, now said for each kind); ``--skill A=1
    --skill A=2`` kept 2 silently; a name of 5,000 characters read as a bad format."""
    cases = (
        (("--skill", "Bagarre=1001"), "de 0 à 1000"),
        (("--characteristic", "Force=-1001"), "de -1000 à 1000"),
        (("--skill", "A=1", "--skill", "A=2"), "deux fois"),
        (("--skill", "x" * 5000 + "=1"), "au plus 60 caractères"),
    )
    for extra, said in cases:
        done = invoke(capsys, "character", "new", "krasses", "--name", "K", *extra)
        assert done.status == 2 and said in done.err, done.err
    assert invoke(capsys, "character", "list", "--json").json() == []  # nothing was stored


def test_a_new_krasses_character_is_named_as_in_the_other_systems(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``character new krasses Zoé`` as ``character new tunnels Zed``; --name still works;
    no name, or two, is one clear line."""
    assert invoke(capsys, "character", "new", "krasses", "Zoé", "--skill", "Bagarre=3").status == 0
    assert invoke(capsys, "character", "new", "krasses", "--name", "Aurore").status == 0
    for args in ((), ("Zed", "--name", "Zed")):
        refused = invoke(capsys, "--lang", "en", "character", "new", "krasses", *args)
        assert refused.status == 2 and "Give the hero's name once" in refused.err
