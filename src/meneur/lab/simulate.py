"""Monte Carlo with numpy: chunked (constant memory), with a progress bar and Ctrl-C.

:func:`run_chunks` splits ``runs`` into chunks of at most ``chunk`` runs, merges each
chunk's counts into one result, shows a rich progress bar when the run is forecast to
last over a second, and on Ctrl-C returns what was done so far (``interrupted``).

What a system simulates beyond a check (its fights, conflicts, spending policies) is
in its own package (``systems/<name>/lab.py``), built on :class:`Tally` and
:func:`run_chunks`; :func:`survival` turns any fight's event histogram into a curve.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from meneur.odds.montecarlo import wilson_interval

DEFAULT_CHUNK = 1 << 20
"""Runs per chunk: about 100 MB of temporaries at worst for an exploding 10-die pool."""
FIRST_CHUNK = 64
"""The first chunk's runs; each next chunk doubles, up to ``chunk``. Why: a bar can only
move between chunks, and one chunk of 100,000 heavy runs (60-dice fights of 1,000
rounds: 20 ms each) would run for half an hour with no bar and no way to stop it but
losing everything. The schedule depends on nothing but ``runs`` and ``chunk``, so a
seed still gives the same result on every machine."""


@dataclass
class Tally:
    """Counts merged over chunks: named totals and named histograms."""

    runs: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    histograms: dict[str, dict[int, int]] = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    arrays: dict[str, Any] = field(default_factory=dict)
    """Per-run results, kept only when asked for (the conformance test)."""

    def add(self, other: Tally) -> None:
        self.runs += other.runs
        for key, value in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + value
        for name, histogram in other.histograms.items():
            mine = self.histograms.setdefault(name, {})
            for bucket, value in histogram.items():
                mine[bucket] = mine.get(bucket, 0) + value

    def rate(self, key: str) -> dict[str, Any]:
        hits = self.counts.get(key, 0)
        low, high = wilson_interval(hits, self.runs)
        return {
            "rate": hits / self.runs if self.runs else 0.0,
            "hits": hits,
            "interval_95": [low, high],
        }


def histogram(values: np.ndarray[Any, Any]) -> dict[int, int]:
    """Counts of each value (non-negative integers: one ``bincount``, no sort)."""
    if values.size == 0:
        return {}
    counts = np.bincount(values)
    return {int(k): int(counts[k]) for k in np.flatnonzero(counts)}


def run_chunks(
    runs: int,
    one_chunk: Callable[[np.random.Generator, int], Tally],
    *,
    seed: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = True,
    description: str = "",
) -> Tally:
    """``runs`` simulations by chunks (:data:`FIRST_CHUNK`, then doubling up to
    ``chunk``); Ctrl-C keeps the chunks already done."""
    rng = np.random.default_rng(seed)
    total = Tally()
    started = time.perf_counter()
    bar: Any = None
    task: Any = None
    try:
        done, next_size = 0, FIRST_CHUNK
        while done < runs:
            size = min(next_size, chunk, runs - done)
            next_size *= 2
            total.add(one_chunk(rng, size))
            done += size
            elapsed = time.perf_counter() - started
            if progress and bar is None and done < runs and elapsed * runs / done > 1.0:
                from meneur.lab.progress import start_bar

                bar, task = start_bar(description, runs, done)
            elif bar is not None:
                bar.update(task, completed=done)
    except KeyboardInterrupt:
        total.interrupted = True
    finally:
        if bar is not None:
            bar.stop()
    total.seconds = time.perf_counter() - started
    return total


def survival(events: Mapping[int, int], runs: int, last: int) -> list[float]:
    """P(the event has not happened yet) after each round 0..last."""
    curve, gone = [], 0
    for k in range(last + 1):
        gone += events.get(k, 0)
        curve.append(1.0 - gone / runs if runs else 1.0)
    return curve


# --- one cell of any system's table -----------------------------------------------------


def cell_chunk(vector: Any) -> Callable[[np.random.Generator, int], Tally]:
    """One chunk of a vectorised roll: successes (as the table counts them) and values."""

    def one(rng: np.random.Generator, size: int) -> Tally:
        result = vector.sample(rng, size)
        won = vector.success(result)
        first = np.asarray(result[0])
        values = first.astype(np.int64)
        low = min(0, int(values.min())) if values.size else 0
        return Tally(
            runs=size,
            counts={"success": int(won.sum())},
            histograms={"values": {k + low: v for k, v in histogram(values - low).items()}},
        )

    return one
