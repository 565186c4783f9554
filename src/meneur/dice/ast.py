"""The dice expression tree: what was written, before any die is rolled.

Immutable values. ``str(node)`` gives the canonical spelling (``3D6`` becomes ``3d6``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Operator = Literal["+", "-", "*"]
ModifierKind = Literal["kh", "kl", "dh", "dl", "x", "r", "rr", "cs"]
ComparatorSymbol = Literal[">=", "<=", ">", "<", "="]


@dataclass(frozen=True, slots=True)
class Comparison:
    """A condition on one face, such as ``>=8`` or ``=1``."""

    symbol: ComparatorSymbol
    value: int

    def matches(self, face: int) -> bool:
        if self.symbol == ">=":
            return face >= self.value
        if self.symbol == "<=":
            return face <= self.value
        if self.symbol == ">":
            return face > self.value
        if self.symbol == "<":
            return face < self.value
        return face == self.value

    def covers(self, sides: int) -> bool:
        """Whether every face of a die with ``sides`` faces matches (an endless explosion)."""
        if self.symbol == ">=":
            return self.value <= 1
        if self.symbol == ">":
            return self.value < 1
        if self.symbol == "<=":
            return self.value >= sides
        if self.symbol == "<":
            return self.value > sides
        return sides == 1 and self.value == 1

    def __str__(self) -> str:
        return f"{'' if self.symbol == '=' else self.symbol}{self.value}"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One dice modifier: keep/drop ``amount`` dice, or explode/reroll/count on a comparison."""

    kind: ModifierKind
    amount: int | None = None
    comparison: Comparison | None = None

    def __str__(self) -> str:
        if self.kind in ("kh", "kl", "dh", "dl"):
            return f"{self.kind}{self.amount}"
        return f"{self.kind}{self.comparison or ''}"


@dataclass(frozen=True, slots=True)
class Number:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """``NdX`` followed by its modifiers."""

    count: int
    sides: int
    modifiers: tuple[Modifier, ...] = ()

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{''.join(map(str, self.modifiers))}"


@dataclass(frozen=True, slots=True)
class BinaryOperation:
    operator: Operator
    left: Node
    right: Node

    def __str__(self) -> str:
        return f"{self.left} {self.operator} {self.right}"


@dataclass(frozen=True, slots=True)
class Negation:
    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses, kept so that the expression prints as it was written."""

    inner: Node

    def __str__(self) -> str:
        return f"({self.inner})"


Node = Number | DiceRoll | BinaryOperation | Negation | Group

Bounds = tuple[float, float]


def bounds(node: Node) -> Bounds:
    """The least and greatest total ``node`` can roll (``math.inf`` when explosions allow any)."""
    if isinstance(node, Number):
        return (node.value, node.value)
    if isinstance(node, Group):
        return bounds(node.inner)
    if isinstance(node, Negation):
        low, high = bounds(node.operand)
        return (-high, -low)
    if isinstance(node, BinaryOperation):
        (a, b), (c, d) = bounds(node.left), bounds(node.right)
        if node.operator == "+":
            return (a + c, b + d)
        if node.operator == "-":
            return (a - d, b - c)
        products = [_times(x, y) for x in (a, b) for y in (c, d)]
        return (min(products), max(products))
    return _dice_bounds(node)


def _times(x: float, y: float) -> float:
    """``x * y``, with 0 times an unbounded total 0; integers stay integers (a float 0
    turned ``9e16 + 0 * 0`` into a rounded float, below the exact total rolled)."""
    return 0 if x == 0 or y == 0 else x * y


def _dice_bounds(node: DiceRoll) -> Bounds:
    fewest: float = node.count
    most: float = node.count
    counting = False
    for modifier in node.modifiers:
        amount = modifier.amount or 0
        if modifier.kind == "x":
            most = math.inf
        elif modifier.kind in ("kh", "kl"):
            fewest, most = min(amount, fewest), min(amount, most)
        elif modifier.kind in ("dh", "dl"):
            fewest, most = max(fewest - amount, 0), max(most - amount, 0)
        elif modifier.kind == "cs":
            counting = True
    if counting:
        return (0, most)
    return (fewest, _times(most, node.sides))
