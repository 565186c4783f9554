"""The table's roll writer (:class:`meneur.web.rolls.Roller`) on its own: how often a roll
another process overtook is played again, what a slow luck verdict leaves, how many
writers SQLite gets, and that closing waits for the roll being written.

As ``Roller.checked`` promises: a roll whose sheet or committed dice changed meanwhile is
played again on them as they now are (nothing was logged or shown), at most ``RETRIES``
times; a roll's luck is logged only when the odds worker answers within ``LUCK_BUDGET``."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meneur.campaign.errors import DiceConflict, SheetConflict
from meneur.campaign.store import Store
from meneur.web.odds import SLOW
from meneur.web.rolls import LUCK_BUDGET, RETRIES, Roller


class Answers:
    """An odds worker that gives ``found`` at once and notes the budget it was given."""

    def __init__(self, found: Any) -> None:
        self.found = found
        self.budgets: list[float] = []

    def run(self, *_args: Any, budget: float) -> Any:
        self.budgets.append(budget)
        return self.found

    def close(self) -> None:
        pass


class Keyed:
    """A check whose outcome has a key (the luck question asks for it)."""

    def key(self, outcome: Any) -> Any:
        return outcome


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'roller.db'}")
    yield store
    store.close()


def overtaken(times: int, conflict: type[Exception]) -> tuple[list[int], Any]:
    """A roll that another process overtakes ``times`` times, then is written."""
    calls: list[int] = []

    def write() -> str:
        calls.append(len(calls))
        if len(calls) <= times:
            raise conflict("overtaken")
        return "written"

    return calls, write


@pytest.mark.parametrize("conflict", [SheetConflict, DiceConflict])
def test_a_roll_overtaken_is_played_again_up_to_RETRIES_times_in_all(
    store: Store, conflict: type[Exception]
) -> None:
    """Overtaken RETRIES - 1 times, the last attempt is written; overtaken on every one of
    the RETRIES attempts, the conflict reaches the caller (no endless loop, no silent
    loss), after exactly RETRIES attempts."""
    roller = Roller(store, odds=Answers(None))  # type: ignore[arg-type]
    try:
        calls, write = overtaken(RETRIES - 1, conflict)
        assert roller.checked(write) == "written" and len(calls) == RETRIES
        calls, write = overtaken(RETRIES, conflict)
        with pytest.raises(conflict):
            roller.checked(write)
        assert len(calls) == RETRIES
    finally:
        roller.close()


def test_each_attempt_of_a_roll_starts_with_no_sheet_read(store: Store) -> None:
    """The sheets an attempt read are the ones its entry is checked against: a retry
    starts afresh, and outside ``checked`` nothing is noted."""
    roller = Roller(store, odds=Answers(None))  # type: ignore[arg-type]
    seen: list[dict[str, Any]] = []

    def write() -> None:
        seen.append(roller.read_sheets())
        roller._reads.sheets["Aube"] = {"points": len(seen)}  # as a sheet read would note
        if len(seen) == 1:
            raise SheetConflict("overtaken")

    try:
        roller.checked(write)
        assert seen == [{}, {}]
        assert roller.read_sheets() == {}
    finally:
        roller.close()


@pytest.mark.parametrize("found", [SLOW, None])
def test_a_luck_verdict_too_slow_or_missing_logs_the_roll_unjudged(
    store: Store, found: Any
) -> None:
    """The writer asks the odds worker with LUCK_BUDGET (half a second) and takes no
    answer (too slow, or none) as no luck: ``None``, not a crash."""
    odds = Answers(found)
    roller = Roller(store, odds=odds)  # type: ignore[arg-type]
    try:
        assert roller.luck("tunnels", Keyed(), None, (3, 0)) is None
        assert odds.budgets == [LUCK_BUDGET] == [0.5]
    finally:
        roller.close()


def test_a_luck_verdict_in_time_is_logged_as_answered(store: Store) -> None:
    roller = Roller(store, odds=Answers({"rank": 0.25}))  # type: ignore[arg-type]
    try:
        assert roller.luck("tunnels", Keyed(), None, (3, 0)) == {"rank": 0.25}
    finally:
        roller.close()


def test_on_sqlite_one_writer_thread_writes_one_roll_at_a_time(store: Store) -> None:
    """SQLite has one writer: two rolls sent at once are written one after the other."""
    roller = Roller(store, odds=Answers(None))  # type: ignore[arg-type]
    busy: list[int] = []
    most: list[int] = []
    lock = threading.Lock()

    def write() -> None:
        with lock:
            busy.append(1)
            most.append(len(busy))
        time.sleep(0.05)
        with lock:
            busy.pop()

    async def both() -> None:
        await asyncio.gather(roller.run(write), roller.run(write), roller.run(write))

    try:
        asyncio.run(both())
        assert max(most) == 1
    finally:
        roller.close()


def test_closing_waits_for_the_roll_being_written(store: Store) -> None:
    """A server that stops (``close``) lets the roll under way finish writing first."""
    roller = Roller(store, odds=Answers(None))  # type: ignore[arg-type]
    started = threading.Event()
    written: list[str] = []

    def write() -> None:
        started.set()
        time.sleep(0.2)
        written.append("entry")

    roller.worker.submit(write)
    assert started.wait(5)
    roller.close()
    assert written == ["entry"]
