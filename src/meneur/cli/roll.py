"""``meneur roll EXPR``: generic dice notation for what the systems do not cover."""

from __future__ import annotations

from typing import Annotated

import typer

from meneur.cli.params import FacesArg, Json, Seed
from meneur.locale import gettext as _


def roll(
    expression: Annotated[
        str,
        typer.Argument(
            metavar="EXPR", help=_("Dice expression, such as 3d6+2, 4d6kh3 or 6d10cs>=8.")
        ),
    ],
    seed: Seed = None,
    faces: FacesArg = None,
    as_json: Json = False,
) -> None:
    """Roll a generic dice expression."""
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.dice import render_rich, to_json
    from meneur.dice.check import DiceCheck, DiceParams

    params = DiceParams(expression)
    sources = dice_sources(seed, faces)  # logged by emit when a campaign database exists
    rolled = DiceCheck().roll(params, sources).outcome
    emit(to_json(rolled), lambda console: render_rich(rolled, console), as_json=as_json)
