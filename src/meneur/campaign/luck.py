"""How lucky each player has really been: their dice against the exact odds of fair dice.

For each player and each kind of die, the log holds every face they rolled. The sum of
``n`` fair dice of ``s`` sides has an exact distribution; the *luck* of a player is the
probability that fair dice would have done at least as well as theirs (``P(sum >= what
they rolled)``): near 0 is very lucky, near 1 very unlucky, around 0.5 ordinary.

The distribution is computed exactly with integers (Kronecker substitution: the
polynomial ``(1 + x + ... + x^(s-1))^n`` is one big integer raised to the ``n``-th
power, which Python does fast). Past :data:`EXACT_BITS` (thousands of dice) it would
cost too much memory, and the normal approximation is used and marked as such.

That judges the faces alone (a die is a die, whatever the system did with it).
:func:`check_luck_table` judges what the dice *did*: each system roll logged by a
command carries, for every check it made, the roll's rank among the check's exact
outcomes (``P(worse) + P(as good)/2``, 0.5 on average under fair dice) and that rank's
exact variance (:func:`meneur.campaign.recording.judge`). A player's ranks add up; the
normal law (many independent rolls) says how likely fair dice were to do as well.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

EXACT_BITS = 2_000_000


@dataclass(frozen=True, slots=True)
class Luck:
    who: str
    sides: int
    dice: int
    total: int
    tail: float
    """P(fair dice sum >= total)."""
    exact: bool

    @property
    def mean(self) -> float:
        return self.total / self.dice

    @property
    def expected(self) -> float:
        return (self.sides + 1) / 2


def tail_at_least(sides: int, dice: int, total: int) -> tuple[Fraction | float, bool]:
    """``P(sum of `dice` fair d`sides` >= total)``, exact when affordable."""
    shifted = total - dice  # faces 0..sides-1
    top = dice * (sides - 1)
    if shifted <= 0:
        return Fraction(1), True
    if shifted > top:
        return Fraction(0), True
    width = (sides**dice).bit_length() + 1
    if width * (top + 1) > EXACT_BITS:
        mean = dice * (sides - 1) / 2
        sd = math.sqrt(dice * (sides * sides - 1) / 12)
        z = (shifted - 0.5 - mean) / sd  # continuity correction
        return 0.5 * math.erfc(z / math.sqrt(2)), False
    base = 1 << width
    one_die = sum(base**k for k in range(sides))
    packed = one_die**dice
    mask = base - 1
    upper = packed >> (width * shifted)
    count = 0
    while upper:
        count += upper & mask
        upper >>= width
    return Fraction(count, sides**dice), True


def luck_table(entries: Iterable[Mapping[str, Any]]) -> list[Luck]:
    """One line per player and die size; entries whose die sizes are unknown are left out."""
    faces: dict[tuple[str, int], list[int]] = {}
    for entry in entries:
        who = str(entry.get("who") or "-")
        for sides, face in dice_of(entry):
            faces.setdefault((who, sides), []).append(face)
    table = []
    for (who, sides), rolled in sorted(faces.items()):
        tail, exact = tail_at_least(sides, len(rolled), sum(rolled))
        table.append(Luck(who, sides, len(rolled), sum(rolled), float(tail), exact))
    return table


def dice_of(entry: Mapping[str, Any]) -> list[tuple[int, int]]:
    """``(sides, face)`` of the roller's dice in a log entry, when their sizes are known.

    A generic roll's JSON tree names each die's sides; a system's roll reads its first
    stream (the roller's; later streams are the opposition's) with the system's die.
    """
    found: list[tuple[int, int]] = []
    outcome = entry.get("outcome")
    if isinstance(outcome, dict) and isinstance(outcome.get("tree"), dict):
        _tree_dice(outcome["tree"], found)
        return found
    sides = _die_sides(entry)
    streams = entry.get("faces")
    if sides is None or not isinstance(streams, list) or not streams:
        return []
    first = streams[0] if isinstance(streams[0], list) else []
    return [(sides, face) for face in first if isinstance(face, int) and 1 <= face <= sides]


def _die_sides(entry: Mapping[str, Any]) -> int | None:
    for key in ("params", "outcome"):
        part = entry.get(key)
        if isinstance(part, dict) and isinstance(part.get("die_sides"), int):
            return int(part["die_sides"])
    system = entry.get("system")
    if isinstance(system, str) and system != "generic":
        try:
            from meneur.systems.registry import find_system

            return find_system(system).die_sides
        except Exception:  # an unknown or removed system: its dice cannot be judged
            return None
    return None


def _tree_dice(node: Mapping[str, Any], found: list[tuple[int, int]]) -> None:
    if node.get("type") == "dice":
        sides = node.get("sides")
        for die in node.get("dice", []):
            if isinstance(sides, int) and isinstance(die, dict) and "face" in die:
                found.append((sides, int(die["face"])))
        return
    for child in node.values():
        if isinstance(child, dict):
            _tree_dice(child, found)


@dataclass(frozen=True, slots=True)
class CheckLuck:
    """A player's rolls judged against each check's exact odds."""

    who: str
    rolls: int
    rank: float
    """The mean rank: 0.5 is what fair dice give on average, 1 the best possible."""
    tail: float
    """P(fair dice give a mean rank at least this high), normal approximation."""


def check_luck_table(entries: Iterable[Mapping[str, Any]]) -> list[CheckLuck]:
    """One line per player with judged rolls (see the module doc)."""
    sums: dict[str, list[float]] = {}
    for entry in entries:
        outcome = entry.get("outcome")
        judged = outcome.get("luck") if isinstance(outcome, dict) else None
        if not isinstance(judged, list):
            continue
        who = str(entry.get("who") or "-")
        for verdict in judged:
            if not isinstance(verdict, dict):
                continue
            rank, var = verdict.get("rank"), verdict.get("var")
            if isinstance(rank, int | float) and isinstance(var, int | float):
                total = sums.setdefault(who, [0.0, 0.0, 0.0])
                total[0] += 1
                total[1] += float(rank)
                total[2] += max(float(var), 0.0)
    table = []
    for who, (count, ranks, variance) in sorted(sums.items()):
        excess = ranks - count / 2
        if variance > 0:
            tail = 0.5 * math.erfc(excess / math.sqrt(2 * variance))
        else:
            tail = 0.5
        table.append(CheckLuck(who, int(count), ranks / count, tail))
    return table
