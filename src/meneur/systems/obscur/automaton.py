"""A small machine that reads dice one by one and knows, at the end, the best score
adjustment and whether every die shows 1.

The best adjustment (O-10) depends on which faces are present, up to three of each
(at most three dice are raised, and fewer for most faces: see :func:`caps`). Tracking
those capped counts gives a few hundred states; many behave alike, so they are merged by
partition refinement (Moore minimisation) into a few dozen classes. The odds engine and
the advisor then convolve dice over (successes, class) instead of over all face
multisets, which keeps exact odds fast for large pools.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from meneur.systems.obscur.depassement import best_assignment
from meneur.systems.obscur.scoring import Scoring

Raw = tuple[int, ...]


def caps(scoring: Scoring) -> Raw:
    """How many dice of each face can matter: the most increments of one adjustment
    that raise that face usefully, and at least 1 (presence: Maladresse is all 1s)."""
    from meneur.systems.obscur.depassement import ADJUST_VARIANTS, face_gain

    values = scoring.values
    return tuple(
        max(
            1,
            *(
                sum(1 for inc in variant if face_gain(values, face, inc) > 0)
                for variants in ADJUST_VARIANTS.values()
                for variant in variants
            ),
        )
        for face in range(1, 7)
    )


@dataclass(frozen=True, eq=False)
class Machine:
    start: int
    step: tuple[tuple[int, ...], ...]
    """step[cls][face - 1]: the class after one more die showing ``face``."""
    gains: tuple[tuple[int, int, int, int], ...]
    """gains[cls][tier]: successes the best adjustment of that tier adds."""
    all_ones: tuple[bool, ...]
    """Whether every die read so far shows 1 (and at least one die was read)."""
    raw_class: dict[Raw, int]
    caps: Raw

    def class_of(self, counts: tuple[int, ...] | list[int]) -> int:
        return self.raw_class[tuple(min(c, cap) for c, cap in zip(counts, self.caps, strict=True))]

    def advance(self, cls: int, face: int, count: int) -> int:
        """The class after ``count`` more dice showing ``face``."""
        return self.jumps[cls][face - 1][min(count, self.caps[face - 1])]

    @property
    def jumps(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """jumps[cls][face - 1][count]: the class after ``count`` (up to the cap) dice."""
        return _jumps(self)


@cache
def _jumps(table: Machine) -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for cls in range(len(table.step)):
        row = []
        for face in range(6):
            chain = [cls]
            for _ in range(table.caps[face]):
                chain.append(table.step[chain[-1]][face])
            row.append(tuple(chain))
        out.append(tuple(row))
    return tuple(out)


def _advance(raw: Raw, face: int, limits: Raw) -> Raw:
    grown = list(raw)
    grown[face - 1] = min(grown[face - 1] + 1, limits[face - 1])
    return tuple(grown)


@cache
def machine(scoring: Scoring) -> Machine:
    limits = caps(scoring)
    states: list[Raw] = [tuple(c) for c in product(*(range(cap + 1) for cap in limits))]
    index = {state: i for i, state in enumerate(states)}
    step = [[index[_advance(state, face, limits)] for face in range(1, 7)] for state in states]

    def output(state: Raw) -> tuple[tuple[int, ...], bool]:
        gains = tuple(best_assignment(state, tier, scoring)[0] for tier in range(4))
        ones = state[0] > 0 and not any(state[1:])
        return gains, ones

    outputs = [output(state) for state in states]
    labels = {out: n for n, out in enumerate(dict.fromkeys(outputs))}
    block = [labels[out] for out in outputs]
    while True:
        signatures = [(block[i], tuple(block[j] for j in step[i])) for i in range(len(states))]
        renumber = {sig: n for n, sig in enumerate(dict.fromkeys(signatures))}
        refined = [renumber[sig] for sig in signatures]
        if len(renumber) == len(set(block)):
            break
        block = refined
    count = len(set(block))
    class_step: list[tuple[int, ...]] = [()] * count
    gains: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * count
    ones: list[bool] = [False] * count
    for i in range(len(states)):
        class_step[block[i]] = tuple(block[j] for j in step[i])
        g, o = outputs[i]
        gains[block[i]] = (g[0], g[1], g[2], g[3])
        ones[block[i]] = o
    return Machine(
        start=block[index[(0, 0, 0, 0, 0, 0)]],
        step=tuple(class_step),
        gains=tuple(gains),
        all_ones=tuple(ones),
        raw_class={state: block[i] for i, state in enumerate(states)},
        caps=limits,
    )
