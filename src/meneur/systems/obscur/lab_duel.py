"""Obscur duels vectorised with numpy (O-11 to O-22, O-28, O-29, O-31).

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

Also drawing while fighting (O-18: bare hands the round of the draw, RA lost the next),
impressing before the fight (O-20), several weapons in hand (O-16) and a coup spécial
tried with every attack (O-22: its cost, extra damage, an aimed zone, or a disarm that
forces a new draw). The fights of a round are grouped by what each side holds, who
strikes first and who flees, and each group is played with the same steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from meneur.lab.simulate import Tally, histogram
from meneur.vector import RandomReader

Int = NDArray[np.int64]
Bool = NDArray[np.bool_]


def vectorisable(params: Any) -> bool:
    """Whether :func:`obscur_duel_tally` plays these fights exactly as ``fight_with``
    (every fight the system's rules describe, O-11 to O-22)."""
    return params is not None


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
class _Kit:
    """What a fighter holds in a round: its weapons, or bare hands (O-11, O-16, O-18)."""

    arms: tuple[_Arm, ...]
    parade_values: Int
    """Successes per face of the Parade (the first weapon's pool)."""
    defence: int
    """Every weapon's Défense + the shield's Protection (O-12, O-22)."""
    ra: int
    """Rang d'Action before a draw's loss (O-11)."""
    malus: int
    """O-16 extra weapons, O-17 outnumbering and fatigue: the same every round."""


@dataclass(frozen=True)
class _Special:
    """A coup spécial tried with every attack (O-22): its cost and its effect."""

    cost: int
    effect: str
    value: int
    protection: int
    """The defender's armour on the zone a ``zone`` blow lands on."""


@dataclass(frozen=True)
class _Fighter:
    """What the vectorised fight reads from one fighter, as numbers."""

    kits: tuple[_Kit, _Kit]
    """0: the weapons in hand (bare hands without any); 1: bare hands (drawing, O-18)."""
    has_weapons: bool
    sheathed: bool
    gardien: int
    agility: int
    strategy: str
    protection: Int
    """Armour of the zone of each face 0..6."""
    armour: dict[str, int]
    resistance: int
    choc: tuple[int, Int] | None
    dodge: tuple[int, Int]
    flee_at: int | None
    impress: tuple[int, Int]
    """Prestance + Intimidation (O-20): dice and successes per face."""
    sang_froid: int
    special: Any
    fatigue: int
    overload: int
    """O-42: Surencombrement, a malus on the Agilité test of a disengagement (movement)."""
    vie: int
    vie_max: int


def _values(zero_skill: bool, zero_attribute: bool) -> Int:
    from meneur.systems.obscur.scoring import Scoring

    scoring = Scoring.of(zero_skill=zero_skill, zero_attribute=zero_attribute)
    return np.array((0, *scoring.values), dtype=np.int64)


def _kit(fighter: Any, arms: tuple[Any, ...], fatigue: int) -> _Kit:
    from meneur.systems.obscur.combat import action_rank, pa_malus

    first = arms[0]
    return _Kit(
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
        malus=pa_malus(fighter, len(arms)) + fatigue,
    )


def _fighter(fighter: Any, body: Any) -> _Fighter:
    from meneur.systems.obscur.gear import armoury

    zones = armoury()
    choc, dodge, impress = fighter.choc, fighter.dodge, fighter.impress
    return _Fighter(
        kits=(
            _kit(fighter, fighter.arms or (fighter.unarmed,), body.fatigue),
            _kit(fighter, (fighter.unarmed,), body.fatigue),
        ),
        has_weapons=bool(fighter.arms),
        sheathed=fighter.sheathed,
        gardien=fighter.gardien,
        agility=fighter.agility,
        strategy=fighter.strategy,
        protection=np.array(
            [0] + [fighter.armour.get(zones.zone_of(face), 0) for face in range(1, 7)],
            dtype=np.int64,
        ),
        armour=dict(fighter.armour),
        resistance=fighter.resistance,
        choc=None if choc is None else (choc.dice, _values(choc.zero_skill, choc.zero_attribute)),
        dodge=(
            (dodge.dice, _values(dodge.zero_skill, dodge.zero_attribute))
            if dodge is not None
            else (fighter.hargne, _values(True, False))
        ),
        flee_at=fighter.flee_at,
        impress=(
            (0, _values(False, False))
            if impress is None
            else (impress.dice, _values(impress.zero_skill, impress.zero_attribute))
        ),
        sang_froid=fighter.sang_froid,
        special=fighter.special,
        fatigue=body.fatigue,
        overload=body.overload,
        vie=body.vie,
        vie_max=body.vie_max,
    )


def _special(attacker: _Fighter, defender: _Fighter) -> _Special | None:
    from meneur.systems.obscur.gear import armoury
    from meneur.text import fold

    blow = attacker.special
    if blow is None:
        return None
    protection = 0
    if blow.effect == "zone":
        zone = next(
            z.name for z in armoury().zones_file.zones if fold(z.name) == fold(blow.zone or "")
        )
        protection = defender.armour.get(zone, 0)
    return _Special(blow.cost, blow.effect, blow.value, protection)


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
    from meneur.systems.obscur.rules import TestParams

    if rows.size == 0:
        return np.zeros(0, dtype=np.int64)
    pool = np.maximum(
        0,
        np.minimum(dice, TestParams.MAX_DICE)
        + np.clip(modifier, -TestParams.MAX_DICE, TestParams.MAX_DICE),
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
    from meneur.systems.obscur.combat import combat_data
    from meneur.systems.obscur.health import health_tables

    sides = (_fighter(params.a, params.a_body), _fighter(params.b, params.b_body))
    specials = (_special(sides[0], sides[1]), _special(sides[1], sides[0]))
    top = 4 * max(s.vie_max for s in sides) + 200
    tables = health_tables()
    pain, shock_table = _lookup(tables.pain, top), _lookup(tables.shock, top)
    variants = combat_data().variants
    limit = params.max_rounds or variants.max_rounds
    plain = _values(False, False)
    vie = [np.full(runs, s.vie, dtype=np.int64) for s in sides]
    drawn = [np.full(runs, not s.sheathed, dtype=np.bool_) for s in sides]
    ra_loss = [np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64)]
    winner = np.zeros(runs, dtype=np.int64)
    end = np.zeros(runs, dtype=np.int8)
    rounds = np.zeros(runs, dtype=np.int64)
    live: Int = np.arange(runs)
    impressed = [np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64)]

    def lost(i: int, rows: Int) -> Int:
        return np.clip(sides[i].vie_max - vie[i][rows], 0, top)

    for key in params.impress:  # O-20: the margin is a malus for the whole fight
        who = 0 if key == "a" else 1
        difficulty = max(1, sides[1 - who].sang_froid)
        got = _roll(  # less the sheet's pain and fatigue (O-29)
            readers[who],
            live,
            np.full(runs, sides[who].impress[0], dtype=np.int64),
            -(pain[lost(who, live)] + sides[who].fatigue),
            sides[who].impress[1],
        )
        impressed[1 - who] += np.where(got >= difficulty, got - difficulty, 0)

    def wound(defender: int, rows: Int, damage: Int, shock: Int | None) -> None:
        """Damage lost; a conscious defender rolls Choc against the shock (O-28)."""
        s = sides[defender]
        before = pain[lost(defender, rows)] + s.fatigue  # O-29: this wound's pain comes later
        vie[defender][rows] -= damage
        shaken = (damage > 0) & (vie[defender][rows] > 0)
        base = shock_table[np.minimum(damage, top)]
        malus = base.copy()
        if s.choc is not None:
            idx = np.flatnonzero(shaken & (base > 0))
            got = _roll(
                readers[defender],
                rows[idx],
                np.full(idx.size, s.choc[0], dtype=np.int64),
                -before[idx],
                s.choc[1],
            )
            malus[idx] = np.maximum(0, base[idx] - got)
        if shock is not None:
            shock += np.where(shaken, malus, 0)

    def blow(
        attacker: int, arm: _Arm, rows: Int, margin: Int, hit: Bool, special: _Special | None
    ) -> tuple[Int, Int]:
        """The zone (a die of the attacker's, unless the blow aims) and damage (O-13)."""
        d = sides[1 - attacker]
        at = rows[hit]
        if special is not None and special.effect == "zone":
            protection: Any = special.protection
        else:
            face = readers[attacker].take(at, np.ones(at.size, dtype=np.int64))
            faces = face[0].astype(np.int64) if at.size else np.zeros(0, dtype=np.int64)
            protection = d.protection[faces]
        damage = np.maximum(0, margin[hit] + arm.bonus - protection - d.resistance)
        if special is not None and special.effect == "damage":
            damage = damage + special.value
        return at, damage

    def prepare(i: int, rows: Int) -> tuple[Int, Int]:
        """O-18: a fighter without a weapon in hand tests Gardien du feu to draw (bare
        hands this round; success costs RA next round). (kit of the round, RA)."""
        loss = ra_loss[i][rows]
        ra_loss[i][rows] = 0
        bare = ~drawn[i][rows]
        idx = np.flatnonzero(bare)
        if idx.size:
            got = _roll(
                readers[i],
                rows[idx],
                np.full(idx.size, sides[i].gardien, dtype=np.int64),
                -(pain[lost(i, rows[idx])] + sides[i].fatigue),  # O-29
                plain,
            )
            ok = rows[idx[got >= variants.draw_difficulty]]
            drawn[i][ok] = True
            ra_loss[i][ok] = variants.draw_ra_loss
        kit = bare.astype(np.int64)
        ra = np.where(bare, sides[i].kits[1].ra, sides[i].kits[0].ra) - loss
        return kit, ra

    def splits(i: int, kit: _Kit, rows: Int) -> tuple[list[Int], Int]:
        """Attack dice of each weapon and the Parade dice of all (O-12, O-16, O-29)."""
        s = sides[i]
        malus = kit.malus + pain[lost(i, rows)] + impressed[i][rows]
        attack: list[Int] = []
        parade = np.zeros(rows.size, dtype=np.int64)
        for arm in kit.arms:
            dice = np.maximum(0, arm.pa - malus)
            part = split(s.strategy, dice, lost(i, rows), s.vie_max)
            attack.append(part)
            parade += dice - part
        return attack, parade

    def disengage(fleer: int, rows: Int, other_ra: Int, kits: tuple[_Kit, _Kit]) -> None:
        """O-19: Agilité against the other's RA; failing, a dodge against each blow."""
        other = 1 - fleer
        f = sides[fleer]
        attack, _parade = splits(other, kits[other], rows)
        got = _roll(
            readers[fleer],
            rows,
            np.full(rows.size, f.agility, dtype=np.int64),
            -(pain[lost(fleer, rows)] + f.fatigue + f.overload),  # O-29, O-42: movement
            plain,
        )
        broken = got > other_ra
        winner[rows[broken]] = 1 if other == 0 else -1
        end[rows[broken]] = 3
        keep = ~broken
        rows = rows[keep]
        for k, arm in enumerate(kits[other].arms):
            hits = _roll(
                readers[other],
                rows,
                attack[k][keep],
                np.zeros(rows.size, dtype=np.int64),
                arm.values,
            )
            dodged = _roll(  # Hargne + Esquive, less the fleer's body malus (O-29)
                readers[fleer],
                rows,
                np.full(rows.size, f.dodge[0], dtype=np.int64),
                -(pain[lost(fleer, rows)] + f.fatigue),
                f.dodge[1],
            )
            hit = (hits >= dodged) & (hits > 0)
            at, damage = blow(other, arm, rows, hits - dodged, hit, None)
            wound(fleer, at, damage, None)

    def exchange(rows: Int, first: int, kits: tuple[_Kit, _Kit]) -> None:
        """The first attacker strikes, then the other if still conscious (O-11, O-12)."""
        order = (1, 0) if first == 1 else (0, 1)
        delay_shock = first == 2  # simultaneous: the shock of a wound waits (O-11)
        parts = [splits(i, kits[i], rows) for i in (0, 1)]
        shock = [np.zeros(rows.size, dtype=np.int64), np.zeros(rows.size, dtype=np.int64)]
        for step, attacker in enumerate(order):
            defender = 1 - attacker
            pos = np.arange(rows.size)
            if step == 1 and not delay_shock:
                pos = pos[vie[attacker][rows] > 0]  # knocked down before striking back
            if not pos.size:
                continue
            at_rows = rows[pos]
            d_kit = kits[defender]
            special = specials[attacker]
            cost = special.cost if special is not None else 0
            guard = _roll(  # rolled once, at the first blow, against every blow (O-12)
                readers[defender],
                at_rows,
                parts[defender][1][pos] + d_kit.defence,
                -shock[defender][pos],
                d_kit.parade_values,
            )
            for k, arm in enumerate(kits[attacker].arms):
                if k:  # a defender knocked down takes no more blows
                    keep = vie[defender][at_rows] > 0
                    pos, at_rows, guard = pos[keep], at_rows[keep], guard[keep]
                hits = _roll(
                    readers[attacker],
                    at_rows,
                    parts[attacker][0][k][pos],
                    -shock[attacker][pos] - cost,
                    arm.values,
                )
                hit = hits > guard
                at, damage = blow(attacker, arm, at_rows, hits - guard, hit, special)
                if (
                    special is not None
                    and special.effect == "disarm"
                    and sides[defender].has_weapons
                ):
                    drawn[defender][at] = False  # O-18: must draw again while fighting
                taken = np.zeros(pos.size, dtype=np.int64)
                wound_shock = np.zeros(int(hit.sum()), dtype=np.int64)
                wound(defender, at, damage, wound_shock)
                if not delay_shock:
                    taken[hit] = wound_shock
                    shock[defender][pos] += taken

    agility = (sides[0].agility, sides[1].agility)
    while live.size and int(rounds[live[0]]) < limit:
        rounds[live] += 1
        kit_a, ra_a = prepare(0, live)
        kit_b, ra_b = prepare(1, live)
        tie = 0 if agility[0] > agility[1] else 1 if agility[1] > agility[0] else 2
        first = np.where(ra_a != ra_b, np.where(ra_a > ra_b, 0, 1), tie)
        flees = [
            np.zeros(live.size, dtype=np.bool_) if s.flee_at is None else vie[i][live] <= s.flee_at
            for i, s in enumerate(sides)
        ]
        fleer = np.where(flees[0], 0, np.where(flees[1], 1, -1))
        group = ((kit_a * 2 + kit_b) * 3 + first) * 3 + (fleer + 1)
        for code in np.unique(group).tolist():
            pos = np.flatnonzero(group == code)
            rest, who = divmod(code, 3)
            rest, order = divmod(rest, 3)
            ka, kb = divmod(rest, 2)
            kits = (sides[0].kits[ka], sides[1].kits[kb])
            if who:  # O-19: the fleer is A (1) or B (2)
                f = who - 1
                disengage(f, live[pos], (ra_a if f == 1 else ra_b)[pos], kits)
            else:
                exchange(live[pos], order, kits)
        # --- who is down (O-31)
        rows = live
        down = [vie[i][rows] <= 0 for i in (0, 1)]
        dead = [sides[i].vie_max - vie[i][rows] >= 2 * sides[i].vie_max for i in (0, 1)]
        over = (down[0] | down[1]) & (end[rows] != 3)
        finished = rows[over]
        end[finished] = np.where((dead[0] | dead[1])[over], 2, 1)
        winner[finished] = np.where((down[0] & down[1])[over], 0, np.where(down[0][over], -1, 1))
        gone = over | (end[rows] == 3)
        live = live[~gone]
    return DuelResult(winner, end, rounds, vie[0], vie[1])


def obscur_duel_tally(params: Any, rng: np.random.Generator, runs: int) -> Tally:
    """One chunk of vectorised duels, counted as :func:`meneur.systems.obscur.lab.obscur_duels`."""
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
