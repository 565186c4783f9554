"""Where results go: rich for people, JSON for programs."""

from __future__ import annotations

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
    import json  # here: only --json prints it (~3 ms of every start otherwise)

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

    The rendering is made first, unseen: a result that cannot be shown (a user data file
    it reads is broken) fails the command before anything is logged or printed, and a
    user string with ``[...]`` that breaks the markup is shown once, as typed, not half in
    colours and then again. Then what was rolled is logged (the roll log of
    :mod:`meneur.cli.journal`), then shown: a result is never shown and then lost.
    """
    from meneur.cli.journal import journal

    for hook in list(_hooks):
        hook(data)
    shown = None if as_json else _rendered(render)
    log = journal()
    if log is not None:
        log.record(data, *_command())
    if shown is None:
        print_json(data)
        return
    out = console()
    out.file.write(shown)
    out.file.flush()


def _rendered(render: Callable[[Console], None]) -> str:
    """What ``render`` prints, as the terminal would show it; with the markup read as plain
    text when a user string breaks it."""
    from rich.errors import MarkupError

    for target in (console(), plain_console()):
        try:
            with target.capture() as captured:
                render(target)
        except MarkupError:
            continue
        return captured.get()
    raise AssertionError("a console without markup raises no MarkupError")  # pragma: no cover


@cache
def plain_console() -> Console:
    """A console that reads no markup: the fallback when a user string breaks it."""
    from rich.console import Console

    return Console(highlight=False, markup=False)


def _command() -> tuple[list[str], dict[str, Any]]:
    """The command's words (``["test", "<system>"]``) and its options as JSON values."""
    from meneur.cli import clickcompat as click

    context = click.get_current_context(silent=True)
    if context is None:
        return [], {}
    words = context.command_path.split()[1:]
    flags = {
        param.name: (param.opts[0].lstrip("-") if param.opts else param.name)
        for param in context.command.params
    }
    options = {
        flags.get(name) or name: _jsonable(value)
        for name, value in context.params.items()
        if name != "as_json" and value not in (None, False, (), [])
    }
    return words, options


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value  # None stays null: the text "None" read as a name in the log
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    values = getattr(value, "values", None)
    if isinstance(values, tuple):  # typed faces
        return [_jsonable(item) for item in values]
    from dataclasses import fields, is_dataclass

    if is_dataclass(value) and not isinstance(value, type):  # a parsed option: its fields
        return {field.name: _jsonable(getattr(value, field.name)) for field in fields(value)}
    return str(value)
