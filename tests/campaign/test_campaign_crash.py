"""Crash safety: SIGKILL in the middle of a stream of writes loses no roll reported done.

A child process logs rolls as fast as it can, each with the character-state change it
causes (one transaction), and prints ``done N HASH`` only after the commit returned.
The parent kills it with SIGKILL mid-stream, then checks that the database opens, is
consistent (integrity check, the chain verifies, the character's state counts exactly
the rolls logged) and holds every roll that was reported done.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from sqlalchemy import text

from meneur.campaign.chain import verify_log
from meneur.campaign.store import Store

WRITER = """
import sys
from meneur.campaign.rolllog import log_roll
from meneur.campaign.store import Store

with Store(sys.argv[1]) as store:
    n = 0
    while True:
        n += 1
        entry = log_roll(store, "krasses", "test", {"n": n}, [[n % 20 + 1, 7]], {"n": n},
                         "physical", character="Zed", state={"rolls": n})
        print("done", n, entry["hash"], flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_sigkill_mid_stream_keeps_every_reported_roll(db_url: str) -> None:
    with Store(db_url) as store:
        store.add_character("krasses", "Zed", {"name": "Zed"}, {"rolls": 0})
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, db_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    reported: dict[int, str] = {}
    deadline = time.monotonic() + 60
    while len(reported) < 150 and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        _, number, digest = line.split()
        reported[int(number)] = digest
    os.kill(child.pid, signal.SIGKILL)  # while it is writing the next rolls
    rest, errors = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL, errors
    for line in rest.splitlines():  # reported before the kill, read after it
        _, number, digest = line.split()
        reported[int(number)] = digest
    assert len(reported) >= 150, errors

    with Store(db_url) as store:
        if store.engine.dialect.name == "sqlite":
            with store.engine.connect() as connection:
                assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        entries = store.rolls()
        hashes = {entry["params"]["n"]: entry["hash"] for entry in entries}
        assert all(hashes.get(n) == digest for n, digest in reported.items())
        assert len(entries) >= max(reported)
        # roll and state change are one transaction: the state counts exactly the rolls
        assert store.character("Zed").state == {"rolls": len(entries)}
        assert [entry["seq"] for entry in entries] == list(range(1, len(entries) + 1))
        assert verify_log(store.export_log()).entries == len(entries)
        # and the database still takes writes
        store.add_character("krasses", "Ana", {"name": "Ana"})


CONCURRENT = """
import sys
from meneur.campaign.rolllog import log_roll
from meneur.campaign.sqlitelog import SqliteLog
from meneur.campaign.store import Store

url, number, count, light = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "light"
log = SqliteLog.open(url) if light else Store(url)
assert log is not None
print(type(log).__name__)
for n in range(count):
    log_roll(log, "generic", "roll", {"writer": number, "n": n}, [[n % 6 + 1]],
             {"total": n % 6 + 1}, "physical", character="Zed", state={"n": n})
log.close()
"""


@pytest.mark.parametrize("ways", ["store", "both"])
def test_concurrent_writers_keep_one_unbroken_chain(db_url: str, ways: str) -> None:
    """Four processes logging at once: every roll lands, in one chain without forks.
    ``both``: two of them write as a logged command does on SQLite (``SqliteLog``,
    without SQLAlchemy), two through the store: ``BEGIN IMMEDIATE`` serialises both."""
    if ways == "both" and not db_url.startswith("sqlite"):
        pytest.skip("the command's own way is SQLite's")
    with Store(db_url) as store:
        store.add_character("krasses", "Zed", {"name": "Zed"})
    writers = [
        subprocess.Popen(
            [
                sys.executable, "-c", CONCURRENT, db_url, str(number), "30",
                "light" if ways == "both" and number % 2 else "store",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for number in range(4)
    ]  # fmt: skip
    kinds = []
    for writer in writers:
        out, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0, errors
        kinds.append(out.strip())
    assert kinds == (["Store", "SqliteLog"] * 2 if ways == "both" else ["Store"] * 4)
    with Store(db_url) as store:
        entries = store.rolls()
        assert len(entries) == 120
        assert {(e["params"]["writer"], e["params"]["n"]) for e in entries} == {
            (str(w), n) for w in range(4) for n in range(30)
        }
        report = verify_log(store.export_log())
        assert report.entries == 120 and report.complete
        assert store.character("Zed").state == {"n": 29}  # the last roll of every writer
