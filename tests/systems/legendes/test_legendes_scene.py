"""A scene that tracks what lasts (L-9 to L-14), step by step on a hero in memory."""

from __future__ import annotations

import pytest

from meneur.errors import RuleError
from meneur.rng import PhysicalDice
from meneur.systems.legendes import scene
from meneur.systems.legendes.sheet import Hero


def hero(**changes: object) -> Hero:
    base = Hero(
        name="Lyssia",
        legendary=["Magie des ronces"],
        secondary=["Arc"],
        weaknesses=["Le feu"],
        regret="Sa sœur",
        motivation="La beauté de la nature",
        motivation_points=1,
    )
    return base.model_copy(update=changes)


def in_scene(*oppositions: tuple[str, str]) -> Hero:
    h, _ = scene.start(hero(), "Le pont")
    for name, level in oppositions:
        h, _ = scene.add(h, name, level)  # type: ignore[arg-type]
    return h


def roll(
    h: Hero, against: list[str], mine: list[int], theirs: list[int], **options: object
) -> tuple[Hero, dict]:  # type: ignore[type-arg]
    request = scene.RollRequest(
        domain=str(options.pop("domain", "legendary")), against=against, **options
    )  # type: ignore[arg-type]
    return scene.roll(h, request, PhysicalDice(mine), PhysicalDice(theirs))


def test_L9_duration_steps_up_every_two_rolls() -> None:
    """L-9: rolls 1-2 an exchange, 3-4 a series of exchanges, 5-6 a few minutes."""
    h = in_scene(("Orsk", "legendaire"))
    durations = []
    for _ in range(6):
        h, report = roll(h, ["Orsk"], [3, 3, 3], [3, 3, 3])  # ties: nothing changes
        durations.append(report["pairs"][0]["duration"])
    assert durations == [
        "an exchange", "an exchange", "a series of exchanges", "a series of exchanges",
        "a few minutes of combat", "a few minutes of combat",
    ]  # fmt: skip
    assert h.scene is not None and h.scene.oppositions[0].rolls == 6


def test_L10_several_opponents_compared_two_by_two() -> None:
    """L-10: one roll of the hero is compared with each opposition's own roll."""
    h = in_scene(("Orsk", "heroique"), ("Garde", "elite"))
    h, report = roll(h, ["Orsk", "Garde"], [4, 4, 4], [6, 6, 1])
    first, second = report["pairs"]
    assert (first["total"], first["opposition_total"], first["outcome"]) == (12, 12, "tie")
    assert (second["opposition_total"], second["winner"], second["outcome"]) == (
        1,
        "pc",
        "definitive",
    )
    assert h.scene is not None
    assert [o.rolls for o in h.scene.oppositions] == [1, 1]


def test_L11_help_once_per_helper_and_applied_to_next_roll() -> None:
    """L-11: help gives its bonus to the next roll only; the same helper twice is refused."""
    h = in_scene(("Orsk", "heroique"))
    h, report = scene.aid(h, "Tomas", 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
    assert report["effect"] == "extra_die"
    with pytest.raises(RuleError):
        scene.aid(h, "tomas", 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
    h, report = scene.aid(h, "Mira", 2, 3, 0, PhysicalDice([1, 1]), PhysicalDice([6, 6, 6]))
    assert report["effect"] == "none"
    h, report = roll(h, ["Orsk"], [1, 1, 1, 1], [1, 1])  # 3 dice + 1 from help
    assert report["dice"] == 4 and report["pairs"][0]["total"] == 4
    h, report = roll(h, ["Orsk"], [1, 1, 1], [1, 1])  # help used up
    assert report["dice"] == 3


def test_L11_help_again_in_next_scene() -> None:
    """L-11: once per scene: a new scene lets the helper help again."""
    h = in_scene()
    h, _ = scene.aid(h, "Tomas", 2, 2, 0, PhysicalDice([1, 1]), PhysicalDice([1, 1]))
    h, _ = scene.end(h)
    h, _ = scene.start(h, "Suite")
    h, report = scene.aid(h, "Tomas", 2, 2, 0, PhysicalDice([1, 1]), PhysicalDice([1, 1]))
    assert report["effect"] == "cosmetic"


def test_L13_wounds_in_a_scene_and_healing() -> None:
    """L-13: a first partial defeat gives a light wound (−2), a second makes it grave
    (−1 die), a third changes nothing; a grave wound does not heal at the scene's end."""
    h = in_scene(("Orsk", "legendaire"))
    h, _ = roll(h, ["Orsk"], [1, 1, 1], [2, 2, 3])  # 3 vs 7: partial defeat
    assert h.wound == "light"
    h, report = roll(h, ["Orsk"], [2, 2, 2], [2, 2, 4])  # 6 - 2 = 4 vs 8: partial defeat
    assert report["pairs"][0]["key"] == "loss:partial" and h.wound == "grave"
    h, report = roll(h, ["Orsk"], [1, 1], [2, 2, 1])  # grave: 2 dice, no −2; 2 vs 5
    assert report["dice"] == 2 and report["pairs"][0]["key"] == "loss:advantage"
    h, report = roll(h, ["Orsk"], [1, 1], [2, 2, 2])  # 2 vs 6: partial defeat, a third wound
    assert report["pairs"][0]["key"] == "loss:partial" and h.wound == "grave"
    h, report = scene.end(h)
    assert h.wound == "grave" and report["light_wound_healed"] is False
    h, _ = scene.heal(h)
    assert h.wound == "none"


def test_L13_light_wound_heals_at_scene_end() -> None:
    """L-13: a light wound disappears at the end of the scene where it was inflicted."""
    h = in_scene(("Orsk", "legendaire"))
    h, _ = roll(h, ["Orsk"], [1, 1, 1], [2, 2, 3])
    assert h.wound == "light"
    h, report = scene.end(h)
    assert h.wound == "none" and report["light_wound_healed"] is True


def test_L14_non_heroic_npc_out_after_first_wound() -> None:
    """L-14: an élite is out after its first wound; a héroïque goes on, wounded."""
    h2 = in_scene(("Garde", "elite"), ("Orsk", "heroique"))
    h2, report = roll(
        h2, ["Garde", "Orsk"], [2, 2, 2], [2, 1, 1]
    )  # 6 vs 2: partial; 6 vs 2: partial
    assert h2.scene is not None
    garde, orsk = h2.scene.oppositions
    assert garde.out and garde.wound == "light"
    assert not orsk.out and orsk.wound == "light"
    with pytest.raises(RuleError):
        roll(h2, ["Garde"], [1, 1, 1], [1])
    h2, report = roll(h2, ["Orsk"], [1, 1, 1], [3, 3])  # 3 vs 6 - 2 = 4: the wound counts
    assert report["pairs"][0]["opposition_total"] == 4


def test_L14_hero_dies_only_without_points_and_with_regret() -> None:
    """L-14: a definitive defeat kills only with no point left and the regret invoked."""
    h = in_scene(("Orsk", "legendaire"))
    h, report = roll(h, ["Orsk"], [1], [6, 6, 6], regret=2)  # 1 point left: survives
    assert report["hero_defeated"] and not h.dead
    h2 = in_scene(("Orsk", "legendaire"))
    h2 = h2.model_copy(update={"motivation_points": 0})
    h2, report = roll(h2, ["Orsk"], [1, 1, 1], [6, 6, 6])  # no regret invoked: survives
    assert report["hero_defeated"] and not h2.dead
    h3 = in_scene(("Orsk", "legendaire"))
    h3, report = roll(h3, ["Orsk"], [1, 1], [6, 6, 6], regret=2, spend=1)  # spends the last point
    assert report["hero_dead"] and h3.dead
    with pytest.raises(RuleError):
        scene.progress(h3)


def test_L12_spending_points_and_reaching_motivation() -> None:
    """L-12: points spent leave the sheet; keep → exactly 1 point, raise → points kept."""
    h = in_scene(("Orsk", "heroique"))
    with pytest.raises(RuleError):
        roll(h, ["Orsk"], [1] * 5, [1, 1], spend=2)
    h, report = roll(h, ["Orsk"], [1, 1, 1, 1], [1, 1], spend=1)
    assert report["dice"] == 4 and h.motivation_points == 0
    h, _ = scene.progress(h)
    h, _ = scene.progress(h)
    h, _ = scene.progress(h)
    h, report = scene.reached(h, "raise", "Voir les aurores de Tel")
    assert h.motivation_points == 3 and h.motivation == "Voir les aurores de Tel"
    h, _ = scene.reached(h, "keep")
    assert h.motivation_points == 1


def test_L4_L5_crowd_in_scene_and_commoners_swept() -> None:
    """L-4, L-5: 25 brigands are 2 élite groups and 5 commoners, swept without dice."""
    h = in_scene()
    h, report = scene.add(h, "Brigand", "commun", count=25)
    assert [o["level"] for o in report["added"]] == ["elite"] * 2 + ["commun"] * 5
    h, report = roll(h, ["Brigand 3"], [], [])
    assert report["pairs"][0]["swept"] and report["faces"] == []
    h, report = roll(h, ["Brigand 4"], [1, 1], [], weakness=True)  # weakness: rolled
    assert not report["pairs"][0]["swept"] and report["dice"] == 2


def test_scene_needed_and_single() -> None:
    """Rolls need a scene; a second start is refused."""
    with pytest.raises(RuleError):
        roll(hero(), ["Orsk"], [1], [1])
    h = in_scene()
    with pytest.raises(RuleError):
        scene.start(h, "encore")


def test_domains_from_the_sheet() -> None:
    """L-1: a domain named on the sheet gives its dice; anything else is ordinary."""
    h = hero()
    assert scene.domain_of(h, "magie des ronces") == ("legendary", "Magie des ronces")
    assert scene.domain_of(h, "ARC") == ("secondary", "Arc")
    assert scene.domain_of(h, "cuisine")[0] == "ordinary"
