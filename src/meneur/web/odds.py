"""Exact odds off the event loop and off the writer: a worker process, a cache, a budget.

An exact distribution can be costly (a pool of 30 dice exploding toward 33 successes
took 45 s): computed in a request it held the table for everyone. Here every
exact computation of the table (the chances beside the buttons, the Dépassement
choices, the luck of a roll) runs in a separate process, answers are cached, and each
has a time budget: past it the process is stopped (and started again for the next
question), the answer is « not available » (shown « – », no luck verdict) and remembered,
so the same question never costs the budget twice.

The worker starts from a fork server (:mod:`multiprocessing`'s ``forkserver``), never
by forking the server itself, whose threads may hold locks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from meneur.locale import N_, gettext

if TYPE_CHECKING:
    from meneur.web.systems import WebAdapter

log = logging.getLogger("meneur.web")
BUDGET = 3.0
"""Seconds an exact computation may take before it is given up."""
CACHE = 2048
PRELOAD = ["meneur.web.odds", "meneur.web.systems", "meneur.campaign.recording"]
"""Imported once by the fork server, so that a worker answers its first question at once."""
SLOW = object()
"""A question that took more than the budget."""
SLOW_NOTE = N_(
    "These chances take longer to compute than the table waits: « – » stands for them"
    " (meneur odds computes them at the command line)."
)
"""Said beside the « – » of a sheet whose chances the worker gave up (past the budget)."""


@dataclass(frozen=True, slots=True)
class SheetOdds:
    """A sheet's exact chances: each trait's (``None``: none for it), and one trait's
    Dépassement or spend choices (tier, dice, cost, chance); ``error``: the sheet's."""

    chances: dict[str, Fraction | None] = field(default_factory=dict)
    pushes: list[tuple[int, int, int, Fraction]] = field(default_factory=list)
    error: str = ""
    refused: str = ""
    """Why a trait has no chance (the first refused; its name first when others have
    one): the options asked are outside the rules (a threshold of 0), said beside the
    « – » it shows."""


def why_none(found: SheetOdds | None) -> str:
    """What the page and the API say beside a « – »: the sheet's own refusal, or, when
    the worker gave up past its budget (``found`` is ``None``), :data:`SLOW_NOTE`."""
    return found.refused if found is not None else gettext(SLOW_NOTE)


def sheet_odds(
    adapter: WebAdapter, sheet: Mapping[str, Any], options: Any, pushes_of: str, language: str
) -> SheetOdds:
    """(worker) Each trait's exact chance, and the choices bought before the roll of one
    trait (the adapter travels to the worker: it holds no state). ``language``: the
    asker's, for a sheet's error worded here (an argument, so the cache keeps one answer
    per language: the worker's own is the server's)."""
    from meneur.errors import MeneurError
    from meneur.locale import labelled, set_language

    set_language(language)

    try:
        chances: dict[str, Fraction | None] = {}
        refusals: list[tuple[str, str]] = []
        for trait in adapter.traits(sheet):
            try:
                params = adapter.params(sheet, trait.name, options)
                adapter.paid(sheet, params)  # a roll the sheet cannot pay is refused: no chance
                chances[trait.name] = adapter.success(params)
            except MeneurError as error:
                chances[trait.name] = None
                refusals.append((trait.label, str(error)))
        pushes: list[tuple[int, int, int, Fraction]] = []
        if pushes_of and ("push" in adapter.option_fields or "spend" in adapter.option_fields):
            try:
                pushes = list(adapter.push_chances(sheet, pushes_of, options))
            except MeneurError:
                pushes = []
        refused = ""
        if refusals:
            label, reason = refusals[0]
            every = len(refusals) == len(chances)  # the options, not one trait
            refused = reason if every else labelled(label, reason)
        return SheetOdds(chances, pushes, refused=refused)
    except MeneurError as error:
        return SheetOdds(error=str(error))


def roll_luck(system: str, params: Any, key: Any) -> dict[str, Any] | None:
    """(worker) A roll's rank among its check's exact outcomes (``meneur log --luck``)."""
    from meneur.campaign.recording import judge
    from meneur.errors import MeneurError
    from meneur.systems.registry import find_system

    check = find_system(system).checks()["test"]

    class Known:  # the rolled outcome's key is already known: judge reads it through key()
        name = check.name

        def key(self, outcome: Any) -> Any:
            return key

        def score(self, value: Any) -> Any:
            return check.score(value)

        def score_odds(self, value: Any) -> Any:
            return check.score_odds(value)

    try:
        return judge(Known(), params, key)  # type: ignore[arg-type]
    except (MeneurError, TypeError):
        return None


class Odds:
    """The worker process, its cache and its budget (thread-safe, any thread)."""

    def __init__(self, budget: float = BUDGET) -> None:
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Any] = OrderedDict()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                from meneur.web.systems import adapters

                context = multiprocessing.get_context("forkserver")
                systems = [name for adapter in adapters().values() for name in adapter.preload]
                context.set_forkserver_preload(PRELOAD + systems)  # each worker starts warm
                self._pool = ProcessPoolExecutor(1, mp_context=context)
            return self._pool

    def _stop(self, pool: ProcessPoolExecutor) -> None:
        """Stop a worker stuck past its budget (the next question starts another)."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        # a pool another question stopped first has no processes left (``None``)
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def run(self, function: Callable[..., Any], *args: Any, budget: float | None = None) -> Any:
        """``function(*args)`` in the worker, or :data:`SLOW` past the budget (cached)."""
        key = function.__name__ + json.dumps(args, default=repr, sort_keys=True)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        pool = self._executor()
        try:
            result = pool.submit(function, *args).result(timeout=budget or self.budget)
        except FutureTimeout:
            self._stop(pool)
            result = SLOW
        except BrokenProcessPool:
            self._stop(pool)
            return SLOW  # not cached: a stop by another question, not this one's cost
        except Exception:  # a fault of the computation: no answer, never a failed request
            log.warning("exact odds failed in %s", function.__name__, exc_info=True)
            result = SLOW
        with self._lock:
            self._cache[key] = result
            while len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return result

    def sheet(
        self, adapter: WebAdapter, sheet: Mapping[str, Any], options: Any, pushes_of: str = ""
    ) -> SheetOdds | None:
        """A sheet's exact chances, or ``None`` past the budget."""
        from meneur.locale import current_language

        found = self.run(sheet_odds, adapter, sheet, options, pushes_of, current_language())
        return found if isinstance(found, SheetOdds) else None

    async def asheet(
        self, adapter: WebAdapter, sheet: Mapping[str, Any], options: Any, pushes_of: str = ""
    ) -> SheetOdds | None:
        return await asyncio.to_thread(self.sheet, adapter, sheet, options, pushes_of)
