"""Simulation: vectorised fights equal the scalar fight; Monte Carlo agrees with exact odds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_helpers import invoke, recorded_bars, started_bars
from meneur.errors import MeneurError
from meneur.lab.simulate import run_chunks
from meneur.odds.montecarlo import agrees
from meneur.systems.tunnels.combat import against_monster
from meneur.systems.tunnels.lab import tunnels_fights, tunnels_test_chunk


def test_monte_carlo_test_agrees_with_exact_odds() -> None:
    """Tunnels tests sampled in chunks match the exact odds (4 sigmas)."""
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams

    for params in (
        TestParams(dice=5, threshold=3, explode="never"),
        TestParams(dice=5, threshold=3, explode="always"),
        TestParams(dice=4, threshold=2, blessed=True, explode="needed", sixes="all"),
    ):
        tally = run_chunks(
            200_000, tunnels_test_chunk(params), seed=3, chunk=50_000, progress=False
        )
        dist = test_odds(params)
        exact = dist.p_where(lambda k, t=params.threshold: k[0] >= t and not k[2])
        assert agrees(exact, tally.counts["passed"], tally.runs)
        assert agrees(dist.p_where(lambda k: k[2]), tally.counts["critical"], tally.runs)
        assert agrees(dist.p_where(lambda k: k[1]), tally.counts["exceptional"], tally.runs)


def test_monte_carlo_one_round_fight_agrees_with_exact_opposition() -> None:
    """A fight cut after one round is won as often as the exact opposition says (T-9)."""
    from meneur.systems.tunnels.odds import winner_odds
    from meneur.systems.tunnels.rules import OpposedParams, Side

    fight = against_monster(3, 100, 1, max_rounds=1)
    tally = run_chunks(
        200_000, lambda rng, n: tunnels_fights(fight, rng, n), seed=9, progress=False
    )
    exact = winner_odds(OpposedParams(Side(3), Side(1))).p_where(lambda k: k[0] == "a")
    assert agrees(exact, tally.counts["won"], tally.runs)


def test_chunks_are_reproducible_and_bounded() -> None:
    fight = against_monster(4, 8, 3)
    one = run_chunks(
        30_000, lambda rng, n: tunnels_fights(fight, rng, n), seed=1, chunk=7_000, progress=False
    )
    two = run_chunks(
        30_000, lambda rng, n: tunnels_fights(fight, rng, n), seed=1, chunk=7_000, progress=False
    )
    assert one.runs == 30_000 and one.counts == two.counts


def test_ctrl_c_returns_the_partial_result() -> None:
    calls = []

    def chunk(rng: np.random.Generator, n: int):  # type: ignore[no-untyped-def]
        from meneur.lab.simulate import Tally

        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return Tally(runs=n, counts={"won": n})

    tally = run_chunks(100, chunk, chunk=10, progress=False)
    assert tally.interrupted and tally.runs == 20


def test_simulate_fight_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "fight.png"
    result = invoke(
        capsys,
        "simulate",
        "fight",
        "tunnels",
        "--dice",
        "4",
        "--endurance",
        "8",
        "--vs-mr",
        "3",
        "--runs",
        "20000",
        "--seed",
        "1",
        "--json",
        "--plot",
        str(png),
    )
    assert result.status == 0, result.err
    data = result.json()
    assert data["runs"] == 20000
    low, high = data["win_interval_95"]
    assert low <= data["win_rate"] <= high
    assert abs(sum(data["rounds"]["distribution"].values()) - 1) < 1e-9
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_simulate_test_json_shows_exact_beside(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(
        capsys,
        "simulate",
        "test",
        "tunnels",
        "--dice",
        "3",
        "--threshold",
        "2",
        "--explode",
        "never",
        "--runs",
        "10000",
        "--seed",
        "2",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert data["exact"] == pytest.approx(0.5)
    assert Fraction(data["exact_fraction"]) == Fraction(1, 2)


@pytest.mark.parametrize(
    "args",
    [
        (
            "simulate",
            "fight",
            "tunnels",
            "--dice",
            "4",
            "--endurance",
            "8",
            "--vs-mr",
            "3",
            "--runs",
            "0",
        ),
        ("simulate", "fight", "tunnels", "--dice", "4", "--vs-mr", "3"),
        (
            "simulate",
            "fight",
            "tunnels",
            "--dice",
            "4",
            "--endurance",
            "8",
            "--vs-mr",
            "3",
            "--runs",
            "99999999999999",
        ),
        ("simulate", "fight", "krasses", "--dice", "4", "--endurance", "8", "--vs-mr", "3"),
        ("simulate", "fight", "legendes", "--dice", "3", "--vs-level", "dragon"),
        ("simulate", "fight", "legendes", "--dice", "3"),
        ("simulate", "fight", "legendes", "--dice", "3", "--vs-level", "elite", "--modifier", "1"),
        (
            "simulate",
            "fight",
            "tunnels",
            "--dice",
            "4",
            "--endurance",
            "8",
            "--vs-mr",
            "3",
            "--plot",
            "a.gif",
        ),
        ("simulate", "test", "tunnels", "--dice", "400", "--threshold", "2"),
        # T-9: an opposition has no threshold; --threshold named the other side's dice
        ("simulate", "test", "tunnels", "--check", "oppose", "--dice", "4", "--threshold", "1"),
    ],
)
def test_simulate_bad_input(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    result = invoke(capsys, *args)
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "Traceback" not in result.err


@pytest.mark.parametrize("group", ["fight", "policy"])
def test_simulate_groups_list_the_systems_that_register_one(
    group: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``simulate fight|policy`` hold what each system registers; Krâsses offers none
    (issue 14), and is refused as an unknown command."""
    from meneur.systems.registry import SYSTEMS

    listed = invoke(capsys, "--lang", "en", "simulate", group, "--help")
    assert listed.status == 0, listed.err
    commands = listed.out.split("Commands:")[1].split()
    offered = [system.name for system in SYSTEMS if system.name in commands]
    assert offered == ["tunnels", "obscur", "legendes"]
    refused = invoke(capsys, "--lang", "en", "simulate", group, "krasses", "--dice", "4")
    assert refused.status == 2
    assert refused.err.strip() == "Error: Unknown command: krasses"


@pytest.mark.parametrize("group", ["sweep", "test"])
def test_simulate_sweep_and_test_are_offered_by_every_system(
    group: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every system registers a sweep and a test of its table cells (Krâsses included)."""
    listed = invoke(capsys, "--lang", "en", "simulate", group, "--help")
    assert listed.status == 0, listed.err
    commands = listed.out.split("Commands:")[1].split()
    assert {"tunnels", "obscur", "krasses", "legendes"} <= set(commands)


def test_simulate_sweep_krasses_takes_no_fight_option(capsys: pytest.CaptureFixture[str]) -> None:
    """Krâsses has no fight to sweep: a fight's option is refused, not ignored."""
    refused = invoke(capsys, "--lang", "en", "simulate", "sweep", "krasses", "--vs-mr", "2")
    assert refused.status == 2
    assert refused.err.strip() == "Error: Unknown option --vs-mr."


def test_simulate_fight_takes_only_its_systems_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An Obscur option given to the Tunnels fight is refused, not silently ignored."""
    args = ("--dice", "4", "--endurance", "8", "--vs-mr", "3", "--a", "x.toml", "--runs", "10")
    result = invoke(capsys, "--lang", "en", "simulate", "fight", "tunnels", *args)
    assert result.status == 2
    assert result.err.strip() == "Error: Unknown option --a."


@pytest.mark.parametrize(
    "args",
    [
        ("tunnels", "--row", "4", "--col", "2", "--panel", "blessed/always"),
        ("tunnels", "--check", "oppose", "--row", "3", "--col", "2", "--panel", "needed"),
        ("obscur", "--row", "4", "--col", "2"),
        ("obscur", "--row", "3", "--col", "2", "--variant", "scoring=zero-skill,dice=1"),
        ("krasses", "--row", "5", "--col", "15"),
        ("legendes", "--row", "2", "--col", "elite", "--panel", "-2"),
    ],
)
def test_monte_carlo_agrees_with_exact_for_every_system(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """One cell of each system's table, simulated: within 4 sigmas of its exact odds."""
    result = invoke(capsys, "simulate", "test", *args, "--runs", "200000", "--seed", "4", "--json")
    assert result.status == 0, result.err
    data = result.json()
    hits = round(data["success_rate"] * data["runs"])
    assert agrees(Fraction(data["exact_fraction"]), hits, data["runs"])


def test_simulate_test_without_a_vectorised_resolve(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table's check has a vectorised resolve now; one without is a clear error."""
    from meneur.systems.krasses.rules import KrassesOppose

    args = ("simulate", "test", "krasses", "--check", "oppose", "--row", "1", "--col", "2")
    result = invoke(capsys, *args, "--runs", "20000", "--seed", "1", "--json")
    assert result.status == 0, result.err
    data = result.json()
    low, high = data["success_interval_95"]
    assert low - 0.01 <= data["exact"] <= high + 0.01
    monkeypatch.setattr(KrassesOppose, "vectorised", lambda self, params: None)
    result = invoke(capsys, *args)
    assert result.status == 2 and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_L8_one_roll_conflict_agrees_with_exact_odds() -> None:
    """L-8/L-14: against an élite, one roll puts it out on a definitive or partial win."""
    from meneur.systems.legendes.lab import LegendesConflict, legendes_conflicts
    from meneur.systems.legendes.odds import opposed_odds
    from meneur.systems.legendes.rules import OpposedParams

    conflict = LegendesConflict(2, "elite", max_rolls=1)
    tally = run_chunks(
        200_000, lambda rng, n: legendes_conflicts(conflict, rng, n), seed=2, progress=False
    )
    dist = opposed_odds(OpposedParams(dice=2, vs_dice=1, vs_level="elite"))
    assert agrees(dist.p("win:definitive") + dist.p("win:partial"), tally.counts["won"], tally.runs)
    assert agrees(dist.p("loss:definitive"), tally.counts["dead"], tally.runs)


def test_L5_commoners_are_swept_in_a_conflict() -> None:
    from meneur.systems.legendes.lab import LegendesConflict, legendes_conflicts

    tally = legendes_conflicts(LegendesConflict(1, "commun"), np.random.default_rng(1), 100)
    assert tally.counts["won"] == 100 and tally.histograms["rounds"] == {1: 100}


def test_simulate_fight_legendes_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(
        capsys,
        "simulate",
        "fight",
        "legendes",
        "--dice",
        "3",
        "--vs-level",
        "heroique",
        "--runs",
        "20000",
        "--seed",
        "3",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert data["runs"] == 20000 and 0.9 < data["win_rate"] <= 1
    low, high = data["win_interval_95"]
    assert low <= data["win_rate"] <= high


def test_simulate_fight_obscur_json(capsys: pytest.CaptureFixture[str]) -> None:
    """O-11..O-22: the system's own fight, many times: rates, interval, rounds."""
    result = invoke(
        capsys,
        "simulate",
        "fight",
        "obscur",
        "--a",
        "examples/obscur/garance.toml",
        "--b",
        "examples/obscur/corbeau.toml",
        "--runs",
        "200",
        "--seed",
        "5",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert data["runs"] == 200
    assert data["win_rate"] + data["loss_rate"] + data["unfinished"] / 200 == pytest.approx(1)
    assert data["win_interval_95"][0] <= data["win_rate"] <= data["win_interval_95"][1]


def test_simulate_fight_obscur_vectorised_agrees_with_the_systems_fight(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The numpy duels and the system's own fight (fed by numpy) give the same win rate.

    (Their dice differ, so the two estimates agree within their intervals, not exactly;
    the conformance suite checks the same faces give the same fights.)
    """
    from meneur.lab.simulate import run_chunks
    from meneur.systems.obscur.combat import FightParams, fighter_of
    from meneur.systems.obscur.lab import obscur_duels
    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.state import body_of

    args = ("simulate", "fight", "obscur", "--a", "examples/obscur/garance.toml")
    args += ("--b", "examples/obscur/corbeau.toml", "--runs", "40000", "--seed", "2", "--json")
    result = invoke(capsys, *args)
    assert result.status == 0, result.err
    data = result.json()
    assert data["vectorised"] is True and data["runs"] == 40000
    chars = [load_character(Path(f"examples/obscur/{n}.toml")) for n in ("garance", "corbeau")]
    params = FightParams(
        fighter_of(chars[0]), fighter_of(chars[1]), body_of(chars[0]), body_of(chars[1])
    )
    scalar = run_chunks(3000, lambda rng, n: obscur_duels(params, rng, n), seed=4, progress=False)
    low, high = scalar.rate("won")["interval_95"]
    low_v, high_v = data["win_interval_95"]
    assert low <= high_v and low_v <= high  # the intervals overlap
    assert set(data["ends"]) <= {"coma", "dead", "disengaged", "rounds"}


def test_simulate_fight_obscur_takes_the_fight_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--sheathed``, ``--impress``, ``--opponents-a``: the options of ``fight obscur``."""
    args = ("simulate", "fight", "obscur", "--a", "examples/obscur/garance.toml")
    args += ("--b", "examples/obscur/corbeau.toml", "--runs", "100", "--seed", "2", "--json")
    sheathed = invoke(capsys, *args, "--sheathed", "b", "--rounds", "10")
    assert sheathed.status == 0, sheathed.err
    assert sheathed.json()["vectorised"] is True
    special = invoke(capsys, *args, "--special-a", "Coup puissant", "--impress", "both")
    assert special.status == 0 and special.json()["runs"] == 100
    outnumbered = invoke(capsys, *args, "--opponents-a", "2")
    assert outnumbered.status == 0 and outnumbered.json()["vectorised"] is True
    bad = invoke(capsys, *args, "--impress", "c")
    assert bad.status == 2 and len(bad.err.strip().splitlines()) == 1


def test_simulate_fight_obscur_needs_both_sheets(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "simulate", "fight", "obscur", "--a", "examples/obscur/garance.toml")
    assert result.status == 2 and len(result.err.strip().splitlines()) == 1


def test_T12_one_chance_on_the_seed_example(capsys: pytest.CaptureFixture[str]) -> None:
    """T-12: 3d6, niveau 2, no explosion, one Chance: 1/2 + P(one success) × 1/2 = 11/16.

    (With exactly one success the lowest failed die is rerolled: a 4+ passes. No success,
    or three 1s, cannot pass with one die.)
    """
    result = invoke(
        capsys,
        "simulate",
        "test",
        "tunnels",
        "--dice",
        "3",
        "--threshold",
        "2",
        "--explode",
        "never",
        "--chance",
        "1",
        "--runs",
        "200000",
        "--seed",
        "8",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert agrees(Fraction(11, 16), round(data["success_rate"] * data["runs"]), data["runs"])
    assert data["exact"] == 0.5  # the exact odds shown are those without Chance
    assert 0 < data["chance_spent_mean"] <= 1


def test_chance_is_a_tunnels_resource(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(
        capsys, "simulate", "test", "obscur", "--row", "3", "--col", "2", "--chance", "1"
    )
    assert result.status == 2 and len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize("variant", ["reroll=3", "adjust=6", "reroll=1,adjust=1,dice=1"])
def test_O10_simulated_push_agrees_with_exact_odds(
    variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """O-10 after the roll (rerolls, score adjustments), vectorised: Monte Carlo vs exact."""
    args = ("simulate", "test", "obscur", "--row", "4", "--col", "3", "--variant", variant)
    result = invoke(capsys, *args, "--runs", "400000", "--seed", "5", "--json")
    assert result.status == 0, result.err
    data = result.json()
    p = data["exact"]
    assert abs(data["success_rate"] - p) <= 4 * (p * (1 - p) / data["runs"]) ** 0.5


def test_K4_rerolled_ties_and_O9_oppositions_agree_with_exact_odds() -> None:
    """K-4 (two PCs tied roll again) and O-9, vectorised: Monte Carlo vs exact odds."""
    from meneur.lab.simulate import cell_chunk
    from meneur.systems.krasses.odds import p_a_wins
    from meneur.systems.krasses.rules import OpposeParams as KrassesOppose
    from meneur.systems.krasses.rules import Side
    from meneur.systems.krasses.vector import KrassesOpposeVector
    from meneur.systems.obscur.odds import oppose_dist
    from meneur.systems.obscur.rules import OpposeParams as ObscurOppose
    from meneur.systems.obscur.rules import TestParams
    from meneur.systems.obscur.vector import ObscurOpposeVector

    runs = 300_000
    tied = KrassesOppose(Side(3, "pc"), Side(4, "pc", modifier=-1))
    tally = run_chunks(runs, cell_chunk(KrassesOpposeVector(tied)), seed=1, progress=False)
    assert agrees(p_a_wins(tied), tally.counts["success"], runs)
    obscur = ObscurOppose(TestParams(4), TestParams(3, zero_skill=True))
    tally = run_chunks(runs, cell_chunk(ObscurOpposeVector(obscur)), seed=2, progress=False)
    law = oppose_dist(obscur)
    assert agrees(law.p_where(lambda k: k[0] == "a"), tally.counts["success"], runs)


def test_L10_a_scene_against_several_oppositions(capsys: pytest.CaptureFixture[str]) -> None:
    """L-10: several oppositions at once, each compared with the hero's roll."""
    from meneur.systems.legendes.lab import LegendesConflict, legendes_conflicts, legendes_scene

    runs = 100_000
    one = run_chunks(
        runs, lambda rng, n: legendes_scene(2, ("heroique",), rng, n), seed=3, progress=False
    )
    alone = run_chunks(
        runs,
        lambda rng, n: legendes_conflicts(LegendesConflict(2, "heroique"), rng, n),
        seed=4,
        progress=False,
    )
    low, high = alone.rate("won")["interval_95"]
    low_one, high_one = one.rate("won")["interval_95"]
    assert low_one <= high and low <= high_one  # one opposition: the plain conflict
    two = run_chunks(
        runs,
        lambda rng, n: legendes_scene(2, ("heroique", "heroique"), rng, n),
        seed=5,
        progress=False,
    )
    assert two.rate("won")["interval_95"][1] < low_one  # two at once: harder
    swept = run_chunks(
        1000, lambda rng, n: legendes_scene(1, ("commun", "commun"), rng, n), progress=False
    )
    assert swept.counts["won"] == 1000  # L-5: commoners are swept
    result = invoke(
        capsys, "simulate", "fight", "legendes", "--dice", "2", "--vs-level", "elite,heroique",
        "--runs", "2000", "--seed", "1", "--json",
    )  # fmt: skip
    assert result.status == 0, result.err
    assert result.json()["fight"]["level"] == ["elite", "heroique"]


@pytest.mark.parametrize(
    ("flags", "options"),
    [
        ((), {}),
        (("--blessed",), {"blessed": True}),
        (("--tie", "reroll", "--vs-explode", "never"), {"tie": "reroll", "vs_explode": "never"}),
    ],
)
def test_T4_T9_simulate_fight_plays_the_systems_fight_with_every_option(
    capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], options: dict[str, Any]
) -> None:
    """T-4/T-9: the lab's fight is the system's procedure with the options typed, not a copy.

    The command's win rate equals the system's numpy fight of the same params and seed,
    so an option the command forgets (blessed, the tie rule...) changes the figures.
    """
    from meneur.systems.tunnels.combat import against_monster

    result = invoke(
        capsys,
        *("simulate", "fight", "tunnels", "--dice", "3", "--endurance", "4", "--vs-mr", "3"),
        *("--runs", "3000", "--seed", "3", "--json", *flags),
    )
    assert result.status == 0, result.err
    params = against_monster(3, 4, 3, max_rounds=200, **options)
    tally = run_chunks(3000, lambda rng, n: tunnels_fights(params, rng, n), seed=3, progress=False)
    assert result.json()["win_rate"] == tally.counts["won"] / 3000
    assert (
        result.json()["rounds"]["mean"]
        == sum(k * v for k, v in tally.histograms["rounds"].items()) / 3000
    )


def test_T9_a_needed_opposition_is_simulated_beside_its_exact_odds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-9: the simulated cell takes every pool a side accepts, and so do the exact odds
    of who wins: ``needed`` at 30 dice a side (past the joint walk's bound) and
    ``always`` at 20 against 16 each agree with 100,000 rolls."""
    args = ("simulate", "test", "tunnels", "--check", "oppose", "--runs", "100000")
    needed = invoke(capsys, "--lang", "en", *args, "--row", "30", "--col", "30", "--json")
    assert needed.status == 0, needed.err
    data = needed.json()
    assert data["runs"] == 100_000 and data["dice"] == 30
    hits = round(data["success_rate"] * data["runs"])
    assert agrees(Fraction(data["exact_fraction"]), hits, data["runs"])
    always = invoke(
        capsys, *args, "--row", "20", "--col", "16", "--panel", "always", "--seed", "5", "--json"
    )
    assert always.status == 0, always.err
    data = always.json()
    hits = round(data["success_rate"] * data["runs"])
    assert agrees(Fraction(data["exact_fraction"]), hits, data["runs"])
    digits = len(data["exact_fraction"]) - 1
    text = invoke(capsys, "--lang", "en", *args, "--row", "20", "--col", "16", "--panel", "always")
    assert f"({digits} digits: see --json)" in text.out  # not a fraction of a hundred lines


def test_T9_a_simulated_opposition_builds_its_sides_under_one_bar(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """T-9: the exact odds beside a simulated ``needed`` opposition read both sides'
    trajectories (60 dice a side: ~11 s); they are built first under one bar, forecast
    at all their work and told every unit of it, where the command used to sit silent
    after its simulation's bar."""
    from meneur.systems.tunnels import chase

    chase.clear_caches()
    bars = recorded_bars(monkeypatch)
    args = ("simulate", "test", "tunnels", "--check", "oppose", "--runs", "2000")
    r = invoke(capsys, "--lang", "en", *args, "--row", "12", "--col", "16", "--json")
    assert r.status == 0, r.err
    exact = [bar for bar in bars if bar.description == "Exact odds"]
    assert len(exact) == 1, [bar.description for bar in bars]
    work = sum(chase.side_work(12, "needed")) + sum(chase.side_work(16, "needed"))
    assert exact[0].total == exact[0].done == work
    assert set(chase._SIDES) == {(12, 4, "needed"), (16, 4, "needed")}


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        ("simulate fight tunnels --endurance 3 --vs-mr 2 --explode never --max-rounds 5", "--dice"),
        ("simulate fight tunnels --dice 2 --endurance 3 --explode never --max-rounds 5", "--vs-mr"),
        ("simulate policy tunnels --threshold 2 --explode never", "--dice"),
        ("simulate test tunnels --threshold 2 --explode never", "--dice"),
    ],
)
def test_the_lab_takes_the_pools_play_takes(
    capsys: pytest.CaptureFixture[str], command: str, flag: str
) -> None:
    """One bound per parameter (issue 18): the lab's Tunnels simulations take a pool (a
    Force, a Monster Rating) up to ``TestParams.MAX_DICE`` as play and odds do (they
    stopped at 30), and refuse one more die in the same words as ``meneur test``."""
    from meneur.systems.tunnels.rules import TestParams

    most = TestParams.MAX_DICE
    args = (*command.split(), "--runs", "200", "--seed", "1", "--json")
    ok = invoke(capsys, "--lang", "en", *args, flag, str(most))
    assert ok.status == 0, ok.err
    over = invoke(capsys, "--lang", "en", *args, flag, str(most + 1))
    play = invoke(capsys, "--lang", "en", "test", "tunnels", "--dice", str(most + 1))
    assert over.status == 2 and play.status == 2
    assert over.err.replace(flag, "--dice") == play.err


def test_the_lab_fight_grids_take_the_pools_play_takes(capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate sweep`` and ``compare --check fight`` over Tunnels fights: Force and
    Monster Rating up to ``TestParams.MAX_DICE`` (they stopped at 30), one more refused."""
    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.rules import TestParams

    most = TestParams.MAX_DICE
    rows, columns = ADAPTER.fight_axes(str(most), f"{most - 1},{most}")
    assert rows.values == (most,) and columns.values == (most - 1, most)
    sweep = ("simulate", "sweep", "tunnels", "--endurance", "3", "--explode", "never")
    ok = invoke(capsys, *sweep, "--dice", str(most), "--vs-mr", "1", "--runs", "50", "--json")
    assert ok.status == 0, ok.err
    for args in (("--dice", f"1..{most + 1}", "--vs-mr", "1"), ("--dice", "2", "--vs-mr", "61")):
        over = invoke(capsys, "--lang", "en", *sweep, *args, "--runs", "50")
        assert over.status == 2 and f"from 1 to {most}" in over.err, over.err
    with pytest.raises(MeneurError, match=f"1 to {most}|1 à {most}"):
        ADAPTER.fight_axes(str(most + 1), "1")


def _bounds() -> list[tuple[str, str, int]]:
    """(command, option, the rules' bound) of the Obscur and Légendes simulations."""
    from meneur.systems.legendes.rules import OpposedParams
    from meneur.systems.obscur.advisor import MAX_POINTS
    from meneur.systems.obscur.rules import MAX_DICE, MAX_DIFFICULTY

    obscur = "simulate policy obscur --dice 4 --difficulty 2 --points 1"
    legendes = OpposedParams.MAX_DICE
    fight = "simulate fight legendes --dice 2 --vs-level elite"
    return [
        (obscur, "--dice", MAX_DICE),
        (obscur, "--difficulty", MAX_DIFFICULTY),
        (obscur, "--points", MAX_POINTS),
        ("simulate policy legendes --dice 2 --vs-level elite --points 1", "--dice", legendes),
        (fight, "--dice", legendes),
        (
            "simulate fight legendes --dice 2 --vs-level elite --with-dice 1",
            "--with-dice",
            legendes,
        ),
        ("simulate sweep legendes --dice 1 --vs-level elite", "--dice", legendes),
    ]


@pytest.mark.parametrize(("command", "flag", "bound"), _bounds())
def test_obscur_and_legendes_simulations_take_the_bounds_of_their_rules(
    capsys: pytest.CaptureFixture[str], command: str, flag: str, bound: int
) -> None:
    """One bound per parameter (issue 18): the lab reads the rules' own bound (Obscur's
    pool went to 30 and its difficulty to 60 where play takes 60 and 200; Légendes'
    sweep stopped at 12 dice where the rules take 30); one more is one clear line."""
    args = [*command.split(), "--runs", "100", "--seed", "2", "--json"]
    where = args.index(flag)
    ok = invoke(capsys, "--lang", "en", *args[:where], *args[where + 2 :], flag, str(bound))
    assert ok.status == 0, ok.err
    over = invoke(capsys, "--lang", "en", *args[:where], *args[where + 2 :], flag, str(bound + 1))
    assert over.status == 2 and f"to {bound}" in over.err and "Traceback" not in over.err


def test_chunks_start_small_and_double_so_a_bar_can_move_early() -> None:
    """One chunk of 100,000 heavy runs gave no bar and no Ctrl-C for half an hour: the
    first chunk is small and each next one doubles, up to ``chunk``; the schedule is the
    same on every machine, so a seed gives the same tally."""
    from meneur.lab.simulate import FIRST_CHUNK, Tally

    sizes: list[int] = []

    def one(rng: np.random.Generator, n: int) -> Tally:
        sizes.append(n)
        return Tally(runs=n, counts={"six": int((rng.integers(1, 7, n) == 6).sum())})

    first = run_chunks(1000, one, seed=5, chunk=300, progress=False)
    assert FIRST_CHUNK == 64 and sizes == [64, 128, 256, 300, 252]
    sizes.clear()
    again = run_chunks(1000, one, seed=5, chunk=300, progress=False)
    assert again.counts == first.counts and again.runs == 1000


@pytest.mark.parametrize(
    "args",
    [
        ("--row", "1..3", "--col", "1"),
        ("--row", "2", "--col", "1,2"),
        ("--row", "2", "--col", "1", "--panel", "normal/never,blessed/never"),
    ],
)
def test_simulating_one_cell_refuses_several(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """``simulate test`` simulated the first of ``--row 1..3`` and said nothing: one cell
    is one row, one column, one panel (a sweep takes several)."""
    system = "tunnels" if "--panel" in args else "obscur"
    result = invoke(capsys, "simulate", "test", system, *args, "--runs", "100")
    assert result.status == 2 and "simulate sweep" in result.err, result.err


def test_play_and_lab_read_the_same_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    """One bound per parameter for play and lab: Chance spent (T-12) 0..100 in both
    (the lab stopped at 30 and 20), a threshold by number or named level (the lab
    refused « moyenne »), an Obscur fight's rounds 1..200 in both (the lab took 1,000)."""

    ok = invoke(capsys, "simulate", "policy", "tunnels", "--dice", "3", "--threshold",
                "moyenne", "--points", "100", "--runs", "200", "--seed", "1", "--json")  # fmt: skip
    assert ok.status == 0, ok.err
    for args in (
        ("simulate", "policy", "tunnels", "--dice", "3", "--threshold", "2", "--points", "101"),
        ("test", "tunnels", "--dice", "3", "--threshold", "2", "--chance", "101"),
        ("simulate", "test", "tunnels", "--row", "3", "--col", "2", "--chance", "101"),
    ):
        refused = invoke(capsys, *args)
        assert refused.status == 2 and "100" in refused.err, (args, refused.err)
    examples = Path(__file__).resolve().parents[2] / "examples" / "obscur"
    for args in (("simulate", "fight", "obscur"), ("fight", "obscur")):
        sheets = [str(examples / "garance.toml"), str(examples / "corbeau.toml")]
        refused = invoke(capsys, *args, "--a", sheets[0], "--b", sheets[1], "--rounds", "201")
        assert refused.status == 2 and "200" in refused.err, (args, refused.err)


def test_T6_a_simulated_test_reads_its_verdicts_without_building_its_whole_law(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-6: the exact odds beside a simulated test are its verdicts (``pass_odds``); the
    whole law of an exploding pool (40 dice always: ~0.5 s and megabytes; 60 dice: ~3 s)
    is no longer built and kept for nothing. The odds shown are the whole law's."""
    from meneur.systems.tunnels import odds, polylaw
    from meneur.systems.tunnels.rules import TestParams

    odds.clear_caches()
    args = ("simulate", "test", "tunnels", "--row", "40", "--col", "20", "--panel", "normal/always")
    r = invoke(capsys, "--lang", "en", *args, "--runs", "200", "--json")
    assert r.status == 0, r.err
    assert not polylaw.built(40, 4, "batch") and not odds._PREPARED
    assert odds.test_odds.cache_info().currsize == 0
    law = odds.test_odds(TestParams(40, 20, explode="always"))
    assert Fraction(r.json()["exact_fraction"]) == law.p_where(lambda k: k[0] >= 20 and not k[2])


def test_an_option_and_its_table_alias_are_not_both_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``simulate test tunnels --dice 3 --row abc``: --dice won and --row was ignored,
    whatever it said; the two name the same thing, and both given is refused."""
    for extra in (("--dice", "3", "--row", "abc"), ("--threshold", "2", "--col", "xyz")):
        done = invoke(capsys, "simulate", "test", "tunnels", *extra, "--runs", "100")
        assert done.status == 2 and extra[0] in done.err and extra[2] in done.err, done.err
    done = invoke(capsys, "simulate", "test", "tunnels", "--row", "3", "--col", "2",
                  "--runs", "100", "--json")  # fmt: skip
    assert done.status == 0, done.err


@pytest.mark.parametrize("system", ["tunnels", "obscur", "legendes"])
def test_a_sweep_of_fights_refuses_a_panel_or_a_variant(
    capsys: pytest.CaptureFixture[str], system: str
) -> None:
    """``simulate sweep tunnels ... --variant abc --panel zzz`` swept fights and ignored
    both: they choose a table's cells, and alone they are refused."""
    for extra in (("--variant", "abc"), ("--panel", "zzz")):
        done = invoke(capsys, "simulate", "sweep", system, "--runs", "10", *extra)
        assert done.status == 2 and extra[0] in done.err, done.err


def test_T9_a_simulated_opposition_rolls_its_ties_again_when_the_variant_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-9's option (``tie=reroll``): the exact odds beside the simulation counted ties
    rolled again (win / (1 - tie)) while the simulation counted them as nobody's, 72.8 %
    against 88.1 % for 4 dice against 2. Both now roll them again, in one cell and in a
    sweep; 3 against 3 is then even."""
    args = ("simulate", "test", "tunnels", "--check", "oppose", "--runs", "60000", "--json")
    for row, col in (("4", "2"), ("3", "3")):
        done = invoke(
            capsys, *args, "--row", row, "--col", col, "--variant", "tie=reroll", "--seed", "3"
        )
        assert done.status == 0, done.err
        data = done.json()
        hits = round(data["success_rate"] * data["runs"])
        assert agrees(Fraction(data["exact_fraction"]), hits, data["runs"]), data
    assert Fraction(data["exact_fraction"]) == Fraction(1, 2)
    swept = invoke(
        capsys, "simulate", "sweep", "tunnels", "--check", "oppose", "--rows", "4",
        "--cols", "2", "--variant", "tie=reroll", "--runs", "60000", "--seed", "4",
        "--workers", "1", "--json",
    )  # fmt: skip
    assert swept.status == 0, swept.err
    [point] = swept.json()["points"]
    exact = Fraction(4751722287, 5394393898)  # the cell's exact odds above (88.09 %)
    assert agrees(exact, round(point["win_rate"] * 60000), 60000), point


@pytest.mark.parametrize(
    "fight",
    [
        "tunnels --dice 3 --endurance 5 --vs-mr 3",
        "obscur --a examples/obscur/garance.toml --b examples/obscur/corbeau.toml",
        "legendes --dice 3 --vs-level elite",
    ],
)
@pytest.mark.parametrize("typed", ["--rounds", "--max-rounds"])
def test_a_bad_round_limit_names_the_option_as_typed(
    capsys: pytest.CaptureFixture[str], fight: str, typed: str
) -> None:
    """``--rounds 0`` was answered « Valeur invalide pour --max-rounds », an option the
    user never typed: the message names the spelling used (``--rounds=0`` too)."""
    root = Path(__file__).resolve().parents[2]
    words = fight.replace("examples/", f"{root}/examples/").split()
    for value in ((typed, "0"), (f"{typed}=0",)):
        done = invoke(capsys, "simulate", "fight", *words, *value, "--runs", "10")
        assert done.status == 2, done.out
        assert f"{typed} :" in done.err and len(done.err.strip().splitlines()) == 1, done.err


@pytest.mark.parametrize(
    ("typed", "asked"),
    [
        ("--dice 3", "--dice et --threshold"),
        ("--threshold 2", "--dice et --threshold"),
        ("--check oppose --dice 3", "--col"),
    ],
)
def test_T3_a_half_given_direct_test_is_asked_its_own_option(
    capsys: pytest.CaptureFixture[str], typed: str, asked: str
) -> None:
    """``simulate test tunnels --dice 3`` (no threshold) was asked for the table's --row
    and --col, options the user did not choose: the test's own form asks for its own."""
    done = invoke(capsys, "simulate", "test", "tunnels", *typed.split(), "--runs", "10")
    assert done.status == 2, done.out
    assert asked in done.err and "--row" not in done.err, done.err


class _Clock:
    """A perf_counter that returns the given instants in turn (then keeps the last)."""

    def __init__(self, *instants: float) -> None:
        self.instants = list(instants)

    def perf_counter(self) -> float:
        return self.instants.pop(0) if len(self.instants) > 1 else self.instants[0]


def _started_bars(monkeypatch: pytest.MonkeyPatch, *instants: float) -> list[list[Any]]:
    """Every bar run_chunks starts (description, total, done, then each update and a
    stop), the clock reading ``instants``."""
    from meneur.lab import simulate

    bars = started_bars(monkeypatch)
    monkeypatch.setattr(simulate, "time", _Clock(*instants))
    return bars


def _count(rng: np.random.Generator, n: int) -> Any:
    from meneur.lab.simulate import Tally

    return Tally(runs=n, counts={"won": n})


def test_a_bar_shows_when_the_run_is_forecast_past_one_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/lab.md: a bar shows when the run is forecast to last over a second. 64 of 256
    runs in 0.375 s forecast 1.5 s: a bar from then on, told each chunk, then stopped
    (the clock does not start at 0: what counts is the time since the start)."""
    bars = _started_bars(monkeypatch, 100.0, 100.375, 100.75, 101.125)
    tally = run_chunks(256, _count, description="Runs")
    assert bars == [["Runs", 256, 64, 192, 256, "stop"]]
    assert tally.runs == 256 and tally.seconds == 1.125 and tally.interrupted is False


@pytest.mark.parametrize(
    ("instants", "runs", "progress"),
    [
        ((100.0, 100.5, 101.0), 128, True),  # 64 of 128 in 0.5 s: exactly one second, not over
        ((100.0, 100.125, 100.25), 128, True),  # forecast 0.25 s
        ((100.0, 100.0, 100.0), 128, True),  # instant
        ((100.0, 105.0), 64, True),  # one chunk: done before any bar could move
        ((100.0, 100.375, 100.75, 101.125), 256, False),  # asked for none
    ],
)
def test_no_bar_when_not_forecast_past_one_second_or_not_asked(
    monkeypatch: pytest.MonkeyPatch, instants: tuple[float, ...], runs: int, progress: bool
) -> None:
    """docs/lab.md: the bar shows only past one second forecast, and only when asked."""
    bars = _started_bars(monkeypatch, *instants)
    tally = run_chunks(runs, _count, progress=progress)
    assert bars == [] and tally.runs == runs
    assert tally.seconds == instants[-1] - instants[0]


def test_a_run_says_how_long_it_took() -> None:
    """Tally.seconds is the run's own duration, not a clock reading."""
    import time

    before = time.perf_counter()
    tally = run_chunks(1000, _count, progress=False)
    assert 0 <= tally.seconds <= time.perf_counter() - before


def test_chunks_stop_doubling_at_a_million() -> None:
    """docs/lab.md: chunks of 64, then twice as many each time, up to a million
    (2**20); 4,000,000 runs are 64..2**19, then 2**20 twice, then the 854,336 left."""
    from meneur.lab.simulate import DEFAULT_CHUNK, Tally

    sizes: list[int] = []

    def one(rng: np.random.Generator, n: int) -> Tally:
        sizes.append(n)
        return Tally(runs=n)

    tally = run_chunks(4_000_000, one, progress=False)
    assert DEFAULT_CHUNK == 2**20
    assert sizes == [64 * 2**k for k in range(14)] + [2**20, 2**20, 854_336]
    assert tally.runs == 4_000_000 and not tally.interrupted


def test_tally_rates_and_histograms_of_nothing() -> None:
    """A count never made is 0 hits (rate 0); no runs is a rate of 0; one value is a
    histogram of one."""
    from meneur.lab.simulate import Tally, histogram

    assert Tally(runs=10).rate("won")["hits"] == 0 and Tally(runs=10).rate("won")["rate"] == 0
    assert Tally().rate("won")["rate"] == 0.0
    assert histogram(np.array([3])) == {3: 1}
    assert histogram(np.array([0, 2, 2])) == {0: 1, 2: 2}
    assert histogram(np.array([], dtype=np.int64)) == {}


def test_survival_curve_of_events_by_round() -> None:
    """P(not yet) after rounds 0..last: 4 runs, 2 ended in round 1 and 1 in round 3."""
    from meneur.lab.simulate import survival

    assert survival({1: 2, 3: 1}, 4, 4) == [1.0, 0.5, 0.5, 0.25, 0.25]
    assert survival({0: 1}, 2, 1) == [0.5, 0.5]
    assert survival({}, 0, 2) == [1.0, 1.0, 1.0]


def test_a_cells_values_keep_their_sign() -> None:
    """A cell's values (a margin can be negative) are counted at their own value."""
    from meneur.lab.simulate import cell_chunk

    class Vector:
        def sample(self, rng: np.random.Generator, size: int) -> tuple[Any, ...]:
            return (np.array([-2, 0, 3, 3, -2, -2])[:size],)

        def success(self, result: tuple[Any, ...]) -> Any:
            return result[0] > 0

    tally = cell_chunk(Vector())(np.random.default_rng(1), 6)
    assert tally.runs == 6 and tally.counts == {"success": 2}
    assert tally.histograms == {"values": {-2: 3, 0: 1, 3: 2}}
