"""Group commit of the roll log (:mod:`meneur.campaign.appending`), on SQLite and PostgreSQL.

The appends waiting while a group is written go together in the next transaction: the
chain stays one unbroken sequence, each request gets its own answer, and a request
refused on its own never takes the rest of its group with it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from campaign_helpers import roll
from meneur.campaign.appending import Appender
from meneur.campaign.chain import verify_log
from meneur.campaign.errors import CampaignError, DiceConflict, SheetConflict
from meneur.campaign.records import NewRoll
from meneur.campaign.store import Store


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with Store(db_url) as opened:
        opened.create_campaign("A")
        opened.add_character("krasses", "Zed", {"name": "Zed", "skills": {}}, campaign="A")
        yield opened


def held_groups(monkeypatch: pytest.MonkeyPatch, waiting: int) -> list[int]:
    """Record each group's size; the first group is held until ``waiting`` others queue."""
    sizes: list[int] = []
    write = Appender._write

    def recorded(self: Appender, group: list[Any]) -> None:
        if not sizes:
            deadline = time.monotonic() + 10
            while len(self._waiting) < waiting and time.monotonic() < deadline:
                time.sleep(0.005)
        sizes.append(len(group))
        write(self, group)

    monkeypatch.setattr(Appender, "_write", recorded)
    return sizes


def in_threads(count: int, work: Any) -> list[Any]:
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            results[index] = work(index)
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_waiting_appends_are_written_in_one_group_and_chained_in_order(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = held_groups(monkeypatch, waiting=7)
    entries = in_threads(8, lambda n: store.append_roll(roll(total=n + 2), campaign="A"))
    assert sizes[:2] == [1, 7]  # the first alone; the seven that waited meanwhile together
    assert sorted(e["seq"] for e in entries) == list(range(1, 9))
    log = store.export_log(campaign="A")
    report = verify_log(log)
    assert report.complete and report.entries == 8
    by_seq = {e["seq"]: e for e in log["entries"]}
    for entry in entries:  # each caller got its own entry, as stored
        assert by_seq[entry["seq"]]["hash"] == entry["hash"]
        assert by_seq[entry["seq"]]["outcome"] == entry["outcome"]


def test_a_request_refused_alone_leaves_its_group_written(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = held_groups(monkeypatch, waiting=5)

    def work(n: int) -> dict[str, Any]:
        return store.append_roll(roll("Nobody" if n == 3 else "Zed", total=n + 2), campaign="A")

    results = in_threads(6, work)
    assert max(sizes) > 1
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], CampaignError)
    assert "Nobody" in str(refused[0])
    report = verify_log(store.export_log(campaign="A"))
    assert report.complete and report.entries == 5  # no gap where the refused one was


def test_two_spends_from_one_sheet_in_one_group_apply_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second spend read the sheet before the first one changed it: refused."""
    before = store.character("Zed", campaign="A").sheet
    sizes = held_groups(monkeypatch, waiting=2)
    spent = {**before, "skills": {"Bagarre": 1}}  # a change the sheet allows

    def work(n: int) -> dict[str, Any]:
        if n == 0:  # holds the first group while the two spends queue
            return store.append_roll(roll(total=2), campaign="A")
        sheets = {"Zed": {**spent, "skills": {"Bagarre": 1, "Escalade": n}}}
        return store.append_roll(
            roll(total=3), sheets=sheets, campaign="A", previous={"Zed": before}
        )

    results = in_threads(3, work)
    assert sizes[:2] == [1, 2]
    conflicts = [r for r in results if isinstance(r, SheetConflict)]
    assert len(conflicts) == 1
    assert store.character("Zed", campaign="A").sheet["skills"]["Bagarre"] == 1
    assert verify_log(store.export_log(campaign="A")).entries == 2


def test_a_roll_made_on_a_sheet_changed_since_it_was_read_is_refused(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet the roll only read (it writes none) is checked too: a roll made on a sheet
    changed meanwhile is refused, alone or behind a spend from it in the same group."""
    before = store.character("Zed", campaign="A").sheet
    store.update_sheets({"Zed": {**before, "skills": {"Bagarre": 1}}}, campaign="A")
    with pytest.raises(SheetConflict):
        store.append_roll(roll(total=2), campaign="A", previous={"Zed": before})
    now = store.character("Zed", campaign="A").sheet
    assert store.append_roll(roll(total=2), campaign="A", previous={"Zed": now})["seq"] == 1
    sizes = held_groups(monkeypatch, waiting=2)

    def work(n: int) -> dict[str, Any]:
        if n == 0:  # holds the first group while the spend and the roll queue
            return store.append_roll(roll(total=2), campaign="A")
        if n == 1:
            sheets = {"Zed": {**now, "skills": {"Bagarre": 2}}}
            return store.append_roll(
                roll(total=3), sheets=sheets, campaign="A", previous={"Zed": now}
            )
        time.sleep(0.05)  # behind the spend
        return store.append_roll(roll(total=4), campaign="A", previous={"Zed": now})

    results = in_threads(3, work)
    assert sizes[:2] == [1, 2]
    assert isinstance(results[2], SheetConflict) and not isinstance(results[1], Exception)
    assert verify_log(store.export_log(campaign="A")).entries == 3


def test_a_group_the_database_refuses_whole_is_written_one_by_one(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group failing in the database (here: its third insert) answers each request
    alone: the others are written, the failing one gets the database's refusal."""
    sizes = held_groups(monkeypatch, waiting=3)
    group = Appender._group

    def failing(self: Appender, raw: Any, requests: list[Any]) -> None:
        if any(r.roll.outcome["total"] == 99 for r in requests):
            raise RuntimeError("refused")
        group(self, raw, requests)

    monkeypatch.setattr(Appender, "_group", failing)
    totals = [2, 3, 99, 4]
    results = in_threads(4, lambda n: store.append_roll(roll(total=totals[n]), campaign="A"))
    assert max(sizes) == 3
    assert [isinstance(r, RuntimeError) for r in results] == [False, False, True, False]
    report = verify_log(store.export_log(campaign="A"))
    assert report.complete and report.entries == 3


def test_dice_the_machine_drew_are_refused_while_a_game_session_is_open(store: Store) -> None:
    """A roll made before a game session opened, written after, would count in the session
    as dice that bypass its commitment (``meneur verify --strict`` fails on them): the log
    refuses it, under the lock that opening the session takes too, so the table draws it
    again from the session. Physical dice, and entries that drew no die, still go in."""
    drawn = NewRoll(
        system="generic",
        kind="roll",
        params={"expression": "2d6"},
        faces=[[2, 5]],
        outcome={"total": 7},
        source="secure",
        character="Zed",
    )
    assert store.append_roll(drawn, campaign="A")["seq"] == 1  # no session: written
    store.start_session(campaign="A")
    with pytest.raises(DiceConflict):
        store.append_roll(drawn, campaign="A")
    assert store.append_roll(roll(total=7), campaign="A")["source"] == "physical"
    no_die = NewRoll(
        system="generic", kind="note", params={}, faces=[], outcome={}, source="secure"
    )
    assert store.append_roll(no_die, campaign="A")["seq"] == 3
    store.reveal_session(campaign="A")
    assert store.append_roll(drawn, campaign="A")["seq"] == 4
    assert verify_log(store.export_log(campaign="A")).entries == 4


def test_a_group_holds_at_most_GROUP_LIMIT_appends(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GROUP_LIMIT``: of the appends waiting while the first group is written, the next
    group takes GROUP_LIMIT; the ones left over lead the group after it. The chain stays
    one unbroken sequence."""
    from meneur.campaign.appending import GROUP_LIMIT

    count = GROUP_LIMIT + 3
    sizes = held_groups(monkeypatch, waiting=count - 1)
    results = in_threads(count, lambda n: store.append_roll(roll(total=n % 5 + 2), campaign="A"))
    assert sizes == [1, GROUP_LIMIT, 2]
    # each caller is answered with its own entry, none left out of the group it led
    assert [result["outcome"]["total"] for result in results] == [n % 5 + 2 for n in range(count)]
    log = store.export_log(campaign="A")
    assert [e["seq"] for e in log["entries"]] == list(range(1, count + 1))
    assert sorted(result["seq"] for result in results) == list(range(1, count + 1))
    logged = {e["seq"]: e["outcome"]["total"] for e in log["entries"]}
    assert all(logged[result["seq"]] == result["outcome"]["total"] for result in results)
    report = verify_log(log)
    assert report.complete and report.entries == count


def test_a_group_holds_the_appends_of_one_campaign_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group takes the appends waiting *for the same campaign*: appends to A and to B
    that wait together are written each in its own campaign's chain (A's three, B's two),
    in groups of one campaign."""
    store.create_campaign("B")
    store.add_character("krasses", "Zed", {"name": "Zed", "skills": {}}, campaign="B")
    groups: list[set[str | None]] = []
    write = Appender._write

    def recorded(self: Appender, group: list[Any]) -> None:
        if not groups:  # the first group is held until the four others queue
            deadline = time.monotonic() + 10
            while len(self._waiting) < 4 and time.monotonic() < deadline:
                time.sleep(0.005)
        groups.append({request.campaign for request in group})
        write(self, group)

    monkeypatch.setattr(Appender, "_write", recorded)
    campaigns = ["A", "A", "B", "A", "B"]

    def work(n: int) -> dict[str, Any]:
        if n:
            time.sleep(0.05)  # behind the first, held
        return store.append_roll(roll(total=n + 2), campaign=campaigns[n])

    results = in_threads(5, work)
    assert not [r for r in results if isinstance(r, Exception)]
    assert all(len(campaigns_of_group) == 1 for campaigns_of_group in groups), groups
    assert len(groups) == 3  # A alone (held), then A's two and B's two: two groups
    for name, count in (("A", 3), ("B", 2)):
        log = store.export_log(campaign=name)
        report = verify_log(log)
        assert report.complete and report.entries == count, name
        totals = sorted(e["outcome"]["total"] for e in log["entries"])
        assert totals == sorted(n + 2 for n, c in enumerate(campaigns) if c == name)


def test_an_append_to_a_campaign_that_does_not_exist_names_it_and_logs_nothing(
    store: Store,
) -> None:
    """The group's campaign is read under its lock: a campaign that does not exist is
    refused in a line that names it (« Aucune campagne nommée « Nowhere ». »), and no chain
    gets the entry."""
    with pytest.raises(CampaignError) as refused:
        store.append_roll(roll(who=None), campaign="Nowhere")
    assert str(refused.value) == "Aucune campagne nommée « Nowhere »."
    assert verify_log(store.export_log(campaign="A")).entries == 0


def test_the_thread_that_leads_a_group_writes_its_own_append_in_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The module's promise: the thread that finds no group being written takes every
    append waiting for the same campaign, *its own included*, GROUP_LIMIT at most; each
    caller is answered with its own entry. Here GROUP_LIMIT is 2 and two appends already
    wait when a third caller finds no group being written: its call must return its own
    entry (the code wrote the two that waited and failed it with AssertionError; its
    roll was logged later by another group)."""
    from meneur.campaign import appending
    from meneur.campaign.appending import Append

    monkeypatch.setattr(appending, "GROUP_LIMIT", 2)
    appender = store._appender
    waited = [Append(roll(total=n), None, {}, "A", {}) for n in (2, 3)]
    appender._waiting.extend(waited)
    entry = appender.append(Append(roll(total=4), None, {}, "A", {}))
    assert entry["outcome"] == {"total": 4}
