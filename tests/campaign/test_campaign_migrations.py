"""Schema migrations: upgrade from the first revision, refuse a newer database."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from meneur.campaign import migrate
from meneur.campaign.chain import GENESIS, entry_hash, verify_log
from meneur.campaign.engine import make_engine
from meneur.campaign.errors import StorageError
from meneur.campaign.models import Base
from meneur.campaign.store import Store


def test_there_are_six_revisions_and_the_head_is_the_latest() -> None:
    assert (
        migrate.known_revisions()
        == {"0001", "0002", "0003", "0004", "0005", "0006"}
        == set(migrate.REVISIONS)
    )
    assert migrate.head_revision() == "0006" == migrate.HEAD


def test_upgrade_from_the_first_revision_keeps_the_data(db_url: str) -> None:
    """A database made by schema 0001 (with a campaign, a character and a roll) upgrades."""
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0001")
    assert "game_sessions" not in inspect(engine).get_table_names()
    entry = {
        "seq": 1,
        "at": "2026-01-02T03:04:05.000006Z",
        "who": "Zed",
        "system": "generic",
        "kind": "roll",
        "params": {"expression": "1d6"},
        "faces": [[4]],
        "decisions": [],
        "outcome": {"total": 4},
        "source": "physical",
        "commitment": None,
        "counter": None,
        "draws": [],
    }
    digest = entry_hash(GENESIS, entry)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO campaigns (id, name, name_key, created_at) "
                "VALUES (1, 'Vieille', 'vieille', :at)"
            ),
            {"at": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text("INSERT INTO settings (key, value) VALUES ('current_campaign', '1')")
        )
        connection.execute(
            text(
                "INSERT INTO characters (id, campaign_id, system, name, name_key, sheet, state,"
                " created_at, updated_at) VALUES (1, 1, 'krasses', 'Zed', 'zed', :sheet, '{}',"
                " :at, :at)"
            ),
            {"sheet": json.dumps({"skills": {"Bagarre": 2}}), "at": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO rolls (campaign_id, seq, at, character_id, who, system, kind, params,"
                " faces, decisions, outcome, source, commitment, counter, draws, prev_hash,"
                " entry_hash) VALUES (1, 1, :at, 1, 'Zed', 'generic', 'roll', :params, '[[4]]',"
                " '[]', :outcome, 'physical', NULL, NULL, '[]', :prev, :hash)"
            ),
            {
                "at": "2026-01-02 03:04:05.000006",
                "params": json.dumps({"expression": "1d6"}),
                "outcome": json.dumps({"total": 4}),
                "prev": GENESIS,
                "hash": digest,
            },
        )
    engine.dispose()
    with Store(db_url) as store:
        assert "game_sessions" in inspect(store.engine).get_table_names()
        with store.engine.connect() as connection:
            assert migrate.current_revision(connection) == "0006"
        assert store.current_campaign().name == "Vieille"
        assert store.character("Zed").sheet == {"skills": {"Bagarre": 2}}
        [old] = store.rolls()
        assert old["hash"] == digest
        report = verify_log(store.export_log())
        assert report.entries == 1 and report.complete


def test_models_match_the_latest_migration(db_url: str) -> None:
    """The ORM models and the migrations describe the same schema."""
    with Store(db_url) as store, store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_a_database_from_a_newer_meneur_is_refused_untouched(db_url: str) -> None:
    Store(db_url).close()
    engine = create_engine(make_engine(db_url).url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    engine.dispose()
    with pytest.raises(StorageError, match="0999"):
        Store(db_url)
    engine = create_engine(make_engine(db_url).url)
    with engine.connect() as connection:
        assert (
            connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0999"
        )
    engine.dispose()


def test_newer_database_is_one_line_and_exit_2(db_url: str) -> None:
    Store(db_url).close()
    engine = create_engine(make_engine(db_url).url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    engine.dispose()
    done = subprocess.run(
        [sys.executable, "-m", "meneur", "--lang", "en", "campaign", "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "Error: This database was made by a newer version of meneur (schema 0999, this one "
        "knows up to 0006): upgrade meneur to open it."
    ]


def test_0004_keeps_each_seats_character_as_its_hold(db_url: str) -> None:
    """A player seated with a character under schema 0003 still holds it after 0004."""
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0003")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO campaigns (id, name, name_key, created_at) "
                "VALUES (1, 'Vieille', 'vieille', :at)"
            ),
            {"at": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO characters (id, campaign_id, system, name, name_key, sheet, state,"
                " created_at, updated_at) VALUES (1, 1, 'krasses', 'Zed', 'zed', :sheet, '{}',"
                " :at, :at)"
            ),
            {"sheet": json.dumps({"skills": {"Bagarre": 2}}), "at": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO web_tables (id, campaign_id, gm_token, invite_token, combat,"
                " created_at) VALUES (1, 1, 'g', 'i', '{}', :at)"
            ),
            {"at": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO web_players (id, table_id, name, token, character_id, created_at)"
                " VALUES (5, 1, 'Ana', 't', 1, :at)"
            ),
            {"at": "2026-01-01 00:00:00"},
        )
    engine.dispose()
    with Store(db_url) as store:
        from meneur.web.tables import Tables

        tables = Tables(store)
        assert tables.holds(1) == {"zed": 5}
        [player] = tables.players(1)
        assert player.characters == ("Zed",)
        table = tables.get(1)
        assert table is not None and not table.locked and table.physical


def test_0006_numbers_no_seat_twice_and_keeps_the_holds(db_url: str) -> None:
    """A seat's private entries are keyed by its id: under SQLite a player who joined
    after the newest seat was removed took its number and saw its whispers and its rolls
    for itself. From 0006 an id is never given twice; a seat's holds survive the
    rebuild of the seats' table (its drop cascades into them)."""
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0005")
    at = {"at": "2026-01-01 00:00:00"}
    with engine.begin() as connection:
        for statement in (
            "INSERT INTO campaigns (id, name, name_key, created_at) VALUES (1, 'C', 'c', :at)",
            "INSERT INTO characters (id, campaign_id, system, name, name_key, sheet, state,"
            " created_at, updated_at) VALUES (1, 1, 'krasses', 'Zed', 'zed', '{}', '{}', :at,"
            " :at)",
            "INSERT INTO web_tables (id, campaign_id, gm_token, invite_token, combat,"
            " created_at) VALUES (1, 1, 'g', 'i', '{}', :at)",
            "INSERT INTO web_players (id, table_id, name, token, created_at)"
            " VALUES (5, 1, 'Ana', 't', :at)",
            "INSERT INTO web_holds (id, table_id, character_id, player_id) VALUES (1, 1, 1, 5)",
        ):
            connection.execute(text(statement), at)
    engine.dispose()
    with Store(db_url) as store:
        from meneur.web.tables import Tables

        tables = Tables(store)
        assert tables.holds(1) == {"zed": 5}
        table = tables.get(1)
        assert table is not None
        first = tables.join(table, "Bea")
        tables.kick(table, first.id)
        second = tables.join(table, "Mallory")
        assert second.id > first.id  # the removed seat's number is not given again
        assert tables.holds(1) == {"zed": 5}
