"""Obscur duels vectorised with numpy (O-11 to O-13, O-17, O-19, O-28, O-29, O-31).

All fights of a chunk play round by round at once. The same steps as the system's own
:func:`~meneur.systems.obscur.combat.fight_with`, in the same order on each fighter's
stream (A: stream 0, B: stream 1), so that the conformance suite can feed both the same
faces and compare every fight's end: per round, each fighter's PA (pain malus O-29 and
outnumbering O-17 removed) is split by its strategy (O-12); the one of higher Rang
d'Action strikes first (O-11); an Attack against the defender's Parade (+ Défense and
shield), the margin plus Hargne and weapon damage minus armour of the zone die and
Résistance is lost (O-13), and a wound shakes the defender for the rest of the round
(O-28, Résistance + Choc test). A fighter at or below its ``fuite`` threshold tries to
disengage (O-19: Agilité against the opponent's RA; failing, a dodge against each blow).
Vie at 0 is the coma, twice the Vie lost is death (O-31).

What this covers: the weapons in hand (bare hands without any; several weapons each
strike with their own PA, O-16), drawn, and impressing before the fight (O-20). Drawing
while fighting (O-18) and coups spéciaux (O-22) are left to the system's own fight
(``vectorisable`` says which), fed faces by numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from meneur.lab.simulate import Tally, histogram
from meneur.lab.vector import RandomReader

Int = NDArray[np.int64]
Bool = NDArray[np.bool_]


def vectorisable(params: Any) -> bool:
    """Whether :func:`obscur_duel_tally` plays these fights exactly as ``fight_with``."""
    fighters = (params.a, params.b)
    return all(not f.sheathed and f.special is None for f in fighters)


def _lookup(rows: list[Any], top: int) -> Int:
    """A step table (shock, pain) as an array indexed by the value, clipped at ``top``."""
    from meneur.systems.obscur.health import step

    return np.array([step(rows, v, "malus") for v in range(top + 1)], dtype=np.int64)


@dataclass(frozen=True)
class _Arm:
    pa: int
    """The weapon's PA less the points moved to the Rang d'Action."""
    values: Int
    """Successes per face 0..6 of the weapon's pool (face 0: no die)."""
    bonus: int
    """Hargne share of the weapon class + weapon damage (O-13)."""


@dataclass(frozen=True)
class _Fighter:
    """What the vectorised fight reads from one fighter, as numbers."""

    arms: tuple[_Arm, ...]
    """The weapons in hand (bare hands without any), each with its own PA (O-11, O-16)."""
    parade_values: Int
    """Successes per face of the Parade (the first weapon's pool)."""
    defence: int
    """Every weapon's Défense + the shield's Protection (O-12, O-22)."""
    ra: int
    agility: int
    strategy: str
    protection: Int
    """Armour of the zone of each face 0..6."""
    resistance: int
    choc: tuple[int, Int] | None
    dodge: tuple[int, Int]
    flee_at: int | None
    impress: tuple[int, Int]
    """Prestance + Intimidation (O-20): dice and successes per face."""
    sang_froid: int
    malus: int
    """O-17 outnumbering and fatigue: the same every round."""
    fatigue: int
    vie: int
    vie_max: int


def _values(zero_skill: bool, zero_attribute: bool) -> Int:
    from meneur.systems.obscur.scoring import Scoring

    scoring = Scoring.of(zero_skill=zero_skill, zero_attribute=zero_attribute)
    return np.array((0, *scoring.values), dtype=np.int64)


def _fighter(fighter: Any, body: Any) -> _Fighter:
    from meneur.systems.obscur.combat import action_rank, pa_malus
    from meneur.systems.obscur.gear import armoury

    arms = fighter.arms if fighter.arms else (fighter.unarmed,)
    first = arms[0]
    zones = armoury()
    choc = fighter.choc
    dodge = fighter.dodge
    dodge_dice = dodge.dice if dodge is not None else fighter.hargne
    dodge_values = (
        _values(dodge.zero_skill, dodge.zero_attribute)
        if dodge is not None
        else _values(True, False)
    )
    return _Fighter(
        arms=tuple(
            _Arm(
                arm.pa.dice - fighter.ra_points,
                _values(arm.pa.zero_skill, arm.pa.zero_attribute),
                arm.weapon.hargne_bonus(fighter.hargne) + arm.weapon.damage,
            )
            for arm in arms
        ),
        parade_values=_values(first.pa.zero_skill, first.pa.zero_attribute),
        defence=sum(arm.weapon.defense for arm in arms) + fighter.shield,
        ra=action_rank(fighter, arms),
        agility=fighter.agility,
        strategy=fighter.strategy,
        protection=np.array(
            [0] + [fighter.armour.get(zones.zone_of(face), 0) for face in range(1, 7)],
            dtype=np.int64,
        ),
        resistance=fighter.resistance,
        choc=None if choc is None else (choc.dice, _values(choc.zero_skill, choc.zero_attribute)),
        dodge=(dodge_dice, dodge_values),
        flee_at=fighter.flee_at,
        impress=(
            (0, _values(False, False))
            if fighter.impress is None
            else (
                fighter.impress.dice,
                _values(fighter.impress.zero_skill, fighter.impress.zero_attribute),
            )
        ),
        sang_froid=fighter.sang_froid,
        malus=pa_malus(fighter, len(arms)) + body.fatigue,
        fatigue=body.fatigue,
        vie=body.vie,
        vie_max=body.vie_max,
    )


def split(strategy: str, pa: Int, lost: Int, vie_max: int) -> Int:
    """Attack dice of each PA under a strategy (``combat.split``, vectorised)."""
    if strategy == "prudente":
        return np.where(lost * 2 >= vie_max, (pa + 3) // 4, (pa + 1) // 2)
    if strategy.startswith("attaque="):
        return np.minimum(pa, int(strategy.partition("=")[2]))
    if strategy == "totale":
        return pa
    if strategy == "offensive":
        return (3 * pa + 3) // 4
    if strategy == "defensive":
        return (pa + 3) // 4
    return (pa + 1) // 2


def _roll(reader: Any, rows: Int, dice: Int, modifier: Int, values: Int) -> Int:
    """Successes of one core test per row (``health.roll``: clamped, pool never below 0)."""
    from meneur.systems.obscur.rules import MAX_DICE

    if rows.size == 0:
        return np.zeros(0, dtype=np.int64)
    pool = np.maximum(
        0, np.minimum(dice, MAX_DICE) + np.clip(modifier, -MAX_DICE, MAX_DICE)
    ).astype(np.int64)
    faces = reader.take(rows, pool)
    if faces.shape[0] == 0:
        return np.zeros(rows.size, dtype=np.int64)
    successes: Int = values[faces].sum(axis=0, dtype=np.int64)
    return successes


@dataclass
class DuelResult:
    """Per fight: the winner (1: A, -1: B, 0: nobody), how it ended, rounds, final Vie."""

    winner: Int
    end: NDArray[np.int8]
    """0: the round limit, 1: coma, 2: dead, 3: disengaged (:data:`ENDS`)."""
    rounds: Int
    vie_a: Int
    vie_b: Int


ENDS = ("rounds", "coma", "dead", "disengaged")


def obscur_duels_vector(params: Any, readers: tuple[Any, Any], runs: int) -> DuelResult:
    """``runs`` duels to their end; ``readers``: A's and B's faces (stream 0 and 1)."""
    from meneur.systems.obscur.combat import combat_data, initiator
    from meneur.systems.obscur.health import health_tables

    if not vectorisable(params):
        raise ValueError("these fighters need the system's own fight")
    sides = (_fighter(params.a, params.a_body), _fighter(params.b, params.b_body))
    top = 4 * max(s.vie_max for s in sides) + 200
    tables = health_tables()
    pain, shock_table = _lookup(tables.pain, top), _lookup(tables.shock, top)
    first = initiator(sides[0].ra, sides[1].ra, sides[0].agility, sides[1].agility)
    order = (0, 1) if first in ("a", None) else (1, 0)
    delay_shock = first is None
    limit = params.max_rounds or combat_data().variants.max_rounds
    vie = [np.full(runs, s.vie, dtype=np.int64) for s in sides]
    winner = np.zeros(runs, dtype=np.int64)
    end = np.zeros(runs, dtype=np.int8)
    rounds = np.zeros(runs, dtype=np.int64)
    live: Int = np.arange(runs)
    impressed = [np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64)]
    for key in params.impress:  # O-20: the margin is a malus for the whole fight
        who = 0 if key == "a" else 1
        difficulty = max(1, sides[1 - who].sang_froid)
        got = _roll(
            readers[who],
            live,
            np.full(runs, sides[who].impress[0], dtype=np.int64),
            np.zeros(runs, dtype=np.int64),
            sides[who].impress[1],
        )
        impressed[1 - who] += np.where(got >= difficulty, got - difficulty, 0)

    def lost(i: int, rows: Int) -> Int:
        return np.clip(sides[i].vie_max - vie[i][rows], 0, top)

    def wound(defender: int, rows: Int, damage: Int, shock: Int | None) -> None:
        """Damage lost; a conscious defender rolls Choc against the shock (O-28)."""
        s = sides[defender]
        vie[defender][rows] -= damage
        shaken = (damage > 0) & (vie[defender][rows] > 0)
        base = shock_table[np.minimum(damage, top)]
        if s.choc is None:
            malus = base
        else:
            roll_rows = shaken & (base > 0)
            malus = base.copy()
            idx = np.flatnonzero(roll_rows)
            got = _roll(
                readers[defender],
                rows[idx],
                np.full(idx.size, s.choc[0], dtype=np.int64),
                np.zeros(idx.size, dtype=np.int64),
                s.choc[1],
            )
            malus[idx] = np.maximum(0, base[idx] - got)
        if shock is not None:
            shock += np.where(shaken, malus, 0)

    def blow(attacker: int, arm: _Arm, rows: Int, margin: Int, hit: Bool) -> tuple[Int, Int]:
        """Zone die of each hit (attacker's stream) and the damage (O-13)."""
        d = sides[1 - attacker]
        at = rows[hit]
        face = readers[attacker].take(at, np.ones(at.size, dtype=np.int64))
        faces = face[0].astype(np.int64) if at.size else np.zeros(0, dtype=np.int64)
        damage = np.maximum(0, margin[hit] + arm.bonus - d.protection[faces] - d.resistance)
        return at, damage

    while live.size and int(rounds[live[0]]) < limit:
        rounds[live] += 1
        n = live.size
        attack: list[list[Int]] = []  # per side, per weapon
        parade: list[Int] = []  # per side: the Parade dice of every weapon
        for i, s in enumerate(sides):
            malus = s.malus + pain[lost(i, live)] + impressed[i][live]
            attack.append([])
            parade.append(np.zeros(n, dtype=np.int64))
            for arm in s.arms:
                dice = np.maximum(0, arm.pa - malus)
                part = split(s.strategy, dice, lost(i, live), s.vie_max)
                attack[i].append(part)
                parade[i] += dice - part
        flees = [
            np.zeros(n, dtype=np.bool_) if s.flee_at is None else vie[i][live] <= s.flee_at
            for i, s in enumerate(sides)
        ]
        fleer_of = np.where(flees[0], 0, np.where(flees[1], 1, -1))
        # --- O-19: the fleer tests Agilité against the other's RA; else dodges the blow
        for fleer in (0, 1):
            other = 1 - fleer
            pos = np.flatnonzero(fleer_of == fleer)
            if not pos.size:
                continue
            rows = live[pos]
            f = sides[fleer]
            got = _roll(
                readers[fleer],
                rows,
                np.full(pos.size, f.agility, dtype=np.int64),
                np.zeros(pos.size, dtype=np.int64),
                _values(False, False),
            )
            broken = got > sides[other].ra
            winner[rows[broken]] = 1 if other == 0 else -1
            end[rows[broken]] = 3
            pos, rows = pos[~broken], rows[~broken]
            for k, arm in enumerate(sides[other].arms):  # each weapon, a dodge each
                hits = _roll(
                    readers[other],
                    rows,
                    attack[other][k][pos],
                    np.zeros(pos.size, dtype=np.int64),
                    arm.values,
                )
                dodged = _roll(  # Hargne + Esquive, less the fleer's body malus (O-29)
                    readers[fleer],
                    rows,
                    np.full(pos.size, f.dodge[0], dtype=np.int64),
                    -(pain[lost(fleer, rows)] + f.fatigue),
                    f.dodge[1],
                )
                hit = (hits >= dodged) & (hits > 0)
                at, damage = blow(other, arm, rows, hits - dodged, hit)
                wound(fleer, at, damage, None)
        # --- the exchange: the first attacker strikes, then the other if still conscious
        normal = np.flatnonzero(fleer_of < 0)
        shock = [np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)]
        for step, attacker in enumerate(order):
            defender = 1 - attacker
            pos = normal
            if step == 1 and not delay_shock:
                pos = pos[vie[attacker][live[pos]] > 0]  # knocked down before striking back
            if not pos.size:
                continue
            rows = live[pos]
            s, d = sides[attacker], sides[defender]
            guard = _roll(  # rolled once, at the first blow, against every blow (O-12)
                readers[defender],
                rows,
                parade[defender][pos] + d.defence,
                -shock[defender][pos],
                d.parade_values,
            )
            for k, arm in enumerate(s.arms):
                if k:  # a defender knocked down takes no more blows
                    keep = vie[defender][rows] > 0
                    pos, rows, guard = pos[keep], rows[keep], guard[keep]
                hits = _roll(
                    readers[attacker],
                    rows,
                    attack[attacker][k][pos],
                    -shock[attacker][pos],
                    arm.values,
                )
                hit = hits > guard
                at, damage = blow(attacker, arm, rows, hits - guard, hit)
                taken = np.zeros(pos.size, dtype=np.int64)
                wound_shock = np.zeros(int(hit.sum()), dtype=np.int64)
                wound(defender, at, damage, wound_shock)
                if not delay_shock:
                    taken[hit] = wound_shock
                    shock[defender][pos] += taken
        # --- who is down (O-31)
        rows = live
        down = [vie[i][rows] <= 0 for i in (0, 1)]
        dead = [sides[i].vie_max - vie[i][rows] >= 2 * sides[i].vie_max for i in (0, 1)]
        over = down[0] | down[1]
        finished = rows[over]
        end[finished] = np.where((dead[0] | dead[1])[over], 2, 1)
        winner[finished] = np.where((down[0] & down[1])[over], 0, np.where(down[0][over], -1, 1))
        gone = over | (end[rows] == 3)
        live = live[~gone]
    return DuelResult(winner, end, rounds, vie[0], vie[1])


def obscur_duel_tally(params: Any, rng: np.random.Generator, runs: int) -> Tally:
    """One chunk of vectorised duels, counted as :func:`meneur.lab.simulate.obscur_duels`."""
    result = obscur_duels_vector(params, (RandomReader(rng), RandomReader(rng)), runs)
    won, lost = result.winner == 1, result.winner == -1
    counts = {
        "won": int(won.sum()),
        "dead": int(lost.sum()),
        "unfinished": int((~won & ~lost).sum()),
    }
    for code, name in enumerate(ENDS):
        hits = int((result.end == code).sum())
        if hits:
            counts[f"end:{name}"] = hits
    return Tally(
        runs=runs,
        counts=counts,
        histograms={
            "rounds": histogram(result.rounds),
            "won_at": histogram(result.rounds[won]),
            "dead_at": histogram(result.rounds[lost]),
        },
    )
