"""Run a guide's commands in order, in a directory and database of their own.

See ``examples.py`` for the conventions; ``zygote.py`` runs each command in a process of
its own.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from docs.examples import Example, trimmed_output

ROOT = Path(__file__).resolve().parents[2]
ZYGOTE = Path(__file__).with_name("zygote.py")
COLUMNS = "100"


def _workdir(tmp: Path) -> Path:
    """A directory holding the examples as the guides name them (see examples.py)."""
    work = tmp / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    for folder in sorted((ROOT / "examples").iterdir()):
        if folder.is_dir():
            for item in sorted(folder.iterdir()):
                if item.is_file():
                    shutil.copy2(item, work / item.name)
    (work / "docs" / "img").mkdir(parents=True)
    return work


# The caller's settings that would change what a command prints or where it writes.
_NOT_INHERITED = ("MENEUR_", "PYTEST_", "FORCE_COLOR", "CLICOLOR", "TERM", "COLUMNS", "LINES")


def _environment(tmp: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key.startswith("MENEUR_DOCS_") or not key.startswith(_NOT_INHERITED)
    }
    env.update(
        MENEUR_DB_URL=f"sqlite:///{tmp / 't.db'}",
        MENEUR_LANG="fr",
        MENEUR_DATA_DIR=str(tmp / "data-overrides"),
        XDG_DATA_HOME=str(tmp / "xdg-data"),
        XDG_CONFIG_HOME=str(tmp / "xdg-config"),
        COLUMNS=COLUMNS,
        LINES="50",
        NO_COLOR="1",
        TERM="dumb",
        PYTHONIOENCODING="utf-8",
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
    )
    return env


class Runner:
    """The document's commands, run in order by one forking helper (``zygote.py``)."""

    def __init__(self, tmp: Path) -> None:
        self.cwd = _workdir(tmp)
        self.process = subprocess.Popen(
            [sys.executable, str(ZYGOTE)],
            cwd=self.cwd,
            env=_environment(tmp),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.status = 0

    def run(self, example: Example) -> tuple[int, list[str]]:
        if example.is_status_echo:
            return 0, [str(self.status)]
        words = shlex.split(example.command, comments=True)
        env: dict[str, str] = {}
        while "=" in words[0] and words[0] != "meneur":
            key, value = words.pop(0).split("=", 1)
            env[key] = value
        request: dict[str, Any] = {"argv": words[1:], "env": env}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the command runner stopped on: $ {example.command}")
        answer = json.loads(line)
        self.status = answer["status"]
        return answer["status"], trimmed_output(answer["output"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)
