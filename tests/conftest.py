"""Shared fixtures: every test runs in French, and never touches the user's own files.

No test writes to the real user data directory: the roll log is off and any database
URL points into the test's temporary folder (the campaign tests set their own).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from meneur.locale import set_language


@pytest.fixture(autouse=True)
def _private_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MENEUR_LOG", "0")
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'meneur-test.db'}")
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path / "data-overrides"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))


@pytest.fixture(autouse=True)
def _french() -> Iterator[None]:
    set_language("fr")
    yield
    set_language("fr")


@pytest.fixture
def english() -> None:
    """The messages in English for this test (``_french`` sets French back after it)."""
    set_language("en")
