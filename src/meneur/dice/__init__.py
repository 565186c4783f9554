"""Generic dice notation: grammar -> tree -> rolled tree -> renderers (d20's pipeline).

``parse(text)`` gives an immutable expression tree, ``roll_expression(tree, source)``
rolls it from a dice source, and ``to_json`` / ``render_rich`` show every die.
"""

from meneur.dice.ast import Node, bounds
from meneur.dice.parse import MAX_DICE, MAX_EXPRESSION_LENGTH, MAX_SIDES, parse
from meneur.dice.render import render_rich, to_json
from meneur.dice.roll import RolledExpression, roll_expression

__all__ = [
    "MAX_DICE",
    "MAX_EXPRESSION_LENGTH",
    "MAX_SIDES",
    "Node",
    "RolledExpression",
    "bounds",
    "parse",
    "render_rich",
    "roll_expression",
    "to_json",
]
