"""A database's failures in our words (:mod:`meneur.campaign.reasons`): SQLAlchemy's and
the drivers' English (« Can't load plugin: sqlalchemy.dialects:foo », « file is not a
database », « database is locked ») reached French messages as it was."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from cli_helpers import invoke
from meneur.campaign.reasons import storage_reason
from meneur.locale import set_language


def _wrapped(message: str, kind: type[Exception] = OperationalError) -> Exception:
    return kind("SELECT 1", {}, sqlite3.OperationalError(message))


@pytest.mark.parametrize(
    ("error", "french"),
    [
        (_wrapped("database is locked"), "un autre programme l'utilise ; réessayez"),
        (_wrapped("unable to open database file"), "le fichier ne peut pas y être ouvert"),
        (_wrapped("file is not a database"), "le fichier n'est pas une base de données"),
        (_wrapped("attempt to write a readonly database"), "elle est en lecture seule"),
        (
            _wrapped('connection failed: FATAL:  database "x" does not exist'),
            "cette base de données n'existe pas sur le serveur",
        ),
        (
            _wrapped("UNIQUE constraint failed: characters.name_key", IntegrityError),
            "cette entrée existe déjà",
        ),
        (ModuleNotFoundError("No module named 'MySQLdb'", name="MySQLdb"), "pilote MySQLdb"),
    ],
)
def test_the_reasons_a_user_meets_are_ours(error: Exception, french: str) -> None:
    assert french in str(storage_reason(error))
    set_language("en")
    assert str(storage_reason(error)) != str(getattr(error, "orig", error))


def test_an_unknown_reason_keeps_the_librarys_first_line_bounded() -> None:
    reason = storage_reason(_wrapped("something odd happened.\nat line 2" + "x" * 500))
    assert reason == "something odd happened"


@pytest.mark.parametrize(
    ("url", "french"),
    [
        ("foo://bar", "meneur ne connaît aucune base de données du type « foo »"),
        ("sqlite:///{tmp}/garbage.db", "le fichier n'est pas une base de données de meneur"),
        ("sqlite:///{tmp}", "le fichier ne peut pas y être ouvert ni créé"),
    ],
)
def test_a_database_that_cannot_be_used_says_why_in_french(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    url: str,
    french: str,
) -> None:
    (tmp_path / "garbage.db").write_bytes(b"not a database at all" * 10)
    monkeypatch.setenv("MENEUR_DB_URL", url.format(tmp=tmp_path))
    result = invoke(capsys, "campaign", "new", "Table")
    assert result.status == 2
    assert result.err.endswith(".\n") and result.err.count("\n") == 1, result.err
    assert french in result.err and "sqlalchemy" not in result.err


def test_a_host_no_computer_answers_to_is_said_in_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --host nonexistent.invalid`` said « (Name or service not known) »."""

    def unknown(*args: object) -> None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket.socket, "bind", unknown)
    from meneur.cli.serve import check_port
    from meneur.errors import UsageError

    with pytest.raises(UsageError) as refused:
        check_port("nonexistent.invalid", 8123)
    assert "(aucun ordinateur ne répond à ce nom)" in str(refused.value)


def test_known_words_are_found_only_in_their_order() -> None:
    """A reason is known when the library's message holds its words in order, each after
    the end of the one before (« *» standing for any text)."""
    from meneur.campaign.reasons import _holds

    assert _holds("could not connect to server", ["could not", "server"])
    assert not _holds("ba", ["a", "b"])  # b stands before a
    assert not _holds("ab", ["ab", "b"])  # b is inside ab, not after it


def test_an_unknown_failure_keeps_its_first_line_cut_to_200_without_its_full_stop(
    english: None,
) -> None:
    long = "x" * 300
    assert storage_reason(_wrapped(long + "\nsecond line")) == "x" * 200
    assert storage_reason(_wrapped("something odd happened.")) == "something odd happened"
    kind = "k" * 60
    plugin = f"Can't load plugin: sqlalchemy.dialects:{kind}.driver"
    assert f"'{'k' * 40}'" in str(storage_reason(_wrapped(plugin)))
