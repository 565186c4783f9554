"""Exact Tunnels odds with explosions (issue 18), each figure beside its reference in one run.

* grids ``dice 1..N x threshold 1..N`` (normal mode) for ``always`` and ``needed``,
  growing N, against icepool (``tests/systems/tunnels/tunnels_icepool.py``: one batch as
  a multiset evaluator, explosions as a recursive map), each icepool grid run in a child
  process capped at ``--budget`` seconds; every probability is checked equal within
  1e-12, and the ratio printed. The first grid icepool does not finish ends the series.
* one exact query at the bound (``TestParams.MAX_DICE`` dice, threshold half of it) per
  policy, cold caches, capped at the same budget.
* the whole lab grid ``dice 1..D x threshold 1..D x 3 modes x 3 policies`` (``--grid``).

Run: ``python benchmarks/bench_tunnels_exact.py [--budget S] [--grid D]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICEPOOL = """
import json, sys, time
sys.path.insert(0, {tests!r})
from tunnels_icepool import icepool_test_law
start = time.perf_counter()
out = {{}}
for n in range(1, {top} + 1):
    for t in range(1, {top} + 1):
        law = icepool_test_law(n, t, policy={policy!r})
        out[f"{{n}},{{t}}"] = float(sum(p for (s, _e, c), p in law.items() if s >= t and not c))
print(json.dumps([time.perf_counter() - start, out]))
"""


def icepool_grid(top: int, policy: str, budget: float) -> tuple[float, dict[str, float]] | None:
    code = ICEPOOL.format(tests=str(ROOT / "tests" / "systems" / "tunnels"), top=top, policy=policy)
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=budget, check=True
        )
    except subprocess.TimeoutExpired:
        return None
    seconds, out = json.loads(done.stdout)
    return seconds, out


def our_grid(top: int, policy: str) -> tuple[float, dict[str, float]]:
    from meneur.lab.grid import probability
    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.odds import clear_caches

    clear_caches()
    start = time.perf_counter()
    grid = ADAPTER.grid("test", {"explode": policy}, f"1..{top}", f"1..{top}", "normal")
    seconds = time.perf_counter() - start
    out = {
        f"{grid.rows.values[r]},{grid.columns.values[c]}": probability(cell, "success")
        for (_p, r, c), cell in grid.cells.items()
    }
    return seconds, out


def single(dice: int, policy: str, budget: float) -> float | None:
    code = (
        "import time\nfrom meneur.systems.tunnels.odds import test_odds\n"
        "from meneur.systems.tunnels.rules import TestParams\n"
        f"params = TestParams({dice}, {(dice + 1) // 2}, explode={policy!r})\n"
        "start = time.perf_counter(); test_odds(params); print(time.perf_counter() - start)"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=budget, check=True
        )
    except subprocess.TimeoutExpired:
        return None
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--grid", type=int, default=10)
    parser.add_argument("--sizes", default="4,8,12,16,20")
    args = parser.parse_args()
    from meneur.systems.tunnels.rules import TestParams

    print("Grids dice 1..N x threshold 1..N, normal mode (ms; ratio = icepool / meneur)")
    print(f"{'policy':<8}{'N':>4}{'meneur':>12}{'icepool':>14}{'ratio':>9}{'worst diff':>12}")
    for policy in ("always", "needed"):
        for top in (int(n) for n in args.sizes.split(",")):
            ours, mine = our_grid(top, policy)
            reference = icepool_grid(top, policy, args.budget)
            if reference is None:
                print(f"{policy:<8}{top:>4}{ours * 1e3:>12,.1f}{'> budget':>14}")
                break
            theirs, ref = reference
            worst = max(abs(mine[k] - ref[k]) for k in ref)
            assert mine.keys() == ref.keys() and worst < 1e-12, worst
            print(
                f"{policy:<8}{top:>4}{ours * 1e3:>12,.1f}{theirs * 1e3:>14,.1f}"
                f"{theirs / ours:>9,.1f}{worst:>12.1e}",
                flush=True,
            )

    bound = TestParams.MAX_DICE
    print(f"\nOne exact query at the bound ({bound} dice, threshold {(bound + 1) // 2}), cold")
    for policy in ("never", "needed", "always"):
        seconds = single(bound, policy, args.budget)
        shown = f"> {args.budget:g} s" if seconds is None else f"{seconds * 1e3:,.1f} ms"
        print(f"{policy:<8}{shown:>16}   target 50 ms", flush=True)

    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.odds import clear_caches

    clear_caches()
    start = time.perf_counter()
    grid = ADAPTER.grid("test", {}, f"1..{args.grid}", f"1..{args.grid}")
    seconds = time.perf_counter() - start
    print(
        f"\nWhole grid dice 1..{args.grid} x threshold 1..{args.grid} x 3 modes x 3 policies: "
        f"{len(grid.cells)} cells in {seconds:,.2f} s"
    )


if __name__ == "__main__":
    main()
