"""Obscur in play: speed of whole fights, and of a blow's exact odds against icepool.

Run: python benchmarks/bench_obscur_play.py (a script, not a test).
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import icepool

from meneur.rng import make_source
from meneur.systems.base import Check
from meneur.systems.obscur.combat import FightParams, fighter_of
from meneur.systems.obscur.procedures import ObscurFight
from meneur.systems.obscur.rules import TestParams
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.state import body_of
from meneur.systems.obscur.strike import StrikeParams, strike_dist

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "obscur"


def fights(count: int, *, one_pass: bool) -> float:
    a = load_character(EXAMPLES / "garance.toml")
    b = load_character(EXAMPLES / "corbeau.toml")
    params = FightParams(fighter_of(a), fighter_of(b), body_of(a), body_of(b))
    fight = ObscurFight()
    start = time.perf_counter()
    rounds = 0
    for seed in range(count):
        source = make_source(seed=seed)
        sources = [source, source]
        rolled = fight.roll(params, sources) if one_pass else Check.roll(fight, params, sources)
        rounds += len(rolled.outcome.rounds)
    elapsed = time.perf_counter() - start
    how = "one-pass draw" if one_pass else "Check.roll loop"
    print(f"{count} seeded fights, {how} ({rounds} rounds): {count / elapsed:.0f} fights/s")
    return elapsed


def strike(attack: int, parade: int) -> None:
    params = StrikeParams(
        TestParams(attack, difficulty=0),
        TestParams(parade, difficulty=0),
        weapon_damage=1,
        hargne=4,
        armour=(("Tête", 2),),
        resistance=1,
    )
    start = time.perf_counter()
    ours = strike_dist(params).probabilities()
    t_ours = time.perf_counter() - start
    start = time.perf_counter()
    success = icepool.Die({0: 3, 1: 2, 2: 1})

    def damage(a: int, p: int, prot: int) -> tuple[bool, int]:
        return (False, 0) if a <= p else (True, max(0, a - p + 4 + 1 - prot - 1))

    oracle = icepool.map(
        damage, attack @ success, parade @ success, icepool.Die([2, 0, 0, 0, 0, 0])
    )
    reference = {k: Fraction(oracle.quantity(k), oracle.denominator()) for k in oracle.outcomes()}
    t_ref = time.perf_counter() - start
    assert ours == reference
    print(
        f"blow {attack} vs {parade} dice, exact damage odds: meneur {t_ours * 1000:.1f} ms, "
        f"icepool {t_ref * 1000:.1f} ms, ratio {t_ours / t_ref:.2f}"
    )


if __name__ == "__main__":
    slow = fights(200, one_pass=False)
    fast = fights(200, one_pass=True)
    print(f"one-pass draw speed-up: x{slow / fast:.1f}")
    for attack, parade in ((3, 3), (8, 6), (15, 12)):
        strike(attack, parade)
