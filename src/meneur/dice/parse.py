"""Text to expression tree, with lark, and the limits checked before any die is rolled."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from meneur.dice.ast import (
    BinaryOperation,
    ComparatorSymbol,
    Comparison,
    DiceRoll,
    Group,
    Modifier,
    ModifierKind,
    Negation,
    Node,
    Number,
)
from meneur.errors import DiceSyntaxError, LimitError
from meneur.locale import N_

if TYPE_CHECKING:
    from lark import Lark

MAX_EXPRESSION_LENGTH = 1_000
MAX_DICE = 1_000
MAX_SIDES = 1_000_000
MAX_NUMBER_DIGITS = 9
MAX_NESTING = 50
MAX_DEPTH = 200
"""The deepest a tree may go: terms chained (``1+1+1...``, each one level) and signs
stacked (``--1``). 400 terms within the 1,000 characters made a tree that printing and
judging walk by recursion, past Python's limit (a traceback)."""


@cache
def grammar_text() -> str:
    from importlib import resources  # here: ``NdX±K`` rolls never read the grammar

    return resources.files("meneur.dice").joinpath("grammar.lark").read_text(encoding="utf-8")


@cache
def parser() -> Lark:
    from lark import Lark

    return Lark(grammar_text(), parser="lalr", maybe_placeholders=True, cache=True)


def parse(text: str) -> Node:
    """The tree of a dice expression, or a :class:`DiceSyntaxError` / :class:`LimitError`."""
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise LimitError(
            N_("A dice expression has at most {limit} characters ({length} given)."),
            limit=MAX_EXPRESSION_LENGTH,
            length=len(text),
        )
    if not text.strip():
        raise DiceSyntaxError(N_("The dice expression is empty: try 3d6 or 1d20+4."))
    _check_nesting(text)
    plain = _plain(text)
    if plain is not None:
        _check_dice(plain)
        return plain
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

    try:
        tree = parser().parse(text)
    except UnexpectedEOF:
        raise DiceSyntaxError(
            N_("The dice expression '{text}' ends too early."), text=text
        ) from None
    except UnexpectedCharacters as error:
        raise DiceSyntaxError(
            N_("Unexpected '{char}' at column {column} in '{text}'."),
            char=text[error.pos_in_stream] if error.pos_in_stream is not None else "?",
            column=error.column,
            text=text,
        ) from None
    except UnexpectedInput as error:
        token = getattr(error, "token", None)
        if token is not None and getattr(token, "type", "") == "$END":
            raise DiceSyntaxError(
                N_("The dice expression '{text}' ends too early."), text=text
            ) from None
        raise DiceSyntaxError(
            N_("Unexpected '{char}' at column {column} in '{text}'."),
            char=str(token) if token is not None else "?",
            column=getattr(error, "column", "?"),
            text=text,
        ) from None
    _check_tree_depth(tree)
    node = _build(tree)
    _check_dice(node)
    return node


def _check_tree_depth(tree: Any) -> None:
    """Refuse, before :func:`_build` walks it by recursion, a parse tree far deeper than
    :data:`MAX_DEPTH` (985 minus signs in a row, within the 1,000 characters: a
    traceback); :func:`_check_dice` keeps the exact limit on the built tree."""
    stack = [(tree, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > 2 * MAX_DEPTH:
            raise LimitError(
                N_("A dice expression chains at most {limit} terms and signs."), limit=MAX_DEPTH
            )
        stack += [(child, depth + 1) for child in getattr(current, "children", ())]


_PLAIN = re.compile(
    r"[ \t]*+([0-9]*+)[ \t]*+[dD][ \t]*+([0-9]++)[ \t]*+(?:([-+])[ \t]*+([0-9]++)[ \t]*+)?+"
)
"""``NdX``, ``NdX+K``, ``NdX-K`` (spaces and tabs allowed between tokens, as in the grammar).

Possessive quantifiers only: no backtracking, so a hostile text of a thousand spaces is
read in linear time."""


def _plain(text: str) -> Node | None:
    """The commonest expressions read without lark (the same tree lark would build).

    ``meneur roll 3d6`` then starts without loading the parser, whose import and grammar
    cost more than the rest of the command (benchmarks/startup.py); anything else goes
    to lark. The tests check that both readings agree.
    """
    found = _PLAIN.fullmatch(text)
    if found is None:
        return None
    count, sides, sign, constant = found.groups()
    roll = DiceRoll(count=_number(count or None, 1), sides=_number(sides))
    if sign is None:
        return roll
    return BinaryOperation("+" if sign == "+" else "-", roll, Number(_number(constant)))


def _check_nesting(text: str) -> None:
    depth = 0
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if depth > MAX_NESTING:
            raise LimitError(N_("Parentheses nest at most {limit} deep."), limit=MAX_NESTING)


def _number(token: str | None, default: int | None = None) -> int:
    if token is None:
        if default is None:
            raise DiceSyntaxError(N_("A number is missing."))
        return default
    text = str(token)
    if len(text.lstrip("0")) > MAX_NUMBER_DIGITS:
        raise LimitError(N_("Numbers have at most {limit} digits here."), limit=MAX_NUMBER_DIGITS)
    return int(text)


def _build(tree: Any) -> Node:
    """Turn lark's parse tree into our immutable nodes (iterative depth is bounded)."""
    from lark import Token

    if isinstance(tree, Token):
        return Number(_number(tree))
    rule = tree.data
    children = tree.children
    if rule == "number":
        return Number(_number(children[0]))
    if rule == "group":
        return Group(_build(children[0]))
    if rule == "neg":
        return Negation(_build(children[0]))
    if rule in ("add", "sub", "mul"):
        operator = {"add": "+", "sub": "-", "mul": "*"}[rule]
        return BinaryOperation(operator, _build(children[0]), _build(children[1]))  # type: ignore[arg-type]
    if rule == "roll":
        count_token, _die, sides_token, *modifiers = children
        return DiceRoll(
            count=_number(count_token, 1),
            sides=_number(sides_token),
            modifiers=tuple(_modifier(m) for m in modifiers),
        )
    raise DiceSyntaxError(N_("Cannot read the dice expression."))


def _modifier(tree: Any) -> Modifier:
    kind_token, argument = tree.children
    kind = str(kind_token)
    if tree.data == "keep":
        return Modifier(cast(ModifierKind, kind), amount=_number(argument, 1))
    if kind == "!":
        kind = "x"
    comparison = _comparison(argument) if argument is not None else None
    return Modifier(cast(ModifierKind, kind), comparison=comparison)


def _comparison(tree: Any) -> Comparison:
    symbol_token, value_token = tree.children
    symbol = str(symbol_token) if symbol_token is not None else "="
    return Comparison(cast(ComparatorSymbol, symbol), _number(value_token))


def _check_dice(node: Node) -> None:
    """Limits and impossible dice, before rolling anything."""
    stack: list[tuple[Node, int]] = [(node, 1)]
    total = 0
    while stack:
        current, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise LimitError(
                N_("A dice expression chains at most {limit} terms and signs."), limit=MAX_DEPTH
            )
        if isinstance(current, BinaryOperation):
            stack += [(current.left, depth + 1), (current.right, depth + 1)]
        elif isinstance(current, Negation):
            stack.append((current.operand, depth + 1))
        elif isinstance(current, Group):
            stack.append((current.inner, depth + 1))
        elif isinstance(current, DiceRoll):
            total += current.count
            if total > MAX_DICE:
                raise LimitError(N_("At most {limit} dice per roll."), limit=MAX_DICE)
            _check_roll(current)


def _check_roll(roll: DiceRoll) -> None:
    if roll.sides < 1:
        raise DiceSyntaxError(N_("A die needs at least one side: '{roll}'."), roll=str(roll))
    if roll.sides > MAX_SIDES:
        raise LimitError(N_("A die has at most {limit} sides."), limit=MAX_SIDES)
    for modifier in roll.modifiers:
        comparison = modifier.comparison
        if modifier.kind == "x":
            comparison = comparison or Comparison("=", roll.sides)
            if comparison.covers(roll.sides):
                raise LimitError(
                    N_("'{roll}' would explode forever: every face explodes."), roll=str(roll)
                )
        if modifier.kind == "rr":
            comparison = comparison or Comparison("=", 1)
            if comparison.covers(roll.sides):
                raise LimitError(
                    N_("'{roll}' would reroll forever: every face is rerolled."), roll=str(roll)
                )
