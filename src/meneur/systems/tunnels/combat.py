"""Melee to the end (T-10, T-11): opposed rounds until a monster falls or someone dies.

A round is an opposed test (T-9) of Force against Force, or against a Monster Rating.
The loser loses the margin: a monster loses MR (and rolls that many dice next round,
falling at MR 0); a character loses Endurance, and at 0 becomes wounded and recovers all
of it, or dies if already wounded (T-11). Option: the loser loses 1 point whatever the
margin. Equal successes: nobody loses anything this round. Weapons and armour (T-10:
announced, not given) are an optional modifier from ``data/gear.toml``: the winner's
weapon adds to the loss, the loser's armour absorbs from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.rng import DiceSource
from meneur.systems.tunnels.rules import (
    OpposedOutcome,
    OpposedParams,
    Policy,
    Side,
    TestParams,
    TunnelsOppose,
    check_policy,
    test_json,
)

MAX_ROUNDS = 1000
MAX_ENDURANCE = 10_000
Loss = Literal["margin", "one"]


@dataclass(frozen=True, slots=True)
class Fighter:
    """A character (dice = Force, Endurance) or a monster (``monster``: dice = MR)."""

    name: str
    dice: int
    endurance: int = 0
    max_endurance: int = 0
    wounded: bool = False
    dead: bool = False
    monster: bool = False
    damage: int = 0
    """Weapon bonus: added to what the opponent loses after an exchange this fighter wins."""
    absorb: int = 0
    """Armour: points taken off each loss of this fighter (never below 0)."""

    def __post_init__(self) -> None:
        if self.monster:
            if not 0 <= self.dice <= TestParams.MAX_DICE:  # 0: defeated
                raise RuleError(
                    N_("A Monster Rating lies between 1 and {limit}, not {mr}."),
                    limit=TestParams.MAX_DICE,
                    mr=self.dice,
                )
        else:
            if not 1 <= self.dice <= TestParams.MAX_DICE:
                raise RuleError(
                    N_("A fighter rolls from 1 to {limit} dice, not {dice}."),
                    limit=TestParams.MAX_DICE,
                    dice=self.dice,
                )
            if not 0 <= self.endurance <= MAX_ENDURANCE or self.max_endurance < self.endurance:
                raise RuleError(
                    N_("Endurance lies between 1 and {limit}, not {endurance}."),
                    limit=MAX_ENDURANCE,
                    endurance=self.endurance,
                )

    @property
    def down(self) -> bool:
        """A monster at MR 0 is defeated; a character is down when dead."""
        return self.dice <= 0 if self.monster else self.dead

    def hurt(self, points: int) -> Fighter:
        """This fighter after losing ``points`` (T-10 for a monster's MR, T-11 for a character)."""
        if points <= 0:
            return self
        if self.monster:
            return replace(self, dice=max(0, self.dice - points))
        left = self.endurance - points
        if left > 0:
            return replace(self, endurance=left)
        if self.wounded:
            return replace(self, endurance=0, dead=True)
        return replace(self, endurance=self.max_endurance, wounded=True)

    def state_json(self) -> dict[str, Any]:
        if self.monster:
            return {"name": self.name, "mr": self.dice}
        return {
            "name": self.name,
            "endurance": self.endurance,
            "wounded": self.wounded,
            "dead": self.dead,
        }


def character(
    name: str,
    force: int,
    endurance: int,
    *,
    wounded: bool = False,
    damage: int = 0,
    absorb: int = 0,
) -> Fighter:
    if endurance < 1:
        raise RuleError(
            N_("Endurance lies between 1 and {limit}, not {endurance}."),
            limit=MAX_ENDURANCE,
            endurance=endurance,
        )
    return Fighter(name, force, endurance, endurance, wounded=wounded, damage=damage, absorb=absorb)


def monster(name: str, mr: int, *, damage: int = 0, absorb: int = 0) -> Fighter:
    if mr < 1:
        raise RuleError(
            N_("A Monster Rating lies between 1 and {limit}, not {mr}."),
            limit=TestParams.MAX_DICE,
            mr=mr,
        )
    return Fighter(name, mr, monster=True, damage=damage, absorb=absorb)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    a_dice: int
    b_dice: int
    outcome: OpposedOutcome
    lost: int
    a: Fighter
    b: Fighter


@dataclass(frozen=True, slots=True)
class Fight:
    rounds: tuple[Round, ...]
    a: Fighter
    b: Fighter

    @property
    def winner(self) -> Literal["a", "b"] | None:
        if self.b.down and not self.a.down:
            return "a"
        if self.a.down and not self.b.down:
            return "b"
        return None


class _Held:
    """A dice source that ignores ``finish`` between rounds (typed faces span the fight)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source

    @property
    def kind(self) -> str:
        return self.source.kind

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        return self.source.roll(sides, count)

    def finish(self) -> None:
        return None


def play_round(
    a: Fighter,
    b: Fighter,
    sources: Sequence[DiceSource],
    *,
    explode: Policy = "needed",
    loss: Loss = "margin",
) -> tuple[OpposedOutcome, int, Fighter, Fighter]:
    """One exchange (T-10): the opposed test, then the loser's loss."""
    params = OpposedParams(Side(a.dice, explode=explode), Side(b.dice, explode=explode))
    outcome = TunnelsOppose().roll(params, sources).outcome
    if outcome.winner is None:
        return outcome, 0, a, b
    winner, loser = (a, b) if outcome.winner == "a" else (b, a)
    lost = loss_points(outcome.margin, loss, winner.damage, loser.absorb)
    if outcome.winner == "a":
        return outcome, lost, a, b.hurt(lost)
    return outcome, lost, a.hurt(lost), b


def loss_points(margin: int, loss: Loss, damage: int = 0, absorb: int = 0) -> int:
    """Points the loser of an exchange loses (T-10): the margin (or 1), + weapon - armour."""
    base = 1 if loss == "one" else margin
    return max(0, base + damage - absorb)


def fight(
    a: Fighter,
    b: Fighter,
    sources: Sequence[DiceSource],
    *,
    explode: Policy = "needed",
    loss: Loss = "margin",
    max_rounds: int = MAX_ROUNDS,
) -> Fight:
    """Melee to the end (T-10, T-11): rounds until one side is down."""
    check_policy(explode)
    if loss not in ("margin", "one"):
        raise RuleError(
            N_("Unknown loss rule '{loss}': choose margin or one."), loss=str(loss)[:40]
        )
    held = [_Held(source) for source in sources]
    rounds: list[Round] = []
    while not (a.down or b.down):
        if len(rounds) >= max_rounds:
            raise LimitError(N_("The fight is stopped after {limit} rounds."), limit=max_rounds)
        a_dice, b_dice = a.dice, b.dice
        outcome, lost, a, b = play_round(a, b, held, explode=explode, loss=loss)
        rounds.append(Round(len(rounds) + 1, a_dice, b_dice, outcome, lost, a, b))
    for source in {id(s): s for s in sources}.values():
        source.finish()
    return Fight(tuple(rounds), a, b)


def fight_json(result: Fight) -> dict[str, Any]:
    return {
        "system": "tunnels",
        "rounds": [
            {
                "round": r.number,
                "a": test_json(r.outcome.a),
                "b": test_json(r.outcome.b),
                "winner": r.outcome.winner,
                "margin": r.outcome.margin,
                "lost": r.lost,
                "a_after": r.a.state_json(),
                "b_after": r.b.state_json(),
            }
            for r in result.rounds
        ],
        "winner": result.winner,
        "a": result.a.state_json(),
        "b": result.b.state_json(),
    }
