"""The generic dice expression as a :class:`~meneur.systems.base.Check`: it logs and replays.

``meneur roll 4d6kh3`` draws through :meth:`DiceCheck.roll` like any system's test: the
roll log stores the expression (its canonical params) and every face, and
``meneur verify --replay`` evaluates the expression again on those faces. An expression
mixes dice of several sizes, so this check draws each die with its own number of sides
(``die_sides`` is the largest a generic die may have, for the contract's sake).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meneur.dice.parse import MAX_SIDES, parse
from meneur.dice.render import to_json
from meneur.dice.roll import (
    Die,
    Rolled,
    RolledDice,
    RolledExpression,
    RolledGroup,
    RolledNegation,
    RolledOperation,
    roll_expression,
)
from meneur.errors import DiceSyntaxError, RuleError
from meneur.locale import N_
from meneur.rng import DiceSource, RecordingDice
from meneur.systems.base import Check, FaceReader, Faces
from meneur.systems.base import Rolled as Drawn

if TYPE_CHECKING:
    from meneur.odds.dist import Dist


@dataclass(frozen=True, slots=True)
class DiceParams:
    """A dice expression in the generic notation (``3d6+2``, ``4d6kh3``...)."""

    expression: str

    def __post_init__(self) -> None:
        if not isinstance(self.expression, str):
            raise DiceSyntaxError(N_("A dice expression is text."))
        parse(self.expression)  # refuses what is too long, too deep or not the notation


class _ReaderSource:
    """Faces read from a :class:`FaceReader` as a dice source (a face above the die is refused)."""

    kind = "physical"

    def __init__(self, reader: FaceReader) -> None:
        self.reader = reader

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        faces = self.reader.take(count)
        if any(not 1 <= face <= sides for face in faces):
            raise RuleError(N_("A face lies between 1 and the die's sides."))
        return faces

    def finish(self) -> None:
        return None


def _dice(rolled: Rolled) -> list[Die]:
    """Every die of a rolled tree, left to right."""
    if isinstance(rolled, RolledDice):
        return list(rolled.dice)
    if isinstance(rolled, RolledOperation):
        return _dice(rolled.left) + _dice(rolled.right)
    if isinstance(rolled, RolledNegation):
        return _dice(rolled.operand)
    if isinstance(rolled, RolledGroup):
        return _dice(rolled.inner)
    return []


class DiceCheck(Check[DiceParams, RolledExpression]):
    """Any generic dice expression: one stream of dice of any size."""

    name = "roll"
    die_sides = MAX_SIDES

    def streams(self, params: DiceParams) -> int:
        return 1

    def resolve(self, params: DiceParams, faces: Faces) -> RolledExpression:
        return roll_expression(parse(params.expression), _ReaderSource(FaceReader(faces)))

    def roll(
        self, params: DiceParams, sources: Sequence[DiceSource]
    ) -> Drawn[DiceParams, RolledExpression]:
        """Draw each die with its own sides, straight from the source, in one pass."""
        recording = RecordingDice(sources[0])
        rolled = roll_expression(parse(params.expression), recording)
        return self.finished(Drawn(params, (tuple(recording.faces),), rolled), sources[:1])

    def key(self, outcome: RolledExpression) -> Hashable:
        return outcome.total

    def marks(self, params: DiceParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """``dropped`` for a die the expression does not count (``4d6kh3``'s lowest, a
        rerolled die), ``hit`` for a success under ``cs``; faces drawn in another order
        than the tree lists them (explosions) are left unmarked."""
        dice = _dice(self.resolve(params, faces).tree)
        if len(faces) != 1 or [die.face for die in dice] != list(faces[0]):
            return super().marks(params, faces)
        return (tuple("dropped" if not d.kept else "hit" if d.success else "" for d in dice),)

    def odds(self, params: DiceParams) -> Dist[Hashable]:
        raise RuleError(N_("Exact odds of a generic expression are not computed here."))

    def examples(self) -> Sequence[DiceParams]:
        return (DiceParams("2d6+1"), DiceParams("4d6kh3"), DiceParams("d20"))

    def to_json(self, params: DiceParams, outcome: RolledExpression) -> dict[str, Any]:
        return to_json(outcome)

    def logged_views(
        self, params: DiceParams, outcome: RolledExpression
    ) -> tuple[dict[str, Any], ...]:
        """The roll without ``dice_source``: no face says where the dice came from (the
        entry's ``source`` does)."""
        logged = to_json(outcome)
        del logged["dice_source"]
        return (logged,)
