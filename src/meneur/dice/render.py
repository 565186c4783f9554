"""Renderers of a rolled expression: rich text for people, a JSON tree for programs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meneur.dice.roll import (
    Die,
    Rolled,
    RolledDice,
    RolledExpression,
    RolledGroup,
    RolledNegation,
    RolledNumber,
    RolledOperation,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def die_json(die: Die) -> dict[str, Any]:
    data: dict[str, Any] = {"face": die.face, "kept": die.kept}
    if die.exploded:
        data["exploded"] = True
    if die.from_explosion:
        data["from_explosion"] = True
    if die.rerolled:
        data["rerolled"] = True
    if die.success is not None:
        data["success"] = die.success
    return data


def tree_json(rolled: Rolled) -> dict[str, Any]:
    if isinstance(rolled, RolledNumber):
        return {"type": "number", "value": rolled.total, "total": rolled.total}
    if isinstance(rolled, RolledDice):
        node = rolled.node
        return {
            "type": "dice",
            "notation": str(node),
            "count": node.count,
            "sides": node.sides,
            "modifiers": [str(m) for m in node.modifiers],
            "dice": [die_json(d) for d in rolled.dice],
            "total": rolled.total,
        }
    if isinstance(rolled, RolledOperation):
        return {
            "type": "operation",
            "operator": rolled.node.operator,
            "left": tree_json(rolled.left),
            "right": tree_json(rolled.right),
            "total": rolled.total,
        }
    if isinstance(rolled, RolledNegation):
        return {"type": "negation", "operand": tree_json(rolled.operand), "total": rolled.total}
    return {"type": "group", "inner": tree_json(rolled.inner), "total": rolled.total}


def to_json(rolled: RolledExpression) -> dict[str, Any]:
    """The whole roll tree, with the result at the top level as ``total``."""
    return {
        "expression": rolled.expression,
        "total": rolled.total,
        "dice_source": rolled.source,
        "tree": tree_json(rolled.tree),
    }


def _die_text(die: Die, sides: int) -> Text:
    from rich.text import Text

    style = ""
    if not die.kept:
        style = "dim strike"
    elif die.success:
        style = "bold green"
    elif die.face == sides:
        style = "bold"
    mark = "!" if die.exploded else ""
    shown = f"{die.face}{mark}" if die.kept else f"~~{die.face}~~"
    return Text(shown, style=style)


def tree_text(rolled: Rolled) -> Text:
    """One line: each dice group with its dice, operators and numbers as written."""
    from rich.text import Text

    if isinstance(rolled, RolledNumber):
        return Text(str(rolled.total))
    if isinstance(rolled, RolledDice):
        text = Text(str(rolled.node), style="cyan")
        text.append(" [")
        for index, die in enumerate(rolled.dice):
            if index:
                text.append(", ")
            text.append_text(_die_text(die, rolled.node.sides))
        text.append("]")
        return text
    if isinstance(rolled, RolledOperation):
        text = tree_text(rolled.left)
        text.append(f" {rolled.node.operator} ")
        text.append_text(tree_text(rolled.right))
        return text
    if isinstance(rolled, RolledNegation):
        return Text("-").append_text(tree_text(rolled.operand))
    assert isinstance(rolled, RolledGroup)
    return Text("(").append_text(tree_text(rolled.inner)).append(")")


def render_rich(rolled: RolledExpression, console: Console) -> None:
    text = tree_text(rolled.tree)
    text.append(" = ")
    text.append(str(rolled.total), style="bold yellow")
    console.print(text)
