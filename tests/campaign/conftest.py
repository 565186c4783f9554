"""Storage tests run against SQLite and PostgreSQL.

PostgreSQL comes from ``MENEUR_TEST_PG_URL`` (``bash scripts/postgres`` starts a
throwaway server and prints one). Without it the PostgreSQL cases are skipped with that
reason, except in CI (``CI=true``), where this conftest starts the server itself: the
storage suite never silently skips PostgreSQL there.

Every test gets its own database: a SQLite file in its temporary folder, or a fresh
``public`` schema on the PostgreSQL server. ``MENEUR_DB_URL`` points at it, so no test
ever touches the user's real database.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from pg_helpers import reset_postgres, worker_database

PG_ENV = "MENEUR_TEST_PG_URL"
ROOT = Path(__file__).resolve().parents[2]
SKIP_REASON = (
    "PostgreSQL storage tests skipped: set MENEUR_TEST_PG_URL "
    "(export MENEUR_TEST_PG_URL=$(bash scripts/postgres))"
)


@cache
def postgres_url() -> str | None:
    url = os.environ.get(PG_ENV, "").strip()
    if url:
        return worker_database(url)
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / "postgres")],
            capture_output=True,
            text=True,
            check=True,
        )
        return worker_database(done.stdout.strip().splitlines()[-1])
    return None


@pytest.fixture(autouse=True)
def _private_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test may reach the user's database: default to a file in the test's folder."""
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'private.db'}")
    monkeypatch.delenv("MENEUR_LOG", raising=False)
    monkeypatch.setenv("MENEUR_LANG", "fr")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A fresh, empty database URL (also set as MENEUR_DB_URL), SQLite or PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'meneur.db'}"
    else:
        found = postgres_url()
        if found is None:
            pytest.skip(SKIP_REASON)
        url = found
        reset_postgres(url)
    monkeypatch.setenv("MENEUR_DB_URL", url)
    yield url
