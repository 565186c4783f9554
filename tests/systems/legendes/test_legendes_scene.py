"""A scene that tracks what lasts (L-9 to L-14), step by step on a hero in memory."""

from __future__ import annotations

import pytest

from meneur.errors import DiceSourceError, MeneurError, RuleError
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


def test_L10_two_characters_attack_a_third() -> None:
    """L-10: « deux personnages s'attaquent à un troisième »: Lyssia and Tomas (a player
    character of the scene, 2 dice) both face Orsk; everyone rolls once, and each attacker
    is compared with Orsk's one roll. Orsk's 7 loses to Lyssia's 15 (definitive) and to
    Tomas's 11 (partial): both pairs count."""
    h = in_scene(("Orsk", "heroique"))
    h, _ = scene.add_character(h, "Tomas", 2)
    h, report = roll(h, ["Orsk"], [6, 5, 4, 5, 6], [3, 4], allies=["Tomas"])
    assert report["allies"] == [{"name": "Tomas", "faces": [5, 6]}]
    hero_pair, tomas_pair = report["pairs"]
    assert (hero_pair["side"], hero_pair["total"], hero_pair["opposition_total"]) == (None, 15, 7)
    assert hero_pair["effects"] == ["opposition_out"]
    assert (tomas_pair["side"], tomas_pair["opposition"]) == ("Tomas", "Orsk")
    assert (tomas_pair["total"], tomas_pair["opposition_total"]) == (11, 7)
    assert tomas_pair["effects"] == ["opposition_wound:light"]
    assert h.scene is not None
    tomas, orsk = h.scene.oppositions[1], h.scene.oppositions[0]
    assert orsk.out and orsk.wound == "light" and orsk.rolls == 1 and tomas.rolls == 1


def test_L10_three_fight_each_other_every_pair_compared() -> None:
    """L-10: « trois personnages se combattent les uns les autres »: the hero, Orsk and a
    rival hero (a character) each roll once; the three pairs are compared — hero/Orsk,
    hero/Ysolde, and Orsk/Ysolde — and each pair's loser bears its result."""
    h = in_scene(("Orsk", "heroique"))
    h, _ = scene.add_character(h, "Ysolde", 3)
    h, report = roll(h, ["Orsk", "Ysolde"], [4, 4, 4], [1, 1, 6, 6, 5], each_other=True)
    pairs = [
        (p["side"], p["opposition"], p["total"], p["opposition_total"]) for p in report["pairs"]
    ]
    # Ysolde is a character: she is the side facing Orsk (she would sweep commoners).
    assert pairs == [(None, "Orsk", 12, 2), (None, "Ysolde", 12, 17), ("Ysolde", "Orsk", 17, 2)]
    assert [p["effects"] for p in report["pairs"]] == [
        ["opposition_out"],
        ["hero_wound:light"],
        ["opposition_out"],
    ]
    assert h.wound == "light"
    assert h.scene is not None
    orsk, ysolde = h.scene.oppositions
    assert orsk.out and not ysolde.out and ysolde.wound == "none"


def test_L10_a_character_is_a_hero_neither_swept_nor_out_after_a_wound() -> None:
    """L-10 with L-5 and L-14: a player character in the scene is not swept like a
    commoner (it rolls its domain's dice) and a wound does not put it out."""
    h = in_scene()
    h, _ = scene.add_character(h, "Brune", 0)  # acting in an ordinary domain: 0 dice
    h, report = roll(h, ["Brune"], [1, 2, 1], [])  # 4 against 0: partial
    [pair] = report["pairs"]
    assert not pair["swept"] and pair["key"] == "win:partial"
    assert h.scene is not None and h.scene.oppositions[0].wound == "light"
    assert not h.scene.oppositions[0].out


def test_L10_bad_participants_are_refused_and_the_hero_is_untouched() -> None:
    """L-10: an ally must be a character of the scene, named once, still in; allies and
    each-against-each exclude each other."""
    h = in_scene(("Orsk", "heroique"), ("Garde", "elite"))
    h, _ = scene.add_character(h, "Tomas", 2)
    with pytest.raises(RuleError, match="L-10"):
        roll(h, ["Orsk"], [1] * 3, [1] * 2, allies=["Garde"])
    with pytest.raises(RuleError):
        roll(h, ["Orsk"], [1] * 5, [1] * 2, allies=["Orsk"])
    with pytest.raises(MeneurError, match="L-10"):
        roll(h, ["Orsk", "Garde"], [1] * 5, [1] * 3, allies=["Tomas"], each_other=True)
    with pytest.raises(RuleError):
        scene.add_character(h, "tomas", 2)
    with pytest.raises(RuleError):
        scene.add_character(h, "Lyssia", 2)
    with pytest.raises(RuleError):
        scene.add_character(h, "Géant", 31)


def test_L13_partial_victory_in_a_social_scene_makes_doubt() -> None:
    """L-13: in a social scene (kind social) a victoire partielle makes the other doubt
    instead of wounding: neither the hero nor an élite is wounded (and the élite, not
    wounded, stays in, L-14)."""
    h, report = scene.start(hero(), "Le conseil", "social")
    assert report["kind"] == "social"
    h, _ = scene.add(h, "Conseiller", "elite")
    h, _ = scene.add(h, "Orsk", "legendaire")
    h, report = roll(h, ["Conseiller", "Orsk"], [2, 2, 2], [1, 4, 4, 2])  # 6-1; 6-10
    conseiller, orsk = report["pairs"]
    assert conseiller["taken"] == "partial" and conseiller["effects"] == ["opposition_doubt"]
    assert orsk["key"] == "loss:partial" and orsk["effects"] == ["hero_doubt"]
    assert report["partial"] == "doubt" and h.wound == "none"
    assert h.scene is not None and not h.scene.oppositions[0].out
    assert h.scene.oppositions[0].wound == "none"


def test_L13_partial_effect_asked_per_roll_overrides_the_scene() -> None:
    """L-13: the effect of a partial victory can be asked for one roll: doubt in a
    physical scene, a wound in a social one."""
    h = in_scene(("Orsk", "heroique"))
    h, report = roll(h, ["Orsk"], [2, 2, 2], [1, 1], partial="doubt")  # 6 vs 2
    assert report["pairs"][0]["effects"] == ["opposition_doubt"]
    h, report = roll(h, ["Orsk"], [2, 2, 2], [1, 1], partial="wound")
    assert report["pairs"][0]["effects"] == ["opposition_wound:light"]


def test_L8_L13_the_winner_takes_a_lesser_result_no_wound() -> None:
    """L-8/L-13: « libre au vainqueur de sélectionner un avantage moindre »: a victory by
    4 taken as an avantage wounds nobody."""
    h = in_scene(("Orsk", "legendaire"))
    h, report = roll(h, ["Orsk"], [1, 1, 1], [2, 2, 3], take="advantage")  # 3 vs 7
    [pair] = report["pairs"]
    assert (pair["outcome"], pair["taken"], pair["effects"]) == ("partial", "advantage", [])
    assert h.wound == "none"


def test_L11_a_helper_gives_help_once_per_scene_whoever_they_help() -> None:
    """The table keeps the helper's side of L-11 on the helper's sheet: once they helped
    anyone in the scene, a second help is refused; the next scene frees them."""
    helper = Hero(name="Bran", legendary=["Ruse"])
    gave = scene.give_help(helper, "Ysolde")
    assert gave.scene is not None and gave.scene.gave_help == ["Ysolde"]
    with pytest.raises(RuleError, match="L-11"):
        scene.give_help(gave, "Cid")
    freed, report = scene.next_scene(gave)
    assert freed.scene is None and report["step"] == "end"
    assert scene.give_help(freed, "Cid").scene is not None


def test_L13_the_next_scene_heals_a_light_wound_even_out_of_a_scene() -> None:
    """The table's « new scene » ends a scene the hero was not in (wounded at the
    tracker): a light wound heals, a grave one stays."""
    light, _report = scene.next_scene(Hero(name="a", wound="light"))
    grave, _report = scene.next_scene(Hero(name="b", wound="grave"))
    assert (light.wound, grave.wound) == ("none", "grave")


@pytest.mark.parametrize(
    "field", [{"legendary": ["Ar\tc"]}, {"weaknesses": ["Le\nfeu"]}, {"motivation": "a\x1bb"}]
)
def test_L1_a_hero_s_domains_and_words_are_one_line(field: dict[str, object]) -> None:
    """L-1: domains, weaknesses and a motivation are printed on one line: a tab, a line
    break or an escape sequence is refused."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=r"contrôle|control"):
        Hero.model_validate({"name": "Lyssia", **field})


@pytest.mark.parametrize(
    ("field", "refused"),
    [
        ({"legendary": [""]}, "Domaines légendaires : un nom de domaine a de 1 à 80"),
        ({"secondary": ["   "]}, "Domaines secondaires : un nom de domaine a de 1 à 80"),
        ({"legendary": ["m" * 81]}, "Domaines légendaires : un nom de domaine a de 1 à 80"),
        ({"weaknesses": [" "]}, "Faiblesses : une faiblesse a de 1 à 300"),
        ({"weaknesses": ["f" * 301]}, "Faiblesses : une faiblesse a de 1 à 300"),
    ],
)
def test_L1_a_sheet_s_domains_are_held_to_the_typed_rule(
    field: dict[str, object], refused: str
) -> None:
    """L-1: a domain on a sheet is rolled by typing its name (``scene roll --domain``, 1
    to ``DOMAIN_LENGTH`` characters, not blank): a sheet listing an empty or endless one
    loaded, a domain no one could roll; a weakness is a short phrase, not blank. Refused
    with the field named by its label; the bounds themselves load."""
    from meneur.errors import SheetError
    from meneur.systems.legendes.rules import DOMAIN_LENGTH
    from meneur.systems.legendes.sheet import WEAKNESS_LENGTH, hero_from

    with pytest.raises(SheetError, match=refused):
        hero_from({"name": "Lyssia", **field}, "lyssia.json")
    hero = hero_from(
        {
            "name": "Lyssia",
            "legendary": ["m" * DOMAIN_LENGTH],
            "weaknesses": ["f" * WEAKNESS_LENGTH],
        },
        "lyssia.json",
    )
    assert (len(hero.legendary[0]), len(hero.weaknesses[0])) == (DOMAIN_LENGTH, WEAKNESS_LENGTH)


def test_L9_the_fourth_time_scale_lasts_for_every_later_roll() -> None:
    """L-9: past the text's three steps, rolls 7 and later are all « a long fight » (the
    last scale: no fifth one, no going back)."""
    h = in_scene(("Orsk", "legendaire"))
    durations = []
    for _ in range(10):
        h, report = roll(h, ["Orsk"], [3, 3, 3], [3, 3, 3])  # ties: nothing changes
        durations.append(report["pairs"][0]["duration"])
    assert durations[4:] == ["a few minutes of combat"] * 2 + ["a long fight"] * 4


def test_L1_a_typo_suggests_the_three_nearest_domains() -> None:
    """L-1: a domain nearly on the sheet is refused with the three nearest names, no more,
    no fewer (four are as near here)."""
    from meneur.errors import UsageError

    h = hero(legendary=["Arc 1", "Arc 2"], secondary=["Arc 3", "Arc 4"])
    with pytest.raises(UsageError) as refused:
        scene.check_domain(h, "Arc 0")
    assert len(refused.value.params["known"].names) == 3
    scene.check_domain(h, "Arc 4")  # listed: nothing to refuse


def test_a_step_leaves_the_hero_it_was_given_untouched() -> None:
    """A step works on a copy (the module's contract): the CLI saves the returned hero only
    when the step succeeded, so the hero given (its scene's oppositions, log, helpers...)
    must not change — L-4 adding, L-10 a character joining and a roll, L-11 help."""
    h = in_scene(("Orsk", "heroique"))
    before = h.model_dump()
    scene.add(h, "Garde", "elite")
    scene.add_character(h, "Tomas", 2)
    scene.roll(
        h,
        scene.RollRequest(domain="legendary", against=["Orsk"]),
        PhysicalDice([6, 6, 6]),
        PhysicalDice([1, 1]),
    )
    scene.aid(h, "Mira", 2, 3, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1, 1]))
    scene.give_help(h, "Ysolde")
    assert h.model_dump() == before


def test_L4_a_crowd_of_two_is_two_numbered_oppositions() -> None:
    """L-4: a crowd of two commoners (too few for a group) is two oppositions, « Brigand 1 »
    and « Brigand 2 », not one."""
    h, report = scene.add(in_scene(), "Brigand", "commun", count=2)
    assert [(o["name"], o["level"], o["group"]) for o in report["added"]] == [
        ("Brigand 1", "commun", False),
        ("Brigand 2", "commun", False),
    ]
    assert h.scene is not None and len(h.scene.oppositions) == 2


def test_L4_L10_a_scene_holds_exactly_its_limit_of_oppositions() -> None:
    """L-4: légendaires never merge, so 200 of them are 200 oppositions: the limit itself
    is allowed, at once; one more — an opposition, a crowd of two beside 199, or a
    character joining (L-10) — is refused."""
    from meneur.systems.legendes.sheet import MAX_OPPOSITIONS

    full, _ = scene.add(in_scene(), "Ancien", "legendaire", count=MAX_OPPOSITIONS)
    assert full.scene is not None and len(full.scene.oppositions) == MAX_OPPOSITIONS
    with pytest.raises(RuleError):
        scene.add(full, "Garde", "elite")
    with pytest.raises(RuleError):
        scene.add_character(full, "Tomas", 2)
    almost, _ = scene.add(in_scene(), "Ancien", "legendaire", count=MAX_OPPOSITIONS - 1)
    with pytest.raises(RuleError):
        scene.add(almost, "Garde", "elite", count=2)
    almost, _ = scene.add_character(almost, "Tomas", 2)  # the 200th: allowed
    assert almost.scene is not None and len(almost.scene.oppositions) == MAX_OPPOSITIONS


def test_L10_a_character_rolls_0_to_30_dice_bounds_included() -> None:
    """L-10/L-1: a character joins with the dice of its domain, 0 to 30 (both allowed);
    -1 is refused with the rule's message, not a model's error."""
    h = in_scene()
    h, _ = scene.add_character(h, "Brune", 0)
    h, _ = scene.add_character(h, "Géant", 30)
    assert h.scene is not None and [o.dice for o in h.scene.oppositions] == [0, 30]
    with pytest.raises(RuleError) as refused:
        scene.add_character(h, "Ombre", -1)
    assert refused.value.params == {"most": 30}


def test_L11_help_waiting_adds_at_most_5_dice_and_5_points() -> None:
    """L-11: each help won waits for the hero's next roll; six extra dice won count as 5
    (3 + 5 = 8 dice), three +2 as +5 (the caps of the help bonus)."""
    h = in_scene(("Orsk", "heroique"))
    for helper in ("A", "B", "C", "D", "E", "F"):
        h, report = scene.aid(h, helper, 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
        assert report["effect"] == "extra_die"
    h, report = roll(h, ["Orsk"], [1] * 8, [1, 1])
    assert report["dice"] == 8 and report["pairs"][0]["total"] == 8
    h = in_scene(("Orsk", "heroique"))
    for helper in ("A", "B", "C"):
        h, report = scene.aid(h, helper, 2, 2, 0, PhysicalDice([3, 3]), PhysicalDice([1, 1]))
        assert report["effect"] == "plus_2"
    h, report = roll(h, ["Orsk"], [1, 1, 1], [1, 1])
    assert report["dice"] == 3 and report["pairs"][0]["total"] == 3 + 5


def test_L10_each_against_each_two_npcs_the_first_named_is_the_side() -> None:
    """L-10: in a fight of each against each, a pair of two NPCs is reported from the side
    of the one named first (a character would be the side, to sweep commoners)."""
    h = in_scene(("Orsk", "heroique"), ("Garde", "elite"))
    h, report = roll(h, ["Orsk", "Garde"], [1, 1, 1], [6, 6, 2], each_other=True)
    assert [(p["side"], p["opposition"]) for p in report["pairs"]] == [
        (None, "Orsk"),
        (None, "Garde"),
        ("Orsk", "Garde"),
    ]
    assert (report["pairs"][2]["total"], report["pairs"][2]["opposition_total"]) == (12, 2)


def test_L5_L10_a_commoner_swept_by_everyone_rolls_no_dice() -> None:
    """L-5/L-10: a commoner that the hero and a character both sweep rolls nothing, and the
    character rolls nothing against it: the dice drawn are only those of the pairs that
    roll (an ally beside the hero; each against each with two characters)."""
    h = in_scene(("Orsk", "heroique"), ("Brigand", "commun"), ("Gueux", "commun"))
    h, _ = scene.add_character(h, "Tomas", 2)
    h, report = roll(h, ["Brigand"], [], [], allies=["Tomas"])
    assert report["allies"] == [{"name": "Tomas", "faces": []}]
    assert [p["swept"] for p in report["pairs"]] == [True, True]
    h, report = roll(h, ["Orsk", "Gueux"], [1, 1, 1, 2, 2], [3, 4], allies=["Tomas"])
    assert [(p["side"], p["opposition"], p["swept"]) for p in report["pairs"]] == [
        (None, "Orsk", False),
        (None, "Gueux", True),
        ("Tomas", "Orsk", False),
        ("Tomas", "Gueux", True),
    ]
    assert report["pairs"][2]["opposition_total"] == 7
    h, _ = scene.end(h)
    h, _ = scene.start(h, "La foire")
    h, _ = scene.add_character(h, "Ysolde", 3)
    h, _ = scene.add(h, "Badaud", "commun")
    h, _ = scene.add_character(h, "Tomas", 2)
    h, report = roll(h, ["Ysolde", "Badaud", "Tomas"], [1, 1, 1], [2, 2, 2, 3, 3], each_other=True)
    swept = {(p["side"], p["opposition"]): p["swept"] for p in report["pairs"]}
    assert swept == {
        (None, "Ysolde"): False,
        (None, "Badaud"): True,
        (None, "Tomas"): False,
        ("Ysolde", "Badaud"): True,
        ("Ysolde", "Tomas"): False,
        ("Tomas", "Badaud"): True,
    }
    assert report["pairs"][4]["total"] == 6 and report["pairs"][4]["opposition_total"] == 6


def test_L10_L13_an_ally_who_loses_bears_the_result() -> None:
    """L-10/L-13: an ally beaten by the opposition bears the band, as the hero would: a
    partial defeat wounds them (a character: not out, L-14), a definitive one puts them out."""
    h = in_scene(("Orsk", "heroique"))
    h, _ = scene.add_character(h, "Tomas", 2)
    h, report = roll(h, ["Orsk"], [3, 3, 3, 1, 1], [3, 3], allies=["Tomas"])  # 2 vs 6
    assert report["pairs"][1]["effects"] == ["side_wound:light"]
    assert h.scene is not None and h.scene.oppositions[1].wound == "light"
    assert not h.scene.oppositions[1].out
    h, report = roll(h, ["Orsk"], [3, 3, 3, 1, 1], [6, 6], allies=["Tomas"])  # 2 - 2 vs 12
    assert report["pairs"][1]["effects"] == ["side_out"]
    assert h.scene is not None and h.scene.oppositions[1].out


def test_L9_an_ally_s_pair_counts_the_rolls_of_the_longer_opposition() -> None:
    """L-9: the time scale of an ally's pair follows the opposition's rolls when it has
    rolled longer: Orsk's third roll is « a series of exchanges », Tomas's first or not."""
    h = in_scene(("Orsk", "heroique"))
    for _ in range(2):
        h, _ = roll(h, ["Orsk"], [3, 3, 3], [4, 5])  # ties
    h, _ = scene.add_character(h, "Tomas", 2)
    h, report = roll(h, ["Orsk"], [3, 3, 3, 4, 5], [4, 5], allies=["Tomas"])
    tomas = report["pairs"][1]
    assert (tomas["side"], tomas["roll_number"]) == ("Tomas", 3)
    assert tomas["duration"] == "a series of exchanges"


def test_L14_a_regret_of_one_die_invoked_is_enough_to_die() -> None:
    """L-14: with no motivation point left, a definitive defeat kills when the regret is
    invoked, whether it removes 1 die or 2 (L-6)."""
    h = in_scene(("Orsk", "legendaire")).model_copy(update={"motivation_points": 0})
    h, report = roll(h, ["Orsk"], [1, 1], [6, 6, 6], regret=1)
    assert report["hero_defeated"] and report["hero_dead"] and h.dead


def test_the_scene_log_keeps_its_last_400_entries() -> None:
    """The scene's log (``scene end`` counts its rolls) keeps every
    entry of a short scene, and only the last 400 of a long one."""
    h = in_scene(("Orsk", "heroique"))
    h, _ = roll(h, ["Orsk"], [3, 3, 3], [4, 5])
    h, _ = roll(h, ["Orsk"], [3, 3, 3], [4, 5])
    assert h.scene is not None and [e["step"] for e in h.scene.log] == ["roll", "roll"]
    old = [{"step": "old", "n": n} for n in range(400)]
    h = h.model_copy(update={"scene": h.scene.model_copy(update={"log": old})})
    h, _ = roll(h, ["Orsk"], [3, 3, 3], [4, 5])
    assert h.scene is not None and len(h.scene.log) == 400
    assert h.scene.log[0] == {"step": "old", "n": 1} and h.scene.log[-1]["step"] == "roll"


def test_L11_a_helper_s_name_of_80_characters_is_kept_whole() -> None:
    """L-11: once per helper per scene is checked on the helper's name as kept: a name of
    80 characters (the longest the commands take) is kept whole — on the help waiting,
    in the log, in the report — and the same helper is refused a second time."""
    name = "H" * 79 + "x"
    h = in_scene(("Orsk", "heroique"))
    h, report = scene.aid(h, name, 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
    assert report["helper"] == name
    assert h.scene is not None and h.scene.helpers_used == [name]
    assert h.scene.pending_help[0].helper == name and h.scene.log[-1]["helper"] == name
    with pytest.raises(RuleError, match="L-11"):
        scene.aid(h, name, 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
    helper = Hero(name="Bran")
    gave = scene.give_help(helper, name)
    assert gave.scene is not None and gave.scene.gave_help == [name]


def test_L11_a_longer_helper_name_is_kept_to_80_characters() -> None:
    """L-11: a helper's name is kept on the sheet, which loads names of at most 80
    characters: a longer one given to the scene (the commands refuse it first) is cut to
    its first 80 everywhere it is kept, so the sheet still loads; given again, it is the
    same helper, refused (L-11: once per helper per scene)."""
    name = "H" * 80 + "x"
    h = in_scene(("Orsk", "heroique"))
    h, report = scene.aid(h, name, 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
    assert h.scene is not None
    kept = {
        report["helper"],
        h.scene.helpers_used[0],
        h.scene.pending_help[0].helper,
        h.scene.log[-1]["helper"],
    }
    assert kept == {name[:80]}
    assert Hero.model_validate(h.model_dump()) == h
    with pytest.raises(RuleError, match="L-11"):
        scene.aid(h, name, 2, 2, 0, PhysicalDice([6, 6]), PhysicalDice([1, 1]))
    gave = scene.give_help(Hero(name="Bran"), name)
    assert gave.scene is not None and gave.scene.gave_help == [name[:80]]


def test_L13_a_wound_from_outside_is_light_unless_said_grave() -> None:
    """L-13: a wound from outside an opposition (a fall, poison...) is light by default, a
    second one makes it grave; asked grave, it is grave at once."""
    h, report = scene.wound(hero())
    assert (h.wound, report["wound"]) == ("light", "light")
    h, _ = scene.wound(h)
    assert h.wound == "grave"
    h, _ = scene.wound(hero(), grave=True)
    assert h.wound == "grave"


def test_L13_the_helped_hero_s_wound_weighs_on_the_help_roll_as_on_their_own_roll() -> None:
    """L-13: the hero's wound weighs on the hero's side of a help roll (L-11) as on the
    scene's own roll: a light wound −2 (4 + 3 − 2 = 5 against the helper's 6: cosmetic,
    not none), a grave one a die less (Arc: 1 die, not 2)."""
    light, _ = scene.wound(in_scene(("Orsk", "heroique")))
    _h, aided = scene.aid(light, "Tomas", 2, 2, 0, PhysicalDice([3, 3]), PhysicalDice([4, 3]))
    assert (aided["helped_faces"], aided["helped_total"]) == ([4, 3], 5)
    assert (aided["difference"], aided["effect"]) == (1, "cosmetic")
    _h, rolled = roll(light, ["Orsk"], [4, 3], [1, 1], domain="Arc")
    assert rolled["pairs"][0]["total"] == aided["helped_total"]
    grave, _ = scene.wound(in_scene(("Orsk", "heroique")), grave=True)
    _h, aided = scene.aid(grave, "Tomas", 2, 2, 0, PhysicalDice([3, 3]), PhysicalDice([4]))
    assert (aided["helped_faces"], aided["helped_total"], aided["effect"]) == ([4], 4, "plus_1")
    _h, rolled = roll(grave, ["Orsk"], [4], [1, 1], domain="Arc")
    assert (rolled["dice"], rolled["pairs"][0]["total"]) == (1, aided["helped_total"])


def test_L12_progress_stops_at_99_points_with_the_rule_s_refusal() -> None:
    """L-12: significant progress adds a point up to 99, the most a sheet holds; at 99 it
    is refused as a rule (not a broken sheet), the hero unchanged."""
    h, report = scene.progress(hero(motivation_points=98))
    assert h.motivation_points == 99 and report["motivation_points"] == 99
    with pytest.raises(RuleError) as refused:
        scene.progress(h)
    assert refused.value.params == {"limit": 99}


def test_L12_raising_the_motivation_needs_words_kept_to_300_characters() -> None:
    """L-12: raising the motivation names the new one: blank is refused; it is kept
    stripped, whole up to 300 characters (the sheet's limit), cut beyond."""
    with pytest.raises(RuleError):
        scene.reached(hero(), "raise", "   ")
    with pytest.raises(RuleError):
        scene.reached(hero(), "raise", None)
    h, _ = scene.reached(hero(), "raise", "  Voir Tel  ")
    assert h.motivation == "Voir Tel"
    whole = "m" * 300
    h, report = scene.reached(hero(), "raise", whole)
    assert h.motivation == whole and report["motivation"] == whole
    h, _ = scene.reached(hero(), "raise", whole + "n")
    assert h.motivation == whole


def test_L9_the_end_of_a_scene_counts_its_rolls_not_its_helps() -> None:
    """L-9/L-11: ``scene end`` reports the rolls made in the scene; a help is logged too
    but is not a roll against an opposition."""
    h = in_scene(("Orsk", "heroique"))
    h, _ = scene.aid(h, "Tomas", 2, 2, 0, PhysicalDice([1, 1]), PhysicalDice([1, 1]))
    h, _ = roll(h, ["Orsk"], [3, 3, 3], [4, 5])
    h, _ = roll(h, ["Orsk"], [3, 3, 3], [4, 5])
    _h, report = scene.end(h)
    assert report["rolls"] == 2


def test_L10_L11_a_roll_and_an_aid_are_logged_as_two_streams_of_d6() -> None:
    """L-10: a scene roll reads the hero's side (stream 0) and the oppositions (stream 1);
    L-11: an aid reads the helper (stream 0) and the helped hero (stream 1): the roll log
    stores exactly these two streams. Légendes dice are d6: a typed 7 is refused."""
    from meneur.systems.legendes.procedures import (
        SceneAid,
        SceneAidParams,
        SceneRoll,
        SceneRollParams,
    )

    h = in_scene(("Orsk", "heroique"))
    request = scene.RollRequest(domain="legendary", against=["Orsk"])
    rolled = SceneRoll().roll(
        SceneRollParams(h, request), [PhysicalDice([4, 4, 4]), PhysicalDice([6, 6])]
    )
    assert rolled.faces == ((4, 4, 4), (6, 6))  # legendary 3d6 (L-1), héroïque 2d6 (L-3)
    aided = SceneAid().roll(
        SceneAidParams(h, "Mira", 2, 3), [PhysicalDice([6, 6]), PhysicalDice([1, 1, 1])]
    )
    assert aided.faces == ((6, 6), (1, 1, 1))
    with pytest.raises(DiceSourceError):
        SceneRoll().roll(
            SceneRollParams(h, request), [PhysicalDice([4, 4, 7]), PhysicalDice([6, 6])]
        )
    with pytest.raises(DiceSourceError):
        SceneAid().roll(
            SceneAidParams(h, "Mira", 2, 3), [PhysicalDice([6, 7]), PhysicalDice([1, 1, 1])]
        )


def _opposition(index: int, **changes: object) -> dict[str, object]:
    return {"name": f"Garde {index}", "level": "commun", "dice": 0, **changes}


def _help(**changes: object) -> dict[str, object]:
    return {"helper": "Tomas", "effect": "extra_die", "extra_dice": 1, "bonus": 0, **changes}


@pytest.mark.parametrize(
    ("at_bound", "past_bound"),
    [
        # L-1: up to 20 legendary domains, 20 secondary ones, 20 weaknesses
        ({"legendary": [f"d{i}" for i in range(20)]}, {"legendary": [f"d{i}" for i in range(21)]}),
        ({"secondary": [f"d{i}" for i in range(20)]}, {"secondary": [f"d{i}" for i in range(21)]}),
        (
            {"weaknesses": [f"w{i}" for i in range(20)]},
            {"weaknesses": [f"w{i}" for i in range(21)]},
        ),
        # L-12, L-14: a regret, a blocage, a motivation of up to 300 characters; 0-99 points
        ({"regret": "r" * 300}, {"regret": "r" * 301}),
        ({"blocage": "b" * 300}, {"blocage": "b" * 301}),
        ({"motivation": "m" * 300}, {"motivation": "m" * 301}),
        ({"motivation_points": 99}, {"motivation_points": 100}),
        # L-4, L-10: a scene of up to 200 oppositions; L-9: up to 10,000 rolls on one
        (
            {"scene": {"oppositions": [_opposition(i) for i in range(200)]}},
            {"scene": {"oppositions": [_opposition(i) for i in range(201)]}},
        ),
        (
            {"scene": {"oppositions": [_opposition(0, rolls=10_000)]}},
            {"scene": {"oppositions": [_opposition(0, rolls=10_001)]}},
        ),
        # L-11: 1000 helpers used, 50 helps waiting of at most 5 dice and 5 points, 50 helped
        (
            {"scene": {"helpers_used": [f"h{i}" for i in range(1000)]}},
            {"scene": {"helpers_used": [f"h{i}" for i in range(1001)]}},
        ),
        (
            {"scene": {"pending_help": [_help() for _ in range(50)]}},
            {"scene": {"pending_help": [_help() for _ in range(51)]}},
        ),
        (
            {"scene": {"pending_help": [_help(extra_dice=5)]}},
            {"scene": {"pending_help": [_help(extra_dice=6)]}},
        ),
        (
            {"scene": {"pending_help": [_help(bonus=5)]}},
            {"scene": {"pending_help": [_help(bonus=6)]}},
        ),
        (
            {"scene": {"gave_help": [f"h{i}" for i in range(50)]}},
            {"scene": {"gave_help": [f"h{i}" for i in range(51)]}},
        ),
        # the scene's log: up to 500 entries
        ({"scene": {"log": [{}] * 500}}, {"scene": {"log": [{}] * 501}}),
    ],
)
def test_L1_L9_L11_L12_a_hero_sheet_loads_its_bounds_and_refuses_one_past(
    at_bound: dict[str, object], past_bound: dict[str, object]
) -> None:
    """L-1, L-4, L-9 to L-12, L-14: what a hero's sheet holds is bounded; the bound
    itself loads, one past it is refused with a SheetError (never a sheet that loads
    and breaks a later step)."""
    from meneur.errors import SheetError
    from meneur.systems.legendes.sheet import hero_from

    hero_from({"name": "Lyssia", **at_bound}, "lyssia.json")
    with pytest.raises(SheetError):
        hero_from({"name": "Lyssia", **past_bound}, "lyssia.json")


def test_L12_a_hero_starts_with_no_motivation_point_and_a_value_set_is_checked() -> None:
    """L-12: a sheet that names no motivation point has none (L-14: such a hero can
    die); a value set on the sheet in play is checked as one read (0-99 points, a wound
    of the three L-13 names)."""
    from pydantic import ValidationError

    from meneur.systems.legendes.sheet import hero_from

    h = hero_from({"name": "Lyssia"}, "lyssia.json")
    assert (h.motivation_points, h.wound) == (0, "none")
    with pytest.raises(ValidationError):
        h.motivation_points = 100
    with pytest.raises(ValidationError):
        h.wound = "mortal"  # type: ignore[assignment]
