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
