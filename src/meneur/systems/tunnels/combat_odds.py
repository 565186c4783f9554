"""Exact odds of a whole melee against a monster (T-10, T-11), without sampling.

A melee is a Markov chain over (MR left, Endurance left, wounded). Each round's law is
the exact opposed law (T-9) of Force against the MR in dice; a tie changes nothing, so a
state's value solves ``p = sum(non-tie moves) + p_tie * p``, that is
``p = sum(non-tie moves) / (1 - p_tie)``. Every other move lowers the MR or the
Endurance (or wounds), so the recursion is finite; values are exact rationals.

States are valued MR by MR, from the lowest up, each as an integer over one common
denominator (:func:`_common_denominator`): a step is integer additions and one exact
division. Reduced rationals, ``Fraction`` or FLINT's ``fmpq``, spent nearly all of a
fight's time in a gcd at every addition, on denominators of tens to hundreds of
thousands of bits; the answer comes back as a reduced ``Fraction``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from flint import fmpq, fmpz

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.systems.tunnels.combat import Loss, loss_points
from meneur.systems.tunnels.odds import check_margin_size, who_wins_weights, winner_odds
from meneur.systems.tunnels.rules import OpposedParams, Policy, Side

MAX_FIGHT_ENDURANCE = 60


@dataclass(frozen=True, slots=True)
class RoundMoves:
    """One round against MR ``m`` as integer weights over ``total``: the points the
    monster loses (``hits``) or the character loses (``wounds``), each with its weight, and
    the weight of a round that changes nothing (a tie, or a loss that armour absorbs)."""

    hits: tuple[tuple[int, int], ...]
    wounds: tuple[tuple[int, int], ...]
    still: int
    total: int


def round_moves(a: Side, b: Side, loss: Loss, gear: tuple[int, int, int, int]) -> RoundMoves:
    """The round's law (T-9) grouped by the points lost (T-10): margins that cost the
    same points lead to the same state, so a state sums over points, not margins.
    ``gear``: the character's weapon and armour, then the monster's. Under T-10's option
    ``one`` the loser loses a point whatever the margin: who wins is all a round needs
    (:func:`~meneur.systems.tunnels.odds.who_wins_weights`, at every pool with
    ``needed``), not the lead's whole law."""
    damage, absorb, vs_damage, vs_absorb = gear
    if loss == "one":
        win, lose, tie, total = who_wins_weights(OpposedParams(a, b))
        outcomes: list[tuple[tuple[str | None, int], int]] = [
            (("a", 1), win),
            (("b", 1), lose),
            ((None, 0), tie),
        ]
    else:
        law = winner_odds(OpposedParams(a, b))
        outcomes, total = list(law.items()), law.total
    hits: dict[int, int] = {}
    wounds: dict[int, int] = {}
    still = 0
    for (winner, margin), weight in outcomes:
        if winner == "a":
            lost = loss_points(margin, loss, damage, vs_absorb)
        elif winner == "b":
            lost = loss_points(margin, loss, vs_damage, absorb)
        else:
            lost = 0
        if lost == 0:
            still += weight
        elif weight:
            into = hits if winner == "a" else wounds
            into[lost] = into.get(lost, 0) + weight
    return RoundMoves(tuple(sorted(hits.items())), tuple(sorted(wounds.items())), still, total)


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
    blessed: bool = False,
    cursed: bool = False,
    vs_explode: Policy | None = None,
    vs_blessed: bool = False,
    vs_cursed: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Fraction:
    """The exact probability that the character brings the monster to MR 0 before dying.

    ``damage``/``absorb`` are the character's weapon and armour, ``vs_*`` the monster's;
    ``blessed``/``cursed`` each side's mode (T-4), ``vs_explode`` the monster's policy
    (by default the character's). A tie changes nothing whether it counts as a round or
    is rolled again (T-9's option): the odds are the same.
    ``progress`` is called with 1 at each step (:func:`fight_steps` counts them): a fight
    of 14 dice a side and an Endurance of 60 takes seconds, where a bar helps. With a
    ``needed`` side a round's margins walk the sides' joint state, the three 6s left out
    (``check_margin_size``: 20 dice a side, or 30 against 10); under T-10's option ``one``
    a round needs only who wins (:func:`round_moves`), exact at every pool.
    """
    vs_policy = explode if vs_explode is None else vs_explode
    if loss == "margin":  # T-9: needed sides look at each other; the margins need the walk
        check_margin_size(force, mr, (explode, vs_policy))
    full = max(endurance, max_endurance or 0)
    if full > MAX_FIGHT_ENDURANCE:
        raise LimitError(
            N_("Exact fight odds are computed for an Endurance of at most {limit}."),
            limit=MAX_FIGHT_ENDURANCE,
        )
    rounds: dict[int, RoundMoves] = {}
    for m in range(1, mr + 1):
        rounds[m] = round_moves(
            Side(force, blessed=blessed, cursed=cursed, explode=explode),
            Side(m, blessed=vs_blessed, cursed=vs_cursed, explode=vs_policy),
            loss,
            (damage, absorb, vs_damage, vs_absorb),
        )
        if progress is not None:
            progress(1)
    # value[hurt][m][e]: the chance to win from MR m, Endurance e; a state reads states of
    # a lower MR, or a lower Endurance, or (unhurt) the wounded state at full Endurance,
    # so MR rises outside, and wounded states come before unhurt ones. An MR whose every
    # round changes nothing has no value: the fight fails only if it can get there.
    tops = {True: full, False: 0 if wounded else endurance}
    scale = _common_denominator(rounds, tops[True] + tops[False])
    value: dict[bool, list[list[fmpz] | None]] = {True: [None], False: [None]}

    def at(hurt: bool, m: int) -> list[fmpz]:
        column = value[hurt][m]
        if column is None:
            raise RuleError(N_("This fight can never end: every exchange changes nothing."))
        return column

    for m in range(1, mr + 1):
        moves = rounds[m]
        for hurt in (True, False):
            if moves.still == moves.total:
                value[hurt].append(None)
                continue
            column: list[fmpz] = [fmpz(0)]  # Endurance 0: never read
            value[hurt].append(column)
            for e in range(1, tops[hurt] + 1):
                won = fmpz(0)
                for lost, weight in moves.hits:
                    won += weight * (scale if lost >= m else at(hurt, m - lost)[e])
                for lost, weight in moves.wounds:
                    if lost < e:
                        won += weight * column[e - lost]
                    elif not hurt:
                        won += weight * at(True, m)[full]
                column.append(won // (moves.total - moves.still))  # exact: _common_denominator
                if progress is not None:
                    progress(1)
    answer = fmpq(at(wounded, mr)[endurance], scale)  # FLINT's gcd, fast at this size
    return Fraction(int(answer.p), int(answer.q))


def _common_denominator(rounds: dict[int, RoundMoves], chain: int) -> fmpz:
    """A multiple of every state's denominator, so that values are integers over it.

    A state at MR m is a sum of integer weights times values, divided by ``g_m = total -
    still``; along any chain of states at most ``chain`` (Endurance unhurt, then full
    Endurance wounded) sit at one MR, so ``prod g_m ** chain`` is a common denominator:
    every value times it is an integer, and each division by ``g_m`` is exact. Integers
    of this size add and multiply by a weight in linear time, where rationals reduce by
    a gcd at every step (20 s -> 1 s at Force 10 against MR 10, Endurance 30)."""
    out = fmpz(1)
    for moves in rounds.values():
        if moves.still != moves.total:
            out *= fmpz(moves.total - moves.still) ** chain
    return out


def fight_steps(endurance: int, mr: int, *, wounded: bool, max_endurance: int | None) -> int:
    """The steps :func:`p_win_against_monster` reports to ``progress``: a round's law per
    MR, then every state it values."""
    full = max(endurance, max_endurance or 0)
    return mr + mr * (full + (0 if wounded else endurance))
