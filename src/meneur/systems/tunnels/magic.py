"""Mana and spells (T-13): a spell is data (name, cost, test); casting spends Mana.

The pool never goes below 0: a spell that costs more than the Mana left cannot be cast.
The Mana is spent when the spell is cast, whether its test then passes or not.
"""

from __future__ import annotations

from meneur.errors import RuleError
from meneur.locale import N_
from meneur.systems.tunnels.character import Pool, Sheet
from meneur.systems.tunnels.data import Spell


def spend_mana(sheet: Sheet, spell: Spell) -> Sheet:
    """The sheet after paying for ``spell``; RuleError if the Mana left is short."""
    if sheet.dead:
        raise RuleError(N_("{name} is dead and casts no more spells."), name=sheet.name)
    if spell.cost > sheet.mana.current:
        raise RuleError(
            N_("Not enough Mana for {spell}: it costs {cost}, {name} has {mana}."),
            spell=spell.name,
            cost=spell.cost,
            name=sheet.name,
            mana=sheet.mana.current,
        )
    mana = Pool(current=sheet.mana.current - spell.cost, max=sheet.mana.max)
    return sheet.model_copy(update={"mana": mana})
