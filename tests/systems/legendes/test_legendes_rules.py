"""Rules L-1 to L-8 and L-11 to L-14 as pure functions (docs/rules.md, section L)."""

from __future__ import annotations

import pytest

from meneur.errors import LimitError, MeneurError, RuleError, UsageError
from meneur.systems.legendes.rules import (
    BOTH_WOUNDS,
    HelpParams,
    LegendesAid,
    LegendesTest,
    OpposedParams,
    band_of,
    check_circumstance,
    crowd,
    domain_dice,
    effect_bonus,
    group_level,
    help_effect,
    hero_dies,
    is_swept,
    lesser,
    level_dice,
    next_wound,
    npc_out_after_wound,
    parse_domain,
    parse_level,
    reach_motivation,
    unopposed,
)

TEST = LegendesTest()
AID = LegendesAid()


def test_L1_domain_dice() -> None:
    """L-1: legendary 3 dice, secondary 2, ordinary 0; French names accepted."""
    assert [domain_dice(parse_domain(d)) for d in ("legendary", "secondary", "ordinary")] == [
        3,
        2,
        0,
    ]
    assert parse_domain("Légendaire") == "legendary"
    assert parse_domain("secondaire") == "secondary"


def test_L2_no_opposition_no_roll() -> None:
    """L-2: unopposed, the hero succeeds within capabilities and fails otherwise."""
    assert unopposed(True) is True
    assert unopposed(False) is False


def test_L2_motivation_point_lets_ordinary_hero_roll() -> None:
    """L-2/L-12: Lyssia (ordinary, 0 dice) spends a point and rolls that die."""
    params = OpposedParams(dice=0, vs_dice=1, vs_level="elite", spend=1)
    assert params.pc_dice == 1
    rolled = TEST.resolve(params, ((6,), (2,)))
    assert rolled.winner == "pc"


def test_L3_opposition_levels() -> None:
    """L-3: Légendaire 3d6, Héroïque 2d6, Élite 1d6, Commun 0 (French and English names)."""
    names = {
        "legendaire": 3,
        "Héroïque": 2,
        "élite": 1,
        "commun": 0,
        "legendary": 3,
        "heroic": 2,
        "common": 0,
    }
    for name, dice in names.items():
        assert level_dice(parse_level(name)) == dice


def test_L3_unknown_level_is_refused() -> None:
    """L-3: 'dieu' is no level."""
    with pytest.raises(UsageError):
        parse_level("dieu")


def test_L4_ten_elites_oppose_as_heroique() -> None:
    """L-4: a group of ten élites is one héroïque opposition."""
    assert group_level("elite") == "heroique"
    assert crowd("elite", 10) == ("heroique",)


def test_L4_hundred_commoners_are_ten_elite_oppositions() -> None:
    """L-4: not cumulative: 100 commoners are 10 élite oppositions, not one héroïque."""
    assert crowd("commun", 100) == ("elite",) * 10
    assert "heroique" not in crowd("commun", 100)


def test_L4_ten_legendaires_stay_ten_legendaire_oppositions() -> None:
    """L-4: légendaire has no level above it, so légendaires never merge: ten légendaires
    are ten légendaire oppositions (not one), and a "group" of légendaires is refused."""
    assert crowd("legendaire", 10) == ("legendaire",) * 10
    assert crowd("legendaire", 23) == ("legendaire",) * 23
    assert crowd("heroique", 10) == ("legendaire",)
    with pytest.raises(RuleError, match="L-4"):
        group_level("legendaire")


def test_L4_crowd_remainder_and_limits() -> None:
    """L-4: what does not make a group of ten stays at its level."""
    assert crowd("commun", 25) == (
        "elite",
        "elite",
        "commun",
        "commun",
        "commun",
        "commun",
        "commun",
    )
    with pytest.raises(RuleError):
        crowd("commun", 0)
    with pytest.raises(LimitError):
        crowd("commun", 10**9)
    assert crowd("elite", 1) == ("elite",)  # one member is a crowd of one, not refused
    assert crowd("commun", 9) == ("commun",) * 9  # nine are not « about ten »
    assert crowd("commun", 100_000) == ("elite",) * 10_000  # the bound itself is taken


def test_L5_commoners_swept_without_roll() -> None:
    """L-5: against commoners the hero wins with no die rolled."""
    params = OpposedParams(dice=3, vs_dice=0, vs_level="commun")
    assert params.swept and is_swept("commun", False)
    outcome = TEST.resolve(params, ((), ()))  # no faces needed: no NeedMoreDice
    assert outcome.swept and outcome.winner == "pc" and outcome.band == "definitive"
    assert (outcome.faces, outcome.vs_faces, outcome.total, outcome.opposition_total) == (
        (),
        (),
        0,
        0,
    )  # no roll: nothing summed on either side
    assert TEST.odds(params).p("win:definitive") == 1


def test_L5_weakness_makes_commoners_roll() -> None:
    """L-5: with a weakness involved, commoners are rolled against normally."""
    params = OpposedParams(dice=2, vs_dice=0, vs_level="commun", weakness=True)
    assert not params.swept
    outcome = TEST.resolve(params, ((1,), ()))
    assert not outcome.swept and outcome.total == 1 and outcome.band == "cosmetic"


def test_L6_dice_maluses_never_below_zero() -> None:
    """L-6: weakness −1 die, regret −1/−2, GM removals; never below 0 dice."""
    assert OpposedParams(dice=3, vs_dice=2, weakness=True).pc_dice == 2
    assert OpposedParams(dice=3, vs_dice=2, regret=2).pc_dice == 1
    assert OpposedParams(dice=3, vs_dice=2, weakness=True, regret=2, removed_dice=1).pc_dice == 0
    assert OpposedParams(dice=2, vs_dice=2, weakness=True, regret=2).pc_dice == 0
    with pytest.raises(RuleError):
        OpposedParams(dice=3, vs_dice=2, regret=3)
    # the opposition's grave wound (L-13) on no dice leaves 0, never −1
    assert OpposedParams(dice=2, vs_dice=0, vs_grave_wound=True).opposition_dice == 0
    # a count is a whole number, not a yes/no
    with pytest.raises(RuleError):
        OpposedParams(dice=True, vs_dice=2)  # type: ignore[arg-type]


def test_L7_L11_L12_L13_the_points_added_to_the_hero_s_sum() -> None:
    """What is added to the hero's sum: the circumstance ±2 (L-7), +2 for acting toward
    the motivation (L-12), the +1 or +2 of a help (L-11), −2 for a light wound (L-13):
    +2 + 2 + 1 − 2 = 3."""
    assert OpposedParams(dice=2, vs_dice=2, bonus=2).pc_bonus == 2
    params = OpposedParams(
        dice=2, vs_dice=2, modifier=2, motivation=True, bonus=1, light_wound=True
    )
    assert params.pc_bonus == 3
    outcome = TEST.resolve(params, ((1, 1), (2, 3)))
    assert (outcome.total, outcome.opposition_total) == (5, 5) and outcome.band == "tie"


def test_L7_circumstance_is_only_plus_or_minus_two() -> None:
    """L-7: ±2 on the result; any other modifier is refused and says so."""
    assert OpposedParams(dice=1, vs_dice=1, modifier=2).pc_bonus == 2
    assert OpposedParams(dice=1, vs_dice=1, modifier=-2).pc_bonus == -2
    with pytest.raises(RuleError) as error:
        check_circumstance(10)
    assert "±2" in str(error.value)
    with pytest.raises(MeneurError):
        OpposedParams(dice=1, vs_dice=1, modifier=1)


@pytest.mark.parametrize(
    ("difference", "band"),
    [
        (6, "definitive"),
        (9, "definitive"),
        (5, "partial"),
        (4, "partial"),
        (3, "advantage"),
        (2, "advantage"),
        (1, "cosmetic"),
        (0, "tie"),
        (-1, "cosmetic"),
        (-6, "definitive"),
    ],
)
def test_L8_bands(difference: int, band: str) -> None:
    """L-8: 6+ definitive, 4-5 partial, 2-3 advantage, 1 cosmetic, 0 tie."""
    assert band_of(difference) == band


def test_L8_winner_and_difference_from_faces() -> None:
    """L-8: each side sums its dice; the higher wins by the difference."""
    outcome = TEST.resolve(OpposedParams(dice=3, vs_dice=2), ((6, 5, 4), (1, 2)))
    assert (outcome.total, outcome.opposition_total, outcome.difference) == (15, 3, 12)
    assert (outcome.winner, outcome.band) == ("pc", "definitive")
    loss = TEST.resolve(OpposedParams(dice=1, vs_dice=2), ((1,), (3, 3)))
    assert (loss.winner, loss.band, loss.difference) == ("opposition", "partial", 5)
    tie = TEST.resolve(OpposedParams(dice=1, vs_dice=1), ((4,), (4,)))
    assert (tie.winner, tie.band) == (None, "tie")


def test_L8_winner_may_take_lesser_outcome() -> None:
    """L-8: the winner may choose a lesser outcome, never a greater one."""
    assert lesser("definitive", "advantage") == "advantage"
    assert lesser("cosmetic", "definitive") == "cosmetic"
    assert lesser("partial", None) == "partial"
    outcome = TEST.resolve(OpposedParams(dice=3, vs_dice=2, take="cosmetic"), ((6, 6, 6), (1, 1)))
    assert outcome.band == "definitive" and outcome.taken == "cosmetic"


def test_L11_help_effects() -> None:
    """L-11: helped higher: none; else 6+ +1 die, 4-5 +2, 2-3 +1, 0-1 cosmetic."""
    assert help_effect(10 - 4) == "extra_die"
    assert [help_effect(d) for d in (7, 6, 5, 4, 3, 2, 1, 0, -1)] == [
        "extra_die",
        "extra_die",
        "plus_2",
        "plus_2",
        "plus_1",
        "plus_1",
        "cosmetic",
        "cosmetic",
        "none",
    ]


def test_L11_what_each_help_effect_adds_to_the_next_roll() -> None:
    """L-11: « +1 dé », « +2 », « +1 »: an extra die adds one die and no point; +2 and +1
    add points, no die; cosmetic help and none add nothing. The aid's JSON says the same."""
    assert [effect_bonus(e) for e in ("extra_die", "plus_2", "plus_1", "cosmetic", "none")] == [
        (1, 0),
        (0, 2),
        (0, 1),
        (0, 0),
        (0, 0),
    ]
    params = HelpParams(helper_dice=2, helped_dice=1)
    data = AID.to_json(params, AID.resolve(params, ((5, 3), (4,))))
    assert (data["effect"], data["extra_dice"], data["bonus"]) == ("plus_2", 0, 2)


def test_L11_helper_10_vs_helped_4_gives_a_die() -> None:
    """L-11: helper 10 against helped 4 → +1 die; helped higher → no effect."""
    params = HelpParams(helper_dice=2, helped_dice=1)
    assert AID.resolve(params, ((5, 5), (4,))).effect == "extra_die"
    assert AID.resolve(params, ((1, 2), (4,))).effect == "none"
    assert AID.resolve(params, ((5, 5), (4,))).difference == 6
    assert AID.to_json(params, AID.resolve(params, ((1, 2), (4,))))["difference"] == -1
    # L-1: an ordinary helper rolls 0 dice; against 0 dice the difference 0 is cosmetic
    ordinary = HelpParams(helper_dice=0, helped_dice=0)
    assert AID.resolve(ordinary, ((), ())).effect == "cosmetic"
    for helper, helped in ((-1, 2), (2, -1)):
        with pytest.raises(RuleError):
            HelpParams(helper_dice=helper, helped_dice=helped)


def test_L12_motivation_bonus_and_points() -> None:
    """L-12: acting toward the motivation +2; each point spent +1 die."""
    params = OpposedParams(dice=2, vs_dice=2, motivation=True, spend=2)
    assert params.pc_bonus == 2 and params.pc_dice == 4


def test_L12_motivation_reached_keep_or_raise() -> None:
    """L-12: keep → exactly 1 point; raise → points kept."""
    assert reach_motivation(0, "keep") == 1
    assert reach_motivation(4, "keep") == 1
    assert reach_motivation(4, "raise") == 4
    assert reach_motivation(0, "raise") == 0


def test_L13_wound_progression_and_effects() -> None:
    """L-13: first wound light (−2), second grave (−1 die), a third changes nothing."""
    assert next_wound("none") == "light"
    assert next_wound("light") == "grave"
    assert next_wound("grave") == "grave"
    assert OpposedParams(dice=3, vs_dice=2, light_wound=True).pc_bonus == -2
    grave = OpposedParams(dice=3, vs_dice=2, grave_wound=True)
    assert grave.pc_dice == 2 and grave.pc_bonus == 0
    assert (
        OpposedParams(dice=2, vs_dice=2, vs_grave_wound=True, vs_light_wound=False).opposition_dice
        == 1
    )


@pytest.mark.parametrize("wound", ["none", "light", "grave"])
def test_L13_a_wound_weighs_on_the_help_roll_s_helped_side_as_on_a_roll(wound: str) -> None:
    """L-13: a wound weighs on every roll of its bearer, the helped side of a help (L-11)
    too: the same dice and the same points as the hero's side of an opposed roll."""
    helped = HelpParams(helper_dice=2, helped_dice=2, helped_wound=wound)  # type: ignore[arg-type]
    roll = OpposedParams(
        dice=2, vs_dice=0, light_wound=wound == "light", grave_wound=wound == "grave"
    )
    assert (helped.helped_pool, helped.helped_bonus) == (roll.pc_dice, roll.pc_bonus)
    outcome = AID.resolve(helped, ((3, 3), (4, 3)[: helped.helped_pool]))
    assert (outcome.helped_total, outcome.effect) == {
        "none": (7, "none"), "light": (5, "cosmetic"), "grave": (4, "plus_1")
    }[wound]  # fmt: skip


def test_L13_a_hero_has_one_wound_light_or_grave_not_both() -> None:
    """L-13: "a second wound makes it grave": light and grave at once is no state of a
    hero (nor of an opposition), refused instead of taking −1 die and −2 together."""
    with pytest.raises(UsageError) as hero:
        OpposedParams(dice=3, vs_dice=1, light_wound=True, grave_wound=True)
    with pytest.raises(UsageError) as opposition:
        OpposedParams(dice=3, vs_dice=1, vs_light_wound=True, vs_grave_wound=True)
    assert hero.value.message == opposition.value.message == BOTH_WOUNDS
    with pytest.raises(UsageError):
        HelpParams(helper_dice=2, helped_dice=2, helped_wound="both")  # type: ignore[arg-type]


def test_L14_npcs_and_death() -> None:
    """L-14: non-heroic NPCs are out at the first wound (GM can lift it); heroes die
    only with no motivation point left and the regret invoked."""
    assert npc_out_after_wound("elite") and npc_out_after_wound("commun")
    assert not npc_out_after_wound("heroique") and not npc_out_after_wound("legendaire")
    assert not npc_out_after_wound("elite", keeps_fighting=True)
    assert hero_dies(0, True)
    assert not hero_dies(1, True)
    assert not hero_dies(0, False)


def test_params_bounds() -> None:
    """Bounded dice: a clear error, not a hang."""
    with pytest.raises(RuleError):
        OpposedParams(dice=-1, vs_dice=1)
    with pytest.raises(LimitError):
        OpposedParams(dice=10_000, vs_dice=1)
    with pytest.raises(LimitError):
        HelpParams(helper_dice=1, helped_dice=10_000)


def test_L13_partial_effect_and_lesser_band_are_validated_by_the_params_type() -> None:
    """L-13/L-8: the params type refuses an unknown partial effect or band with the very
    message the command line's and the web's parsers give (one message, both interfaces);
    French and English names are read; a scene's kind gives the default effect."""
    from meneur.systems.legendes.rules import (
        parse_band,
        parse_partial,
        parse_scene_kind,
        partial_of,
    )

    for build, parse in (
        (lambda: OpposedParams(dice=1, vs_dice=1, partial="maim"), lambda: parse_partial("maim")),  # type: ignore[arg-type]
        (lambda: OpposedParams(dice=1, vs_dice=1, take="all"), lambda: parse_band("all")),  # type: ignore[arg-type]
    ):
        with pytest.raises(UsageError) as from_params:
            build()
        with pytest.raises(UsageError) as from_parser:
            parse()
        assert str(from_params.value) == str(from_parser.value)
    assert (parse_partial("Doute"), parse_partial("blessure")) == ("doubt", "wound")
    assert (parse_scene_kind("physique"), parse_scene_kind("SOCIAL")) == ("physical", "social")
    assert (partial_of("social"), partial_of("physical")) == ("doubt", "wound")
    with pytest.raises(UsageError, match="L-13"):
        parse_scene_kind("épique")
