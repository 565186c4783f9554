"""Exact odds of a whole melee against a monster (T-10, T-11), without sampling.

A melee is a Markov chain over (MR left, Endurance left, wounded). Each round's law is
the exact opposed law (T-9) of Force against the MR in dice; a tie changes nothing, so a
state's value solves ``p = sum(non-tie moves) + p_tie * p``, that is
``p = sum(non-tie moves) / (1 - p_tie)``. Every other move lowers the MR or the
Endurance (or wounds), so the recursion is finite; values are exact rationals.

The recursion runs in FLINT's rationals (``fmpq``), not ``Fraction``: its denominators
grow to tens of thousands of bits (every state divides by its own ``1 - p_tie``), where
Python's pure ``Fraction`` spends most of a fight's time in ``gcd``; the answer comes back
as a ``Fraction``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from flint import fmpq

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.tunnels.combat import Loss, loss_points
from meneur.systems.tunnels.odds import MAX_OPPOSED_ODDS_DICE, winner_odds
from meneur.systems.tunnels.rules import OpposedParams, Policy, Side

MAX_FIGHT_ENDURANCE = 60


@cache
def _round_law(force: int, mr: int, explode: Policy) -> tuple[tuple[str | None, int, fmpq], ...]:
    law = winner_odds(OpposedParams(Side(force, explode=explode), Side(mr, explode=explode)))
    moves: list[tuple[str | None, int, fmpq]] = []
    for key in law:
        winner, margin = key
        p = law.p(key)
        moves.append((winner, margin, fmpq(p.numerator, p.denominator)))
    return tuple(moves)


def p_win_against_monster(
    force: int,
    endurance: int,
    mr: int,
    *,
    wounded: bool = False,
    max_endurance: int | None = None,
    explode: Policy = "needed",
    loss: Loss = "margin",
    damage: int = 0,
    absorb: int = 0,
    vs_damage: int = 0,
    vs_absorb: int = 0,
) -> Fraction:
    """The exact probability that the character brings the monster to MR 0 before dying.

    ``damage``/``absorb`` are the character's weapon and armour, ``vs_*`` the monster's.
    """
    if explode == "needed" and max(force, mr) > MAX_OPPOSED_ODDS_DICE:
        raise LimitError(  # T-9: needed sides look at each other (never, always: any pool)
            N_("Exact fight odds are computed for at most {limit} dice a side."),
            limit=MAX_OPPOSED_ODDS_DICE,
        )
    if max(endurance, max_endurance or 0) > MAX_FIGHT_ENDURANCE:
        raise LimitError(
            N_("Exact fight odds are computed for an Endurance of at most {limit}."),
            limit=MAX_FIGHT_ENDURANCE,
        )
    full = max(endurance, max_endurance or 0)

    @cache
    def value(mr_left: int, endurance_left: int, hurt: bool) -> fmpq:
        if mr_left <= 0:
            return fmpq(1)
        total = fmpq(0)
        tie = fmpq(0)
        for winner, margin, p in _round_law(force, mr_left, explode):
            if winner is None:
                tie += p
                continue
            if winner == "a":
                lost = loss_points(margin, loss, damage, vs_absorb)
            else:
                lost = loss_points(margin, loss, vs_damage, absorb)
            if lost == 0:  # an exchange that changes nothing, like a tie
                tie += p
            elif winner == "a":
                total += p * value(mr_left - lost, endurance_left, hurt)
            elif endurance_left - lost > 0:
                total += p * value(mr_left, endurance_left - lost, hurt)
            elif not hurt:
                total += p * value(mr_left, full, True)
            # else: dead, worth 0
        if tie == 1:
            raise RuleError(N_("This fight can never end: every exchange changes nothing."))
        return total / (1 - tie)

    won = value(mr, endurance, wounded)
    return Fraction(int(won.p), int(won.q))
