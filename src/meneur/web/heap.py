"""The server process's garbage collector, settled once before it serves.

CPython's cyclic collector runs on counts of allocations. Under a busy table (500 rolls a
second over two processes, ``benchmarks/bench_web.py``) each server process ran about 240
young collections and one full collection per twelve seconds; the full one walked every
object start-up had built (the modules, the app, the templates, the rules' tables) and
paused the event loop for 57-71 ms, every page waiting: the slowest roll of the run. Those
objects live as long as the server, so walking them finds nothing.

So, once the app is built: collect, then freeze what is left (:func:`gc.freeze`: no
collection walks it again), and collect the young objects less often (a roll allocates
some thousands of them, nearly all freed by reference counting, not by the collector).
Measured on PostgreSQL, two processes, 4 rounds each way, alternated: p99 from request to
every client at 500 rolls/s paced 60-61 ms instead of 77-87, in the closed loop 56-57 ms
instead of 88-114; server CPU per roll 2.2-2.3 ms instead of 2.4-2.5; the runs meeting
every target of issue 16, 8 of 8 instead of 6 of 8.

Only ``meneur serve`` (and the benchmark that stands for it) calls :func:`settle`: frozen
objects are never freed, which suits a server's start-up, not a test session that builds
and drops an app per test.
"""

from __future__ import annotations

import gc

YOUNG_COLLECTION = 10_000
"""Allocations (less frees) of container objects between two young collections; Python's
default is 700. A few rolls' worth: cycles made by a roll are still collected within a
fraction of a second on a busy table, and their memory stays small."""


def settle() -> None:
    """Collect, freeze what start-up built, and space the young collections (see the
    module): call once, after the app is built and before it serves."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, old)
