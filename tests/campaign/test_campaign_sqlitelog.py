"""The SQLite roll log without SQLAlchemy (:mod:`meneur.campaign.sqlitelog`).

A logged command reaches an up-to-date SQLite file through the standard library: it must
write what the store writes (one chain, the same entries, the same checks), open only
where it is sure to be right, and leave everything else to the store.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_helpers import roll
from meneur.campaign import sqlitelog
from meneur.campaign.chain import verify_log
from meneur.campaign.errors import CampaignError, SheetConflict, StorageError
from meneur.campaign.paths import HEAD
from meneur.campaign.replay import replay_entries
from meneur.campaign.sqlitelog import SqliteLog, open_log, sqlite_file
from meneur.campaign.store import Store


@pytest.fixture
def url(tmp_path: Path) -> str:
    """An up-to-date SQLite campaign file with a current campaign and a character."""
    found = f"sqlite:///{tmp_path / 'camp.db'}"
    with Store(found) as store:
        store.create_campaign("Brume")
        store.add_character("krasses", "Zed", {"name": "Zed", "skills": {}})
    return found


@pytest.fixture
def log(url: str) -> Iterator[SqliteLog]:
    opened = SqliteLog.open(url)
    assert opened is not None
    yield opened
    opened.close()


def logged_command(url: str, argv: list[str], probe: str) -> str:
    """Run ``meneur argv`` logged to ``url`` in a fresh interpreter; the value of the
    expression ``probe`` afterwards, as printed."""
    script = (
        "import sys\n"
        "from meneur.cli.main import main\n"
        f"sys.argv = ['meneur', *{argv!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        f"print({probe})\n"
    )
    env = {**os.environ, "MENEUR_DB_URL": url, "MENEUR_LOG": "1", "MENEUR_LANG": "en"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_a_logged_command_imports_no_sqlalchemy(url: str) -> None:
    """The point of the module: a logged roll on an up-to-date SQLite file never imports
    SQLAlchemy (0.3 s of a 0.5 s command), and is logged all the same."""
    probe = "sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic'))"
    assert logged_command(url, ["roll", "2d6"], probe) == "[]"
    with Store(url) as store:
        assert [entry["params"]["expression"] for entry in store.rolls()] == ["2d6"]


def test_a_logged_system_test_does_not_load_the_dice_roller(url: str) -> None:
    """Finding a Tunnels roll's check for the log never imports the generic dice roller's
    modules (~30 ms): the roll is logged and replays all the same."""
    argv = ["test", "tunnels", "--dice", "3", "--threshold", "2"]
    assert logged_command(url, argv, "'meneur.dice.check' in sys.modules") == "False"
    with Store(url) as store:
        exported = store.export_log()
    report = replay_entries(exported["entries"])
    assert (report.entries, report.rolls, report.problems) == (1, 1, ())


def test_it_opens_only_an_existing_plain_sqlite_file_at_this_schema(
    url: str, tmp_path: Path
) -> None:
    """Anything it is not sure of opens the store, which creates, migrates or says why."""
    assert sqlite_file(url) == tmp_path / "camp.db"
    for other in (
        "postgresql://u@localhost/db",
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///file:x.db?mode=ro&uri=true",
        f"{url}?timeout=3",
        "sqlite:///a%20b.db",
        "sqlite:///~/meneur.db",
    ):
        assert sqlite_file(other) is None, other
        assert SqliteLog.open(other) is None, other
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    assert SqliteLog.open(missing) is None
    assert not (tmp_path / "none.db").exists()  # never created by the light path
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    assert SqliteLog.open(f"sqlite:///{garbage}") is None
    with pytest.raises(StorageError, match=r"pas SQLite"):
        open_log(f"sqlite:///{garbage}")  # the store's message, in the user's words
    with sqlite3.connect(tmp_path / "camp.db") as raw:
        raw.execute("UPDATE alembic_version SET version_num = '0005'")
    raw.close()
    assert SqliteLog.open(url) is None  # an older schema: the store migrates it
    with sqlite3.connect(tmp_path / "camp.db") as raw:
        raw.execute("UPDATE alembic_version SET version_num = ?", (HEAD,))
    raw.close()
    opened = open_log(url)
    assert isinstance(opened, SqliteLog)
    opened.close()


def test_its_entries_and_the_stores_make_one_chain(log: SqliteLog, url: str) -> None:
    """Appends by both ways alternate in one campaign: one chain, entries alike."""
    with Store(url) as store:
        for total in range(2, 8):
            writer = log if total % 2 else store
            entry = writer.append_roll(roll(total=total))
            assert entry["seq"] == total - 1
        exported = store.export_log()
        entries = store.rolls()
    assert verify_log(exported).entries == 6
    light, heavy = entries[1], entries[0]  # total 3 by the light log, 2 by the store
    for key in ("who", "system", "kind", "params", "decisions", "source", "commitment"):
        assert light[key] == heavy[key], key
    assert light["outcome"] == {"total": 3} and heavy["outcome"] == {"total": 2}
    assert light["who"] == "Zed"


def test_it_reads_what_the_store_reads(log: SqliteLog, url: str) -> None:
    with Store(url) as store:
        assert log.character("zed") == store.character("zed")
        assert log.character("Zed", campaign="brume") == store.character("Zed")
        assert log.committed_dice() is None
        store.start_session()
        dice = store.committed_dice()
    found = log.committed_dice()
    assert found is not None and dice is not None
    assert (found.commitment, found.start) == (dice.commitment, dice.start)


def test_after_a_failed_statement_it_reconnects(log: SqliteLog) -> None:
    """A failed statement drops its connection (its state is unknown); the next opens a
    fresh one, with the same settings."""
    with pytest.raises(StorageError):
        log.read_one("SELECT nothing FROM nowhere", {})
    assert log.character("Zed").name == "Zed"
    assert log.read_one("PRAGMA foreign_keys", {}) == (1,)


def test_a_missing_character_is_said_as_the_store_says_it(log: SqliteLog, url: str) -> None:
    with Store(url) as store, pytest.raises(CampaignError) as by_store:
        store.character("Nobody")
    with pytest.raises(CampaignError) as by_log:
        log.character("Nobody")
    assert str(by_log.value) == str(by_store.value)
    with pytest.raises(CampaignError) as unknown:
        log.append_roll(roll(who="Nobody"))
    assert "Nobody" in str(unknown.value)
    with Store(url) as store:
        assert store.rolls() == []  # refused: nothing written


def test_without_a_current_campaign_the_store_makes_one(tmp_path: Path) -> None:
    """Zero setup: an up-to-date file without a campaign gets ``default``, as the store
    does, and the roll lands in it."""
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    Store(url).close()  # created and migrated, no campaign yet
    log = SqliteLog.open(url)
    assert log is not None
    entry = log.append_roll(roll(who=None))
    log.close()
    with Store(url) as store:
        assert [info.name for info in store.campaigns()] == ["default"]
        assert [e["hash"] for e in store.rolls()] == [entry["hash"]]


def test_a_sheet_changed_since_it_was_read_is_refused(log: SqliteLog, url: str) -> None:
    """The row-lock check of two spends at once (``previous``) holds on this path too."""
    read = log.character("Zed").sheet
    with Store(url) as store:
        store.update_sheets({"Zed": {**read, "skills": {"Lame": 2}}})
    with pytest.raises(SheetConflict):
        log.append_roll(
            roll(), sheets={"Zed": {**read, "skills": {"Arc": 1}}}, previous={"Zed": read}
        )
    log.append_roll(
        roll(),
        sheets={"Zed": {**read, "skills": {"Lame": 2, "Arc": 1}}},
        previous={"Zed": {**read, "skills": {"Lame": 2}}},
    )
    with Store(url) as store:
        assert store.character("Zed").sheet["skills"] == {"Lame": 2, "Arc": 1}
        assert len(store.rolls()) == 1


def test_a_database_held_by_another_writer_is_said_busy(
    log: SqliteLog, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lock held past the wait: the user's words, nothing written, the log usable after."""
    monkeypatch.setattr(sqlitelog, "BUSY_TIMEOUT_MS", 50)
    log.close()
    quick = SqliteLog.open(url)
    assert quick is not None
    holder = sqlite3.connect(tmp_path / "camp.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StorageError, match=r"un autre programme"):
            quick.append_roll(roll())
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    quick.append_roll(roll())
    quick.close()
    with Store(url) as store:
        assert len(store.rolls()) == 1


def test_settings_of_a_connection_are_the_stores(url: str, tmp_path: Path) -> None:
    """WAL, foreign keys, the wait and the durability asked (``MENEUR_DB_SYNC``)."""
    log = SqliteLog.open(url)
    assert log is not None
    raw = log.connect()
    pragmas = {
        name: raw.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
    }
    log.close()
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": sqlitelog.BUSY_TIMEOUT_MS,
        "synchronous": 1,  # NORMAL
    }
    with Store(url) as store, store.engine.connect() as connection:
        heavy = connection.exec_driver_sql("PRAGMA synchronous").scalar()
    assert heavy == pragmas["synchronous"]


def test_a_wrong_durability_setting_is_refused_clearly(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MENEUR_DB_SYNC", "sometimes")
    with pytest.raises(StorageError, match="MENEUR_DB_SYNC"):
        SqliteLog.open(url)


def test_an_export_of_its_log_is_valid_json(log: SqliteLog, url: str) -> None:
    log.append_roll(roll())
    with Store(url) as store:
        text = json.dumps(store.export_log())
    assert verify_log(json.loads(text)).entries == 1
