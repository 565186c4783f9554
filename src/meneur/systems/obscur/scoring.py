"""Successes per face (O-2), and the zero skill / zero attribute rules (O-5, O-6).

A scoring is just the number of successes each face 1..6 gives; the rules that change
which faces count are different scorings, so the roll, the odds engine and the advisor
all read successes from the same small tuple.
"""

from __future__ import annotations

from enum import StrEnum


class Scoring(StrEnum):
    NORMAL = "normal"
    ZERO_SKILL = "zero_skill"
    ZERO_ATTRIBUTE = "zero_attribute"
    ZERO_BOTH = "zero_both"

    @classmethod
    def of(cls, *, zero_skill: bool, zero_attribute: bool) -> Scoring:
        if zero_skill and zero_attribute:
            return cls.ZERO_BOTH
        if zero_attribute:
            return cls.ZERO_ATTRIBUTE
        if zero_skill:
            return cls.ZERO_SKILL
        return cls.NORMAL

    @property
    def values(self) -> tuple[int, int, int, int, int, int]:
        """Successes of faces 1..6 (index 0 is face 1)."""
        return _VALUES[self]


_VALUES: dict[Scoring, tuple[int, int, int, int, int, int]] = {
    # O-2: 1-3 nothing, 4-5 one success, 6 two.
    Scoring.NORMAL: (0, 0, 0, 1, 1, 2),
    # O-5: a Capacité/Compétence at 0: only 6s count, still 2 each.
    Scoring.ZERO_SKILL: (0, 0, 0, 0, 0, 2),
    # O-6: a Caractéristique/Connaissance at 0: only 6s, 1 each (both zero: the same).
    Scoring.ZERO_ATTRIBUTE: (0, 0, 0, 0, 0, 1),
    Scoring.ZERO_BOTH: (0, 0, 0, 0, 0, 1),
}


def successes(faces: tuple[int, ...] | list[int], scoring: Scoring) -> int:
    values = scoring.values
    return sum(values[face - 1] for face in faces)
