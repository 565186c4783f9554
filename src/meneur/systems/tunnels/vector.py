"""The Tunnels checks with numpy (T-3 to T-9, T-12): many rolls at once, the rules of ``rules.py``.

Each ``*Vector`` class is what :meth:`Check.vectorised` returns: its ``width``,
``__call__(faces)`` and ``key_at(result, i)``; ``tests/test_conformance_vector.py`` ties
it to the scalar ``resolve`` on the same faces.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from meneur.vector import ArrayReader, Bool, Int, RandomReader, Subset

# --- Tunnels (T-3 to T-9) ------------------------------------------------------------

LOWEST = {"normal": 4, "blessed": 3, "cursed": 5}
_PRESENCE = np.array([0, 1, 2, 4, 8, 16, 32], dtype=np.uint8)
_POPCOUNT = np.array([bin(i).count("1") for i in range(64)], dtype=np.int16)


def _packed_table(lowest: int) -> NDArray[np.uint16]:
    """Per face: successes in bits 0-4, ones in 5-9, sixes in 10-14 (face 0 counts nothing).

    A batch has at most 30 dice (the engine's limit), so each count fits its 5 bits.
    """
    table = np.zeros(7, dtype=np.uint16)
    for face in range(1, 7):
        table[face] = int(face >= lowest) + (int(face == 1) << 5) + (int(face == 6) << 10)
    return table


_TABLES = {lowest: _packed_table(lowest) for lowest in (3, 4, 5)}


def batch_stats(
    faces: NDArray[np.uint8], counts: Int, lowest: int, extra: bool = True
) -> tuple[Int, Int, Int, Int]:
    """(successes, ones, sixes, extra dice) of one batch per run (T-3, T-5).

    ``faces`` is die-major (``[dice, runs]``): each die adds one whole row. ``extra``
    False skips the distinct faces (a policy that never explodes needs none).
    """
    runs = faces.shape[1]
    if faces.shape[0] == 0:
        zero = np.zeros(runs, dtype=np.int16)
        return zero, zero, zero, zero
    table = _TABLES[lowest]
    packed = table[faces[0]]
    for die in faces[1:]:
        packed += table[die]
    # counts below 32 fit int16: a view, not a copy
    successes = (packed & 0x1F).view(np.int16)
    ones = ((packed >> 5) & 0x1F).view(np.int16)
    sixes = (packed >> 10).view(np.int16)
    if not extra:
        return successes, ones, sixes, np.zeros(runs, dtype=np.int16)
    presence = _PRESENCE[faces[0]]
    for die in faces[1:]:
        presence |= _PRESENCE[die]
    return successes, ones, sixes, (counts - _POPCOUNT[presence]).astype(np.int16)


class PoolState:
    """Vectorised :class:`~meneur.systems.tunnels.rules.Pool`: counts per run."""

    def __init__(self, runs: int, lowest: int, sixes_rule: str, explodes: bool = True) -> None:
        self.lowest = lowest
        self.explodes = explodes
        self.all_sixes = sixes_rule == "all"
        # int16: a pool of 30 dice rolls at most 465 dice
        self.successes: Int = np.zeros(runs, dtype=np.int16)
        self.ones: Int = np.zeros(runs, dtype=np.int16)
        self.sixes: Int = np.zeros(runs, dtype=np.int16)
        self.streak: Bool = np.zeros(runs, dtype=np.bool_)
        self.pending: Int = np.zeros(runs, dtype=np.int16)
        self.fresh = True

    def add(self, rows: Int, faces: NDArray[np.uint8], counts: Int, lowest: int) -> None:
        s, o, x, e = batch_stats(faces, counts, lowest, self.explodes)
        if self.fresh and len(rows) == len(self.successes):  # the first batch of every run
            self.fresh = False
            self.successes, self.ones, self.sixes, self.pending = s, o, x, e
            self.streak = x >= 3
            return
        self.fresh = False
        self.successes[rows] += s
        self.ones[rows] += o
        self.sixes[rows] += x
        limit = self.sixes[rows] if self.all_sixes else x
        self.streak[rows] |= limit >= 3
        self.pending[rows] = e

    @property
    def critical(self) -> Bool:
        return self.ones >= 3


def wants(policy: str, behind: Bool) -> Bool:
    if policy == "always":
        return np.ones_like(behind)
    if policy == "never":
        return np.zeros_like(behind)
    return behind


def tunnels_test(
    reader: Any, runs: int, dice: int, threshold: int, mode: str, policy: str, sixes: str
) -> tuple[Int, Bool, Bool]:
    """(successes, exceptional, critical) of ``runs`` tests (T-3 to T-8)."""
    lowest = LOWEST[mode]
    pool = PoolState(runs, lowest, sixes, policy != "never")
    rows: Int = np.arange(runs)
    counts: Int = np.full(runs, dice, dtype=np.int64)
    pool.add(rows, reader.take(rows, counts), counts, lowest)
    while True:
        go = (pool.pending > 0) & wants(policy, pool.successes < threshold)
        if not go.any():
            break
        pool.pending[~go] = 0  # a pool that stops exploding has finished (T-6)
        rows = np.flatnonzero(go)
        counts = pool.pending[rows]
        pool.add(rows, reader.take(rows, counts), counts, lowest)
    critical = pool.critical
    passed = (pool.successes >= threshold) & ~critical
    return pool.successes, passed & pool.streak, critical


def judge(sa: Int, ca: Bool, sb: Int, cb: Bool) -> tuple[Int, Int]:
    """Winner (1: a, -1: b, 0: nobody) and margin of each exchange (T-9)."""
    diff = sa - sb
    winner = np.sign(diff)
    margin = np.abs(diff)
    only_a, only_b = ca & ~cb, cb & ~ca
    winner = np.where(ca & cb, 0, np.where(only_a, -1, np.where(only_b, 1, winner)))
    margin = np.where(
        ca & cb,
        0,
        np.where(only_a, np.maximum(1, -diff), np.where(only_b, np.maximum(1, diff), margin)),
    )
    return winner, margin


def tunnels_oppose(
    reader_a: Any,
    reader_b: Any,
    dice_a: Int,
    dice_b: Int,
    lowest_a: int,
    lowest_b: int,
    policy_a: str,
    policy_b: str,
    sixes: str,
) -> tuple[PoolState, PoolState]:
    """Both sides' pools after an opposition (T-9); ``dice_*`` may differ per run."""
    runs = len(dice_a)
    a = PoolState(runs, lowest_a, sixes, policy_a != "never")
    b = PoolState(runs, lowest_b, sixes, policy_b != "never")
    rows = np.arange(runs)
    a.add(rows, reader_a.take(rows, dice_a), dice_a, lowest_a)
    b.add(rows, reader_b.take(rows, dice_b), dice_b, lowest_b)
    live = np.ones(runs, dtype=np.bool_)
    while True:
        winner, _ = judge(a.successes, a.critical, b.successes, b.critical)
        go_a = live & (a.pending > 0) & wants(policy_a, winner != 1)
        go_b = live & (b.pending > 0) & wants(policy_b, winner != -1)
        live &= go_a | go_b
        if not live.any():
            break
        if go_a.any():
            rows = np.flatnonzero(go_a)
            counts = a.pending[rows]
            a.add(rows, reader_a.take(rows, counts), counts, lowest_a)
        if go_b.any():
            rows = np.flatnonzero(go_b)
            counts = b.pending[rows]
            b.add(rows, reader_b.take(rows, counts), counts, lowest_b)
    return a, b


# --- Tunnels tests drawn five dice at a time (simulation only) --------------------------

GROUP = 5
"""Dice drawn as one number: 6**5 = 7776 outcomes, each looked up whole."""


@cache
def group_tables(lowest: int, dice: int) -> tuple[NDArray[np.uint16], NDArray[np.uint8]]:
    """For each of the ``6**dice`` ordered outcomes of ``dice`` d6: the packed (successes,
    ones, sixes) of :func:`_packed_table` summed, and the faces shown as presence bits."""
    table = _TABLES[lowest]
    packed = np.zeros(6**dice, dtype=np.uint16)
    presence = np.zeros(6**dice, dtype=np.uint8)
    code = np.arange(6**dice)
    for _ in range(dice):
        face = code % 6 + 1
        code //= 6
        packed += table[face]
        presence |= _PRESENCE[face]
    return packed, presence


def draw_batches(rng: np.random.Generator, counts: Int, lowest: int) -> tuple[Int, Int, Int, Int]:
    """(successes, ones, sixes, extra dice) of one batch of ``counts[i]`` d6 per run.

    The same law as drawing each die (every ordered outcome of five dice is equally
    likely), but one random number and one table look-up stand for up to five dice.
    """
    runs = counts.size
    packed = np.zeros(runs, dtype=np.uint16)
    presence = np.zeros(runs, dtype=np.uint8)
    left = counts.astype(np.int64)
    while True:
        take = np.minimum(left, GROUP)
        if not take.any():
            break
        uniform = int(take.min()) == int(take.max())
        for k in range(1, GROUP + 1):
            rows = None if uniform and int(take[0]) == k else np.flatnonzero(take == k)
            size = runs if rows is None else rows.size
            if not size:
                continue
            codes = rng.integers(0, 6**k, size=size, dtype=np.uint16)
            group_packed, group_presence = group_tables(lowest, k)
            if rows is None:
                packed += group_packed[codes]
                presence |= group_presence[codes]
                break
            packed[rows] += group_packed[codes]
            presence[rows] |= group_presence[codes]
        left -= take
    successes = (packed & 0x1F).view(np.int16)
    ones = ((packed >> 5) & 0x1F).view(np.int16)
    sixes = (packed >> 10).view(np.int16)
    return successes, ones, sixes, (counts - _POPCOUNT[presence]).astype(np.int16)


def tunnels_test_drawn(rng: np.random.Generator, runs: int, params: Any) -> tuple[Int, Bool, Bool]:
    """(successes, exceptional, critical) of ``runs`` tests (T-3 to T-8), batches drawn by
    :func:`draw_batches`: the loop of :func:`tunnels_test` without materialising faces."""
    lowest = LOWEST[params.mode]
    all_sixes = params.sixes == "all"
    counts: Int = np.full(runs, params.dice, dtype=np.int64)
    successes, ones, sixes, pending = draw_batches(rng, counts, lowest)
    successes, ones, sixes = (a.astype(np.int16) for a in (successes, ones, sixes))
    streak = sixes >= 3
    if params.explode == "never":
        pending = np.zeros(runs, dtype=np.int16)
    while True:
        go = (pending > 0) & wants(params.explode, successes < params.threshold)
        if not go.any():
            break
        rows = np.flatnonzero(go)
        s, o, x, e = draw_batches(rng, pending[rows], lowest)
        successes[rows] += s
        ones[rows] += o
        sixes[rows] += x
        streak[rows] |= (sixes[rows] if all_sixes else x) >= 3
        pending = np.zeros(runs, dtype=np.int16)
        pending[rows] = e
    critical = ones >= 3
    passed = (successes >= params.threshold) & ~critical
    return successes, passed & streak, critical


def most_dice(n: int) -> int:
    return n * (n + 1) // 2


class TunnelsTestVector:
    """The vectorised Tunnels test (``TunnelsTest.key``: successes, exceptional, critical)."""

    def __init__(self, params: Any) -> None:
        self.params = params
        self.width = params.dice if params.explode == "never" else most_dice(params.dice)

    def run(self, reader: Any, runs: int) -> tuple[Int, Bool, Bool]:
        p = self.params
        return tunnels_test(reader, runs, p.dice, p.threshold, p.mode, p.explode, p.sixes)

    def __call__(self, faces: NDArray[Any]) -> tuple[Int, Bool, Bool]:
        return self.run(ArrayReader(faces[:, 0, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        passed: Bool = (result[0] >= self.params.threshold) & ~result[2]
        return passed

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        return (int(result[0][i]), bool(result[1][i]), bool(result[2][i]))


class TunnelsOpposeVector:
    """The vectorised Tunnels opposition (``TunnelsOppose.key``)."""

    def __init__(self, params: Any) -> None:
        self.params = params
        self.width = max(most_dice(params.a.dice), most_dice(params.b.dice))

    def run(self, reader_a: Any, reader_b: Any, runs: int) -> tuple[Any, ...]:
        p = self.params
        a, b = tunnels_oppose(
            reader_a,
            reader_b,
            np.full(runs, p.a.dice, dtype=np.int64),
            np.full(runs, p.b.dice, dtype=np.int64),
            LOWEST[p.a.mode],
            LOWEST[p.b.mode],
            p.a.explode,
            p.b.explode,
            p.sixes,
        )
        return (a.successes - b.successes, a.streak, a.critical, b.streak, b.critical)

    def __call__(self, faces: NDArray[Any]) -> tuple[Any, ...]:
        return self.run(ArrayReader(faces[:, 0, :]), ArrayReader(faces[:, 1, :]), faces.shape[0])

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        return self.run(RandomReader(rng), RandomReader(rng), runs)

    def success(self, result: tuple[Any, ...]) -> Bool:
        """Side a wins (T-9): ahead with no critical failure, or only b fails critically."""
        lead, _, ca, _, cb = result
        won: Bool = ((lead > 0) & ~ca & ~cb) | (cb & ~ca)
        return won

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        return (int(result[0][i]), *(bool(r[i]) for r in result[1:]))


class TiesRolledAgain:
    """An opposition whose ties are rolled again until someone wins (T-9 option, the lab's
    ``tie=reroll``): what the exact odds count (win / (1 - tie)) and ``oppose
    --reroll-ties`` plays, at most :data:`~meneur.systems.tunnels.rules.MAX_TIES` times."""

    def __init__(self, vector: TunnelsOpposeVector) -> None:
        self.vector = vector
        self.width = vector.width

    def nobody(self, result: tuple[Any, ...]) -> Bool:
        """Nobody wins (T-9): equal successes, or both sides fail critically. Side b wins
        where side a would, seen from b (the lead negated, the flags swapped)."""
        lead, six_a, ca, six_b, cb = result
        b_wins = self.vector.success((-lead, six_b, cb, six_a, ca))
        tied: Bool = ~(self.vector.success(result) | b_wins)
        return tied

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        from meneur.systems.tunnels.rules import MAX_TIES

        result = [np.array(part, copy=True) for part in self.vector.sample(rng, runs)]
        for _ in range(MAX_TIES):
            again = np.flatnonzero(self.nobody(tuple(result)))
            if again.size == 0:
                break
            for whole, part in zip(result, self.vector.sample(rng, again.size), strict=True):
                whole[again] = part
        return tuple(result)

    def success(self, result: tuple[Any, ...]) -> Bool:
        return self.vector.success(result)


# --- Tunnels Chance (T-12): when to spend it ------------------------------------------


def failed_counts(faces: NDArray[np.uint8], lowest: int) -> NDArray[np.int16]:
    """Failed dice per face value (rows 0..lowest-2 for faces 1..lowest-1) of a batch."""
    return np.stack([(faces == v).sum(axis=0, dtype=np.int16) for v in range(1, lowest)])


def tunnels_chance(
    reader: Any,
    rerolls: Any,
    runs: int,
    params: Any,
    points: int,
    all_failed: bool = False,
) -> tuple[Bool, Int]:
    """(passed, Chance spent) of ``runs`` tests, then automatic Chance (T-12).

    While a test fails and Chance is left, one point rerolls the lowest failed die (a 1
    first), or every failed die (option). A rerolled die grants no explosion. Faces of the
    test come from ``reader``, rerolls from ``rerolls`` (the scalar engine's order).
    """
    lowest = LOWEST[params.mode]
    pool = PoolState(runs, lowest, params.sixes, params.explode != "never")
    failed = np.zeros((lowest - 1, runs), dtype=np.int16)
    rows: Int = np.arange(runs)
    counts: Int = np.full(runs, params.dice, dtype=np.int64)
    faces = reader.take(rows, counts)
    pool.add(rows, faces, counts, lowest)
    failed += failed_counts(faces, lowest)
    while True:
        go = (pool.pending > 0) & wants(params.explode, pool.successes < params.threshold)
        if not go.any():
            break
        pool.pending[~go] = 0
        rows = np.flatnonzero(go)
        counts = pool.pending[rows].astype(np.int64)
        faces = reader.take(rows, counts)
        pool.add(rows, faces, counts, lowest)
        failed[:, rows] += failed_counts(faces, lowest)
    successes = pool.successes.astype(np.int64)
    ones = pool.ones.astype(np.int64)
    spent = np.zeros(runs, dtype=np.int64)
    for _ in range(points):
        total = failed.sum(axis=0)
        go = ~((successes >= params.threshold) & (ones < 3)) & (total > 0)
        if not go.any():
            break
        rows = np.flatnonzero(go)
        if all_failed:
            counts = total[rows].astype(np.int64)
            ones[rows] -= failed[0, rows]
            failed[:, rows] = 0
        else:
            counts = np.ones(len(rows), dtype=np.int64)
            value = np.argmax(failed[:, rows] > 0, axis=0)
            failed[value, rows] -= 1
            ones[rows] -= value == 0
        new = rerolls.take(rows, counts)
        successes[rows] += (new >= lowest).sum(axis=0)
        ones[rows] += (new == 1).sum(axis=0)
        failed[:, rows] += failed_counts(new, lowest)
        spent[rows] += 1
    passed: Bool = (successes >= params.threshold) & (ones < 3)
    return passed, spent


# --- Tunnels fights (T-9 to T-11): the numpy form of combat.TunnelsFight -----------------


class _Fighters:
    """One side of ``runs`` fights: dice (a monster's MR), Endurance, wounds (T-10, T-11)."""

    def __init__(self, fighter: Any, runs: int) -> None:
        self.monster = bool(fighter.monster)
        self.max_endurance = int(fighter.max_endurance)
        self.damage = int(fighter.damage)
        self.absorb = int(fighter.absorb)
        self.dice = np.full(runs, fighter.dice, dtype=np.int64)
        self.endurance = np.full(runs, fighter.endurance, dtype=np.int64)
        self.wounded = np.full(runs, fighter.wounded, dtype=np.bool_)
        self.dead = np.full(runs, fighter.dead, dtype=np.bool_)
        self.wounded_at = np.zeros(runs, dtype=np.int64)

    def down(self) -> Bool:
        return self.dice <= 0 if self.monster else self.dead

    def hurt(self, who: Int, lost: Int, rounds: Int) -> None:
        """``who`` lose ``lost`` points: MR for a monster, else Endurance then a wound."""
        if self.monster:
            self.dice[who] = np.maximum(0, self.dice[who] - lost)
            return
        self.endurance[who] -= lost
        down = who[(self.endurance[who] <= 0) & (lost > 0)]
        dies = down[self.wounded[down]]
        self.dead[dies] = True
        self.endurance[dies] = 0
        first = down[~self.wounded[down]]
        self.wounded[first] = True
        self.wounded_at[first] = rounds[first]
        self.endurance[first] = self.max_endurance


def tunnels_fight_arrays(params: Any, reader_a: Any, reader_b: Any, runs: int) -> dict[str, Any]:
    """Play ``runs`` fights of ``params`` (a :class:`~.combat.FightParams`) to their end.

    Returns arrays per fight: ``winner`` (1: a, -1: b, 0: nobody), ``rounds`` (counted),
    each side's ``*_wounded``, ``*_dead``, ``*_wounded_at`` and ``b_dice``/``a_endurance``
    at the end. The same rules as :func:`~.combat.play_fight`, checked on the same faces
    (``tests/test_conformance_vector.py``).
    """
    a, b = _Fighters(params.a, runs), _Fighters(params.b, runs)
    from meneur.systems.tunnels.rules import mode_of

    lowest_a = LOWEST[mode_of(params.blessed, params.cursed)]
    lowest_b = LOWEST[mode_of(params.vs_blessed, params.vs_cursed)]
    rounds = np.zeros(runs, dtype=np.int64)
    exchanges = np.zeros(runs, dtype=np.int64)
    live = np.flatnonzero(~(a.down() | b.down()))
    while live.size:
        pool_a, pool_b = tunnels_oppose(
            Subset(reader_a, live),
            Subset(reader_b, live),
            a.dice[live],
            b.dice[live],
            lowest_a,
            lowest_b,
            params.explode,
            params.vs_explode,
            params.sixes,
        )
        winner, margin = judge(pool_a.successes, pool_a.critical, pool_b.successes, pool_b.critical)
        base = np.minimum(margin, 1) if params.loss == "one" else margin
        exchanges[live] += 1
        counted = winner != 0 if params.tie == "reroll" else np.ones_like(winner, dtype=np.bool_)
        rounds[live] += counted
        a_won, b_won = np.flatnonzero(winner == 1), np.flatnonzero(winner == -1)
        b.hurt(live[a_won], np.maximum(0, base[a_won] + a.damage - b.absorb), rounds)
        a.hurt(live[b_won], np.maximum(0, base[b_won] + b.damage - a.absorb), rounds)
        over = (
            a.down()[live]
            | b.down()[live]
            | (rounds[live] >= params.max_rounds)
            | (exchanges[live] >= 4 * params.max_rounds)
        )
        live = live[~over]
    a_down, b_down = a.down(), b.down()
    return {
        "winner": np.where(b_down & ~a_down, 1, np.where(a_down & ~b_down, -1, 0)),
        "rounds": rounds,
        "a_wounded": a.wounded,
        "a_dead": a.dead,
        "a_wounded_at": a.wounded_at,
        "b_wounded": b.wounded,
        "b_dead": b.dead,
        "b_wounded_at": b.wounded_at,
        "b_dice": b.dice,
    }


class TunnelsFightVector:
    """What :meth:`~.combat.TunnelsFight.vectorised` returns (see ``VectorForm``)."""

    WINNERS: ClassVar[dict[int, str | None]] = {1: "a", -1: "b", 0: None}

    def __init__(self, params: Any) -> None:
        self.params = params
        most = most_dice(max(params.a.dice, params.b.dice))
        self.width = 4 * params.max_rounds * most
        """Faces one fight may read per stream: 4 exchanges a round (ties rerolled) at most."""

    def __call__(self, faces: NDArray[Any]) -> tuple[Any, ...]:
        runs = faces.shape[0]
        arrays = tunnels_fight_arrays(
            self.params, ArrayReader(faces[:, 0]), ArrayReader(faces[:, 1]), runs
        )
        return self._result(arrays)

    def sample(self, rng: np.random.Generator, runs: int) -> tuple[Any, ...]:
        arrays = tunnels_fight_arrays(self.params, RandomReader(rng), RandomReader(rng), runs)
        return self._result(arrays)

    @staticmethod
    def _result(arrays: dict[str, Any]) -> tuple[Any, ...]:
        keys = ("winner", "rounds", "a_wounded", "a_dead", "b_wounded", "b_dead")
        return tuple(arrays[k] for k in keys)

    def success(self, result: tuple[Any, ...]) -> Bool:
        won: Bool = result[0] == 1
        return won

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        winner, rounds, *flags = (r[i] for r in result)
        return (self.WINNERS[int(winner)], int(rounds), *(bool(f) for f in flags))
