"""Seeded JSON outputs of the commands, pinned while code moves (issue 14's golden set).

Every line of ``commands.txt`` runs in order in one folder holding copies of
``examples/`` and the output is compared with ``cli.json``. A difference is a change of
behaviour: if it is meant, regenerate with ``MENEUR_UPDATE_GOLDEN=1 pytest
tests/golden`` and review the diff of ``cli.json`` in the same commit.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent / "examples"
GOLDEN = HERE / "cli.json"


def _commands() -> list[str]:
    lines = (HERE / "commands.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


TIMINGS = frozenset({"seconds"})
"""Keys that measure time, not behaviour: left out of the comparison."""


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _run_all(capsys: pytest.CaptureFixture[str], folder: Path) -> dict[str, Any]:
    for sheet in EXAMPLES.glob("*/*"):
        shutil.copy(sheet, folder / sheet.name)
    results: dict[str, Any] = {}
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        for line in _commands():
            args = shlex.split(line)
            if "--json" not in args:
                args.append("--json")
            result = invoke(capsys, *args)
            try:
                out: Any = json.loads(result.out)
            except ValueError:
                out = result.out
            results[line] = {
                "status": result.status,
                "out": _without_timings(out),
                "err": result.err,
            }
    finally:
        os.chdir(cwd)
    return results


def test_seeded_json_outputs_are_unchanged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    results = _run_all(capsys, tmp_path)
    if os.environ.get("MENEUR_UPDATE_GOLDEN") == "1":
        text = json.dumps(results, ensure_ascii=False, indent=1, sort_keys=True)
        GOLDEN.write_text(text + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert set(results) == set(expected), "commands.txt and cli.json disagree: regenerate"
    changed = [line for line in results if results[line] != expected[line]]
    assert not changed, "outputs changed:\n" + "\n".join(changed)
