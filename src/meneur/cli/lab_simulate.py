"""Placeholder until the simulator lands."""

from __future__ import annotations

from typing import Any


def register_simulate(group: Any) -> None:
    """Add ``simulate fight`` and ``simulate test``."""
