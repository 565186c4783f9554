"""Melee to the end (T-10, T-11): opposed rounds until a monster falls or someone dies.

A round is an opposed test (T-9) of Force against Force, or against a Monster Rating.
The loser loses the margin: a monster loses MR (and rolls that many dice next round,
falling at MR 0); a character loses Endurance, and at 0 becomes wounded and recovers all
of it, or dies if already wounded (T-11). Option: the loser loses 1 point whatever the
margin. Equal successes: nobody loses anything this round (option: the exchange is
rolled again and does not count). Weapons and armour (T-10:
announced, not given) are an optional modifier from ``data/gear.toml``: the winner's
weapon adds to the loss, the loser's armour absorbs from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from meneur.errors import LimitError, RuleError
from meneur.locale import N_
from meneur.rng import DiceSource, HeldDice
from meneur.systems.base import FaceReader, Faces, Procedure
from meneur.systems.tunnels.rules import (
    LOWEST_SUCCESS,
    POLICIES,
    SIXES_RULES,
    OpposedOutcome,
    OpposedParams,
    Policy,
    Side,
    SixesRule,
    TestParams,
    check_policy,
    mode_of,
    roll_opposed,
    test_json,
)

MAX_ROUNDS = 1000
MAX_ENDURANCE = 10_000
Loss = Literal["margin", "one"]
Tie = Literal["none", "reroll"]
LOSSES: tuple[Loss, ...] = ("margin", "one")
TIES: tuple[Tie, ...] = ("none", "reroll")


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
class FightParams:
    """A fight to its end (T-9 to T-11): both fighters and every option of play and the lab.

    ``explode``/``vs_explode``: each side's explosion policy (T-6); ``blessed``/``cursed``
    and ``vs_blessed``/``vs_cursed``: each side's mode (T-4); ``sixes``: where three 6s
    count (T-7); ``loss``: the loser loses the margin or one point (T-10 option); ``tie``:
    a tied exchange counts as a round where nobody loses (``none``) or is rolled again
    without counting (``reroll``, T-9 option). ``max_rounds`` bounds the counted rounds
    (and four times as many exchanges): past it the fight ends unfinished.
    """

    a: Fighter
    b: Fighter
    explode: Policy = "needed"
    vs_explode: Policy = "needed"
    blessed: bool = False
    cursed: bool = False
    vs_blessed: bool = False
    vs_cursed: bool = False
    sixes: SixesRule = "batch"
    loss: Loss = "margin"
    tie: Tie = "none"
    max_rounds: int = MAX_ROUNDS

    def __post_init__(self) -> None:
        if not isinstance(self.a, Fighter) or not isinstance(self.b, Fighter):
            raise RuleError(N_("A fight needs two fighters."))
        check_policy(self.explode)
        check_policy(self.vs_explode)
        if self.sixes not in SIXES_RULES:
            raise RuleError(
                N_("Unknown rule for sixes '{rule}': choose batch or all."),
                rule=str(self.sixes),
            )
        if self.loss not in LOSSES:
            raise RuleError(
                N_("Unknown loss rule '{loss}': choose margin or one."), loss=str(self.loss)
            )
        if self.tie not in TIES:
            raise RuleError(
                N_("Unknown tie rule '{tie}': choose none or reroll."), tie=str(self.tie)
            )
        if isinstance(self.max_rounds, bool) or not 1 <= self.max_rounds <= MAX_ROUNDS:
            raise LimitError(
                N_("A fight lasts from 1 to {limit} rounds, not {rounds}."),
                limit=MAX_ROUNDS,
                rounds=self.max_rounds,
            )

    def exchange(self, a: Fighter, b: Fighter) -> OpposedParams:
        """The opposed test of one exchange between the fighters as they stand now."""
        return OpposedParams(
            Side(a.dice, blessed=self.blessed, cursed=self.cursed, explode=self.explode),
            Side(b.dice, blessed=self.vs_blessed, cursed=self.vs_cursed, explode=self.vs_explode),
            sixes=self.sixes,
        )


def against_monster(dice: int, endurance: int, mr: int, **options: Any) -> FightParams:
    """A character of Force ``dice`` and ``endurance`` against a Monster Rating ``mr``."""
    return FightParams(character("a", dice, endurance), monster("b", mr), **options)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    a_dice: int
    b_dice: int
    outcome: OpposedOutcome
    lost: int
    a: Fighter
    b: Fighter
    rerolled: bool = False
    """A tie rolled again (``tie="reroll"``): shown, but not counted as a round."""


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

    @property
    def counted(self) -> int:
        """Rounds that count (a tie rolled again does not)."""
        return sum(1 for r in self.rounds if not r.rerolled)

    @property
    def finished(self) -> bool:
        return self.a.down or self.b.down


def loss_points(margin: int, loss: Loss, damage: int = 0, absorb: int = 0) -> int:
    """Points the loser of an exchange loses (T-10): the margin (or 1), + weapon - armour."""
    base = 1 if loss == "one" else margin
    return max(0, base + damage - absorb)


def after_exchange(
    params: FightParams, a: Fighter, b: Fighter, outcome: OpposedOutcome
) -> tuple[int, Fighter, Fighter]:
    """The loss of one exchange (T-10) and both fighters after it (T-11)."""
    if outcome.winner is None:
        return 0, a, b
    winner, loser = (a, b) if outcome.winner == "a" else (b, a)
    lost = loss_points(outcome.margin, params.loss, winner.damage, loser.absorb)
    if outcome.winner == "a":
        return lost, a, b.hurt(lost)
    return lost, a.hurt(lost), b


def play_fight(params: FightParams, reader: FaceReader) -> Fight:
    """Melee to the end (T-9 to T-11), every face read through ``reader`` (stream 0: a)."""
    a, b = params.a, params.b
    rounds: list[Round] = []
    counted = 0
    while not (a.down or b.down) and counted < params.max_rounds:
        if len(rounds) >= 4 * params.max_rounds:
            break
        a_dice, b_dice = a.dice, b.dice
        outcome = roll_opposed(params.exchange(a, b), reader)
        rerolled = params.tie == "reroll" and outcome.winner is None
        lost, a, b = after_exchange(params, a, b, outcome)
        counted += 0 if rerolled else 1
        number = counted + 1 if rerolled else counted
        rounds.append(Round(number, a_dice, b_dice, outcome, lost, a, b, rerolled))
    return Fight(tuple(rounds), a, b)


class TunnelsFight(Procedure[FightParams, Fight]):
    """A fight to its end (T-9 to T-11): the procedure that play and the lab share."""

    name = "fight"
    die_sides = 6

    def streams(self, params: FightParams) -> int:
        return 2

    def run(self, params: FightParams, reader: FaceReader) -> Fight:
        return play_fight(params, reader)

    def key(self, outcome: Fight) -> Hashable:
        return (
            outcome.winner,
            outcome.counted,
            outcome.a.wounded,
            outcome.a.dead,
            outcome.b.wounded,
            outcome.b.dead,
        )

    def examples(self) -> Sequence[FightParams]:
        return (
            FightParams(character("a", 2, 3), monster("b", 2), max_rounds=12),
            FightParams(
                character("a", 2, 2), monster("b", 1), explode="always", tie="reroll", max_rounds=12
            ),
            FightParams(
                character("a", 1, 2), character("b", 1, 2), loss="one", blessed=True, max_rounds=12
            ),
            FightParams(character("a", 2, 2, damage=1), monster("b", 2, absorb=1), vs_cursed=True),
        )

    def params_strategy(self) -> Any:
        """Small fights over every option (tests only)."""
        from hypothesis import strategies as st

        policies = st.sampled_from(POLICIES)
        gear = st.integers(0, 2)
        hero = st.builds(
            character,
            st.just("a"),
            st.integers(1, 4),
            st.integers(1, 4),
            wounded=st.booleans(),
            damage=gear,
            absorb=gear,
        )
        opponent = st.one_of(
            hero.map(lambda f: replace(f, name="b")),
            st.builds(monster, st.just("b"), st.integers(1, 4), damage=gear, absorb=gear),
        )
        return st.builds(
            FightParams,
            hero,
            opponent,
            explode=policies,
            vs_explode=policies,
            blessed=st.booleans(),
            cursed=st.booleans(),
            vs_blessed=st.booleans(),
            vs_cursed=st.booleans(),
            sixes=st.sampled_from(SIXES_RULES),
            loss=st.sampled_from(LOSSES),
            tie=st.sampled_from(TIES),
            max_rounds=st.integers(1, 30),
        )

    def marks(self, params: FightParams, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """Each side's successes by its mode (T-4), its 1s in an exchange where they are three."""
        fight = self.resolve(params, faces)
        marked: list[list[str]] = [[], []]
        lowest = (
            LOWEST_SUCCESS[mode_of(params.blessed, params.cursed)],
            LOWEST_SUCCESS[mode_of(params.vs_blessed, params.vs_cursed)],
        )
        for one in fight.rounds:
            for side, test in enumerate((one.outcome.a, one.outcome.b)):
                marked[side].extend(
                    "hit"
                    if face >= lowest[side]
                    else "fumble"
                    if face == 1 and test.critical
                    else ""
                    for face in test.faces
                )
        return (tuple(marked[0]), tuple(marked[1]))

    def vectorised(self, params: FightParams) -> Any:
        from meneur.systems.tunnels.vector import TunnelsFightVector

        return TunnelsFightVector(params)

    def to_json(self, params: FightParams, outcome: Fight) -> dict[str, Any]:
        return fight_json(outcome)

    def exchange_json(self, params: FightParams, outcome: Fight) -> dict[str, Any]:
        """One exchange as the live table's tracker plays and logs it: the round's opposed
        test (T-9, T-10) and the Endurance it cost (T-11)."""
        from meneur.systems.tunnels.rules import TunnelsOppose

        (played,) = outcome.rounds
        opposed = TunnelsOppose().to_json(params.exchange(params.a, params.b), played.outcome)
        return {**opposed, "lost": played.lost}

    def logged_views(self, params: FightParams, outcome: Fight) -> tuple[dict[str, Any], ...]:
        whole = self.to_json(params, outcome)
        if len(outcome.rounds) != 1:
            return (whole,)
        return (whole, self.exchange_json(params, outcome))


def fight(params: FightParams, sources: Sequence[DiceSource]) -> Fight:
    """Play ``params`` to its end with dice drawn from ``sources`` (one per side).

    A fight that reaches ``max_rounds`` stops there with both sides standing
    (``finished`` false) and is shown as played: 60 dice a side that explode roll three
    1s nearly every exchange (T-8), so the rounds can run out, and refusing then threw
    every round played away.
    """
    result = TunnelsFight().roll(params, [HeldDice(source) for source in sources]).outcome
    for source in {id(s): s for s in sources}.values():
        source.finish()
    return result


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
                **({"rerolled": True} if r.rerolled else {}),
            }
            for r in result.rounds
        ],
        "winner": result.winner,
        "finished": result.finished,
        "a": result.a.state_json(),
        "b": result.b.state_json(),
    }
