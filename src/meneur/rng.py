"""Dice sources: where faces come from. Always passed in, never a module-global state.

Three kinds share one protocol:

* :class:`SecureDice` (default for live play): ``secrets``-grade, unpredictable;
* :class:`SeededDice` (``--seed``): reproducible across runs, platforms and Python
  versions, because it draws raw bits from a Mersenne Twister seeded by an integer
  (``getrandbits`` is stable) and maps them to faces by rejection, never by modulo;
* :class:`PhysicalDice` (``--faces 1,1,4,6``): the faces a player rolled at the table,
  consumed in order; running short says how many dice are missing, and
  :meth:`PhysicalDice.finish` says which faces were not used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from meneur.errors import DiceSourceError, LimitError, UsageError
from meneur.locale import N_, ngettext
from meneur.text import is_digits

MAX_SEED = 2**64 - 1
MAX_FACES_TEXT = 10_000
MAX_SIDES = 1_000_000


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll dice. ``kind`` is recorded in the roll log."""

    @property
    def kind(self) -> str: ...

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` faces each."""
        ...

    def finish(self) -> None:
        """Called when a roll is over: a physical source complains about unused faces."""
        ...


def _check_request(sides: int, count: int) -> None:
    if not 1 <= sides <= MAX_SIDES:
        raise LimitError(
            N_("A die has from 1 to {limit} sides, not {sides}."), limit=MAX_SIDES, sides=sides
        )
    if count < 0:
        raise UsageError(N_("Cannot roll a negative number of dice ({count})."), count=count)


_SYSTEM = random.SystemRandom()
"""The generator behind :mod:`secrets` (``os.urandom``), without importing ``secrets``:
that module pulls ``hmac`` and OpenSSL's ``_hashlib`` into every command's start
(~10 ms) for a function it takes from this same class."""


class SecureDice:
    """Unpredictable dice from the operating system's secure generator."""

    kind = "secure"

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        _check_request(sides, count)
        return tuple(_SYSTEM.randrange(sides) + 1 for _ in range(count))

    def finish(self) -> None:
        return None


class SeededDice:
    """Reproducible dice: the same seed gives the same faces everywhere."""

    kind = "seeded"

    def __init__(self, seed: int) -> None:
        self.seed = validate_seed(seed)
        self._bits = random.Random(self.seed)

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        _check_request(sides, count)
        return tuple(self._face(sides) for _ in range(count))

    def _face(self, sides: int) -> int:
        if sides == 1:
            return 1
        width = (sides - 1).bit_length()
        while True:  # rejection sampling: uniform, no modulo bias
            value = self._bits.getrandbits(width)
            if value < sides:
                return value + 1

    def finish(self) -> None:
        return None


class PhysicalDice:
    """Faces typed by a player, consumed in order."""

    kind = "physical"

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = tuple(faces)
        self.used = 0

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        _check_request(sides, count)
        drawn = self.faces[self.used : self.used + count]
        for face in drawn:
            if not 1 <= face <= sides:
                raise DiceSourceError(
                    N_("The face {face} is impossible on a die of {sides} sides."),
                    face=face,
                    sides=sides,
                )
        if len(drawn) < count:
            missing = count - len(drawn)
            raise DiceSourceError(
                ngettext(
                    "Not enough dice typed: {missing} die is missing of {needed}.",
                    "Not enough dice typed: {missing} dice are missing of {needed}.",
                    missing,
                ),
                missing=missing,
                needed=self.used + count,
            )
        self.used += count
        return drawn

    @property
    def unused(self) -> tuple[int, ...]:
        return self.faces[self.used :]

    def finish(self) -> None:
        if self.unused:
            raise DiceSourceError(
                ngettext(
                    "Too many dice typed: {count} die not used ({unused}).",
                    "Too many dice typed: {count} dice not used ({unused}).",
                    len(self.unused),
                ),
                count=len(self.unused),
                unused=", ".join(map(str, self.unused)),
            )


class RecordingDice:
    """Wraps a source and remembers every face it served, in order (for logs and replays)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.faces: list[int] = []

    @property
    def kind(self) -> str:
        return self.source.kind

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        faces = self.source.roll(sides, count)
        self.faces.extend(faces)
        return faces

    def finish(self) -> None:
        self.source.finish()


class HeldDice:
    """A source whose ``finish`` waits for its owner: one roll of many (a fight's rounds, a
    scene's steps) reads one stream of typed faces, and only the owner finishes it. The
    wrapped source stays reachable (``.source``), so the roll log still sees it."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source

    @property
    def kind(self) -> str:
        return self.source.kind

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return self.source.roll(sides, count)

    def finish(self) -> None:
        return None


def validate_seed(seed: int) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(N_("A seed is a whole number from 0 to {limit}."), limit=MAX_SEED)
    return seed


def parse_seed(text: str) -> int:
    """Parse ``--seed``: a whole number from 0 to 2**64 - 1, with a clear error otherwise."""
    from meneur.whole import parse_whole

    return parse_whole(text, low=0, high=MAX_SEED)


def parse_faces(text: str) -> tuple[int, ...]:
    """Parse ``--faces 1,1,4,6`` (commas or spaces); each face is checked when it is used."""
    if len(text) > MAX_FACES_TEXT:
        raise LimitError(N_("The faces are limited to {limit} characters."), limit=MAX_FACES_TEXT)
    items = [item for item in text.replace(",", " ").split() if item]
    if not items:
        raise UsageError(N_("No faces given: type them like 1,1,4,6."))
    if any(not part.strip() for part in text.split(",")) and "," in text:  # 1,,2: a slip
        raise UsageError(
            N_("'{text}' has nothing between two commas: type faces like 1,1,4,6."),
            text=text,
        )
    faces: list[int] = []
    for item in items:
        if not is_digits(item) or len(item) > 7:
            raise UsageError(N_("'{item}' is not a die face: type faces like 1,1,4,6."), item=item)
        faces.append(int(item))
    return tuple(faces)


def make_source(*, seed: int | None = None, faces: Sequence[int] | None = None) -> DiceSource:
    """The source a command asked for: physical faces, a seed, or secure dice."""
    if faces is not None and seed is not None:
        raise UsageError(N_("Give either typed faces or a seed, not both."))
    if faces is not None:
        return PhysicalDice(faces)
    if seed is not None:
        return SeededDice(seed)
    return SecureDice()


__all__ = [
    "DiceSource",
    "PhysicalDice",
    "RecordingDice",
    "SecureDice",
    "SeededDice",
    "make_source",
    "parse_faces",
    "parse_seed",
]
