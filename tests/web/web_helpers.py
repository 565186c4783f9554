"""Helpers of the web table tests: an app on a private SQLite file, a GM and players."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import meneur.web.actions
from meneur.campaign.store import Store
from meneur.rng import PhysicalDice
from meneur.web.app import create_app
from meneur.web.state import WebSettings
from meneur.web.tables import TableInfo, Tables
from pg_helpers import reset_postgres, worker_database

TUNNELS = {
    "Force": "3",
    "Dextérité": "4",
    "Constitution": "2",
    "Volonté": "3",
    "Intelligence": "2",
    "Charisme": "3",
}
"""A Tunnels sheet's six characteristics (T-1) as the table's form takes them."""

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


@dataclass
class Table:
    client: TestClient
    store: Store
    info: TableInfo

    @property
    def gm(self) -> str:
        return f"/t/{self.info.id}/{self.info.gm_token}"

    @property
    def invite(self) -> str:
        return f"/t/{self.info.id}/join/{self.info.invite_token}"

    def join(self, name: str) -> str:
        response = self.client.post(self.invite, data={"name": name}, follow_redirects=False)
        assert response.status_code == 303, response.text
        return str(response.headers["location"])

    def csrf(self, base: str) -> str:
        page = self.client.get(base)
        assert page.status_code == 200, page.text
        found = CSRF.search(page.text)
        assert found is not None
        return found.group(1)

    def create(self, base: str, system: str, name: str, **fields: str) -> None:
        data = {"csrf": self.csrf(base), "action": "create", "system": system, "name": name}
        response = self.client.post(
            f"{base}/character", data={**data, **fields}, follow_redirects=False
        )
        assert response.status_code == 303, response.text

    def roll(self, base: str, character: str, trait: str, **options: object) -> dict[str, object]:
        response = self.client.post(
            f"/api{base}/roll", json={"character": character, "trait": trait, **options}
        )
        assert response.status_code == 200, response.text
        result: dict[str, object] = response.json()
        return result


PG_ENV = "MENEUR_TEST_PG_URL"
PG_SKIP = (
    "PostgreSQL web tests skipped: set MENEUR_TEST_PG_URL "
    "(export MENEUR_TEST_PG_URL=$(bash scripts/postgres))"
)


def postgres_url() -> str | None:
    """A database of its own on the test server (the storage tests reset theirs)."""
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI must set MENEUR_TEST_PG_URL: the web tests never skip PostgreSQL there")
        return None
    url = worker_database(url, "web")
    reset_postgres(url)
    return url


def make_table(
    tmp_path: Path, settings: WebSettings | None = None, database: str = "sqlite"
) -> Iterator[Table]:
    if database == "postgresql":
        url = postgres_url()
        if url is None:
            pytest.skip(PG_SKIP)
    else:
        url = f"sqlite:///{tmp_path / 'web.db'}"
    store = Store(url)
    app = create_app(store, settings=settings or WebSettings(roll_burst=1000, roll_rate=1000))
    info = Tables(store).default()
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Table(client, store, info)
    store.close()


def action_dice(monkeypatch: pytest.MonkeyPatch, *faces: int) -> None:
    """The next table action (a cooperation, a help) reads ``faces`` instead of secure dice."""
    monkeypatch.setattr(meneur.web.actions, "SecureDice", lambda: PhysicalDice(faces))
