"""A test's pool from a sheet, with the sheet's conditions: the one place they are derived.

O-29: pain, Intempéries, the fatigue of failed overload tests and, on movement rolls,
the Surencombrement apply to **every** roll made from a sheet, whatever the interface.
So the CLI (``test``, ``odds``, ``push``, ``oppose``), the web table (its rolls, its odds
beside the button, its Dépassement after the roll) and therefore the roll log all build
a sheet's test through :func:`sheet_pool`; the maluses travel inside
:class:`~meneur.systems.obscur.rules.TestParams`, so the exact odds, the design lab's
vectors and a replay read the same pool. O-31: a body in a coma or dead acts no more
(a dead one may only hang on to life, ``heal --hang-on``); O-34: a sheet at Volonté 0
cannot make the effort of a test: :func:`sheet_pool` refuses both with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.systems.obscur.depassement import NO_PUSH, PushPlan
from meneur.systems.obscur.health import maluses_of
from meneur.systems.obscur.rules import Automatic, Maluses, TestParams
from meneur.systems.obscur.sheet import Character, TraitPool
from meneur.systems.obscur.state import Body, body_of, refuse_coma
from meneur.text import fold

MOVEMENT_BASE = "agilite"
"""O-42: the movement rolls among tests are those of Agilité or of a trait based on it."""


def is_movement(pool: TraitPool) -> bool:
    """An Agilité-based test (Agilité alone, Acrobaties, Natation...): a movement roll."""
    return MOVEMENT_BASE in (fold(pool.name), fold(pool.base_name or ""))


def refuse_exhausted(body: Body) -> None:
    """O-34: a sheet at Volonté 0 cannot make the effort of a test (:attr:`Body.exhausted`)."""
    if body.exhausted:
        raise RuleError(
            N_(
                "{name} has Volonté 0 (O-34): incapable of any effort for a few minutes;"
                " once they have passed, give Volonté back (meneur heal --catch-breath,"
                " or the sheet's edit form at the table) before rolling again."
            ),
            name=body.name,
        )


@dataclass(frozen=True, slots=True)
class SheetPool:
    """What a test of one trait rolls from a sheet: the trait pair and the maluses."""

    trait: TraitPool
    maluses: Maluses
    movement: bool

    @property
    def label(self) -> str:
        base = self.trait.base_name
        return self.trait.name if base is None else f"{self.trait.name} + {base}"

    def params(
        self,
        *,
        difficulty: int = 1,
        modifier: int = 0,
        zero_skill: bool = False,
        zero_attribute: bool = False,
        push: PushPlan = NO_PUSH,
        automatic: Automatic | None = None,
        margin_counts: bool | None = None,
        tally: bool = False,
    ) -> TestParams:
        """The test's params: the trait's dice and zero rules, the sheet's maluses."""
        return TestParams(
            self.trait.dice,
            difficulty=difficulty,
            modifier=modifier,
            zero_skill=zero_skill or self.trait.zero_skill,
            zero_attribute=zero_attribute or self.trait.zero_attribute,
            push=push,
            automatic=automatic,
            margin_counts=margin_counts,
            maluses=self.maluses,
            tally=tally,
        )

    def to_json(self) -> dict[str, Any]:
        return {"trait": self.label, "movement": self.movement, **self.maluses.named()}


def sheet_pool(character: Character, trait: str, *, effort: bool = True) -> SheetPool:
    """The pool of a test of ``trait`` on this sheet, its conditions applied (O-29), and
    refused in a coma or dead (O-31) or at Volonté 0 (O-34) unless ``effort`` is False (a
    list of what the sheet would roll, not a roll)."""
    body = body_of(character)
    if effort:
        refuse_coma(body)
        refuse_exhausted(body)
    pool = character.pool(trait)
    movement = is_movement(pool)
    return SheetPool(pool, maluses_of(body, movement=movement), movement)
