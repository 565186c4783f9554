"""Acquisition (O-41): is an item available, and at what price.

Disponibilité is the successes of 3 dice; the item is available when it beats the
Rareté (1-6, raised by distance through a provisional data table), at
(150 - (Disponibilité - Rareté) x 10) % of the reference price.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.odds.dist import Dist
from meneur.systems.base import FaceReader, Faces
from meneur.systems.obscur.odds import plain_dist
from meneur.systems.obscur.scoring import Scoring, successes
from meneur.systems.obscur.tables import acquisition_table

MAX_RARITY = 6
MAX_PRICE = 10**12


@dataclass(frozen=True, slots=True)
class AcquireParams:
    rarity: int
    distance: int = 0
    price: Fraction | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.rarity <= MAX_RARITY:
            raise RuleError(
                N_("A Rareté is 1 to {limit}, not {rarity}."), limit=MAX_RARITY, rarity=self.rarity
            )
        levels = len(acquisition_table().distance)
        if not 0 <= self.distance < levels:
            raise RuleError(
                N_("A distance is 0 to {last} (see the distance table), not {distance}."),
                last=levels - 1,
                distance=self.distance,
            )
        if self.price is not None and not 0 <= self.price <= MAX_PRICE:
            raise LimitError(N_("A price is 0 to {limit}."), limit=MAX_PRICE)

    @property
    def effective_rarity(self) -> int:
        return self.rarity + acquisition_table().distance[self.distance].rarity_bonus

    @property
    def dice(self) -> int:
        return acquisition_table().dice


@dataclass(frozen=True, slots=True)
class AcquireOutcome:
    faces: tuple[int, ...]
    availability: int
    available: bool
    price_percent: int | None
    price: Fraction | None


def price_percent(availability: int, rarity: int) -> int:
    return 150 - (availability - rarity) * 10


def resolve_acquire(params: AcquireParams, faces: Faces) -> AcquireOutcome:
    rolled = FaceReader(faces).take(params.dice)
    availability = successes(rolled, Scoring.NORMAL)
    rarity = params.effective_rarity
    if availability <= rarity:
        return AcquireOutcome(rolled, availability, False, None, None)
    percent = price_percent(availability, rarity)
    price = None if params.price is None else params.price * percent / 100
    return AcquireOutcome(rolled, availability, True, percent, price)


def acquire_dist(params: AcquireParams) -> Dist[tuple[int, bool]]:
    """(Disponibilité, available), exactly."""
    rarity = params.effective_rarity
    return plain_dist(params.dice, Scoring.NORMAL).map(lambda key: (key[0], key[0] > rarity))
