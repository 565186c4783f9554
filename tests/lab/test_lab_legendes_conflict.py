"""The lab's Légendes conflicts play as the system's own scene, face for face (L-8, L-12 to L-14).

The lab vectorises a conflict (a hero against one opposition, roll after roll) with numpy;
the system plays the same conflict through :func:`meneur.systems.legendes.scene.roll`. On
the same faces both must end the same way: who won, after how many rolls, the hero's
wound, and the motivation points left. Motivation (L-12: +1 die per point spent) is the
part these tests pin: counting it twice, or forgetting it, changes the rolls read.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meneur.lab.simulate import LegendesConflict, legendes_conflicts
from meneur.lab.vector import ArrayReader
from meneur.rng import PhysicalDice
from meneur.systems.legendes import scene
from meneur.systems.legendes.sheet import Hero


def wants(policy: str, hero: Hero) -> bool:
    """The lab's spending policies, said in the scene's words (L-12)."""
    assert hero.scene is not None
    opposition = hero.scene.oppositions[0]
    return {
        "early": True,
        "wounded": hero.wound != "none",
        "finish": opposition.wound != "none",
        "never": False,
    }[policy]


def scene_conflict(
    conflict: LegendesConflict, points: int, policy: str, mine: list[int], theirs: list[int]
) -> dict[str, Any]:
    """The same conflict played by the system's scene on typed faces."""
    hero, _ = scene.start(Hero(name="Aube", motivation_points=points), "")
    hero, _ = scene.add(hero, "Orsk", conflict.level, keeps_fighting=conflict.keeps_fighting)  # type: ignore[arg-type]
    hero_dice, vs_dice = PhysicalDice(mine), PhysicalDice(theirs)
    rolls = 0
    while rolls < conflict.max_rolls:
        spend = 1 if hero.motivation_points > 0 and wants(policy, hero) else 0
        request = scene.RollRequest(
            domain="-",
            dice=conflict.dice,
            against=["Orsk"],
            modifier=conflict.modifier,
            spend=spend,
        )
        hero, _ = scene.roll(hero, request, hero_dice, vs_dice)
        rolls += 1
        assert hero.scene is not None
        if hero.scene.oppositions[0].out or hero.scene.hero_defeated:
            break
    assert hero.scene is not None
    return {
        "won": hero.scene.oppositions[0].out,
        "dead": hero.scene.hero_defeated,
        "rolls": rolls,
        "hero_wound": ("none", "light", "grave").index(hero.wound),
        "points": hero.motivation_points,
    }


@pytest.mark.parametrize(
    ("conflict", "points", "policy"),
    [
        (LegendesConflict(2, "heroique", max_rolls=12), 3, "early"),
        (LegendesConflict(1, "legendaire", modifier=2, max_rolls=12), 2, "wounded"),
        (LegendesConflict(2, "legendaire", keeps_fighting=True, max_rolls=12), 2, "finish"),
        (LegendesConflict(3, "elite", modifier=-2, max_rolls=12), 1, "early"),
        (LegendesConflict(2, "heroique", max_rolls=12), 2, "never"),
    ],
)
def test_L12_lab_conflict_counts_motivation_as_the_scene_does(
    conflict: LegendesConflict, points: int, policy: str
) -> None:
    """L-12: on the same faces, the lab's conflict spends motivation points (+1 die each)
    and ends exactly as the scene's own rolls do (L-8 bands, L-13 wounds, L-14 outs)."""
    runs, width = 300, 120
    rng = np.random.default_rng(12)
    mine = rng.integers(1, 7, size=(runs, width))
    theirs = rng.integers(1, 7, size=(runs, width))
    tally = legendes_conflicts(
        conflict,
        rng,
        runs,
        motivation=points,
        policy=policy,
        readers=(ArrayReader(mine), ArrayReader(theirs)),
    )
    spent = 0
    for i in range(runs):
        played = scene_conflict(conflict, points, policy, mine[i].tolist(), theirs[i].tolist())
        lab = {key: int(tally.arrays[key][i]) for key in played}
        assert lab == {key: int(value) for key, value in played.items()}, i
        spent += points - played["points"]
    assert tally.counts["spent"] == spent
    if policy != "never":
        assert spent > 0  # the policy did spend: the comparison reads motivation dice
