"""The Tunnels commands: JSON contracts, human output, and every bad input of the issue."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Result, invoke, recorded_bars
from meneur.files import read_sheet
from meneur.locale.numbers import fraction_text


def run(capsys: pytest.CaptureFixture[str], command: str, **values: str) -> Result:
    """``invoke`` with the arguments written as one line; ``{name}`` words take ``values``."""
    return invoke(capsys, *(word.format(**values) for word in command.split()))


def new_aria(capsys: pytest.CaptureFixture[str], tmp_path: Path, dice: str) -> Path:
    """Create the character Aria in ``tmp_path/aria.json`` from the given dice options."""
    path = tmp_path / "aria.json"
    run(capsys, f"character new tunnels Aria {dice} --out {{path}}", path=str(path))
    return path


def test_T3_test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "test tunnels --dice 4 --threshold 2 --faces 1,1,4,6 --explode never --json")
    assert r.status == 0
    assert r.json() == {
        "system": "tunnels",
        "batches": [[1, 1, 4, 6]],
        "successes": 2,
        "threshold": 2,
        "passed": True,
        "margin": 0,
        "exceptional": False,
        "critical": False,
    }


def test_T5_faces_are_consumed_batch_by_batch(capsys: pytest.CaptureFixture[str]) -> None:
    """T-5: 2,2,2,5 asks for 2 more dice, read from the typed faces."""
    r = run(
        capsys, "test tunnels --dice 4 --threshold 3 --faces 2,2,2,5,6,4 --explode always --json"
    )
    assert r.status == 0
    assert r.json()["batches"] == [[2, 2, 2, 5], [6, 4]]
    assert r.json()["successes"] == 3


def test_T3_human_output_has_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "test tunnels --dice 3 --threshold 2 --faces 4,5,2")
    assert r.status == 0 and "Réussite" in r.out
    r = run(capsys, "test tunnels --dice 3 --threshold 1 --faces 1,1,1 --explode never")
    assert "Échec critique" in r.out


def test_T4_blessed_and_cursed_cancel_and_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        capsys,
        "test tunnels --dice 3 --threshold 1 --blessed --cursed --faces 3,4,2 --explode never",
    )
    assert r.status == 0
    assert "annulent" in r.out
    r = run(
        capsys,
        "test tunnels --dice 3 --threshold 1 --blessed --cursed --faces 3,4,2 "
        "--explode never --json",
    )
    assert r.json()["successes"] == 1


def test_T9_oppose_seed_orc(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        capsys,
        "oppose tunnels --dice 4 --vs 3 --faces 1,1,4,6 --vs-faces 2,3,5 --explode never --json",
    )
    assert r.status == 0
    data = r.json()
    assert set(data) == {"system", "a", "b", "winner", "margin"}
    assert (data["a"]["successes"], data["b"]["successes"], data["winner"], data["margin"]) == (
        2,
        1,
        "a",
        1,
    )


def test_odds_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "odds tunnels --dice 3 --threshold 2 --explode never --json")
    assert r.status == 0
    data = r.json()
    assert set(data) == {"system", "p_success", "p_exceptional", "p_critical", "successes", "exact"}
    assert data["p_success"] == 0.5
    assert data["exact"]["p_success"] == "1/2" and data["exact"]["successes"]["3"] == "1/8"
    assert data["successes"] == {"0": 0.125, "1": 0.375, "2": 0.375, "3": 0.125}
    r = run(capsys, "odds tunnels --dice 3 --threshold 2 --blessed --explode never")
    assert "20/27" in r.out
    r = run(capsys, "odds tunnels --dice 3 --threshold moyenne --explode never --json")
    assert r.json()["p_success"] == 0.5
    r = run(capsys, "odds tunnels --dice 3 --vs 2 --json")
    assert r.status == 0 and abs(sum(r.json()[k] for k in ("p_a", "p_b", "p_tie")) - 1) < 1e-12


def test_T10_fight_json(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(
        capsys,
        "fight tunnels --dice 4 --endurance 8 --vs-mr 3 --faces 1,1,4,6,4,5,6,2 "
        "--vs-faces 2,3,5,1,2 --explode never --json",
    )
    assert r.status == 0, r.err
    data = r.json()
    assert data["winner"] == "a"
    assert [round_["b_after"]["mr"] for round_ in data["rounds"]] == [2, 0]
    assert data["rounds"][1]["b"]["batches"] == [[1, 2]]
    r = run(capsys, "fight tunnels --dice 4 --endurance 8 --vs-mr 3 --seed 3")
    assert r.status == 0 and "MR" in r.out


def test_T1_character_new_and_test_from_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "aria.json"
    r = run(capsys, "character new tunnels Aria --seed 5 --out {path}", path=str(path))
    assert r.status == 0 and "Endurance" in r.out
    kept = path.read_bytes()  # a second character is not written over it without --force
    again = run(capsys, "character new tunnels Bea --seed 6 --out {path}", path=str(path))
    assert again.status == 2 and "--force" in again.err and path.read_bytes() == kept
    sheet = json.loads(path.read_text(encoding="utf-8"))
    dex = sheet["characteristics"]["Dextérité"]
    r = run(
        capsys,
        "test tunnels --sheet {path} --trait dexterite --threshold 2 --seed 1 --json",
        path=str(path),
    )
    assert r.status == 0, r.err
    assert len(r.json()["batches"][0]) == dex


def test_T13_spell_spends_mana_on_the_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6")
    r = run(capsys, "test tunnels --sheet {path} --spell Flammèche --seed 2 --json", path=str(path))
    assert r.status == 0, r.err
    assert r.json()["mana"] == 4
    assert json.loads(path.read_text(encoding="utf-8"))["mana"]["current"] == 4


def test_T13_a_spell_and_another_trait_are_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-13: a spell is cast with its own trait; ``--trait Force`` beside it was ignored
    (the spell's trait rolled, Mana spent): refused, the sheet untouched. The spell's own
    trait, typed as players type it, is accepted."""
    path = new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6")
    before = path.read_bytes()
    r = run(capsys, "test tunnels --sheet {path} --spell Flammèche --trait Force", path=str(path))
    assert r.status == 2 and "--trait Force" in r.err and path.read_bytes() == before
    own = run(
        capsys,
        "test tunnels --sheet {path} --spell Flammèche --trait intelligence --seed 2 --json",
        path=str(path),
    )
    assert own.status == 0, own.err


def test_T9_an_opposition_has_no_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    """T-9: who wins reads no threshold; ``odds --vs`` ignored ``--threshold``."""
    r = run(capsys, "odds tunnels --dice 3 --vs 2 --threshold 2")
    assert r.status == 2 and "T-9" in r.err and "--threshold" in r.err


def test_T9_options_an_odds_query_would_ignore_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-9's --reroll-ties on a test (no tie to roll again), and T-7's --sixes all in an
    opposition (three 6s decide none) were accepted and changed nothing."""
    ties = run(capsys, "odds tunnels --dice 3 --threshold 2 --reroll-ties")
    assert ties.status == 2 and "--reroll-ties" in ties.err and "--vs" in ties.err
    sixes = run(capsys, "odds tunnels --dice 3 --vs 2 --sixes all")
    assert sixes.status == 2 and "--sixes" in sixes.err
    assert run(capsys, "odds tunnels --dice 3 --vs 2 --reroll-ties").status == 0
    assert run(capsys, "odds tunnels --dice 3 --threshold 2 --sixes all").status == 0


def test_T12_chance_from_the_sheet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6")
    r = run(
        capsys,
        "test tunnels --sheet {path} --trait Force --threshold 1 --faces 1,2,6 "
        "--explode never --chance 2 --json",
        path=str(path),
    )
    assert r.status == 0, r.err
    assert r.json()["chance_spent"] == 1 and r.json()["passed"]
    assert json.loads(path.read_text(encoding="utf-8"))["chance"]["current"] == 3


BAD = [
    ("test", "tunnels", "--dice", "0", "--threshold", "1"),
    ("test", "tunnels", "--dice", "-3", "--threshold", "1"),
    ("test", "tunnels", "--dice", "10000", "--threshold", "1"),
    ("test", "tunnels", "--dice", "3", "--threshold", "0"),
    ("test", "tunnels", "--dice", "3", "--threshold", "2", "--explode", "sometimes"),
    (
        "test",
        "tunnels",
        "--dice",
        "4",
        "--threshold",
        "5",
        "--faces",
        "2,2,2,5",
        "--explode",
        "always",
    ),
    ("test", "tunnels", "--dice", "3", "--threshold", "2", "--faces", "4,5"),
    ("test", "tunnels", "--dice", "3", "--threshold", "2", "--faces", "4,5,6,6"),
    ("test", "tunnels", "--dice", "3", "--threshold", "impossible"),
    ("test", "tunnels", "--dice", "3"),
    ("oppose", "tunnels", "--dice", "4", "--vs", "3", "--faces", "1,1,4,6", "--vs-faces", "2,3"),
    ("oppose", "tunnels", "--dice", "0", "--vs", "3"),
    ("odds", "tunnels", "--dice", "10000", "--threshold", "1"),
    ("odds", "tunnels", "--dice", "3", "--threshold", "1", "--explode", "sometimes"),
    ("fight", "tunnels", "--dice", "4", "--vs-mr", "3"),
    ("fight", "tunnels", "--dice", "4", "--endurance", "8"),
    ("fight", "tunnels", "--dice", "4", "--endurance", "8", "--vs-mr", "0"),
    (
        "test",
        "tunnels",
        "--sheet",
        "/nonexistent/sheet.json",
        "--trait",
        "Force",
        "--threshold",
        "1",
    ),
    ("character", "new", "tunnels", "  "),
]


@pytest.mark.parametrize("args", BAD, ids=" ".join)
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    r = invoke(capsys, *args)
    assert r.status == 2
    assert "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert r.out == ""


def test_short_faces_say_how_many_are_missing(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "test tunnels --dice 4 --threshold 5 --faces 2,2,2,5 --explode always")
    assert r.status == 2 and "2" in r.err and "manquent" in r.err


def test_bad_sheet_trait(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = new_aria(capsys, tmp_path, "--seed 1")
    r = run(capsys, "test tunnels --sheet {path} --trait Agilité --threshold 1", path=str(path))
    assert r.status == 2 and "Agilité" in r.err


def test_T5_odds_of_many_dice_read_in_french_and_keep_their_exact_values_in_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-5: 12 exploding dice. Past 40 characters the table says where the exact value is
    (it used to cut it with « … »); the JSON carries it whole, equal to the engine's."""
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams

    r = run(capsys, "--lang fr odds tunnels --dice 12 --threshold 6 --explode always")
    assert r.status == 0 and r.err.strip() == ""  # no bar for a fraction of a second
    assert "28,77" in r.out and "28.77" not in r.out
    assert "chiffres : voir --json" in r.out and "…" not in r.out
    table = r.out.split("Réussites ┃")[1]  # the successes table, below the verdicts
    rows = [line.split("│")[1].strip() for line in table.splitlines() if line.startswith("│")]
    r = run(capsys, "odds tunnels --dice 12 --threshold 6 --explode always --json")
    data = r.json()
    law = test_odds(TestParams(dice=12, threshold=6, explode="always"))
    p = law.p_where(lambda k: k[0] >= 6 and not k[2])
    assert Fraction(data["exact"]["p_success"]) == p
    # the counts under 0.005 % (0, 1, 2 and the long tail up to 66) share one row
    every = {int(k): Fraction(v) for k, v in data["exact"]["successes"].items()}
    rare = [k for k, v in every.items() if v < Fraction(1, 20_000)]
    assert rows[:-1] == [str(k) for k in sorted(every) if k not in rare]
    assert rows[-1] == f"{len(rare)} autres valeurs" and {0, 1, 2, max(every)} <= set(rare)
    assert sum(every.values()) == 1 and len(rows) < 25 < len(every)


def test_T10_fight_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "fight tunnels --dice 1 --endurance 1 --vs-mr 1 --explode never --odds --json")
    assert r.status == 0 and r.json()["p_win"] == 0.75
    r = run(capsys, "fight tunnels --dice 1 --endurance 1 --vs-dice 1 --vs-endurance 1 --odds")
    assert r.status == 2 and len(r.err.strip().splitlines()) == 1


def test_T4_T6_T9_fight_odds_take_every_option_of_the_fight(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-4/T-6/T-9: ``fight --odds`` reads the fight the command would play: each side's
    mode and explosion policy change the odds as the exact engine says; a tie rolled
    again (T-9's option) changes nothing, so its odds equal a tie that counts."""
    from meneur.systems.tunnels.combat_odds import p_win_against_monster

    base = "fight tunnels --dice 3 --endurance 4 --vs-mr 3 --odds --json"
    plain = run(capsys, base).json()["p_win"]
    blessed = run(capsys, base + " --blessed --vs-explode always").json()["p_win"]
    expected = p_win_against_monster(3, 4, 3, blessed=True, vs_explode="always")
    assert blessed == float(expected) and blessed > plain
    cursed = run(capsys, base + " --vs-blessed").json()["p_win"]
    assert cursed == float(p_win_against_monster(3, 4, 3, vs_blessed=True)) < plain
    assert run(capsys, base + " --tie reroll").json()["p_win"] == plain


def test_T11_fight_saves_wounds_to_the_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-11: after a lost exchange the sheet keeps the Endurance left (and the wound)."""
    path = new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6")
    # Force 2, Endurance 6: loses 2 points, then wins by 2 against MR 2
    r = run(
        capsys,
        "fight tunnels --sheet {path} --vs-mr 2 --explode never --faces 1,2,4,5 "
        "--vs-faces 4,5,1,3 --save --json",
        path=str(path),
    )
    assert r.status == 0, r.err
    sheet = json.loads(path.read_text(encoding="utf-8"))
    assert sheet["endurance"]["current"] == r.json()["a"]["endurance"] == 4
    assert sheet["wounded"] is False and sheet["dead"] is False


def test_T11_a_toml_sheet_saved_after_a_fight_stays_the_users_toml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-11: ``--save`` on a TOML sheet writes TOML (it wrote JSON into the ``.toml``, which
    then no longer loaded), the Endurance changed in place and every comment kept."""
    aria = json.loads(new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6").read_text("utf-8"))
    lines = ["# Aria, by hand", 'system = "tunnels"', "name = 'Aria'  # literal"]
    lines += [
        f"{k} = {{ current = {v['current']}, max = {v['max']} }}"
        for k, v in aria.items()
        if k in ("endurance", "mana", "chance")
    ]
    lines += ["", "[characteristics]", "# her six scores"]
    lines += [f'"{k}" = {v}' for k, v in aria["characteristics"].items()]
    path = tmp_path / "aria.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run(
        capsys,
        "fight tunnels --sheet {path} --vs-mr 2 --explode never --faces 1,2,4,5 "
        "--vs-faces 4,5,1,3 --save --json",
        path=str(path),
    )
    assert r.status == 0, r.err
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Aria, by hand\n") and "# her six scores" in text
    assert "name = 'Aria'  # literal" in text and "endurance = { current = 4, max = 6 }" in text
    assert read_sheet(path)["endurance"] == {"current": 4, "max": 6}


def test_T11_a_sheet_with_Endurance_above_its_maximum_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-11: the maximum is what a wounded character recovers, so current above it is a
    broken sheet, said in one line that names the field (as for Obscur's resources)."""
    path = new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6")
    sheet = json.loads(path.read_text(encoding="utf-8"))
    sheet["endurance"]["current"] = sheet["endurance"]["max"] + 1
    path.write_text(json.dumps(sheet), encoding="utf-8")
    r = run(capsys, "test tunnels --sheet {path} --trait Force --threshold 1", path=str(path))
    assert r.status == 2 and "Traceback" not in r.err
    assert "(Endurance :" in r.err and "dépasse le maximum" in r.err


def test_T11_a_dead_character_rolls_no_test(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-11: dead at 0 Endurance while wounded, the character rolls no more tests: the
    test from the sheet is refused in one line, as a fight with it already was."""
    path = new_aria(capsys, tmp_path, "--faces 1,3,5,2,4,6")
    sheet = json.loads(path.read_text(encoding="utf-8"))
    sheet.update(wounded=True, dead=True)
    sheet["endurance"]["current"] = 0
    path.write_text(json.dumps(sheet), encoding="utf-8")
    r = run(capsys, "test tunnels --sheet {path} --trait Force --threshold 1", path=str(path))
    assert r.status == 2 and r.out == ""
    assert "Aria est mort (T-11)" in r.err and len(r.err.strip().splitlines()) == 1


def test_short_faces_name_the_side(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "oppose tunnels --dice 4 --vs 3 --faces 1,1,4,6 --vs-faces 2,3")
    assert r.status == 2 and "--vs-faces" in r.err and "1" in r.err


def test_provisional_tables_are_shown_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    """T-3 / T-10: named levels (but moyenne) and gear come from tables provisoires."""
    r = run(capsys, "test tunnels --dice 3 --threshold difficile --seed 1")
    assert r.status == 0 and "table provisoire" in r.out
    r = run(capsys, "test tunnels --dice 3 --threshold moyenne --seed 1")
    assert "table provisoire" not in r.out
    r = run(capsys, "fight tunnels --dice 3 --endurance 6 --vs-mr 2 --weapon épée --seed 1")
    assert r.status == 0 and "table provisoire" in r.out
    r = run(capsys, "fight tunnels --dice 3 --endurance 6 --vs-mr 2 --weapon bazooka")
    assert r.status == 2 and "bazooka" in r.err


def test_T12_chance_all_option(capsys: pytest.CaptureFixture[str]) -> None:
    """T-12 option: one Chance rerolls every failed die."""
    r = run(
        capsys,
        "test tunnels --dice 3 --threshold 3 --faces 1,2,4,5,6 --explode never "
        "--chance 1 --chance-all --json",
    )
    assert r.status == 0, r.err
    assert r.json()["batches"] == [[5, 6, 4]] and r.json()["chance_spent"] == 1


def test_T9_reroll_ties_option(capsys: pytest.CaptureFixture[str]) -> None:
    """T-9 option: a tie is rolled again; the odds then count decisive exchanges only."""
    r = run(
        capsys,
        "oppose tunnels --dice 2 --vs 2 --faces 4,1,5,6 --vs-faces 5,2,1,3 --reroll-ties --json",
    )
    assert r.status == 0, r.err
    data = r.json()
    assert data["ties_rerolled"] == 1 and data["winner"] == "a" and data["a"]["batches"] == [[5, 6]]
    r = run(capsys, "odds tunnels --dice 1 --vs 1 --explode never --reroll-ties --json")
    assert r.json() == {
        "system": "tunnels",
        "p_a": 0.5,
        "p_b": 0.5,
        "p_tie": 0.0,
        "exact": {"p_a": "1/2", "p_b": "1/2", "p_tie": "0"},
    }


def test_T9_opposition_odds_at_every_pool_a_side_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-9: ``never`` sides do not look at each other: 20 against 20 is symmetric (a and b
    win alike). ``needed`` sides do, and who wins is still exact past the joint walk's
    bound (``MAX_OPPOSED_ODDS_DICE``), read from each side's trajectory: the same
    fractions as ``who_wins``. Past a side's own bound (60), exit 2 with the reason."""
    from meneur.systems.tunnels.odds import MAX_OPPOSED_ODDS_DICE, who_wins
    from meneur.systems.tunnels.rules import OpposedParams, Side

    r = run(capsys, "odds tunnels --dice 20 --vs 20 --explode never --json")
    assert r.status == 0
    data = json.loads(r.out)
    assert data["p_a"] == data["p_b"] and 0 < data["p_tie"] < 1
    over = MAX_OPPOSED_ODDS_DICE + 6
    r = run(capsys, f"odds tunnels --dice 4 --vs {over} --cursed --json")
    assert r.status == 0, r.err
    exact = json.loads(r.out)["exact"]
    a, b, tie = who_wins(OpposedParams(Side(4, cursed=True), Side(over)))
    assert (exact["p_a"], exact["p_b"], exact["p_tie"]) == (str(a), str(b), str(tie))
    r = run(capsys, "odds tunnels --dice 4 --vs 61 --explode never")
    assert r.status == 2 and "60" in r.err


def test_odds_vs_builds_the_whole_laws_of_always_sides_under_one_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``odds tunnels --vs`` with ``always`` builds each mode's whole law once, for its
    largest side, where the bar can follow it (60 dice a side: seconds); ``never`` and
    ``needed`` sides build none. The odds are those of the opposition itself."""
    from meneur.systems.tunnels import odds
    from meneur.systems.tunnels.rules import OpposedParams, Side

    built: list[tuple[int, str, str]] = []
    real = odds.prepare_whole_law

    def recording(params: Any, progress: Any) -> None:
        built.append((params.dice, params.mode, params.explode))
        real(params, progress)

    monkeypatch.setattr(odds, "prepare_whole_law", recording)
    r = run(capsys, "odds tunnels --dice 7 --vs 9 --explode always --json")
    assert r.status == 0, r.err
    assert built == [(9, "normal", "always")]
    law = odds.winner_odds(OpposedParams(Side(7, explode="always"), Side(9, explode="always")))
    assert Fraction(r.json()["exact"]["p_a"]) == law.p_where(lambda k: k[0] == "a")
    built.clear()
    r = run(capsys, "odds tunnels --dice 7 --vs 9 --explode always --blessed --json")
    assert r.status == 0 and built == [(7, "blessed", "always"), (9, "normal", "always")]
    built.clear()
    assert run(capsys, "odds tunnels --dice 7 --vs 9 --explode never").status == 0
    assert built == []


def test_odds_vs_builds_the_trajectories_of_needed_sides_under_one_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``odds tunnels --vs`` with ``needed`` builds each side's trajectory once (a
    blessed side and a normal one: two), under one bar whose forecast is all their
    work; the bar is told every unit of it (60 dice a side: ~11 s)."""
    from meneur.systems.tunnels import chase

    chase.clear_caches()
    bars = recorded_bars(monkeypatch)
    r = run(capsys, "odds tunnels --dice 12 --vs 16 --blessed --json")
    assert r.status == 0, r.err
    (bar,) = bars
    work = sum(chase.side_work(12, "needed")) + sum(chase.side_work(16, "needed"))
    assert bar.total == bar.done == work
    assert set(chase._SIDES) == {(12, 3, "needed"), (16, 4, "needed")}


@pytest.mark.parametrize("policy", ["needed", "always"])
def test_odds_of_one_test_report_every_level_to_its_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], policy: str
) -> None:
    """T-6: ``needed`` at a high threshold keeps long polynomials to the last level (60
    dice at threshold 1,000: 15 s, 45 s under ``--sixes all``), so ``odds tunnels``
    gives it a bar as it gives ``always`` one; the bar is told all the work it was
    promised, and the law is the one :func:`test_odds` gives without a bar."""
    from meneur.systems.tunnels.odds import clear_caches, test_odds
    from meneur.systems.tunnels.rules import TestParams

    clear_caches()  # a law already built has no work left to report
    bars = recorded_bars(monkeypatch)
    r = run(capsys, f"odds tunnels --dice 12 --threshold 40 --explode {policy} --json")
    assert r.status == 0, r.err
    (bar,) = bars
    assert bar.done == bar.total > 1
    law = test_odds(TestParams(12, 40, explode=policy))  # type: ignore[arg-type]
    expected = law.p_where(lambda k: k[0] >= 40 and not k[2])
    assert r.json()["exact"]["p_success"] == fraction_text(expected)


def test_fight_odds_with_an_answer_of_tens_of_thousands_of_digits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-10: the exact chance of a long fight is a fraction of tens of thousands of
    digits (40 dice a side: ~70,000 each way); written whole in JSON and as one line in
    the terminal, where Python's ``str`` raised a ValueError past 4,300 digits (a
    traceback)."""
    import sys

    args = "fight tunnels --odds --dice 40 --endurance 20 --vs-mr 40 --explode never"
    r = run(capsys, args + " --json")
    assert r.status == 0, r.err
    data = r.json()
    numerator, denominator = data["exact"]["p_win"].split("/")
    assert len(numerator) > 4300 and len(denominator) > 4300
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        p = Fraction(int(numerator), int(denominator))
        q = Fraction(data["exact"]["p_lose"])
    finally:
        sys.set_int_max_str_digits(previous)
    assert p + q == 1 and abs(float(p) - data["p_win"]) < 1e-12
    text = run(capsys, args)
    assert text.status == 0 and f"{float(p) * 100:.2f}".replace(".", ",") in text.out


def test_T8_T10_a_fight_that_reaches_the_round_cap_is_shown_as_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-8/T-10: 60 dice a side roll three 1s nearly every exchange, so a fight of
    Endurance 10,000 reaches the 1,000-round cap: every round is shown, the fight says it
    stopped with both standing, and the command succeeds (it threw all away, exit 2)."""
    args = "fight tunnels --dice 60 --endurance 10000 --vs-mr 60 --seed 1"
    r = run(capsys, args + " --json")
    assert r.status == 0, r.err
    data = r.json()
    assert data["finished"] is False and data["winner"] is None
    counted = [round_ for round_ in data["rounds"] if not round_.get("rerolled")]
    assert len(counted) == 1000 and data["a"]["endurance"] > 0
    text = run(capsys, args)
    assert text.status == 0 and "Arrêté après 1000 rounds" in text.out


def test_T9_ties_that_never_break_show_the_last_exchange(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-9 option (ties rolled again): 60 dice a side that always explode both roll
    three 1s (T-8) nearly every time; after 1,000 ties rolled again the last exchange is
    shown as a tie, where the command failed and showed nothing."""
    args = "oppose tunnels --dice 60 --vs 60 --explode always --reroll-ties --seed 1"
    r = run(capsys, args + " --json")
    assert r.status == 0, r.err
    assert r.json()["ties_rerolled"] == 1000 and r.json()["winner"] is None
    text = run(capsys, args)
    assert text.status == 0 and "Toujours à égalité après 1001 échanges" in text.out


@pytest.mark.parametrize("panel", ["normal/needed", "normal/always"])
def test_a_distribution_of_one_heavy_cell_reports_to_its_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], panel: str
) -> None:
    """T-6: ``table --kind distribution`` of one cell (60 dice at threshold 1,000: about
    15 s) built its law in silence; it is built first under a bar told all its work, then
    read from the cache, equal to the law computed without a bar."""
    from meneur.systems.tunnels import odds
    from meneur.systems.tunnels.rules import TestParams

    odds.clear_caches()
    bars = recorded_bars(monkeypatch)
    r = run(
        capsys, f"table tunnels --kind distribution --rows 12 --cols 40 --panels {panel} --json"
    )
    assert r.status == 0, r.err
    (bar,) = bars
    assert bar.done == bar.total > 1
    assert not odds._PREPARED  # handed to test_odds's cache, not kept twice
    shown = {row["outcome"]: row["exact"] for row in r.json()["distribution"]}
    odds.clear_caches()
    law = odds.test_odds(TestParams(12, 40, explode=panel.split("/")[1]))  # type: ignore[arg-type]
    total = sum(w for k, w in law.items() if not k[2] and k[0] == 5)
    assert (
        shown["5"]
        == f"{Fraction(total, law.total).numerator}/{Fraction(total, law.total).denominator}"
    )


@pytest.mark.parametrize(("typed", "said"), [("-3", "pas -3"), ("0", "pas 0"), ("+2", None)])
def test_T3_a_signed_threshold_is_a_number_out_of_bounds_not_an_unknown_level(
    capsys: pytest.CaptureFixture[str], typed: str, said: str | None
) -> None:
    """T-3: ``--threshold -3`` said « ni un nombre ni un niveau » where 0 said the bounds;
    a signed number is read as a number, and its bounds are said."""
    r = run(capsys, f"odds tunnels --dice 3 --threshold {typed} --json")
    if said is None:
        assert (
            r.status == 0
            and r.json() == run(capsys, "odds tunnels --dice 3 --threshold 2 --json").json()
        )
    else:
        assert r.status == 2 and said in r.err and "niveau" not in r.err


def test_T12_chance_says_what_it_changed(capsys: pytest.CaptureFixture[str]) -> None:
    """T-12: the JSON of a test saved by Chance gives the roll before and each die
    rerolled (it gave only the Chance spent); under the option ``--chance-all`` the note
    says that a point rerolls every failed die, not one."""
    args = "test tunnels --dice 3 --threshold 3 --explode never --chance 2 --chance-all"
    data = run(capsys, f"{args} --faces 1,2,4,1,5,6 --json").json()
    assert (data["successes"], data["chance_spent"], data["first"]["successes"]) == (3, 2, 1)
    assert [(d["from"], d["to"]) for d in data["rerolled"]] == [(1, 1), (2, 5), (1, 6)]
    said = run(capsys, f"{args} --faces 1,2,4,1,5,6").out
    assert "1 point de Chance relance tous les dés ratés" in " ".join(said.split())


def test_T4_T9_the_other_side_of_an_odds_query_may_be_blessed_or_cursed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``oppose`` and ``fight`` took --vs-blessed and --vs-cursed, ``odds --vs`` did not,
    so such an opposition's odds could not be asked. Without explosions the sides are
    independent: 3 dice against 2 cursed is 2 cursed against 3 seen from the other side."""
    import json

    def exact(args: str) -> dict[str, Fraction]:
        done = run(capsys, f"odds tunnels {args} --explode never --json")
        assert done.status == 0, done.err
        return {k: Fraction(v) for k, v in json.loads(done.out)["exact"].items()}

    against_cursed = exact("--dice 3 --vs 2 --vs-cursed")
    seen_from_b = exact("--dice 2 --cursed --vs 3")
    assert against_cursed["p_a"] == seen_from_b["p_b"]
    assert against_cursed["p_tie"] == seen_from_b["p_tie"]
    assert against_cursed["p_a"] > exact("--dice 3 --vs 2")["p_a"]
    title = run(capsys, "odds tunnels --dice 3 --vs 2 --blessed --vs-cursed").out
    assert "3d6 béni contre 2d6 maudit" in title
    refused = run(capsys, "odds tunnels --dice 3 --threshold 2 --vs-blessed")
    assert refused.status == 2 and "--vs" in refused.err


def test_T11_a_pool_above_its_maximum_says_its_values_and_how_to_fix_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-11 (a pool's maximum is a cap): a sheet saved with Endurance 30 of 12 was refused
    with « les points actuels dépassent le maximum », naming neither the values nor the
    way out."""
    path = new_aria(capsys, tmp_path, "--seed 1")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["endurance"] = {"current": 30, "max": 12}
    path.write_text(json.dumps(data), encoding="utf-8")
    r = run(capsys, "test tunnels --sheet {path} --trait Force", path=str(path))
    assert r.status == 2
    assert (
        "(Endurance : la valeur actuelle, 30, dépasse le maximum, 12 ; baissez-la ou relevez "
        "le maximum)." in r.err
    ), r.err
    english = run(capsys, "--lang en test tunnels --sheet {path} --trait Force", path=str(path))
    assert (
        "(Endurance: the current value, 30, is above the maximum, 12; lower it or raise the "
        "maximum)." in english.err
    )
