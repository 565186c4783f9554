"""Time of one exact Tunnels test law against the pool, new engine beside the previous one.

Each figure is one cold computation (caches cleared) in a fresh process, capped by a time
budget (``--budget`` seconds, default 60): a pool that does not finish in it is printed as
``> budget`` and larger pools of that engine and policy are not tried. ``needed`` asks for
half the pool (rounded up) in successes. The previous engine is the one kept as a
reference in ``tests/systems/tunnels/reference_odds.py``.

Run: ``python benchmarks/bench_tunnels_odds.py [--budget S] [--pools 1,5,10,20,40,60]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cold import child

ROOT = Path(__file__).resolve().parent.parent
ONE = """
import sys, time
sys.path.insert(0, {tests!r})
from meneur.systems.tunnels.rules import TestParams
if {engine!r} == "new":
    from meneur.systems.tunnels.odds import test_odds
else:
    import reference_odds
    reference_odds.check_odds_size = lambda dice, limit=0: None
    test_odds = reference_odds.test_odds
params = TestParams({dice}, {threshold}, explode={policy!r})
start = time.perf_counter()
test_odds(params)
print(time.perf_counter() - start)
"""


def measure(engine: str, dice: int, policy: str, budget: float) -> float | None:
    code = ONE.format(
        tests=str(ROOT / "tests" / "systems" / "tunnels"),
        engine=engine,
        dice=dice,
        threshold=(dice + 1) // 2,
        policy=policy,
    )
    out = child(code, budget)
    return None if out is None else float(out.strip())


def shown(seconds: float | None, budget: float) -> str:
    return f"> {budget:g} s" if seconds is None else f"{seconds * 1000:,.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--pools", default="1,5,10,20,40,60")
    args = parser.parse_args()
    pools = [int(p) for p in args.pools.split(",")]
    print(f"{'policy':<8}{'dice':>6}{'new engine':>16}{'previous engine':>18}{'ratio':>9}")
    for policy in ("never", "needed", "always"):
        gave_up = {"new": False, "old": False}
        for dice in pools:
            times: dict[str, float | None] = {}
            for engine in ("new", "old"):
                times[engine] = (
                    None if gave_up[engine] else measure(engine, dice, policy, args.budget)
                )
                gave_up[engine] = times[engine] is None
            new, old = times["new"], times["old"]
            ratio = f"x{old / new:,.1f}" if new and old else "-"
            print(
                f"{policy:<8}{dice:>6}{shown(new, args.budget):>16}"
                f"{shown(old, args.budget):>18}{ratio:>9}",
                flush=True,
            )


if __name__ == "__main__":
    main()
