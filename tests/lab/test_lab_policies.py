"""Resource policies by simulation (T-12 Chance, O-10 Dépassement, L-12 motivation)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from cli_helpers import invoke
from meneur.lab.simulate import run_chunks
from meneur.systems.legendes.lab import SPENDING_POLICIES as LEGENDES
from meneur.systems.legendes.lab import motivation_chunk
from meneur.systems.obscur.lab import SPENDING_POLICIES as OBSCUR
from meneur.systems.obscur.lab import ObscurSeries, depassement_chunk
from meneur.systems.tunnels.lab import SPENDING_POLICIES as TUNNELS
from meneur.systems.tunnels.lab import chance_chunk

RUNS = 200_000
SPENDING = {"tunnels": TUNNELS, "obscur": OBSCUR, "legendes": LEGENDES}


def close(rate: float, exact: Fraction, runs: int = RUNS) -> bool:
    """Within four standard errors (a fixed seed: the test is deterministic)."""
    p = float(exact)
    return abs(rate - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-9) / runs)


def obscur_exact(pool: int, difficulty: int, **push: int) -> Fraction:
    from meneur.systems.obscur.depassement import PushPlan
    from meneur.systems.obscur.odds import summary
    from meneur.systems.obscur.rules import TestParams

    _dist, figures = summary(TestParams(pool, difficulty=difficulty, push=PushPlan(**push)))
    p: Fraction = figures["p_success"]  # type: ignore[assignment]
    return p


@pytest.mark.parametrize(
    ("policy", "points", "push"),
    [
        ("never", 3, {}),
        ("dice", 3, {"dice": 1}),
        ("reroll", 1, {"reroll": 1}),
        ("reroll", 4, {"reroll": 2}),
        ("adjust", 3, {"adjust": 2}),
        ("adjust", 6, {"adjust": 3}),
    ],
)
def test_O10_one_test_policy_agrees_with_exact_odds(
    policy: str, points: int, push: dict[str, int]
) -> None:
    """O-10: on one test, spending after a failure passes as often as buying every time
    (rerolls and adjustments never lower successes): Monte Carlo vs the exact odds."""
    series = ObscurSeries(dice=4, difficulty=3, points=points)
    tally = run_chunks(RUNS, depassement_chunk(series, policy), seed=7, progress=False)
    assert close(tally.rate("success")["rate"], obscur_exact(4, 3, **push))


def test_O10_after_failure_spends_only_on_failures() -> None:
    series = ObscurSeries(dice=4, difficulty=3, points=1)
    tally = run_chunks(RUNS, depassement_chunk(series, "reroll"), seed=3, progress=False)
    fail = 1 - obscur_exact(4, 3)
    assert close(tally.counts["spent"] / RUNS, fail)  # one point, on each failed roll


def test_T12_never_spending_is_the_exact_test() -> None:
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams

    params = TestParams(dice=3, threshold=2)
    exact = test_odds(params).p_where(lambda k: k[0] >= 2 and not k[2])
    tally = run_chunks(RUNS, chance_chunk(params, 2, "never"), seed=5, progress=False)
    assert close(tally.rate("success")["rate"], exact)
    assert tally.counts["spent"] == 0


def test_L12_motivation_policies() -> None:
    """L-12: no point, or never spending, is the plain conflict; spending helps here."""
    from meneur.systems.legendes.lab import LegendesConflict, legendes_conflicts

    conflict = LegendesConflict(2, "heroique")
    plain = run_chunks(
        50_000, lambda rng, n: legendes_conflicts(conflict, rng, n), seed=2, progress=False
    )
    none = run_chunks(50_000, motivation_chunk(conflict, 0, "early"), seed=2, progress=False)
    never = run_chunks(50_000, motivation_chunk(conflict, 3, "never"), seed=2, progress=False)
    early = run_chunks(50_000, motivation_chunk(conflict, 3, "early"), seed=2, progress=False)
    assert none.counts["won"] == never.counts["won"] == plain.counts["won"]
    assert never.counts["spent"] == 0 < early.counts["spent"] <= 3 * 50_000
    assert early.rate("won")["interval_95"][0] > never.rate("won")["interval_95"][1]


@pytest.mark.parametrize(
    "args",
    [
        ("tunnels", "--dice", "3", "--threshold", "2", "--points", "2"),
        ("obscur", "--dice", "4", "--difficulty", "3", "--points", "6", "--tests", "3"),
        ("legendes", "--dice", "2", "--vs-level", "heroique", "--points", "2"),
    ],
)
def test_simulate_policy_json(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "simulate", "policy", *args, "--runs", "5000", "--seed", "1", "--json")
    assert result.status == 0, result.err
    data = result.json()
    assert [row["policy"] for row in data["policies"]] == list(SPENDING[args[0]])
    for row in data["policies"]:
        low, high = row["success_interval_95"]
        assert row["runs"] == 5000 and low <= row["success_rate"] <= high
    assert data["policies"][0]["spent_mean"] == 0


def test_simulate_policy_plot(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "policies.png"
    args = ("obscur", "--dice", "4", "--difficulty", "3", "--points", "3", "--runs", "2000")
    result = invoke(capsys, "simulate", "policy", *args, "--plot", str(target))
    assert result.status == 0, result.err
    assert target.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "args",
    [
        ("krasses", "--dice", "2"),
        ("obscur", "--dice", "4"),
        ("tunnels", "--threshold", "2"),
        ("legendes", "--dice", "2", "--vs-level", "dieu"),
    ],
)
def test_simulate_policy_bad_input_is_one_line(
    args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    result = invoke(capsys, "simulate", "policy", *args, "--runs", "10")
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


def test_policy_report_means_per_run() -> None:
    """``simulate policy``'s JSON: each policy's success rate, points spent and tests
    passed per run (a policy that never spends has no "spent" count: 0 spent), its
    seconds summed over the policies to the millisecond."""
    from meneur.lab.policies import policy_report
    from meneur.lab.simulate import Tally

    never = Tally(runs=4, counts={"success": 1}, seconds=0.12344)
    dice = Tally(runs=4, counts={"success": 3, "spent": 6, "tests_passed": 10}, seconds=0.0001)
    report = policy_report("obscur", {"points": 6}, {"never": never, "dice": dice})
    first, second = report["policies"]
    assert (first["policy"], first["runs"], first["success_rate"]) == ("never", 4, 0.25)
    assert first["spent_mean"] == 0 and "tests_passed_mean" not in first
    assert (second["success_rate"], second["spent_mean"]) == (0.75, 1.5)
    assert second["tests_passed_mean"] == 2.5
    assert report["seconds"] == 0.124 and report["interrupted"] is False
    assert (report["system"], report["setting"]) == ("obscur", {"points": 6})


def test_policies_run_under_a_progress_bar_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each policy runs from the same seed, with the bar of a long run unless told not
    to, and the policies after a Ctrl-C are not run."""
    from meneur.lab import simulate
    from meneur.lab.policies import compare_policies
    from meneur.lab.simulate import Tally

    calls: list[tuple[int, int | None, bool]] = []

    def run_chunks(runs: int, chunk: object, *, seed: int | None, progress: bool, **_: object):  # type: ignore[no-untyped-def]
        calls.append((runs, seed, progress))
        return Tally(runs=runs, interrupted=len(calls) == 2)

    monkeypatch.setattr(simulate, "run_chunks", run_chunks)
    chunks = {"never": None, "dice": None, "reroll": None}
    results = compare_policies(chunks, 100, seed=7)  # type: ignore[arg-type]
    assert list(results) == ["never", "dice"]
    assert calls == [(100, 7, True), (100, 7, True)]
    compare_policies({"never": None}, 10, progress=False)  # type: ignore[dict-item]
    assert calls[-1] == (10, None, False)
