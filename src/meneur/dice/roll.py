"""Rolling an expression tree: every die kept, dropped, exploded, rerolled or counted.

The rolled tree mirrors the expression tree, so renderers (rich, JSON, the web table)
can show every die. The dice source is passed in; a hard limit caps the dice rolled,
explosions and rerolls included.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from meneur.dice.ast import BinaryOperation, Comparison, DiceRoll, Group, Negation, Node, Number
from meneur.dice.parse import MAX_DICE
from meneur.errors import LimitError
from meneur.locale import N_
from meneur.rng import DiceSource


@dataclass(frozen=True, slots=True)
class Die:
    """One die that was rolled, and what happened to it."""

    face: int
    kept: bool = True
    exploded: bool = False
    """It matched the explosion condition and added a die."""
    from_explosion: bool = False
    rerolled: bool = False
    """It was replaced by a reroll (so it no longer counts)."""
    success: bool | None = None
    """Under ``cs``: whether it counts as a success."""


@dataclass(frozen=True, slots=True)
class RolledNumber:
    node: Number
    total: int


@dataclass(frozen=True, slots=True)
class RolledDice:
    node: DiceRoll
    dice: tuple[Die, ...]
    total: int


@dataclass(frozen=True, slots=True)
class RolledOperation:
    node: BinaryOperation
    left: Rolled
    right: Rolled
    total: int


@dataclass(frozen=True, slots=True)
class RolledNegation:
    node: Negation
    operand: Rolled
    total: int


@dataclass(frozen=True, slots=True)
class RolledGroup:
    node: Group
    inner: Rolled
    total: int


Rolled = RolledNumber | RolledDice | RolledOperation | RolledNegation | RolledGroup


@dataclass(frozen=True, slots=True)
class RolledExpression:
    """A whole roll: the tree, its total, and the kind of dice source that rolled it."""

    expression: str
    tree: Rolled
    source: str

    @property
    def total(self) -> int:
        return self.tree.total


class _Budget:
    """Counts dice rolled across the expression against the hard limit."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolled = 0

    def roll(self, sides: int, count: int) -> tuple[int, ...]:
        self.rolled += count
        if self.rolled > MAX_DICE:
            raise LimitError(
                N_("At most {limit} dice per roll, explosions and rerolls included."),
                limit=MAX_DICE,
            )
        return self.source.roll(sides, count)


def roll_expression(node: Node, source: DiceSource) -> RolledExpression:
    """Roll every die of ``node`` from ``source``."""
    budget = _Budget(source)
    tree = _roll(node, budget)
    source.finish()
    return RolledExpression(str(node), tree, source.kind)


def _roll(node: Node, budget: _Budget) -> Rolled:
    if isinstance(node, Number):
        return RolledNumber(node, node.value)
    if isinstance(node, Group):
        inner = _roll(node.inner, budget)
        return RolledGroup(node, inner, inner.total)
    if isinstance(node, Negation):
        operand = _roll(node.operand, budget)
        return RolledNegation(node, operand, -operand.total)
    if isinstance(node, BinaryOperation):
        left, right = _roll(node.left, budget), _roll(node.right, budget)
        if node.operator == "+":
            total = left.total + right.total
        elif node.operator == "-":
            total = left.total - right.total
        else:
            total = left.total * right.total
        return RolledOperation(node, left, right, total)
    return _roll_dice(node, budget)


def _roll_dice(node: DiceRoll, budget: _Budget) -> RolledDice:
    dice = [Die(face) for face in budget.roll(node.sides, node.count)]
    counting = False
    for modifier in node.modifiers:
        if modifier.kind == "x":
            dice = _explode(
                dice, modifier.comparison or Comparison("=", node.sides), node.sides, budget
            )
        elif modifier.kind in ("r", "rr"):
            once = modifier.kind == "r"
            dice = _reroll(
                dice, modifier.comparison or Comparison("=", 1), node.sides, budget, once=once
            )
        elif modifier.kind == "cs":
            counting = True
            condition = modifier.comparison or Comparison("=", node.sides)
            dice = [replace(d, success=d.kept and condition.matches(d.face)) for d in dice]
        else:
            dice = _keep(dice, modifier.kind, modifier.amount or 0)
    if counting:  # a die dropped after ``cs`` judged it (``cs>=5dh1``) counts no more
        dice = [replace(d, success=False) if d.success and not d.kept else d for d in dice]
        total = sum(1 for d in dice if d.success)
    else:
        total = sum(d.face for d in dice if d.kept)
    return RolledDice(node, tuple(dice), total)


def _explode(dice: list[Die], condition: Comparison, sides: int, budget: _Budget) -> list[Die]:
    result: list[Die] = []
    queue = list(dice)
    while queue:
        die = queue.pop(0)
        if die.kept and not die.exploded and condition.matches(die.face):
            result.append(replace(die, exploded=True))
            (face,) = budget.roll(sides, 1)
            queue.insert(0, Die(face, from_explosion=True))
        else:
            result.append(die)
    return result


def _reroll(
    dice: list[Die], condition: Comparison, sides: int, budget: _Budget, *, once: bool
) -> list[Die]:
    result: list[Die] = []
    for die in dice:
        current = die
        while current.kept and condition.matches(current.face):
            result.append(replace(current, kept=False, rerolled=True))
            (face,) = budget.roll(sides, 1)
            current = Die(face, from_explosion=current.from_explosion)
            if once:
                break
        result.append(current)
    return result


def _keep(dice: list[Die], kind: str, amount: int) -> list[Die]:
    live = [i for i, d in enumerate(dice) if d.kept]
    ordered = sorted(live, key=lambda i: (dice[i].face, i))
    if kind == "kh":
        dropped = ordered[: max(len(ordered) - amount, 0)]
    elif kind == "kl":
        dropped = ordered[amount:]
    elif kind == "dh":
        dropped = ordered[len(ordered) - min(amount, len(ordered)) :]
    else:  # dl
        dropped = ordered[:amount]
    gone = set(dropped)
    return [replace(d, kept=False) if i in gone else d for i, d in enumerate(dice)]
