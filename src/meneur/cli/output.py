"""Where results go: rich for people, JSON for programs."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


@cache
def console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


@cache
def error_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def print_json(data: Any) -> None:
    """Print ``data`` as indented UTF-8 JSON on standard output (no rich markup)."""
    print(json.dumps(data, ensure_ascii=False, indent=2))


_hooks: list[Callable[[dict[str, Any]], None]] = []


@contextmanager
def on_emit(hook: Callable[[dict[str, Any]], None]) -> Iterator[None]:
    """Run ``hook(data)`` on each result the command emits, before it is printed.

    ``hook`` may add keys to ``data``. The lab's ``--plot`` draws the odds this way, so
    that no system's command needs to know about plots.
    """
    _hooks.append(hook)
    try:
        yield
    finally:
        _hooks.remove(hook)


def emit(data: dict[str, Any], render: Callable[[Console], None], *, as_json: bool) -> None:
    """Print a result: its JSON form with ``--json``, else its rich rendering.

    What was rolled is logged first (:func:`meneur.campaign.recording.record`): a result
    is never shown and then lost.
    """
    from meneur.campaign.recording import record

    for hook in list(_hooks):
        hook(data)
    record(data)
    if as_json:
        print_json(data)
        return
    try:
        render(console())
    except Exception as error:
        from rich.errors import MarkupError

        if not isinstance(error, MarkupError):
            raise
        render(plain_console())  # a user string with [...] slipped through: print it as is


@cache
def plain_console() -> Console:
    """A console that reads no markup: the fallback when a user string breaks it."""
    from rich.console import Console

    return Console(highlight=False, markup=False)
