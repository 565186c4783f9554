"""One cold measurement: a snippet run in a fresh Python process, cut off past a budget.

The exact-odds benchmarks time engines with empty caches and imports done anew; a fresh
process per figure gives that, and a timeout keeps a slow engine from holding the run.
"""

from __future__ import annotations

import subprocess
import sys


def child(code: str, budget: float) -> str | None:
    """The child's standard output, or None past the budget (seconds)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=budget, check=True
        )
    except subprocess.TimeoutExpired:
        return None
    return done.stdout
