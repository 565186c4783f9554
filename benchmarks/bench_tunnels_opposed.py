"""Cold time of an opposition where both sides play ``needed`` (T-9), n against n: who
wins from the sides' trajectories, the law of (winner, margin) from the trajectories
(``odds.winner_odds``: what ``fight --odds`` reads) beside the same law from the joint
walk without the three 6s (what it read before, ``odds.margin_lead``), and the joint
walks of the whole law of the lead (the packed-lead engine, and the dict walk it
replaced).

Each figure is one cold computation (caches cleared) in a fresh process, capped by a time
budget (``--budget`` seconds for the dict walk, default 20; ``--new-budget`` for the
others, default 90): past it an engine prints ``> budget`` and larger pools of that
engine are not tried (the dict walk stops near 12 dice, the packed walk near 20). Who
wins is ``meneur.systems.tunnels.chase`` (``odds.who_wins``: ``odds --vs`` and the lab's
grids); the margins from the trajectories ``meneur.systems.tunnels.margins``; the packed
walk is ``meneur.systems.tunnels.opposed``; size bounds are lifted for the run; the dict
walk is the reference kept in ``tests/systems/tunnels/reference_opposed.py``.

With ``--fight N`` it also times ``fight --odds`` (Force n against MR n, Endurance 20,
both ``needed``) for n in 10, 14, 20 and N: its round laws from the trajectories beside
the same fight with the round laws from the joint walk, both answers checked equal.

With ``--grid N`` it also times the lab's opposition grid of ``needed`` sides, dice
1..N against 1..N (``meneur table tunnels --check oppose --panel needed``), who wins
from the trajectories, beside the same grid read from the joint walk's law of each cell
(as the lab read it before), which stops at 14 a side: both on 1..min(N, 14), then the
trajectories alone on 1..N, each with its peak memory.

Run: ``python benchmarks/bench_tunnels_opposed.py [--quick] [--budget S] [--new-budget S]
[--pools 4,6,...] [--fight N] [--grid N]``.
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
if {engine!r} == "who":
    opposed_odds = odds.who_wins
elif {engine!r} == "chased":
    odds.MAX_CHASED_MARGIN_DICE = {dice}
    opposed_odds = odds.winner_odds
elif {engine!r} == "margins":
    odds.MAX_MARGIN_DICE = {dice}
    opposed_odds = odds.margin_lead
elif {engine!r} == "new":
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


GRID = """
import resource, time
from meneur.systems.tunnels import odds
from meneur.systems.tunnels.lab_adapter import ADAPTER
from meneur.systems.tunnels.rules import OpposedParams, Side
odds.who_wins(OpposedParams(Side(1), Side(1)))  # imports done before the clock
odds.clear_caches()
start = time.perf_counter()
if {engine!r} == "who":
    ADAPTER.grid("oppose", {{}}, "1..{top}", "1..{top}", "needed")
else:
    for a in range(1, {top} + 1):
        for b in range(1, {top} + 1):
            odds.winner_odds(OpposedParams(Side(a), Side(b)))
seconds = time.perf_counter() - start
print(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""

FIGHT = """
import hashlib, sys, time
sys.set_int_max_str_digits(0)
from meneur.systems.tunnels import combat_odds, odds
from meneur.systems.tunnels.rules import judge
odds.MAX_MARGIN_DICE = odds.MAX_CHASED_MARGIN_DICE = {dice}
if {engine!r} == "walk":  # the round laws as fights read them before
    combat_odds.winner_odds = lambda params: odds.margin_lead(params).map(
        lambda k: judge(max(k[0], 0), k[2], max(-k[0], 0), k[4])
    )
odds.clear_caches()
start = time.perf_counter()
answer = combat_odds.p_win_against_monster({dice}, 20, {dice}, explode="needed")
seconds = time.perf_counter() - start
print(seconds, hashlib.sha256(str(answer).encode()).hexdigest()[:16])  # the answer's digest
"""


def fight(engine: str, dice: int, budget: float) -> tuple[float, str] | None:
    out = child(FIGHT.format(engine=engine, dice=dice), budget)
    if out is None:
        return None
    seconds, answer = out.split()
    return float(seconds), answer


def grid(engine: str, top: int, budget: float) -> str:
    out = child(GRID.format(engine=engine, top=top), budget)
    if out is None:
        return f"> {budget:g} s"
    seconds, megabytes = out.split()
    return f"{float(seconds):,.2f} s, {megabytes} MB"


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
    parser.add_argument("--pools", default="4,6,8,10,12,14,16,20,30,40,60")
    parser.add_argument("--quick", action="store_true", help="pools 4, 6, 8 only")
    parser.add_argument("--fight", type=int, default=0, help="also fight --odds up to n v n")
    parser.add_argument("--grid", type=int, default=0, help="also the lab grid 1..N x 1..N")
    args = parser.parse_args()
    pools = [4, 6, 8] if args.quick else [int(p) for p in args.pools.split(",")]
    engines = ("who", "chased", "margins", "new", "old")
    print(
        f"{'n v n needed':<14}{'who wins':>14}{'margins':>14}{'margins':>14}{'lead walk':>14}"
        f"{'dict walk':>14}{'ratio':>11}"
    )
    print(
        f"{'':<14}{'(chase)':>14}{'(trajectory)':>14}{'(walk, no 6s)':>14}{'(packed)':>14}"
        f"{'(reference)':>14}{'walk/traj.':>11}"
    )
    gave_up = dict.fromkeys(engines, False)
    budgets = dict.fromkeys(engines, args.new_budget)
    budgets["old"] = args.budget
    for dice in pools:
        times: dict[str, float | None] = {}
        tried: dict[str, bool] = {}
        for engine in engines:
            tried[engine] = not gave_up[engine]
            times[engine] = measure(engine, dice, budgets[engine]) if tried[engine] else None
            gave_up[engine] = times[engine] is None
        chased, walk = times["chased"], times["margins"]
        ratio = f"x{walk / chased:,.1f}" if chased and walk else "-"
        print(
            f"{f'{dice} v {dice}':<14}"
            + "".join(f"{shown(times[e], budgets[e], tried[e]):>14}" for e in engines)
            + f"{ratio:>11}",
            flush=True,
        )
    if args.fight:
        title = "\nfight --odds, n v MR n, Endurance 20"
        print(f"{title}{'trajectories':>16}{'joint walk':>14}{'ratio':>9}")
        walk_gave_up = False
        for dice in sorted({10, 14, 20, args.fight} - {0}):
            if dice > args.fight:
                continue
            mine = fight("chased", dice, args.new_budget * 4)
            theirs = None if walk_gave_up else fight("walk", dice, args.new_budget * 4)
            walk_gave_up = theirs is None
            if mine and theirs:
                assert mine[1] == theirs[1], (dice, mine[1], theirs[1])
            ratio = f"x{theirs[0] / mine[0]:,.1f}" if mine and theirs else "-"
            left = f"{mine[0]:,.2f} s" if mine else f"> {args.new_budget * 4:g} s"
            right = f"{theirs[0]:,.2f} s" if theirs else f"> {args.new_budget * 4:g} s"
            print(f"{f'{dice} v MR {dice}':<37}{left:>16}{right:>14}{ratio:>9}", flush=True)
    if args.grid:
        walked = min(args.grid, 14)
        print(f"\nlab grid, needed, cold{'':<8}{'who wins':>22}{'lead walk':>22}")
        for top in sorted({walked, args.grid}):
            who = grid("who", top, args.new_budget * 10)
            walk = grid("walk", top, args.new_budget * 10) if top <= 14 else "-"
            print(f"{f'1..{top} x 1..{top}':<30}{who:>22}{walk:>22}", flush=True)


if __name__ == "__main__":
    main()
