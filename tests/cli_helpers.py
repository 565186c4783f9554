"""Run the CLI in-process, capturing what a user would see and the exit status."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from meneur.cli.main import run


@dataclass
class Result:
    status: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def invoke(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    status = run(list(args))
    captured = capsys.readouterr()
    return Result(status, captured.out, captured.err)


def one_line_error(result: Result) -> str:
    """The one line a refusal prints (status 2, no traceback): bad input is said once."""
    assert result.status == 2, result
    assert "Traceback" not in result.err and "Traceback" not in result.out
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    return lines[0]


def recorded_bars(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every progress bar a command makes from now on (never shown): what each was told
    to expect (``total``) and was told done (``done``)."""
    from meneur.lab import progress

    bars: list[Any] = []

    class Recording(progress.LazyBar):
        def __init__(self, total: int, description: str = "", **kwargs: Any) -> None:
            super().__init__(total, description, enabled=False)
            bars.append(self)

    monkeypatch.setattr(progress, "LazyBar", Recording)
    return bars


def started_bars(monkeypatch: pytest.MonkeyPatch, task: object = None) -> list[list[Any]]:
    """Every bar ``progress.start_bar`` starts from now on (never shown), as a list: its
    description, total and starting count, then what it is told: each ``update``'s
    count, the task each ``advance`` names (``start_bar`` hands out ``task``), "stop"."""
    from meneur.lab import progress

    bars: list[list[Any]] = []

    class Bar:
        def __init__(self, record: list[Any]) -> None:
            self.record = record

        def update(self, _task: object, completed: int) -> None:
            self.record.append(completed)

        def advance(self, advanced: object) -> None:
            self.record.append(advanced)

        def stop(self) -> None:
            self.record.append("stop")

    def start_bar(description: str, total: int, completed: int) -> tuple[Bar, object]:
        bars.append([description, total, completed])
        return Bar(bars[-1]), task

    monkeypatch.setattr(progress, "start_bar", start_bar)
    return bars
