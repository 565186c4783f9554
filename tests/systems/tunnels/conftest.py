"""Fixtures of the Tunnels tests: a user's own rule data files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from data_helpers import WriteData, user_data_folder
from meneur.systems.tunnels import data


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[WriteData]:
    """Write ``tunnels/NAME.toml`` in a user data folder; the tables are read afresh."""
    tables = (data.derived, data.levels, data.spells, data.gear)
    with user_data_folder(tmp_path, monkeypatch, "tunnels", tables) as write:
        yield write
