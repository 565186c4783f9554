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
    from meneur.campaign.rolllog import open_roll_log
    from meneur.cli.output import emit
    from meneur.dice import parse, render_rich, roll_expression, to_json
    from meneur.rng import DiceSource, make_source

    tree = parse(expression)
    source: DiceSource = make_source(seed=seed, faces=faces.values if faces else None)
    log = open_roll_log()  # None unless a campaign database exists or MENEUR_LOG=1
    if log is not None:
        source = log.source(source, explicit=seed is not None or faces is not None)
    rolled = roll_expression(tree, source)
    if log is not None:
        log.record(expression, to_json(rolled))  # logged before it is shown
    emit(to_json(rolled), lambda console: render_rich(rolled, console), as_json=as_json)
