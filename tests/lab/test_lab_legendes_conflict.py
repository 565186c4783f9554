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

from meneur.rng import PhysicalDice
from meneur.systems.legendes import scene
from meneur.systems.legendes.lab import LegendesConflict, legendes_conflicts
from meneur.systems.legendes.sheet import Hero
from meneur.vector import ArrayReader


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


def scene_melee(
    dice: int,
    levels: tuple[str, ...],
    allies: tuple[int, ...],
    each_other: bool,
    partial: str,
    mine: list[int],
    theirs: list[int],
    max_rolls: int,
) -> dict[str, Any]:
    """The lab's scene played by the system: every one still in is named in each roll."""
    kind = "social" if partial == "doubt" else "physical"
    hero, _ = scene.start(Hero(name="Aube"), "", kind)  # type: ignore[arg-type]
    for k, level in enumerate(levels):
        hero, _ = scene.add(hero, f"O{k}", level)  # type: ignore[arg-type]
    for a, ally_dice in enumerate(allies):
        hero, _ = scene.add_character(hero, f"A{a}", ally_dice)
    side, vs = PhysicalDice(mine), PhysicalDice(theirs)
    rolls = 0
    assert hero.scene is not None
    while rolls < max_rolls and not hero.scene.hero_defeated:
        people = hero.scene.oppositions
        against = [o.name for o in people[: len(levels)] if not o.out]
        if not against:
            break
        request = scene.RollRequest(
            domain="-",
            dice=dice,
            against=against,
            allies=[o.name for o in people[len(levels) :] if not o.out],
            each_other=each_other,
        )
        hero, _ = scene.roll(hero, request, side, vs)
        assert hero.scene is not None
        rolls += 1
    people = hero.scene.oppositions
    wound_index = ("none", "light", "grave").index
    return {
        "won": all(o.out for o in people[: len(levels)]) and not hero.scene.hero_defeated,
        "dead": hero.scene.hero_defeated,
        "rolls": rolls,
        "hero_wound": wound_index(hero.wound),
        "opposition_wound": [wound_index(o.wound) for o in people[: len(levels)]],
        "opposition_out": [o.out for o in people[: len(levels)]],
        "ally_wound": [wound_index(o.wound) for o in people[len(levels) :]],
        "ally_out": [o.out for o in people[len(levels) :]],
    }


@pytest.mark.parametrize(
    ("dice", "levels", "allies", "each_other", "partial"),
    [
        (3, ("heroique", "elite"), (), False, "wound"),
        (2, ("legendaire",), (2, 3), False, "wound"),
        (3, ("heroique", "legendaire", "elite"), (), True, "wound"),
        (2, ("heroique", "heroique"), (1,), False, "doubt"),
        (3, ("legendaire", "heroique"), (), True, "doubt"),
    ],
)
def test_L10_L13_lab_scene_plays_as_the_system_scene(
    dice: int, levels: tuple[str, ...], allies: tuple[int, ...], each_other: bool, partial: str
) -> None:
    """L-10: on the same faces, the lab's scene — allies beside the hero, oppositions
    fighting each other, partial victories that wound or make doubt (L-13) — ends as the
    system's own scene does, roll after roll: who is out, who is wounded, and when."""
    from meneur.systems.legendes.lab import legendes_scene

    runs, width, max_rolls = 200, 150, 10
    rng = np.random.default_rng(10)
    mine = rng.integers(1, 7, size=(runs, width))
    theirs = rng.integers(1, 7, size=(runs, width))
    tally = legendes_scene(
        dice, levels, rng, runs, max_rolls=max_rolls, allies=allies, each_other=each_other,
        partial=partial, readers=(ArrayReader(mine), ArrayReader(theirs)),
    )  # fmt: skip
    for i in range(runs):
        played = scene_melee(
            dice, levels, allies, each_other, partial, mine[i].tolist(), theirs[i].tolist(),
            max_rolls,
        )  # fmt: skip
        lab = {
            key: (
                [int(v) if key.endswith("wound") else bool(v) for v in tally.arrays[key][:, i]]
                if tally.arrays[key].ndim == 2
                else type(played[key])(tally.arrays[key][i])
            )
            for key in played
        }
        assert lab == played, i


def test_L10_L13_simulate_fight_with_allies_each_other_and_doubt(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """L-10/L-13: `simulate fight legendes --with-dice 2,3` plays allies beside the hero
    (they win more often than the hero alone), `--each-other` and `--partial doubt` are in
    the JSON; bad values are one line and exit 2."""
    from cli_helpers import invoke

    base = ("simulate", "fight", "legendes", "--dice", "2", "--vs-level", "legendaire")
    rest = ("--runs", "20000", "--seed", "4", "--json")
    alone = invoke(capsys, *base, *rest).json()
    helped = invoke(capsys, *base, "--with-dice", "2,3", *rest).json()
    assert helped["fight"]["allies"] == [2, 3]
    assert helped["win_interval_95"][0] > alone["win_interval_95"][1]
    doubt = invoke(capsys, *base, "--each-other", "--partial", "doute", *rest).json()
    assert (doubt["fight"]["each_other"], doubt["fight"]["partial"]) == (True, "doubt")
    assert doubt["wounded_rate"] == 0.0  # L-13: doubt never wounds
    for bad in (
        ("--with-dice", "2,31"),
        ("--partial", "maim"),
        ("--with-dice", "1,1,1,1,1,1,1,1,1,1,1"),
    ):
        result = invoke(capsys, *base, *bad)
        assert result.status == 2 and len(result.err.strip().splitlines()) == 1, bad
