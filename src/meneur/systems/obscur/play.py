"""Running the play rules (fight, health, survival, march) with dice sources.

The rules of ``combat``, ``health``, ``survival`` and ``encumbrance`` are pure functions
of the faces. :class:`StepCheck` wraps one of them as a :class:`Check`: the inherited
:meth:`Check.roll` draws the dice they ask for (seeded, secure or typed) and records
every face; the step is rebuilt from fresh copies on each call, so asking for more dice
never applies a rule twice. These checks have no exact odds (a whole fight has too many
branches): they stay out of ``System.checks()`` and their replay is tested directly.

Speed (measured, ``benchmarks/bench_obscur_play.py``): a fight asks for dice some sixty
times, and the inherited loop re-runs it from the start each time (44 fights/s). A step
that also gives ``run_reader`` is run once with a :class:`DrawingReader`, which draws
each batch when the rule takes it, in the same order and the same counts as the
inherited loop, so the same seed gives the same faces and the same outcome (tested).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.odds.dist import Dist
from meneur.rng import DiceSource
from meneur.systems.base import Check, DrawingReader, FaceReader, Faces, Rolled


@dataclass(frozen=True)
class Step:
    """A rule to run: ``run(faces)`` returns its result (and must be pure in faces)."""

    run: Callable[[Faces], Any]
    streams: int = 1
    run_reader: Callable[[FaceReader], Any] | None = None
    """The same rule reading a :class:`FaceReader` (enables the one-pass draw)."""


class StepCheck(Check[Step, Any]):
    name: ClassVar[str] = "play"
    die_sides: ClassVar[int] = 6

    def streams(self, params: Step) -> int:
        return params.streams

    def roll(self, params: Step, sources: Sequence[DiceSource]) -> Rolled[Step, Any]:
        if params.run_reader is None:
            return super().roll(params, sources)
        if len(sources) < params.streams:
            sources = [*sources, *([sources[-1]] * (params.streams - len(sources)))]
        reader = DrawingReader(sources, params.streams, 6)
        outcome = params.run_reader(reader)
        rolled = Rolled(params, tuple(tuple(f) for f in reader.drawn), outcome)
        return self.finished(rolled, sources[: params.streams])

    def resolve(self, params: Step, faces: Faces) -> Any:
        return params.run(faces)

    def key(self, outcome: Any) -> Hashable:
        return repr(outcome)

    def odds(self, params: Step) -> Dist[Hashable]:
        raise RuleError(N_("A whole fight or journey has no exact odds here."))

    def examples(self) -> Sequence[Step]:
        return ()

    def to_json(self, params: Step, outcome: Any) -> dict[str, Any]:
        return {"system": "obscur", "result": outcome}


def run_step(
    run: Callable[[Faces], Any],
    sources: Sequence[DiceSource],
    streams: int = 1,
    *,
    run_reader: Callable[[FaceReader], Any] | None = None,
) -> tuple[Any, Faces]:
    """Run a pure rule with dice drawn on demand; returns its result and every face."""
    rolled = StepCheck().roll(Step(run, streams, run_reader), sources)
    return rolled.outcome, rolled.faces
