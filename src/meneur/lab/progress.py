"""A rich progress bar that shows itself only when the work will last over a second.

Short work (most tables) prints nothing extra; long work (a large exact grid, a sweep)
gets a bar on standard error, so that standard output stays clean for ``--json`` and
``--csv``. The bar is transient: it disappears when the work ends.
"""

from __future__ import annotations

import time
from typing import Any

SHOW_AFTER = 1.0
"""Seconds the work is forecast to last before a bar is worth showing."""


def start_bar(description: str, total: int, completed: int) -> tuple[Any, Any]:
    """A started bar and its task: percentage and time left, on standard error, transient.

    One look for every bar that appears once work is forecast to be long (the exact grids'
    :class:`LazyBar` and the simulations' chunks), built where rich is imported only then.
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True, highlight=False)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f} %"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,  # piped to a file: no bar, not even a stray line
    )
    bar.start()
    return bar, bar.add_task(description, total=total, completed=completed)


class LazyBar:
    """``advance(n)`` as work is done; the bar starts once the forecast passes a second."""

    def __init__(self, total: int, description: str = "", *, enabled: bool = True) -> None:
        self.total = max(1, total)
        self.description = description
        self.enabled = enabled
        self.done = 0
        self.started = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)
            return
        if not self.enabled or self.done >= self.total:
            return
        elapsed = time.perf_counter() - self.started
        if elapsed * self.total / self.done > SHOW_AFTER:
            self.bar, self.task = start_bar(self.description, self.total, self.done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
