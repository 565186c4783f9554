"""A user data folder (``MENEUR_DATA_DIR``) for the tests of data files a user overrides."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

WriteData = Callable[[str, str], None]
"""``write(name, text)``: ``<system>/<name>.toml`` in the user data folder."""


@contextmanager
def user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, system: str, tables: Sequence[Any]
) -> Iterator[WriteData]:
    """Point ``MENEUR_DATA_DIR`` at a folder of ``system``'s files; each write makes the
    cached ``tables`` read afresh, and they are forgotten again at the end."""
    folder = tmp_path / system
    folder.mkdir()
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))

    def write(name: str, text: str) -> None:
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
        for table in tables:
            table.cache_clear()

    try:
        yield write
    finally:
        for table in tables:
            table.cache_clear()
