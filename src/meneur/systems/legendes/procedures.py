"""The Légendes scene steps that roll, as procedures (issue 14): a roll and an aid.

A scene roll reads the hero's side (stream 0: the hero, then the allies) and the
oppositions (stream 1) and compares every pair (L-10); an aid reads the helper (stream 0)
and the helped hero (stream 1, L-11). Their params are the hero's sheet as it stood
(plain data, validated by its own model) and the request, so the roll log stores them
and ``meneur verify --replay`` resolves the step again.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from meneur.systems.base import FaceReader, Procedure
from meneur.systems.legendes.scene import RollRequest, aid_with, roll_with
from meneur.systems.legendes.sheet import Hero


@dataclass(frozen=True)
class SceneRollParams:
    """The hero's sheet before the roll and what the player and the GM said."""

    hero: Hero
    request: RollRequest


@dataclass(frozen=True)
class SceneAidParams:
    """The hero's sheet before the help, the helper's name and both dice counts (L-11)."""

    hero: Hero
    helper: str
    helper_dice: int
    helped_dice: int
    modifier: int = 0


@dataclass(frozen=True)
class SceneStep:
    """The hero's sheet after the step, and the step's report."""

    hero: Hero
    report: dict[str, Any]


def _hero() -> Hero:
    """A hero in a scene against a heroic wolf, with a friend beside them (examples)."""
    from meneur.systems.legendes.scene import add, add_character, start

    hero, _ = start(Hero(name="h", legendary=["Force"]), "s")
    hero, _ = add(hero, "loup", "heroique")
    hero, _ = add_character(hero, "ami", 3)
    return hero


class SceneRoll(Procedure[SceneRollParams, SceneStep]):
    """``scene legendes roll``: one roll of everyone named, compared two by two (L-10)."""

    name = "scene-roll"
    die_sides = 6

    def streams(self, params: SceneRollParams) -> int:
        return 2

    def run(self, params: SceneRollParams, reader: FaceReader) -> SceneStep:
        return SceneStep(*roll_with(params.hero, params.request, reader))

    def key(self, outcome: SceneStep) -> Hashable:
        return (
            tuple(
                (pair.get("winner"), pair.get("band"), tuple(pair["effects"]))
                for pair in outcome.report["pairs"]
            ),
            outcome.report["hero_defeated"],
            outcome.report["hero_dead"],
        )

    def examples(self) -> Sequence[SceneRollParams]:
        return (
            SceneRollParams(_hero(), RollRequest(domain="x", dice=3, against=("loup",))),
            SceneRollParams(
                _hero(), RollRequest(domain="x", dice=2, against=("loup",), allies=("ami",))
            ),
        )

    def to_json(self, params: SceneRollParams, outcome: SceneStep) -> dict[str, Any]:
        return outcome.report

    def table_json(self, params: SceneRollParams, outcome: SceneStep) -> dict[str, Any]:
        """One roll as the live table's tracker plays and logs it: its first pair's verdict
        on top (the table's log line reads it there), every pair, the hero after."""
        report = outcome.report
        kept = ("hero_wound", "hero_defeated", "hero_dead", "pairs", "domain", "domain_unlisted")
        return {**report["pairs"][0], **{key: report[key] for key in kept}}

    def logged_views(
        self, params: SceneRollParams, outcome: SceneStep
    ) -> tuple[dict[str, Any], ...]:
        return (outcome.report, self.table_json(params, outcome))


class SceneAid(Procedure[SceneAidParams, SceneStep]):
    """``scene legendes aid``: a helper helps the hero before their next roll (L-11)."""

    name = "scene-aid"
    die_sides = 6

    def streams(self, params: SceneAidParams) -> int:
        return 2

    def run(self, params: SceneAidParams, reader: FaceReader) -> SceneStep:
        return SceneStep(
            *aid_with(
                params.hero,
                params.helper,
                params.helper_dice,
                params.helped_dice,
                params.modifier,
                reader,
            )
        )

    def key(self, outcome: SceneStep) -> Hashable:
        return outcome.report.get("effect")

    def examples(self) -> Sequence[SceneAidParams]:
        return (SceneAidParams(_hero(), "ami", 2, 3), SceneAidParams(_hero(), "ami", 3, 1, 2))

    def to_json(self, params: SceneAidParams, outcome: SceneStep) -> dict[str, Any]:
        return outcome.report
