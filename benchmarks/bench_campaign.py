"""Roll log speed: logged rolls per second (SQLite, WAL) beside the same rolls unlogged,
and the export + verify time of a 10,000-roll campaign log.

Each logged roll is its own transaction (a roll and its character-state change), as in
play. SQLite runs in WAL mode with synchronous=NORMAL (the default: survives the process
being killed) and with synchronous=FULL (MENEUR_DB_SYNC=full: an fsync per commit, which
survives a power cut; bounded by the disk's fsync rate, measured too).

Targets (issue 9): at least 2,000 logged rolls per second; a 10,000-roll log exports and
verifies in under 2 s.

Usage: python benchmarks/bench_campaign.py [--rolls N]
Set MENEUR_TEST_PG_URL (bash scripts/postgres prints one) to add a PostgreSQL line.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from meneur.campaign.chain import verify_log
from meneur.campaign.hotlog import HotLog
from meneur.campaign.replay import STEPS, replay_entries, step
from meneur.campaign.rolllog import log_roll
from meneur.campaign.sqlitelog import SqliteLog
from meneur.campaign.store import Store
from meneur.rng import SeededDice
from meneur.systems.registry import find_system


def a_check() -> tuple[Any, Any]:
    check = find_system("krasses").checks()["test"]
    return check, check.examples()[0]


def unlogged(rolls: int) -> float:
    check, params = a_check()
    dice = SeededDice(1)
    start = time.perf_counter()
    for _ in range(rolls):
        rolled = check.roll(params, [dice])
        check.to_json(params, rolled.outcome)
    return rolls / (time.perf_counter() - start)


def logged(store: HotLog, rolls: int, who: str = "Bench") -> float:
    check, params = a_check()
    dice = SeededDice(1)
    store.store().add_character("krasses", who, {"name": who}, {"rolls": 0})
    start = time.perf_counter()
    for number in range(rolls):
        rolled = check.roll(params, [dice])
        outcome = check.to_json(params, rolled.outcome)
        log_roll(
            store,
            "krasses",
            check.name,
            {STEPS: [step(check, rolled)]},  # replayable, as every logged roll
            rolled.faces,
            outcome,
            dice.kind,
            character=who,
            state={"rolls": number + 1},
        )
    return rolls / (time.perf_counter() - start)


def committed_log(store: Store, rolls: int) -> None:
    """A 10,000-roll campaign: one revealed game session of committed dice."""
    check, params = a_check()
    store.start_session()
    dice = store.committed_dice()
    assert dice is not None
    for _ in range(rolls):
        rolled = check.roll(params, [dice])
        outcome = check.to_json(params, rolled.outcome)
        log_roll(
            store,
            "krasses",
            check.name,
            {STEPS: [step(check, rolled)]},  # replayable, as every logged roll
            rolled.faces,
            outcome,
            dice.kind,
            dice=dice,
            who="Bench",
        )
    store.reveal_session()


def export_and_verify(store: Store, folder: Path) -> tuple[float, float, int, float]:
    path = folder / "log.json"
    start = time.perf_counter()
    document = store.export_log()
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    exported = time.perf_counter() - start
    start = time.perf_counter()
    read = json.loads(path.read_text(encoding="utf-8"))
    report = verify_log(read)
    verified = time.perf_counter() - start
    start = time.perf_counter()
    replayed = replay_entries(read["entries"])
    assert not replayed.problems, replayed.problems[:3]
    return exported, verified, report.recomputed, time.perf_counter() - start


def fsync_rate(folder: Path, count: int = 200) -> float:
    """How many small write+fsync the disk does per second (the ceiling of FULL)."""
    path = folder / "fsync.bin"
    start = time.perf_counter()
    with path.open("wb") as handle:
        for _ in range(count):
            handle.write(b"x" * 100)
            handle.flush()
            os.fsync(handle.fileno())
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=3000)
    parser.add_argument("--log-size", type=int, default=10_000)
    args = parser.parse_args()
    base = unlogged(args.rolls)
    print(f"{'rolls per second':<44}{'meneur':>12}")
    print(f"{'unlogged (roll + JSON)':<44}{base:>12,.0f}")
    with tempfile.TemporaryDirectory() as folder:
        for mode in ("normal", "full"):
            os.environ["MENEUR_DB_SYNC"] = mode
            with Store(f"sqlite:///{folder}/bench-{mode}.db") as store:
                rate = logged(store, args.rolls if mode == "normal" else args.rolls // 5)
            label = f"logged, SQLite WAL synchronous={mode.upper()}"
            print(f"{label:<44}{rate:>12,.0f}   ({rate / base:.1%} of unlogged)")
            if mode == "normal":  # the same file, as a logged command writes it
                light = SqliteLog.open(f"sqlite:///{folder}/bench-{mode}.db")
                assert light is not None
                light_rate = logged(light, args.rolls, "Light")
                light.close()
                label = "  the same, a command's way (sqlite3, no ORM)"
                print(f"{label:<44}{light_rate:>12,.0f}   ({light_rate / base:.1%} of unlogged)")
        os.environ.pop("MENEUR_DB_SYNC")
        print(f"{'  (disk: fsyncs per second)':<44}{fsync_rate(Path(folder)):>12,.0f}")
        print("  target: 2,000 logged rolls per second")
        pg = os.environ.get("MENEUR_TEST_PG_URL")
        if pg:
            with Store(pg) as store:
                store.create_campaign(f"bench-{time.time_ns()}")
                store.use_campaign(store.campaigns()[-1].name)
                pg_rate = logged(store, args.rolls)
            print(f"{'logged, PostgreSQL (local, test server)':<44}{pg_rate:>12,.0f}")
        with Store(f"sqlite:///{folder}/log.db") as store:
            start = time.perf_counter()
            committed_log(store, args.log_size)
            filled = time.perf_counter() - start
            exported, verified, recomputed, replayed = export_and_verify(store, Path(folder))
    print()
    print(f"{args.log_size:,}-roll log (committed dice), written in {filled:.2f} s")
    print(f"  export to JSON          {exported:6.3f} s")
    print(f"  verify ({recomputed:,} recomputed) {verified:6.3f} s")
    total = exported + verified
    print(f"  export + verify         {total:6.3f} s   (target < 2 s)")
    print(f"  verify --replay (every roll re-resolved) {replayed:6.3f} s")


if __name__ == "__main__":
    main()
