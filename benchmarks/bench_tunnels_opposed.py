"""Cold time of an opposition where both sides play ``needed`` (T-9), n against n, the
packed-lead engine beside the dict walk it replaced.

Each figure is one cold computation (caches cleared) in a fresh process, capped by a time
budget (``--budget`` seconds for the dict walk, default 20; ``--new-budget`` for the new
engine, default 90): past it an engine prints ``> budget`` and larger pools of that engine
are not tried (the dict walk stops near 12 dice). The dict
walk is the reference kept in ``tests/systems/tunnels/reference_opposed.py``; the new
engine is ``meneur.systems.tunnels.opposed``, its size bound lifted for the run.

Run: ``python benchmarks/bench_tunnels_opposed.py [--quick] [--budget S] [--new-budget S]
[--pools 4,6,...]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cold import child

ROOT = Path(__file__).resolve().parent.parent
ONE = """
import sys, time
sys.path.insert(0, {tests!r})
from meneur.systems.tunnels import odds
from meneur.systems.tunnels.rules import OpposedParams, Side
if {engine!r} == "new":
    odds.MAX_OPPOSED_ODDS_DICE = {dice}
    opposed_odds = odds.opposed_odds
else:
    import reference_opposed
    opposed_odds = reference_opposed.opposed_odds
odds.clear_caches()
params = OpposedParams(Side({dice}, explode="needed"), Side({dice}, explode="needed"))
start = time.perf_counter()
opposed_odds(params)
print(time.perf_counter() - start)
"""


def measure(engine: str, dice: int, budget: float) -> float | None:
    code = ONE.format(tests=str(ROOT / "tests" / "systems" / "tunnels"), engine=engine, dice=dice)
    out = child(code, budget)
    return None if out is None else float(out.strip())


def shown(seconds: float | None, budget: float, tried: bool) -> str:
    if not tried:
        return "-"
    return f"> {budget:g} s" if seconds is None else f"{seconds:,.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=20.0, help="dict walk, seconds")
    parser.add_argument("--new-budget", type=float, default=90.0, help="new engine, seconds")
    parser.add_argument("--pools", default="4,6,8,10,12,14,16,20")
    parser.add_argument("--quick", action="store_true", help="pools 4, 6, 8 only")
    args = parser.parse_args()
    pools = [4, 6, 8] if args.quick else [int(p) for p in args.pools.split(",")]
    print(f"{'n v n needed':<14}{'new engine':>14}{'dict walk':>14}{'ratio':>9}")
    gave_up = {"new": False, "old": False}
    budgets = {"new": args.new_budget, "old": args.budget}
    for dice in pools:
        times: dict[str, float | None] = {}
        tried: dict[str, bool] = {}
        for engine in ("new", "old"):
            tried[engine] = not gave_up[engine]
            times[engine] = measure(engine, dice, budgets[engine]) if tried[engine] else None
            gave_up[engine] = times[engine] is None
        new, old = times["new"], times["old"]
        ratio = f"x{old / new:,.1f}" if new and old else "-"
        print(
            f"{f'{dice} v {dice}':<14}{shown(new, args.new_budget, tried['new']):>14}"
            f"{shown(old, args.budget, tried['old']):>14}{ratio:>9}",
            flush=True,
        )


if __name__ == "__main__":
    main()
