"""Fixtures of the web table tests: an app on SQLite and PostgreSQL, a GM and players."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from web.web_helpers import Table, make_table


@pytest.fixture(autouse=True)
def _private_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'private.db'}")
    monkeypatch.delenv("MENEUR_LOG", raising=False)
    monkeypatch.setenv("MENEUR_LANG", "fr")


@pytest.fixture(params=["sqlite", "postgresql"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    """A table on SQLite and on PostgreSQL (skipped with its reason when none is set)."""
    yield from make_table(tmp_path, database=request.param)
