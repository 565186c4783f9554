"""What the lab simulates of Légendes beyond a check: conflicts and scenes (L-6 to L-8,
L-10, L-13, L-14), and spending motivation (L-12) in a conflict.

Never; ``early`` spends a point (+1 die) on every roll while points last; ``wounded``
only once the hero is wounded; ``finish`` only once the opposition is wounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from meneur.lab.policies import Chunk
from meneur.lab.simulate import Tally, histogram
from meneur.lab.sweep import PointChunk
from meneur.vector import RandomReader, Subset

SPENDING_POLICIES = ("never", "early", "wounded", "finish")
"""When to spend motivation, the first one spending nothing (the reference)."""


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


def motivation_chunk(conflict: Any, points: int, policy: str) -> Chunk:
    """One chunk of conflicts under a motivation ``policy`` with ``points`` (L-12)."""

    def one(rng: np.random.Generator, size: int) -> Tally:
        tally = legendes_conflicts(conflict, rng, size, motivation=points, policy=policy)
        tally.counts["success"] = tally.counts.get("won", 0)
        return tally

    return one


def conflicts_point(conflict: LegendesConflict) -> PointChunk:
    """A sweep's point of conflicts (:class:`meneur.lab.sweep.Point`'s ``build``)."""
    return (lambda rng, n: legendes_conflicts(conflict, rng, n)), "won", None
