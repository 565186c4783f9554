"""The progress bar shows itself only where someone can see it."""

from __future__ import annotations

import pytest


def test_a_bar_on_a_stderr_that_is_not_a_terminal_writes_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Standard error piped to a file: no bar and no stray line (rich's transient bar
    left a line break, which a script reading stderr takes for a message)."""
    from meneur.lab.progress import start_bar

    bar, task = start_bar("x", 10, 1)
    bar.update(task, completed=10)
    bar.stop()
    assert capsys.readouterr().err == ""
