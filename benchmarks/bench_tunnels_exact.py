"""Exact Tunnels odds with explosions (issue 18), each figure beside its reference in one run.

Every figure is a cold computation (caches cleared) in a fresh process capped at
``--budget`` seconds; a run that does not finish in it prints ``> budget``.

1. one exact query at the bound (``TestParams.MAX_DICE`` dice, threshold half of it) per
   policy, mode and sixes rule (target: 50 ms each): its verdicts (``odds.pass_odds``:
   tables cut at the threshold, met by a forward half from the pool, ``passmid``) beside
   the whole law of successes (``odds.test_odds``);
2. the lab grid ``dice 1..D x threshold 1..D x 3 modes`` per policy (``--grid D``, the
   target: the three policies in 5 s), row by row, with the largest pool reached when the
   budget runs out, wall-clock and CPU time (the machine is shared); then the whole grid,
   the three policies at once ("one run", the ``needed`` table reads the ``always`` one),
   as ``meneur table tunnels --rows 1..D --cols 1..D`` computes it: in one process
   (``MENEUR_WORKERS=1``) and over worker processes, one mode each (``meneur.lab.parallel``),
   side by side, each with its CPU time (the parent's and its workers');
3. grids ``dice 1..N x threshold 1..N`` (normal mode) for ``always`` and ``needed``,
   growing N, against icepool (``tests/systems/tunnels/tunnels_icepool.py``: one batch as
   a multiset evaluator, explosions as a recursive map); every probability is checked
   equal within 1e-12 and the ratio printed; the first grid icepool does not finish ends
   the series;
4. the time of one test against the pool (``--pools``, threshold half the pool): its
   verdicts (cut tables), its whole law (FLINT; ``always`` from 24 dice meets in the
   middle, ``polylaw.always_law``), the same law through the chain of every smaller pool
   (``always`` only: ``polylaw.always_tail``, as before the meeting), the previous
   whole-law engine (Python integers, kept in ``tests/systems/tunnels/reference_polylaw.py``)
   and icepool; a series stops at its first run over budget.

Run: ``python benchmarks/bench_tunnels_exact.py [--budget S] [--grid D] [--sizes ...]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from cold import child

ROOT = Path(__file__).resolve().parent.parent
TESTS = str(ROOT / "tests" / "systems" / "tunnels")
LOWEST = {"normal": 4, "blessed": 3, "cursed": 5}
CASES = (("normal", "batch"), ("blessed", "batch"), ("cursed", "batch"), ("normal", "all"))
ICEPOOL_GRID = """
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
OUR_GRID = """
import json, time
from meneur.systems.tunnels.lab_adapter import ADAPTER
from meneur.lab import fastgrid
from meneur.systems.tunnels import lab_grid
from meneur.lab.grid import probability
from meneur.systems.tunnels.odds import clear_caches
ADAPTER.grid("test", {{"explode": {policy!r}}}, "1", "1", "normal")  # imports done
clear_caches()
fastgrid.clear_caches()
lab_grid.clear_caches()
start = time.perf_counter()
grid = ADAPTER.grid("test", {{"explode": {policy!r}}}, "1..{top}", "1..{top}", "normal")
seconds = time.perf_counter() - start
out = {{
    f"{{grid.rows.values[r]}},{{grid.columns.values[c]}}": probability(cell, "success")
    for (_p, r, c), cell in grid.cells.items()
}}
print(json.dumps([seconds, out]))
"""
LAB_ROWS = """
import os, time
os.environ["MENEUR_WORKERS"] = "1"  # row by row in one process: the caches serve the next row
from meneur.lab import fastgrid
from meneur.systems.tunnels import lab_grid
from meneur.systems.tunnels.lab_adapter import ADAPTER
from meneur.systems.tunnels.odds import clear_caches
variant = {{"explode": {policy!r}}}
ADAPTER.grid("test", variant, "1", "1")  # imports done before the clock
clear_caches()
fastgrid.clear_caches()
lab_grid.clear_caches()
start = time.perf_counter()
cpu = time.process_time()
cells = 0
for n in range(1, {top} + 1):
    grid = ADAPTER.grid("test", variant, f"{{n}}", "1..{top}")
    cells += len(grid.cells)
    print(n, cells, time.perf_counter() - start, time.process_time() - cpu, flush=True)
"""
ONE_RUN = """
import os, resource, time
os.environ["MENEUR_WORKERS"] = {processes!r}
from meneur.systems.tunnels.lab_adapter import ADAPTER
ADAPTER.grid("test", {{}}, "1", "1")  # imports done before the clock
def cpu():
    return sum(
        getattr(resource.getrusage(who), field)
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        for field in ("ru_utime", "ru_stime")
    )
used, start = cpu(), time.perf_counter()
grid = ADAPTER.grid("test", {{}}, "1..{top}", "1..{top}")
wall = time.perf_counter() - start
if grid.workers:  # the server reaped its workers: reaping it counts their CPU time here
    from multiprocessing import forkserver
    forkserver._forkserver._stop()
print(len(grid.cells), grid.workers, wall, cpu() - used)
"""
ONE = """
import sys, time
sys.path.insert(0, {tests!r})
from meneur.systems.tunnels.rules import TestParams
params = TestParams({dice}, {threshold}, blessed={blessed}, cursed={cursed},
                    explode={policy!r}, sixes={sixes!r})
if {engine!r} == "verdict":
    from meneur.systems.tunnels.odds import pass_odds
    start, cpu = time.perf_counter(), time.process_time()
    pass_odds(params)
elif {engine!r} == "flint":
    from meneur.systems.tunnels.odds import test_odds
    start, cpu = time.perf_counter(), time.process_time()
    test_odds(params)
elif {engine!r} == "chain":  # the law through every smaller pool's, as before the meeting
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.polylaw import always_tail
    from meneur.systems.tunnels.rules import LOWEST_SUCCESS
    start, cpu = time.perf_counter(), time.process_time()
    always_tail(params.dice, LOWEST_SUCCESS[params.mode], params.sixes)
    test_odds(params)
elif {engine!r} == "python":
    from reference_polylaw import side_law
    start, cpu = time.perf_counter(), time.process_time()
    side_law(params)
else:
    from tunnels_icepool import icepool_test_law
    start, cpu = time.perf_counter(), time.process_time()
    icepool_test_law({dice}, {threshold}, lowest={lowest}, policy={policy!r}, rule={sixes!r})
print(time.perf_counter() - start, time.process_time() - cpu)
"""


def one(
    engine: str, dice: int, policy: str, budget: float, mode: str = "normal", sixes: str = "batch"
) -> tuple[float, float] | None:
    """(wall-clock, CPU) seconds of one cold computation in a fresh process."""
    code = ONE.format(
        tests=TESTS,
        engine=engine,
        dice=dice,
        threshold=(dice + 1) // 2,
        blessed=mode == "blessed",
        cursed=mode == "cursed",
        lowest=LOWEST[mode],
        policy=policy,
        sixes=sixes,
    )
    out = child(code, budget)
    if out is None:
        return None
    wall, cpu = out.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def shown(seconds: tuple[float, float] | None, budget: float, cpu: bool = False) -> str:
    if seconds is None:
        return f"> {budget:g} s"
    return f"{seconds[1 if cpu else 0] * 1e3:,.1f} ms"


def singles(bound: int, budget: float) -> None:
    print(f"1. One exact query at the bound ({bound} dice, threshold {(bound + 1) // 2}), cold")
    print("   (wall-clock, and the process's CPU time: the machine is shared)")
    head = ("verdict", "cpu", "whole law", "cpu")
    print(f"{'policy':<8}{'mode':<9}{'sixes':<7}" + "".join(f"{h:>12}" for h in head))
    for policy in ("never", "needed", "always"):
        for mode, sixes in CASES:
            new = one("verdict", bound, policy, budget, mode, sixes)
            old = one("flint", bound, policy, budget, mode, sixes)
            cells = (shown(new, budget), shown(new, budget, True))
            cells += (shown(old, budget), shown(old, budget, True))
            line = "".join(f"{c:>12}" for c in cells)
            print(f"{policy:<8}{mode:<9}{sixes:<7}{line}", flush=True)


def lab_grid(top: int, budget: float) -> None:
    print(f"\n2. Lab grid dice 1..{top} x threshold 1..{top} x 3 modes, per policy, cold")
    print(f"{'policy':<8}{'cells':>8}{'time':>12}{'cpu':>10}   (target: the three policies in 5 s)")
    total = cpu_total = 0.0
    for policy in ("never", "always", "needed"):
        seconds, cpu = _grid_row(policy, top, budget)
        total, cpu_total = total + seconds, cpu_total + cpu
    print(f"{'all':<8}{'':>8}{total:>11,.2f}s{cpu_total:>9,.2f}s", flush=True)
    print("one run: the whole grid at once, as `meneur table tunnels` computes it")
    for processes in ("1", ""):  # one process, then as many workers as cores and modes
        out = child(ONE_RUN.format(top=top, processes=processes), budget)
        if out is None:
            print(f"{'one run':<8}{'-':>8}{'> ' + format(budget, 'g') + ' s':>12}", flush=True)
            continue
        cells, workers, seconds, cpu = out.split()
        how = f"{workers} worker processes" if int(workers) else "one process"
        print(f"{'one run':<8}{cells:>8}{float(seconds):>11,.2f}s{float(cpu):>9,.2f}s   {how}")


def _grid_row(policy: str, top: int, budget: float) -> tuple[float, float]:
    """One line of section 2: (wall-clock, CPU) seconds of the rows done."""
    code = LAB_ROWS.format(top=top, policy=policy)
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=budget
        )
        lines = done.stdout.split("\n")
        over = False
    except subprocess.TimeoutExpired as late:
        raw = late.stdout or b""
        lines = (raw.decode() if isinstance(raw, bytes) else raw).split("\n")
        over = True
    rows = [line.split() for line in lines if line.strip()]
    if not rows:
        print(f"{policy:<8}{'-':>8}{'> ' + format(budget, 'g') + ' s':>12}", flush=True)
        return 0.0, 0.0
    n, cells, seconds, cpu = (
        int(rows[-1][0]),
        int(rows[-1][1]),
        float(rows[-1][2]),
        float(rows[-1][3]),
    )
    note = f"   over budget: dice 1..{n} done in {seconds:,.1f} s" if over else ""
    print(f"{policy:<8}{cells:>8}{seconds:>11,.2f}s{cpu:>9,.2f}s{note}", flush=True)
    return seconds, cpu


def icepool_grids(sizes: list[int], budget: float) -> None:
    print("\n3. Grids dice 1..N x threshold 1..N, normal mode (ms; ratio = icepool / meneur)")
    print(f"{'policy':<8}{'N':>4}{'meneur':>12}{'icepool':>14}{'ratio':>9}{'worst diff':>12}")
    for policy in ("always", "needed"):
        for top in sizes:
            ours = child(OUR_GRID.format(top=top, policy=policy), budget)
            if ours is None:
                print(f"{policy:<8}{top:>4}{'> budget':>12}", flush=True)
                break
            seconds, mine = json.loads(ours)
            reference = child(ICEPOOL_GRID.format(tests=TESTS, top=top, policy=policy), budget)
            if reference is None:
                print(f"{policy:<8}{top:>4}{seconds * 1e3:>12,.1f}{'> budget':>14}", flush=True)
                break
            theirs, ref = json.loads(reference)
            worst = max(abs(mine[k] - ref[k]) for k in ref)
            assert mine.keys() == ref.keys() and worst <= 1e-12, worst
            print(
                f"{policy:<8}{top:>4}{seconds * 1e3:>12,.1f}{theirs * 1e3:>14,.1f}"
                f"{theirs / seconds:>9,.1f}{worst:>12.1e}",
                flush=True,
            )


def pool_table(pools: list[int], budget: float) -> None:
    engines = ("verdict", "flint", "chain", "python", "icepool")
    labels = ("verdict", "(cpu)", "whole law", "chain", "previous", "icepool")
    print("\n4. One test against the pool (threshold half the pool), cold, fresh process")
    print(f"{'policy':<8}{'dice':>5}" + "".join(f"{e:>14}" for e in labels))
    for policy in ("never", "needed", "always"):
        stopped: set[str] = set()
        for dice in pools:
            row = f"{policy:<8}{dice:>5}"
            for engine in engines:
                if engine in stopped or (engine == "chain" and policy != "always"):
                    row += f"{'-':>14}"
                    continue
                seconds = one(engine, dice, policy, budget)
                if seconds is None:
                    stopped.add(engine)
                row += f"{shown(seconds, budget):>14}"
                if engine == "verdict":
                    row += f"{shown(seconds, budget, True):>14}"
            print(row, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--grid", type=int, default=60)
    parser.add_argument("--grid-budget", type=float, default=120.0)
    parser.add_argument("--sizes", default="4,8,12,16,20")
    parser.add_argument("--pools", default="1,5,10,20,40,60")
    parser.add_argument("--only", default="1234", help="sections to run, e.g. 14")
    args = parser.parse_args()
    from meneur.systems.tunnels.rules import TestParams

    if "1" in args.only:
        singles(TestParams.MAX_DICE, args.budget)
    if "2" in args.only:
        lab_grid(args.grid, args.grid_budget)
    if "3" in args.only:
        icepool_grids([int(n) for n in args.sizes.split(",")], args.budget)
    if "4" in args.only:
        pool_table([int(n) for n in args.pools.split(",")], args.budget)


if __name__ == "__main__":
    main()
