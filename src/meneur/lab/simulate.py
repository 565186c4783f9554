"""Monte Carlo with numpy: chunked (constant memory), with a progress bar and Ctrl-C.

:func:`run_chunks` splits ``runs`` into chunks of at most ``chunk`` runs, merges each
chunk's counts into one result, shows a rich progress bar when the run is forecast to
last over a second, and on Ctrl-C returns what was done so far (``interrupted``).

:func:`tunnels_fights` plays whole Tunnels fights (T-9 to T-11) to their end, all runs at
once, through the system's own numpy form (``systems/tunnels/vector.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from meneur.odds.montecarlo import wilson_interval
from meneur.vector import RandomReader, Subset

DEFAULT_CHUNK = 1 << 20
"""Runs per chunk: about 100 MB of temporaries at worst for an exploding 10-die pool."""


@dataclass
class Tally:
    """Counts merged over chunks: named totals and named histograms."""

    runs: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    histograms: dict[str, dict[int, int]] = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    arrays: dict[str, Any] = field(default_factory=dict)
    """Per-run results, kept only when asked for (the conformance test)."""

    def add(self, other: Tally) -> None:
        self.runs += other.runs
        for key, value in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + value
        for name, histogram in other.histograms.items():
            mine = self.histograms.setdefault(name, {})
            for bucket, value in histogram.items():
                mine[bucket] = mine.get(bucket, 0) + value

    def rate(self, key: str) -> dict[str, Any]:
        hits = self.counts.get(key, 0)
        low, high = wilson_interval(hits, self.runs)
        return {
            "rate": hits / self.runs if self.runs else 0.0,
            "hits": hits,
            "interval_95": [low, high],
        }


def histogram(values: np.ndarray[Any, Any]) -> dict[int, int]:
    """Counts of each value (non-negative integers: one ``bincount``, no sort)."""
    if values.size == 0:
        return {}
    counts = np.bincount(values)
    return {int(k): int(counts[k]) for k in np.flatnonzero(counts)}


def run_chunks(
    runs: int,
    one_chunk: Callable[[np.random.Generator, int], Tally],
    *,
    seed: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = True,
    description: str = "",
) -> Tally:
    """``runs`` simulations by chunks; Ctrl-C keeps the chunks already done."""
    rng = np.random.default_rng(seed)
    total = Tally()
    started = time.perf_counter()
    bar: Any = None
    task: Any = None
    try:
        done = 0
        while done < runs:
            size = min(chunk, runs - done)
            total.add(one_chunk(rng, size))
            done += size
            elapsed = time.perf_counter() - started
            if progress and bar is None and done < runs and elapsed * runs / done > 1.0:
                from meneur.lab.progress import start_bar

                bar, task = start_bar(description, runs, done)
            elif bar is not None:
                bar.update(task, completed=done)
    except KeyboardInterrupt:
        total.interrupted = True
    finally:
        if bar is not None:
            bar.stop()
    total.seconds = time.perf_counter() - started
    return total


# --- Tunnels tests --------------------------------------------------------------------


def tunnels_test_chunk(params: Any) -> Callable[[np.random.Generator, int], Tally]:
    """One chunk of Tunnels tests: passed, exceptional, critical, successes."""
    from meneur.systems.tunnels.vector import tunnels_test_drawn

    if params.explode == "never":
        return _never_chunk(params)

    def one(rng: np.random.Generator, size: int) -> Tally:
        successes, exceptional, critical = tunnels_test_drawn(rng, size, params)
        passed = (successes >= params.threshold) & ~critical
        return Tally(
            runs=size,
            counts={
                "passed": int(passed.sum()),
                "exceptional": int(exceptional.sum()),
                "critical": int(critical.sum()),
            },
            histograms={"successes": histogram(successes)},
        )

    return one


def as_cell_chunk(
    one: Callable[[np.random.Generator, int], Tally],
) -> Callable[[np.random.Generator, int], Tally]:
    """A Tunnels test chunk seen as a table cell's: ``success`` and ``values`` (successes)."""

    def cell(rng: np.random.Generator, size: int) -> Tally:
        tally = one(rng, size)
        return Tally(
            runs=tally.runs,
            counts={"success": tally.counts["passed"]},
            histograms={"values": tally.histograms["successes"]},
        )

    return cell


def _never_chunk(params: Any) -> Callable[[np.random.Generator, int], Tally]:
    """Tests that never explode: one batch, so one histogram of its packed counts says all.

    Each test's (successes, ones, sixes) is packed in 15 bits (``vector.batch_stats``'s
    table); a single ``bincount`` over the packed values replaces every per-test
    comparison and sum, and the verdicts are read off the (at most 32768) bins.
    """
    from meneur.systems.tunnels.vector import _TABLES, LOWEST

    table = _TABLES[LOWEST[params.mode]]
    bins = np.arange(1 << 15)
    successes, ones, sixes = bins & 0x1F, (bins >> 5) & 0x1F, bins >> 10
    critical = ones >= 3
    passed = (successes >= params.threshold) & ~critical
    exceptional = passed & (sixes >= 3)  # one batch: the T-7 option changes nothing

    def one(rng: np.random.Generator, size: int) -> Tally:
        faces = rng.integers(1, 7, size=(params.dice, size), dtype=np.uint8)
        packed = table[faces[0]]
        for die in faces[1:]:
            packed += table[die]
        counts = np.bincount(packed, minlength=1 << 15)
        by_successes = np.bincount(successes, weights=counts, minlength=32).astype(np.int64)
        return Tally(
            runs=size,
            counts={
                "passed": int(counts[passed].sum()),
                "exceptional": int(counts[exceptional].sum()),
                "critical": int(counts[critical].sum()),
            },
            histograms={
                "successes": {int(k): int(by_successes[k]) for k in np.flatnonzero(by_successes)}
            },
        )

    return one


# --- Tunnels fights (T-9 to T-11): the system's procedure, in numpy -----------------------


def tunnels_fights(fight: Any, rng: np.random.Generator, runs: int, readers: Any = None) -> Tally:
    """Play ``runs`` fights of ``fight`` (the system's ``FightParams``) to their end.

    Counts wins, deaths, wounds and rounds of side a. ``readers``: (a's, b's) face
    readers, for the conformance test; by default both draw from ``rng``.
    """
    from meneur.systems.tunnels.vector import tunnels_fight_arrays

    reader_a, reader_b = readers or (RandomReader(rng), RandomReader(rng))
    arrays = tunnels_fight_arrays(fight, reader_a, reader_b, runs)
    won, dead, wounded = arrays["winner"] == 1, arrays["a_dead"], arrays["a_wounded"]
    rounds = arrays["rounds"]
    return Tally(
        runs=runs,
        counts={
            "won": int(won.sum()),
            "dead": int(dead.sum()),
            "wounded": int(wounded.sum()),
            "unfinished": int((~won & ~dead).sum()),
        },
        histograms={
            "rounds": histogram(rounds),
            "won_at": histogram(rounds[won]),
            "dead_at": histogram(rounds[dead]),
            "wounded_at": histogram(arrays["a_wounded_at"][wounded]),
        },
    )


def survival(events: Mapping[int, int], runs: int, last: int) -> list[float]:
    """P(the event has not happened yet) after each round 0..last."""
    curve, gone = [], 0
    for k in range(last + 1):
        gone += events.get(k, 0)
        curve.append(1.0 - gone / runs if runs else 1.0)
    return curve


def fight_report(fight: Any, tally: Tally) -> dict[str, Any]:
    """The public JSON of ``meneur simulate fight tunnels``."""
    runs = tally.runs
    rounds = tally.histograms.get("rounds", {})
    mean = sum(k * v for k, v in rounds.items()) / runs if runs else 0.0
    won = tally.rate("won")
    return {
        "system": "tunnels",
        "fight": {
            "dice": fight.a.dice,
            "endurance": fight.a.endurance,
            "mr": fight.b.dice,
            "blessed": fight.blessed,
            "cursed": fight.cursed,
            "explode": fight.explode,
            "mr_explode": fight.vs_explode,
            "sixes": fight.sixes,
            "loss": fight.loss,
            "tie": fight.tie,
            "max_rounds": fight.max_rounds,
        },
        "runs": runs,
        "win_rate": won["rate"],
        "win_interval_95": won["interval_95"],
        "death_rate": tally.rate("dead")["rate"],
        "death_interval_95": tally.rate("dead")["interval_95"],
        "wounded_rate": tally.rate("wounded")["rate"],
        "unfinished": tally.counts.get("unfinished", 0),
        "rounds": {
            "mean": mean,
            "distribution": {str(k): v / runs for k, v in sorted(rounds.items())},
        },
        "interrupted": tally.interrupted,
        "seconds": round(tally.seconds, 3),
    }


# --- one cell of any system's table -----------------------------------------------------


def cell_chunk(vector: Any) -> Callable[[np.random.Generator, int], Tally]:
    """One chunk of a vectorised roll: successes (as the table counts them) and values."""

    def one(rng: np.random.Generator, size: int) -> Tally:
        result = vector.sample(rng, size)
        won = vector.success(result)
        first = np.asarray(result[0])
        values = first.astype(np.int64)
        low = min(0, int(values.min())) if values.size else 0
        return Tally(
            runs=size,
            counts={"success": int(won.sum())},
            histograms={"values": {k + low: v for k, v in histogram(values - low).items()}},
        )

    return one


# --- Légendes conflicts (L-6 to L-8, L-13, L-14) -----------------------------------------


@dataclass(frozen=True, slots=True)
class LegendesConflict:
    """A hero rolling ``dice`` against one opposition of ``level``, roll after roll.

    Each roll is L-8: a *victoire définitive* ends it (the opposition is out, or the
    hero defeated); a *victoire partielle* wounds the loser (light, then grave: L-13),
    and a non-heroic NPC is out after its first wound (L-14, ``keeps_fighting`` lifts
    it). Wounds weigh on the next rolls (light −2, grave −1 die). ``max_rolls`` bounds it.
    """

    dice: int
    level: str
    modifier: int = 0
    keeps_fighting: bool | None = None
    max_rolls: int = 100


def legendes_conflicts(
    conflict: LegendesConflict,
    rng: np.random.Generator,
    runs: int,
    *,
    motivation: int = 0,
    policy: str = "never",
    readers: Any = None,
) -> Tally:
    """``runs`` conflicts to their end; ``motivation`` points spent by ``policy`` (L-12:
    +1 die on a roll): ``early`` (every roll), ``wounded`` (once the hero is wounded),
    ``finish`` (once the opposition is wounded), ``never``.

    ``readers``: (hero's, opposition's) face readers, for the conformance test against
    the scene's own rolls; by default both draw from ``rng``."""
    from meneur.systems.legendes.data import rules_data
    from meneur.systems.legendes.rules import is_swept, level_dice, npc_out_after_wound

    data = rules_data()
    cuts = data.resolution
    light, grave_dice = data.wounds.light_penalty, data.wounds.grave_dice
    per_point = data.motivation.dice_per_point
    npc_out = npc_out_after_wound(conflict.level, conflict.keeps_fighting)  # type: ignore[arg-type]
    random = readers is None
    hero_reader, vs_reader = readers or (RandomReader(rng),) * 2
    hero_wound = np.zeros(runs, dtype=np.int64)
    opp_wound = np.zeros(runs, dtype=np.int64)
    won = np.zeros(runs, dtype=np.bool_)
    lost = np.zeros(runs, dtype=np.bool_)
    rolls = np.zeros(runs, dtype=np.int64)
    hero_hurt_at = np.zeros(runs, dtype=np.int64)
    if is_swept(conflict.level, False):  # type: ignore[arg-type]
        won[:] = True
        rolls[:] = 1
    live = np.flatnonzero(~won)
    vs = level_dice(conflict.level)  # type: ignore[arg-type]
    points = np.full(runs, motivation, dtype=np.int64)
    while live.size and int(rolls[live].max(initial=0)) < conflict.max_rolls:
        hw, ow = hero_wound[live], opp_wound[live]
        mine_n = np.maximum(0, conflict.dice - np.where(hw == 2, grave_dice, 0))
        if motivation and policy != "never":
            wants = {"early": np.ones_like(hw, dtype=np.bool_), "wounded": hw > 0}.get(
                policy, ow > 0
            )
            spend = wants & (points[live] > 0)
            mine_n = mine_n + spend * per_point
            points[live] -= spend
        theirs_n = np.maximum(0, vs - np.where(ow == 2, grave_dice, 0))
        rows = np.arange(live.size)
        mine_reader = hero_reader if random else Subset(hero_reader, live)
        vs_reader_now = vs_reader if random else Subset(vs_reader, live)
        mine = mine_reader.take(rows, mine_n).sum(axis=0, dtype=np.int64)
        theirs = vs_reader_now.take(rows, theirs_n).sum(axis=0, dtype=np.int64)
        if mine.size == 0:
            mine = np.zeros(live.size, dtype=np.int64)
        if theirs.size == 0:
            theirs = np.zeros(live.size, dtype=np.int64)
        d = (
            mine
            + conflict.modifier
            - np.where(hw == 1, light, 0)
            - theirs
            + np.where(ow == 1, light, 0)
        )
        size = np.abs(d)
        definitive = size >= cuts.definitive
        partial = (size >= cuts.partial) & ~definitive
        rolls[live] += 1
        hero_wins, opp_wins = d > 0, d < 0
        won[live[hero_wins & definitive]] = True
        hit = live[hero_wins & partial]
        opp_wound[hit] = np.minimum(2, opp_wound[hit] + 1)
        if npc_out:
            won[hit] = True
        lost[live[opp_wins & definitive]] = True
        hurt = live[opp_wins & partial]
        first = hurt[hero_wound[hurt] == 0]
        hero_hurt_at[first] = rolls[first]
        hero_wound[hurt] = np.minimum(2, hero_wound[hurt] + 1)
        live = live[~(won[live] | lost[live])]
    tally = Tally(
        runs=runs,
        counts={
            "won": int(won.sum()),
            "dead": int(lost.sum()),
            "wounded": int((hero_wound > 0).sum()),
            "unfinished": int((~won & ~lost).sum()),
            "spent": int((motivation - points).sum()),
        },
        histograms={
            "rounds": histogram(rolls),
            "won_at": histogram(rolls[won]),
            "dead_at": histogram(rolls[lost]),
            "wounded_at": histogram(hero_hurt_at[hero_wound > 0]),
        },
    )
    if not random:
        tally.arrays = {
            "won": won,
            "dead": lost,
            "rolls": rolls,
            "hero_wound": hero_wound,
            "points": points,
        }
    return tally


def legendes_scene(
    dice: int,
    levels: tuple[str, ...],
    rng: np.random.Generator,
    runs: int,
    *,
    modifier: int = 0,
    max_rolls: int = 100,
    allies: tuple[int, ...] = (),
    each_other: bool = False,
    partial: str = "wound",
    readers: Any = None,
) -> Tally:
    """A hero (with ``allies``) against several oppositions at once, two by two (L-10).

    Each roll everyone still in rolls once: the hero, each ally (a character beside the
    hero, ``allies`` gives their dice) and each opposition. Every ally and the hero are
    compared with every opposition, and with ``each_other`` every two oppositions too
    (« trois personnages se combattent les uns les autres »). Each pair is L-8: a
    *victoire définitive* puts the loser out (or defeats the hero), a *victoire partielle*
    wounds the loser (L-13: every wound taken in the roll counts, from the next roll on) —
    or, with ``partial="doubt"`` (a social contest), only makes them doubt. A non-heroic
    opposition is out after its first wound (L-14), an ally (a hero) is not; commoners are
    swept (L-5). The hero wins when every opposition is out.

    ``readers``: (the hero's side's, the oppositions') face readers, for the conformance
    test against :func:`meneur.systems.legendes.scene.roll`; by default both draw from
    ``rng``. The hero's side reads the hero's dice then each ally's, the oppositions'
    reader each opposition's in order, as the scene does.
    """
    from meneur.systems.legendes.data import rules_data
    from meneur.systems.legendes.rules import is_swept, level_dice, npc_out_after_wound

    data = rules_data()
    cuts = data.resolution
    light, grave_dice = data.wounds.light_penalty, data.wounds.grave_dice
    wounds = partial != "doubt"
    count = len(levels)
    vs = np.array([level_dice(level) for level in levels], dtype=np.int64)  # type: ignore[arg-type]
    npc_out = np.array([npc_out_after_wound(level) for level in levels])  # type: ignore[arg-type]
    random = readers is None
    side_reader, vs_reader = readers or (RandomReader(rng),) * 2
    hero_wound = np.zeros(runs, dtype=np.int64)
    opp_wound = np.zeros((count, runs), dtype=np.int64)
    ally_wound = np.zeros((len(allies), runs), dtype=np.int64)
    ally_out = np.zeros((len(allies), runs), dtype=np.bool_)
    out = np.zeros((count, runs), dtype=np.bool_)
    for k, level in enumerate(levels):
        out[k] = is_swept(level, False)  # type: ignore[arg-type]
    lost = np.zeros(runs, dtype=np.bool_)
    rolls = np.zeros(runs, dtype=np.int64)
    hero_hurt_at = np.zeros(runs, dtype=np.int64)
    won: np.ndarray[Any, Any] = np.asarray(out.all(axis=0))
    rolls[won] = 1
    live = np.flatnonzero(~won)

    def total(reader: Any, rows: Any, n: Any, wound: Any) -> Any:
        """Each run's sum of ``n`` dice, less the light wound's penalty (L-13)."""
        faces = (reader if random else Subset(reader, live)).take(rows, n)
        summed = faces.sum(axis=0, dtype=np.int64) if faces.size else np.zeros(len(rows), np.int64)
        return summed - np.where(wound == 1, light, 0)

    def grave(wound: Any, base: Any) -> Any:
        return np.maximum(0, base - np.where(wound == 2, grave_dice, 0))

    while live.size and int(rolls[live].max(initial=0)) < max_rolls:
        rows = np.arange(live.size)
        hero = total(side_reader, rows, grave(hero_wound[live], dice), hero_wound[live]) + modifier
        ally_active = ~ally_out[:, live]
        ally_totals = [
            total(
                side_reader,
                rows,
                np.where(ally_active[a], grave(ally_wound[a, live], allies[a]), 0),
                ally_wound[a, live],
            )
            for a in range(len(allies))
        ]
        active = ~out[:, live]
        theirs = [
            total(
                vs_reader, rows, np.where(active[k], grave(opp_wound[k, live], vs[k]), 0),
                opp_wound[k, live],
            )
            for k in range(count)
        ]  # fmt: skip
        rolls[live] += 1
        hurt = np.zeros(live.size, dtype=np.int64)
        beaten = np.zeros(live.size, dtype=np.bool_)
        opp_hits = np.zeros((count, live.size), dtype=np.int64)
        opp_down = np.zeros((count, live.size), dtype=np.bool_)
        ally_hits = np.zeros((len(allies), live.size), dtype=np.int64)
        ally_down = np.zeros((len(allies), live.size), dtype=np.bool_)

        def bands(d: Any, both: Any) -> tuple[Any, Any]:
            size = np.abs(d)
            definitive = both & (size >= cuts.definitive)
            return definitive, both & (size >= cuts.partial) & ~definitive

        for k in range(count):
            definitive, part = bands(hero - theirs[k], active[k])
            side_wins, opp_wins = hero > theirs[k], hero < theirs[k]
            opp_down[k] |= side_wins & definitive
            opp_hits[k] += side_wins & part
            beaten |= opp_wins & definitive
            hurt += opp_wins & part
            for a in range(len(allies)):
                definitive, part = bands(ally_totals[a] - theirs[k], active[k] & ally_active[a])
                side_wins, opp_wins = ally_totals[a] > theirs[k], ally_totals[a] < theirs[k]
                opp_down[k] |= side_wins & definitive
                opp_hits[k] += side_wins & part
                ally_down[a] |= opp_wins & definitive
                ally_hits[a] += opp_wins & part
            for m in range(k + 1, count) if each_other else ():
                definitive, part = bands(theirs[k] - theirs[m], active[k] & active[m])
                side_wins, opp_wins = theirs[k] > theirs[m], theirs[k] < theirs[m]
                opp_down[m] |= side_wins & definitive
                opp_hits[m] += side_wins & part
                opp_down[k] |= opp_wins & definitive
                opp_hits[k] += opp_wins & part
        if not wounds:
            hurt[:], opp_hits[:], ally_hits[:] = 0, 0, 0
        for k in range(count):
            opp_wound[k, live] = np.minimum(2, opp_wound[k, live] + opp_hits[k])
            down = opp_down[k] | ((opp_hits[k] > 0) & npc_out[k])
            out[k, live[down]] = True
        for a in range(len(allies)):
            ally_wound[a, live] = np.minimum(2, ally_wound[a, live] + ally_hits[a])
            ally_out[a, live[ally_down[a]]] = True
        lost[live[beaten]] = True
        first = live[(hurt > 0) & (hero_wound[live] == 0)]
        hero_hurt_at[first] = rolls[first]
        hero_wound[live] = np.minimum(2, hero_wound[live] + hurt)
        won[live] = out[:, live].all(axis=0) & ~lost[live]
        live = live[~(won[live] | lost[live])]
    tally = Tally(
        runs=runs,
        counts={
            "won": int(won.sum()),
            "dead": int(lost.sum()),
            "wounded": int((hero_wound > 0).sum()),
            "unfinished": int((~won & ~lost).sum()),
        },
        histograms={
            "rounds": histogram(rolls),
            "won_at": histogram(rolls[won]),
            "dead_at": histogram(rolls[lost]),
            "wounded_at": histogram(hero_hurt_at[hero_wound > 0]),
        },
    )
    if not random:
        tally.arrays = {
            "won": won,
            "dead": lost,
            "rolls": rolls,
            "hero_wound": hero_wound,
            "opposition_wound": opp_wound,
            "opposition_out": out,
            "ally_wound": ally_wound,
            "ally_out": ally_out,
        }
    return tally


def conflict_report(conflict: LegendesConflict, tally: Tally) -> dict[str, Any]:
    """The public JSON of ``meneur simulate fight legendes``."""
    runs = tally.runs
    rounds = tally.histograms.get("rounds", {})
    won, lost = tally.rate("won"), tally.rate("dead")
    return {
        "system": "legendes",
        "fight": {
            "dice": conflict.dice,
            "level": conflict.level,
            "modifier": conflict.modifier,
            "keeps_fighting": conflict.keeps_fighting,
            "max_rolls": conflict.max_rolls,
        },
        "runs": runs,
        "win_rate": won["rate"],
        "win_interval_95": won["interval_95"],
        "defeat_rate": lost["rate"],
        "defeat_interval_95": lost["interval_95"],
        "wounded_rate": tally.rate("wounded")["rate"],
        "unfinished": tally.counts.get("unfinished", 0),
        "rounds": {
            "mean": sum(k * v for k, v in rounds.items()) / runs if runs else 0.0,
            "distribution": {str(k): v / runs for k, v in sorted(rounds.items())},
        },
        "interrupted": tally.interrupted,
        "seconds": round(tally.seconds, 3),
    }


# --- Obscur duels (O-11 to O-22): the system's own fight, fed by numpy -------------------


class StreamFaces:
    """A :class:`~meneur.systems.base.FaceReader` look-alike drawing d6 from numpy in blocks.

    Obscur's fight has too many branches (initiative, splits, special blows, hit zones,
    shock) to vectorise faithfully here: the lab runs the system's own ``fight_with``
    and only feeds it faces cheaply.
    """

    def __init__(self, rng: np.random.Generator, block: int = 1 << 14) -> None:
        self.rng = rng
        self.block = block
        self.buffers: dict[int, list[int]] = {}
        self.positions: dict[int, int] = {}

    def take(self, count: int, stream: int = 0) -> tuple[int, ...]:
        if count <= 0:
            return ()
        buffer = self.buffers.get(stream, [])
        start = self.positions.get(stream, 0)
        if start + count > len(buffer):
            fresh = self.rng.integers(1, 7, size=max(self.block, count)).tolist()
            buffer = buffer[start:] + fresh
            self.buffers[stream] = buffer
            start = 0
        self.positions[stream] = start + count
        return tuple(buffer[start : start + count])


def obscur_duels(params: Any, rng: np.random.Generator, runs: int) -> Tally:
    """``runs`` Obscur duels to their end with the system's own ``fight_with``."""
    from meneur.systems.obscur.combat import fight_with

    reader: Any = StreamFaces(rng)
    won = lost = unfinished = 0
    rounds: dict[int, int] = {}
    won_at: dict[int, int] = {}
    lost_at: dict[int, int] = {}
    ends: dict[str, int] = {}
    for _ in range(runs):
        outcome = fight_with(params, reader)
        length = len(outcome.rounds)
        rounds[length] = rounds.get(length, 0) + 1
        ends[outcome.end] = ends.get(outcome.end, 0) + 1
        if outcome.winner == "a":
            won += 1
            won_at[length] = won_at.get(length, 0) + 1
        elif outcome.winner == "b":
            lost += 1
            lost_at[length] = lost_at.get(length, 0) + 1
        else:
            unfinished += 1
    return Tally(
        runs=runs,
        counts={"won": won, "dead": lost, "unfinished": unfinished}
        | {f"end:{k}": v for k, v in ends.items()},
        histograms={"rounds": rounds, "won_at": won_at, "dead_at": lost_at},
    )


def duel_report(
    names: tuple[str, str], strategies: tuple[str, str], tally: Tally
) -> dict[str, Any]:
    """The public JSON of ``meneur simulate fight obscur``."""
    runs = tally.runs
    rounds = tally.histograms.get("rounds", {})
    won, lost = tally.rate("won"), tally.rate("dead")
    return {
        "system": "obscur",
        "fight": {
            "a": {"name": names[0], "strategy": strategies[0]},
            "b": {"name": names[1], "strategy": strategies[1]},
        },
        "runs": runs,
        "win_rate": won["rate"],
        "win_interval_95": won["interval_95"],
        "loss_rate": lost["rate"],
        "loss_interval_95": lost["interval_95"],
        "unfinished": tally.counts.get("unfinished", 0),
        "ends": {
            k.split(":", 1)[1]: v / runs for k, v in tally.counts.items() if k.startswith("end:")
        },
        "rounds": {
            "mean": sum(k * v for k, v in rounds.items()) / runs if runs else 0.0,
            "distribution": {str(k): v / runs for k, v in sorted(rounds.items())},
        },
        "interrupted": tally.interrupted,
        "seconds": round(tally.seconds, 3),
    }


def tunnels_chance_chunk(
    params: Any, points: int, all_failed: bool
) -> Callable[[np.random.Generator, int], Tally]:
    """One chunk of Tunnels tests with automatic Chance (T-12): passed, points spent."""
    from meneur.systems.tunnels.vector import tunnels_chance

    def one(rng: np.random.Generator, size: int) -> Tally:
        passed, spent = tunnels_chance(
            RandomReader(rng), RandomReader(rng), size, params, points, all_failed
        )
        return Tally(
            runs=size,
            counts={"success": int(passed.sum()), "spent": int(spent.sum())},
            histograms={"values": histogram(spent)},
        )

    return one
