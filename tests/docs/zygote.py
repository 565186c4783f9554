"""Run ``meneur`` command lines for the guide's examples, each in its own forked process.

Started once per document (``python zygote.py`` in the document's directory), it imports
the CLI once, then for each JSON request on standard input (``{"argv": [...], "env":
{...}}``) forks a child that runs ``meneur argv`` as the ``meneur`` script would, with its
standard output and error in one file, and answers ``{"status": N, "output": "..."}`` on
one line. A fork costs milliseconds where a fresh interpreter costs half a second a
command, and each command still runs in a process of its own (no state carried from one
command to the next). This process is single-threaded, so forking it is safe.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import signal
import sys
import tempfile
import traceback

import meneur
from meneur.cli.main import run

# Every module a command may import (all of meneur but the web table and the migration
# scripts, which Alembic loads itself), imported once here rather than in every child: the
# same code runs, only its import is shared. MENEUR_DOCS_PRELOAD=0 turns it off, to check
# that it changes no output.
SKIPPED = ("meneur.web", "meneur.campaign.migrations", "meneur.locale.build", "meneur.__main__")

SECONDS = 300  # a command that runs longer is killed (and reported)


def _child(argv: list[str], env: dict[str, str], out: int) -> None:
    os.environ.update(env)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    signal.alarm(SECONDS)
    sys.argv = ["meneur", *argv]
    status = 1
    try:
        status = run(argv)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # a traceback is a failure the guide's test must show
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def main() -> None:
    if os.environ.get("MENEUR_DOCS_PRELOAD", "1") != "0":
        for module in pkgutil.walk_packages(meneur.__path__, "meneur."):
            if not module.name.startswith(SKIPPED):
                importlib.import_module(module.name)
    for request_line in sys.stdin:
        request = json.loads(request_line)
        with tempfile.TemporaryFile() as captured:
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                _child(request["argv"], request["env"], captured.fileno())
            _, wait_status = os.waitpid(pid, 0)
            status = os.waitstatus_to_exitcode(wait_status)
            captured.seek(0)
            output = captured.read().decode("utf-8", "replace")
        print(json.dumps({"status": status, "output": output}), flush=True)


if __name__ == "__main__":
    main()
