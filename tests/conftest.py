"""Shared fixtures: every test runs in French unless it says otherwise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meneur.locale import set_language


@pytest.fixture(autouse=True)
def _french() -> Iterator[None]:
    set_language("fr")
    yield
    set_language("fr")
