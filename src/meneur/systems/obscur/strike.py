"""One blow of a melee (O-12, O-13, O-22) as a :class:`Check` with exact odds.

A whole fight has too many branches for exact odds, but its building block does not:
the attacker's Attack dice (stream 0) against the defender's Parade + weapon Défense +
shield Protection (stream 1); on a hit, one more die of the attacker picks the zone
(hit-zone table, provisional), whose armour and the defender's Résistance reduce the
damage. The odds push the core's exact opposition through the same damage rule, so the
conformance suite checks this blow against brute force like any test.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.odds.dist import Dist
from meneur.systems.base import Check, FaceReader, Faces
from meneur.systems.obscur.combat import blow_damage
from meneur.systems.obscur.gear import Weapon, armoury
from meneur.systems.obscur.odds import oppose_dist
from meneur.systems.obscur.rules import (
    OpposeParams,
    TestOutcome,
    TestParams,
    duel,
    resolve_test,
)


@dataclass(frozen=True, slots=True)
class StrikeParams:
    """Attack dice against Parade dice (Défense and shield included), and the damage."""

    attack: TestParams
    parade: TestParams
    weapon_class: str = "Moyennes"
    weapon_damage: int = 0
    hargne: int = 0
    armour: tuple[tuple[str, int], ...] = ()
    resistance: int = 0

    def __post_init__(self) -> None:
        armoury().weapon_class(self.weapon_class)
        if not 0 <= self.hargne <= 30 or not 0 <= self.resistance <= 30:
            raise RuleError(N_("Hargne and Résistance are 0 to 30."))

    @property
    def weapon(self) -> Weapon:
        from meneur.systems.obscur.gear import WeaponData

        return armoury().build(
            WeaponData.model_validate(
                {"name": "-", "class": self.weapon_class, "damage": self.weapon_damage}
            )
        )

    def damage(self, margin: int, zone: str) -> int:
        protection = dict(self.armour).get(zone, 0)
        return blow_damage(
            margin, self.weapon, self.hargne, protection=protection, resistance=self.resistance
        )


@dataclass(frozen=True, slots=True)
class StrikeOutcome:
    attack: TestOutcome
    parade: TestOutcome
    hit: bool
    margin: int
    zone: str | None
    damage: int


def resolve_strike(params: StrikeParams, faces: Faces) -> StrikeOutcome:
    reader = FaceReader(faces)
    attack = resolve_test(params.attack, reader, 0)
    parade = resolve_test(params.parade, reader, 1)
    winner, margin = duel(attack.successes, parade.successes)
    if winner != "a":
        return StrikeOutcome(attack, parade, False, 0, None, 0)
    zone = armoury().zone_of(reader.take(1, 0)[0])
    return StrikeOutcome(attack, parade, True, margin, zone, params.damage(margin, zone))


def strike_dist(params: StrikeParams) -> Dist[tuple[bool, int]]:
    zones = Dist.uniform([armoury().zone_of(face) for face in range(1, 7)])

    def after(key: tuple[str | None, int]) -> Dist[tuple[bool, int]]:
        winner, margin = key
        if winner != "a":
            return Dist.certain((False, 0))
        return zones.map(lambda zone: (True, params.damage(margin, zone)))

    return oppose_dist(OpposeParams(params.attack, params.parade)).bind(after)


class StrikeCheck(Check[StrikeParams, StrikeOutcome]):
    name: ClassVar[str] = "strike"
    die_sides: ClassVar[int] = 6

    def streams(self, params: StrikeParams) -> int:
        return 2

    def resolve(self, params: StrikeParams, faces: Faces) -> StrikeOutcome:
        return resolve_strike(params, faces)

    def key(self, outcome: StrikeOutcome) -> Hashable:
        return (outcome.hit, outcome.damage)

    def odds(self, params: StrikeParams) -> Dist[Hashable]:
        return strike_dist(params)  # type: ignore[return-value]

    def examples(self) -> Sequence[StrikeParams]:
        return (
            StrikeParams(
                TestParams(2, difficulty=0, tally=True),
                TestParams(2, difficulty=0, tally=True),
                hargne=2,
            ),
            StrikeParams(
                TestParams(3, difficulty=0, tally=True),
                TestParams(1, difficulty=0, zero_skill=True, tally=True),
                weapon_class="Longues",
                weapon_damage=1,
                hargne=3,
                armour=(("Tête", 2), ("Torse", 1)),
                resistance=1,
            ),
        )

    def to_json(self, params: StrikeParams, outcome: StrikeOutcome) -> dict[str, Any]:
        return {
            "system": "obscur",
            "attack": {"faces": list(outcome.attack.faces), "successes": outcome.attack.successes},
            "parade": {"faces": list(outcome.parade.faces), "successes": outcome.parade.successes},
            "hit": outcome.hit,
            "margin": outcome.margin,
            "zone": outcome.zone,
            "damage": outcome.damage,
        }
