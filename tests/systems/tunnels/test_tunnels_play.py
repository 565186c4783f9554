"""Characters (T-1, T-2), melee (T-10, T-11), Chance (T-12) and Mana (T-13)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from data_helpers import user_data_folder
from meneur.errors import DiceSourceError, LimitError, RuleError, SheetError
from meneur.rng import PhysicalDice, SeededDice
from meneur.systems.base import FaceReader
from meneur.systems.tunnels import character as characters
from meneur.systems.tunnels.chance import spend_chance
from meneur.systems.tunnels.combat import (
    Fighter,
    FightParams,
    Round,
    TunnelsFight,
    character,
    fight,
    fight_json,
    monster,
)
from meneur.systems.tunnels.data import find_spell, find_trait, parse_formula, threshold_of
from meneur.systems.tunnels.magic import spend_mana
from meneur.systems.tunnels.rules import TestParams, TunnelsTest


def play(a: Fighter, b: Fighter, sources: list[Any], explode: Any = "needed") -> Any:
    """A fight with one explosion policy for both sides, as the table plays it."""
    return fight(FightParams(a, b, explode=explode, vs_explode=explode), sources)


def one_round(
    a: Fighter, b: Fighter, faces_a: tuple[int, ...], faces_b: tuple[int, ...], **options: Any
) -> Round:
    """The first exchange of a fight on typed faces."""
    params = FightParams(a, b, max_rounds=1, **options)
    return TunnelsFight().run(params, FaceReader((faces_a, faces_b))).rounds[0]


def test_T1_characteristics_are_uniform_on_two_three_four() -> None:
    """T-1: six characteristics, each 2, 3 or 4 with one chance in three."""
    assert [characters.trait_from_face(f) for f in range(1, 7)] == [2, 2, 3, 3, 4, 4]
    counts: Counter[int] = Counter()
    source = SeededDice(11)
    for _ in range(300):
        sheet = characters.create("X", source)
        assert list(sheet.characteristics) == [
            "Force",
            "Dextérité",
            "Constitution",
            "Volonté",
            "Intelligence",
            "Charisme",
        ]
        counts.update(sheet.characteristics.values())
    assert set(counts) == {2, 3, 4}
    assert all(500 < counts[v] < 700 for v in (2, 3, 4))


ARIA = {
    "Force": 2,
    "Dextérité": 3,
    "Constitution": 4,
    "Volonté": 2,
    "Intelligence": 3,
    "Charisme": 4,
}
"""Aria's characteristics, made from the typed dice 1, 3, 5, 2, 4, 6 (T-1)."""


def test_T1_creation_from_typed_dice() -> None:
    sheet = characters.create("Aria", PhysicalDice((1, 3, 5, 2, 4, 6)))
    assert sheet.characteristics == ARIA


def test_T2_derived_statistics_follow_the_formulas() -> None:
    """T-2: Endurance = Force + Constitution, Mana = Intelligence + Volonté, Chance = Charisme."""
    sheet = characters.create("Aria", PhysicalDice((1, 3, 5, 2, 4, 6)))
    assert (sheet.endurance.max, sheet.mana.max, sheet.chance.max) == (6, 5, 4)
    assert parse_formula("2*Force - 1") == ((2, "Force"), (-1, None))


def test_T2_formulas_are_data_a_user_file_overrides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T-2: the formulas come from data/derived.toml, which a user file overrides."""
    from meneur.systems.tunnels import data

    with user_data_folder(tmp_path, monkeypatch, "tunnels", (data.derived,)) as write:
        write("derived", FORMULAS.format('"2*Constitution"', '"Intelligence"', '"1"'))
        sheet = characters.create("B", PhysicalDice((1, 3, 5, 2, 4, 6)))
        assert (sheet.endurance.max, sheet.mana.max, sheet.chance.max) == (8, 3, 1)
        write("derived", '[formulas]\nEndurance = "Bogus"\n')
        with pytest.raises(SheetError):
            characters.create("C", PhysicalDice((1, 3, 5, 2, 4, 6)))


FORMULAS = "[formulas]\nEndurance = {}\nMana = {}\nChance = {}\n"
"""A user's derived.toml (T-2), its three formulas to fill."""


def test_T3_trait_names_and_levels_match_without_accents() -> None:
    assert find_trait("dexterite") == "Dextérité"
    assert find_trait(" DEXTÉRITÉ ") == "Dextérité"
    assert threshold_of("moyenne") == (2, False)
    assert threshold_of("Tres difficile") == (4, True)
    with pytest.raises(SheetError):
        find_trait("agilité")


def test_sheet_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "aria.json"
    sheet = characters.create("Aria", SeededDice(1))
    characters.save(path, sheet)
    assert characters.load(path) == sheet
    path.write_text('{"name": "x"}', encoding="utf-8")
    with pytest.raises(SheetError):
        characters.load(path)


def test_T10_seed_orc_loses_one_mr_and_rolls_two_dice_next_round() -> None:
    """T-10: 1-1-4-6 vs 2-3-5: the orc goes from MR 3 to MR 2, then rolls 2 dice."""
    hero = character("Guerrier", 4, 8)
    orc = monster("Orc", 3)
    result = play(
        hero,
        orc,
        [PhysicalDice((1, 1, 4, 6, 4, 5, 6, 2)), PhysicalDice((2, 3, 5, 1, 2))],
        explode="never",
    )
    first, second = result.rounds
    assert (first.outcome.a.successes, first.outcome.b.successes, first.outcome.margin) == (2, 1, 1)
    assert first.b.dice == 2 and first.b_dice == 3
    assert second.b_dice == 2 and second.outcome.b.batches == ((1, 2),)
    assert result.b.dice == 0 and result.b.down and result.winner == "a"


def test_T10_option_loser_loses_one_point() -> None:
    """T-10 option: the loser loses 1 point whatever the margin."""
    hero, orc = character("G", 4, 8), monster("Orc", 3)
    first = one_round(
        hero, orc, (4, 5, 6, 2), (1, 2, 3), explode="never", vs_explode="never", loss="one"
    )
    assert first.outcome.margin == 3 and first.lost == 1 and first.b.dice == 2


def test_T11_endurance_zero_wounds_then_kills() -> None:
    """T-11: Endurance at 0 -> wounded with full Endurance back; at 0 again -> dead."""
    hero = character("G", 2, 3)
    hurt = hero.hurt(2)
    assert (hurt.endurance, hurt.wounded, hurt.dead) == (1, False, False)
    wounded = hurt.hurt(5)
    assert (wounded.endurance, wounded.wounded, wounded.dead) == (3, True, False)
    dead = wounded.hurt(3)
    assert dead.dead and dead.down


def test_T11_a_fight_to_the_death() -> None:
    """T-11: against a strong monster the character is wounded, then dies."""
    result = play(character("G", 1, 1), monster("Troll", 6), [SeededDice(3)], explode="never")
    assert result.winner == "b" and result.a.dead and result.a.wounded
    assert any(r.a.wounded and not r.a.dead for r in result.rounds)


def test_T10_fight_between_two_characters_and_typed_dice_running_short() -> None:
    result = play(character("A", 3, 4), character("B", 3, 4), [SeededDice(5)])
    assert result.winner in ("a", "b")
    with pytest.raises(DiceSourceError):
        play(character("A", 3, 4), monster("Orc", 3), [PhysicalDice((1, 2, 3)), PhysicalDice((1,))])


def _faces(*faces: int) -> Callable[[int], tuple[int, ...]]:
    """A reroll's faces, given in turn (a reader's ``take``)."""
    dice = PhysicalDice(faces)
    return lambda count: dice.roll(6, count)


def test_T12_chance_rerolls_the_lowest_failed_die() -> None:
    """T-12: 1 Chance rerolls one failed die (a 1 first); no new explosion."""
    params = TestParams(3, 2, explode="never")
    outcome = TunnelsTest().roll(params, [PhysicalDice((1, 3, 5))]).outcome
    assert not outcome.passed
    result = spend_chance(params, outcome, 2, _faces(6))
    assert result.spent == 1 and result.outcome.passed
    assert result.outcome.batches == ((6, 3, 5),)
    # option: one Chance rerolls every failed die
    result = spend_chance(params, outcome, 1, _faces(2, 2), all_failed=True)
    assert result.spent == 1 and result.outcome.batches == ((2, 2, 5),)


def test_T12_chance_undoes_a_critical_failure() -> None:
    params = TestParams(3, 1, explode="never")
    outcome = TunnelsTest().roll(params, [PhysicalDice((1, 1, 1))]).outcome
    assert outcome.critical
    result = spend_chance(params, outcome, 1, _faces(4))
    assert not result.outcome.critical and result.outcome.passed


def test_T12_a_test_with_chance_spent_is_one_procedure_read_from_one_stream() -> None:
    """T-12: the test's faces, then each reroll's, from one stream (``TunnelsChance``):
    what the roll log stores and replays. 1-5-4 fails at 3 (two successes); the 1 is
    rerolled: a 2 still fails (one Chance spent, none left), a 6 passes."""
    from meneur.systems.tunnels.chance import ChanceParams, TunnelsChance

    chance = TunnelsChance()
    spending = ChanceParams(TestParams(3, 3, explode="never"), 1)
    failed = chance.resolve(spending, ((1, 5, 4, 2),))
    assert (failed.first.successes, failed.outcome.successes, failed.spent) == (2, 2, 1)
    assert failed.changes == ((0, 0, 1, 2),) and not failed.outcome.passed
    passed = chance.resolve(spending, ((1, 5, 4, 6),))
    assert passed.outcome.passed and passed.outcome.batches == ((6, 5, 4),)
    assert chance.key(passed) == (3, False, False, 1)
    rolled = chance.roll(ChanceParams(TestParams(3, 3, explode="never"), 3), [SeededDice(2)])
    assert chance.resolve(rolled.params, rolled.faces) == rolled.outcome
    with pytest.raises(LimitError):
        ChanceParams(TestParams(3, 3), 101)
    with pytest.raises(RuleError):
        ChanceParams(TestParams(3, 3), -1)


def test_T12_no_chance_spent_leaves_the_test_as_rolled() -> None:
    """T-12: spending 0 Chance is allowed and changes nothing: 1-3-5 still fails at 2
    (one success), no die rerolled; a negative amount is refused."""
    params = TestParams(3, 2, explode="never")
    outcome = TunnelsTest().roll(params, [PhysicalDice((1, 3, 5))]).outcome
    result = spend_chance(params, outcome, 0, _faces())
    assert (result.spent, result.changes, result.outcome) == (0, (), outcome)
    with pytest.raises(RuleError):
        spend_chance(params, outcome, -1, _faces())


def test_T12_chance_params_take_whole_numbers_from_zero_to_the_limit() -> None:
    """T-12: a roll spends 0 to 100 Chance (MAX_CHANCE_SPENT), a whole number; the
    params, once checked, cannot be changed; by default one Chance rerolls one die."""
    from dataclasses import FrozenInstanceError

    from meneur.systems.tunnels.chance import ChanceParams

    test = TestParams(3, 3)
    assert ChanceParams(test, 0).points == 0
    assert ChanceParams(test, 100).points == 100
    for points in (True, 1.5, "2"):
        with pytest.raises(RuleError):
            ChanceParams(test, points)  # type: ignore[arg-type]
    spending = ChanceParams(test, 1)
    assert spending.all_failed is False
    with pytest.raises(FrozenInstanceError):
        spending.points = 101  # type: ignore[misc]


def test_T12_by_default_one_chance_rerolls_one_failed_die_in_one_procedure() -> None:
    """T-12 (default, not the option): 1-2-5 at 3 has two failed dice; one Chance
    rerolls the 1 only (to a 4): 4-2-5, two successes, still failing."""
    from meneur.systems.tunnels.chance import ChanceParams, TunnelsChance

    spent = TunnelsChance().resolve(
        ChanceParams(TestParams(3, 3, explode="never"), 1), ((1, 2, 5, 4),)
    )
    assert spent.changes == ((0, 0, 1, 4),)
    assert (spent.outcome.batches, spent.outcome.successes, spent.outcome.passed) == (
        ((4, 2, 5),),
        2,
        False,
    )


def test_T12_a_reroll_refuses_a_place_outside_the_test() -> None:
    """T-12: the die to reroll must be one of the last test's: 1-3-5 is one batch of
    three dice, so batch 1 and die 3 of batch 0 do not exist."""
    from meneur.systems.tunnels.chance import reroll

    params = TestParams(3, 2, explode="never")
    outcome = TunnelsTest().roll(params, [PhysicalDice((1, 3, 5))]).outcome
    for place in ((1, 0), (0, 3)):
        with pytest.raises(RuleError):
            reroll(params, outcome, [place], _faces(6))


def test_T12_a_chance_roll_reads_d6_faces() -> None:
    """T-3, T-12: the test and its rerolls are d6: a typed 7 is refused."""
    from meneur.systems.tunnels.chance import ChanceParams, TunnelsChance

    spending = ChanceParams(TestParams(3, 3, explode="never"), 1)
    with pytest.raises(DiceSourceError):
        TunnelsChance().roll(spending, [PhysicalDice((1, 5, 7, 6))])


def test_T13_spells_are_data_and_mana_never_below_zero() -> None:
    """T-13: a spell costs Mana; the pool is tracked and never goes below 0."""
    sheet = characters.create("Aria", PhysicalDice((1, 3, 5, 2, 4, 6)))  # Mana 5
    spell = find_spell("boule de feu")
    assert (spell.cost, spell.trait, spell.threshold) == (3, "Intelligence", 3)
    after = spend_mana(sheet, spell)
    assert after.mana.current == 2
    with pytest.raises(RuleError):
        spend_mana(after, spell)
    with pytest.raises(SheetError):
        find_spell("abracadabra")


def test_T10_T11_exact_fight_odds_by_hand() -> None:
    """T-10/T-11: 1 die, Endurance 1 against MR 1 (never exploding) wins with 3/4.

    Each round: a wins 1/4 (MR 0), b wins 1/4 (wounded, Endurance back), tie 1/2.
    Wounded: p1 = (1/4) / (1/2) = 1/2; unhurt: p0 = (1/4 + 1/4 * p1) / (1/2) = 3/4.
    """
    from fractions import Fraction

    from meneur.systems.tunnels.combat_odds import p_win_against_monster

    assert p_win_against_monster(1, 1, 1, explode="never") == Fraction(3, 4)
    assert p_win_against_monster(1, 1, 1, wounded=True, explode="never") == Fraction(1, 2)


def _fight_by_linear_system(
    force: int,
    endurance: int,
    mr: int,
    *,
    full: int,
    wounded: bool,
    damage: int,
    absorb: int,
    sides: dict[str, Any],
) -> Any:
    """T-10/T-11 by another road: one linear equation per state (MR left, Endurance
    left, wounded), ties and exchanges that change nothing kept as the state's own
    term, solved by Gaussian elimination over ``Fraction``."""
    from fractions import Fraction

    from meneur.systems.tunnels.combat import loss_points
    from meneur.systems.tunnels.odds import winner_odds
    from meneur.systems.tunnels.rules import OpposedParams, Side

    states = [(m, e, h) for m in range(1, mr + 1) for e in range(1, full + 1) for h in (0, 1)]
    index = {state: i for i, state in enumerate(states)}
    rows = [[Fraction(0)] * (len(states) + 1) for _ in states]
    for (m, e, h), i in index.items():
        rows[i][i] += 1
        law = winner_odds(
            OpposedParams(
                Side(force, sides["blessed"], sides["cursed"], sides["explode"]),
                Side(m, sides["vs_blessed"], sides["vs_cursed"], sides["vs_explode"]),
            )
        )
        for (winner, margin), weight in law.items():
            p = Fraction(weight, law.total)
            ours = winner == "a"
            lost = (
                0
                if winner is None
                else loss_points(margin, "margin", *((damage, 0) if ours else (0, absorb)))
            )
            if lost == 0:
                nxt: tuple[int, int, int] | None = (m, e, h)
            elif ours:
                nxt = (m - lost, e, h) if m > lost else None
                if nxt is None:
                    rows[i][-1] += p  # the monster falls: worth 1
                    continue
            elif e > lost:
                nxt = (m, e - lost, h)
            elif not h:
                nxt = (m, full, 1)
            else:
                continue  # dead: worth 0
            rows[i][index[nxt]] -= p
    for col in range(len(states)):  # Gauss-Jordan
        pivot = next(r for r in range(col, len(states)) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(len(states)):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return rows[index[(mr, endurance, int(wounded))]][-1]


PLAIN = {
    "blessed": False,
    "cursed": False,
    "explode": "needed",
    "vs_blessed": False,
    "vs_cursed": False,
    "vs_explode": "needed",
}


@pytest.mark.parametrize(
    ("force", "endurance", "full", "wounded", "mr", "damage", "absorb", "sides"),
    [
        (2, 3, 3, False, 3, 0, 0, PLAIN),
        (3, 2, 2, False, 4, 1, 0, PLAIN),
        (2, 4, 4, False, 2, 0, 1, PLAIN),
        (2, 2, 5, False, 3, 0, 0, PLAIN),
        (3, 3, 4, True, 3, 0, 0, PLAIN),
        (2, 3, 3, False, 3, 0, 0, {**PLAIN, "blessed": True, "vs_explode": "always"}),
        (3, 2, 3, False, 3, 0, 0, {**PLAIN, "explode": "never", "vs_cursed": True}),
    ],
)
def test_T10_T11_fight_odds_equal_a_linear_system_solved_exactly(
    force: int,
    endurance: int,
    full: int,
    wounded: bool,
    mr: int,
    damage: int,
    absorb: int,
    sides: dict[str, Any],
) -> None:
    """T-10/T-11: the exact value (integers over a common denominator) equals the fight's
    Markov chain solved as a linear system in ``Fraction``: wounds, an Endurance below
    its maximum, a character already wounded, a weapon and armour, each side's mode and
    explosion policy (T-4, T-6)."""
    from meneur.systems.tunnels.combat_odds import p_win_against_monster

    exact = p_win_against_monster(
        force,
        endurance,
        mr,
        wounded=wounded,
        max_endurance=full,
        damage=damage,
        absorb=absorb,
        **sides,
    )
    reference = _fight_by_linear_system(
        force,
        endurance,
        mr,
        full=full,
        wounded=wounded,
        damage=damage,
        absorb=absorb,
        sides=sides,
    )
    assert exact == reference
    assert 0 < exact < 1


def test_T10_T11_fight_odds_agree_with_simulated_fights() -> None:
    """T-10/T-11: exact melee odds against 3000 seeded fights, within 4 standard errors."""
    from meneur.odds.montecarlo import agrees
    from meneur.systems.tunnels.combat_odds import p_win_against_monster

    exact = p_win_against_monster(2, 2, 3, explode="needed")
    source = SeededDice(99)
    n = 3000
    wins = sum(
        play(character("G", 2, 2), monster("M", 3), [source]).winner == "a" for _ in range(n)
    )
    assert agrees(exact, wins, n, sigmas=4.0), (float(exact), wins / n)


def test_T10_weapons_and_armour_are_data_modifiers() -> None:
    """T-10: a weapon adds to the loss it deals, armour absorbs from the loss taken."""
    from meneur.systems.tunnels.combat import loss_points
    from meneur.systems.tunnels.data import find_armour, find_weapon

    assert find_weapon("epee").damage == 1 and find_armour("mailles").absorb == 2
    assert loss_points(2, "margin", 1, 0) == 3
    assert loss_points(1, "margin", 0, 2) == 0
    assert loss_points(3, "one", 0, 0) == 1
    hero = character("G", 4, 8, damage=1)
    orc = monster("Orc", 3, absorb=1)
    first = one_round(hero, orc, (1, 1, 4, 6), (2, 3, 5), explode="never", vs_explode="never")
    assert first.lost == 1 and first.b.dice == 2  # margin 1 + épée 1 - cuir 1


def test_T10_fight_odds_past_the_whole_walk_agree_with_simulated_fights() -> None:
    """T-10 with ``needed`` sides past the whole law's bound (14 a side): 16 dice against
    MR 16 reads each round's margins from the walk without the three 6s
    (``winner_odds``); the exact chance agrees with 2000 seeded fights played by the
    rules (within 4 standard errors)."""
    from meneur.odds.montecarlo import agrees
    from meneur.systems.tunnels.combat_odds import p_win_against_monster
    from meneur.systems.tunnels.odds import MAX_OPPOSED_ODDS_DICE

    dice = MAX_OPPOSED_ODDS_DICE + 2
    exact = p_win_against_monster(dice, 3, dice)
    assert Fraction(1, 10) < exact < Fraction(9, 10)
    source = SeededDice(16)
    n = 2000
    wins = sum(
        play(character("G", dice, 3), monster("M", dice), [source]).winner == "a" for _ in range(n)
    )
    assert agrees(exact, wins, n, sigmas=4.0), (float(exact), wins / n)


def test_T10_fight_odds_with_gear_agree_with_simulated_fights() -> None:
    """T-10: exact odds with a weapon and armour against 3000 seeded fights."""
    from meneur.odds.montecarlo import agrees
    from meneur.systems.tunnels.combat_odds import p_win_against_monster

    exact = p_win_against_monster(2, 3, 3, damage=1, absorb=1)
    source = SeededDice(5)
    n = 3000
    wins = sum(
        play(character("G", 2, 3, damage=1, absorb=1), monster("M", 3), [source]).winner == "a"
        for _ in range(n)
    )
    assert agrees(exact, wins, n, sigmas=4.0), (float(exact), wins / n)


def test_T10_a_fight_that_cannot_end_is_an_error() -> None:
    from meneur.systems.tunnels.combat_odds import p_win_against_monster

    with pytest.raises(RuleError):
        p_win_against_monster(1, 1, 1, explode="never", absorb=5, vs_absorb=5)


def test_T10_fight_odds_past_the_needed_bound_when_sides_are_independent() -> None:
    """T-9/T-10: with ``never`` the sides ignore each other, so a fight of 32 dice
    against MR 5 has exact odds (the round's law is the product of both laws); with
    ``needed`` on both sides the margins are read from the trajectories up to
    ``MAX_CHASED_MARGIN_DICE`` a side; a ``needed`` character against an ``always``
    monster walks the joint state, up to ``MAX_MARGIN_DICE`` a side or 30 against
    ``MAX_MARGIN_SMALL_SIDE`` (each edge: in, then out)."""
    from meneur.errors import LimitError
    from meneur.systems.tunnels.combat_odds import p_win_against_monster
    from meneur.systems.tunnels.odds import (
        MAX_CHASED_MARGIN_DICE,
        MAX_MARGIN_DICE,
        MAX_MARGIN_SMALL_SIDE,
        MAX_OPPOSED_WIDE_DICE,
    )

    top = MAX_CHASED_MARGIN_DICE
    assert 0 < p_win_against_monster(top + 2, 1, 5, explode="never") < 1
    with pytest.raises(LimitError, match=f"{top}"):
        p_win_against_monster(top + 1, 1, 1, explode="needed")
    with pytest.raises(LimitError, match=f"{top}"):
        p_win_against_monster(2, 1, top + 1, explode="needed")
    # the rounds' margins at the bound itself: 30 against MR 1, and a small side
    # against a large one: Force 4 against MR 30 (T-10: the monster's dice)
    assert 0 < p_win_against_monster(top, 1, 1, explode="needed") < 1
    assert 0 < p_win_against_monster(4, 1, top, explode="needed") < 1
    always = {"explode": "needed", "vs_explode": "always"}
    with pytest.raises(LimitError, match=f"{MAX_MARGIN_DICE}.*{MAX_MARGIN_SMALL_SIDE}"):
        p_win_against_monster(MAX_MARGIN_DICE + 2, 1, MAX_MARGIN_SMALL_SIDE + 1, **always)
    with pytest.raises(LimitError):
        p_win_against_monster(2, 1, MAX_OPPOSED_WIDE_DICE + 1, **always)


def test_T10_option_one_point_reads_only_who_wins() -> None:
    """T-10's option: the loser loses one point whatever the margin, so a round's law is
    who wins (T-9); read without the lead's law, it equals the lead's law read point by
    point, with gear (a weapon, armour that absorbs it all), for ``needed`` sides,
    ``never`` ones and a ``needed`` side against an ``always`` monster."""
    from meneur.systems.tunnels.combat import loss_points
    from meneur.systems.tunnels.combat_odds import round_moves
    from meneur.systems.tunnels.odds import winner_odds
    from meneur.systems.tunnels.rules import OpposedParams, Side

    for a, b, gear in (
        (Side(6), Side(4), (0, 0, 0, 0)),
        (Side(5, blessed=True), Side(7), (1, 0, 0, 2)),
        (Side(4, explode="never"), Side(5, explode="never"), (0, 1, 1, 0)),
        (Side(3), Side(4, explode="always"), (0, 0, 0, 0)),
    ):
        moves = round_moves(a, b, "one", gear)
        damage, absorb, vs_damage, vs_absorb = gear
        hits: dict[int, int] = {}
        wounds: dict[int, int] = {}
        still = 0
        law = winner_odds(OpposedParams(a, b))
        for (winner, margin), weight in law.items():
            lost = (
                0
                if winner is None
                else loss_points(
                    margin, "one", *((damage, vs_absorb) if winner == "a" else (vs_damage, absorb))
                )
            )
            if lost == 0:
                still += weight
            else:
                into = hits if winner == "a" else wounds
                into[lost] = into.get(lost, 0) + weight

        def share(weights: Any, total: int) -> list[tuple[int, Fraction]]:
            return [(lost, Fraction(weight, total)) for lost, weight in weights]

        assert share(moves.hits, moves.total) == share(sorted(hits.items()), law.total)
        assert share(moves.wounds, moves.total) == share(sorted(wounds.items()), law.total)
        assert Fraction(moves.still, moves.total) == Fraction(still, law.total)


def test_T10_option_one_point_fights_past_the_needed_bound_agree_with_simulated_fights() -> None:
    """T-10's option ``one`` with ``needed`` sides (the default): exact fight odds past the
    joint walk's bound (22 dice against MR 22): who wins alone; they agree with 2000
    seeded fights played by the rules (within 4 standard errors)."""
    from meneur.odds.montecarlo import agrees
    from meneur.systems.tunnels.combat_odds import p_win_against_monster
    from meneur.systems.tunnels.odds import MAX_MARGIN_DICE

    dice = MAX_MARGIN_DICE + 2
    exact = p_win_against_monster(dice, 6, dice, loss="one")
    assert 0 < exact < 1
    source = SeededDice(21)
    n = 2000
    wins = sum(
        fight(FightParams(character("G", dice, 6), monster("M", dice), loss="one"), [source]).winner
        == "a"
        for _ in range(n)
    )
    assert agrees(exact, wins, n, sigmas=4.0), (float(exact), wins / n)


def test_T10_T11_fight_odds_endurance_bound_at_its_edge() -> None:
    """T-10/T-11: exact fight odds take an Endurance (or a maximum) up to
    ``MAX_FIGHT_ENDURANCE`` (60), one more is refused. At the edge, 1 die against MR 1,
    neither exploding: a round is a's win 1/4, b's 1/4, a tie 1/2, each loss 1 point, so
    a loses only if b wins the first 120 rounds that are not ties (60 unhurt, 60
    wounded): 1 - 2**-120, by hand."""
    from meneur.systems.tunnels.combat_odds import MAX_FIGHT_ENDURANCE, p_win_against_monster

    assert MAX_FIGHT_ENDURANCE == 60
    exact = p_win_against_monster(1, 60, 1, explode="never")
    assert exact == 1 - Fraction(1, 2**120)
    with pytest.raises(LimitError, match="60"):
        p_win_against_monster(1, 61, 1, explode="never")
    with pytest.raises(LimitError, match="60"):
        p_win_against_monster(1, 1, 1, max_endurance=61, explode="never")


def test_T10_option_one_point_is_exact_past_the_margins_bound() -> None:
    """T-10's option ``one``: a round needs who wins, not the margins, so a fight is
    exact past ``MAX_CHASED_MARGIN_DICE`` where the margins are refused. Force 31 that
    never explodes against MR 1 that plays ``needed`` (one die: it never explodes): a's
    law by enumeration of (1s, successes) over the multinomial (T-3, T-8: three 1s lose),
    b's die succeeds half the time. Endurance 1 against MR 1: a wins at its first won
    round; b's first win wounds (T-11), its second kills: p = q (1 + (1 - q)), q = a's
    share of the rounds that are not ties."""
    from math import factorial

    from meneur.systems.tunnels.combat_odds import p_win_against_monster
    from meneur.systems.tunnels.odds import MAX_CHASED_MARGIN_DICE

    n = MAX_CHASED_MARGIN_DICE + 1
    half = Fraction(1, 2)
    win = lose = Fraction(0)
    for ones in range(n + 1):
        for successes in range(n + 1 - ones):
            others = n - ones - successes
            ways = factorial(n) // (factorial(ones) * factorial(successes) * factorial(others))
            p = ways * Fraction(1, 6) ** ones * half**successes * Fraction(1, 3) ** others
            if ones >= 3:
                lose += p
                continue
            win += p * half * ((successes > 0) + (successes > 1))
            lose += p * half * (successes == 0)
    q = win / (win + lose)
    sides: dict[str, Any] = {"explode": "never", "vs_explode": "needed"}
    assert p_win_against_monster(n, 1, 1, loss="one", **sides) == q * (2 - q)
    with pytest.raises(LimitError, match=f"{MAX_CHASED_MARGIN_DICE}"):
        p_win_against_monster(n, 1, 1, **sides)


@pytest.mark.parametrize(
    ("endurance", "full", "wounded", "steps"),
    [(2, 4, False, 3 + 3 * (4 + 2)), (2, 4, True, 3 + 3 * 4), (3, None, False, 3 + 3 * (3 + 3))],
)
def test_T10_T11_fight_odds_progress_counts_the_fight_steps(
    endurance: int, full: int | None, wounded: bool, steps: int
) -> None:
    """T-10/T-11: the exact fight's progress (a bar in the CLI) advances by one per
    round's law (one per MR) and per state valued (MR x (full Endurance wounded, plus
    the Endurance unhurt unless already wounded)); ``fight_steps`` announces that total
    (by hand: MR 3)."""
    from meneur.systems.tunnels.combat_odds import fight_steps, p_win_against_monster

    calls: list[int] = []
    p_win_against_monster(
        2, endurance, 3, wounded=wounded, max_endurance=full, progress=calls.append
    )
    assert calls == [1] * steps
    assert fight_steps(endurance, 3, wounded=wounded, max_endurance=full) == steps


def test_T10_T11_fighters_and_fights_within_their_documented_bounds() -> None:
    """T-10/T-11 (docs/tunnels.md, docs/lab.md): a Force or a Monster Rating up to 60 dice,
    an Endurance up to 10,000, a fight up to 1,000 rounds; one more is refused, and so
    are an Endurance or a Monster Rating of 0 to start with, and a boolean for rounds."""
    hero, orc = character("G", 60, 10_000), monster("M", 60)
    assert FightParams(hero, orc, max_rounds=1000).max_rounds == 1000
    refused = (
        lambda: character("G", 61, 3),
        lambda: character("G", 0, 3),
        lambda: character("G", 2, 10_001),
        lambda: character("G", 2, 0),
        lambda: monster("M", 61),
        lambda: monster("M", 0),
        lambda: Fighter("M", -1, monster=True),
        lambda: Fighter("G", 2, endurance=4, max_endurance=3),
        lambda: Fighter("G", 2, endurance=-1, max_endurance=3),
        lambda: FightParams(hero, 2),  # type: ignore[arg-type]
    )
    for build in refused:
        with pytest.raises(RuleError):
            build()
    for rounds in (0, 1001, True):
        with pytest.raises(LimitError):
            FightParams(hero, orc, max_rounds=rounds)


def test_T10_a_fighter_without_gear_deals_and_takes_the_bare_margin() -> None:
    """T-10: gear is optional data; a fighter built without it (as the CLI builds one from a
    sheet, the web table from its tracker) deals and takes the margin alone, and a monster
    is neither wounded nor dead until its MR falls (the fight's key says so)."""
    hero, orc = Fighter("G", 4, 8, 8), Fighter("Orc", 3, monster=True)
    first = one_round(hero, orc, (1, 1, 4, 6), (2, 3, 5), explode="never", vs_explode="never")
    assert first.lost == 1 and first.b.dice == 2
    lost = one_round(hero, orc, (1, 2, 3, 2), (4, 5, 6), explode="never", vs_explode="never")
    assert lost.lost == 3 and lost.a.endurance == 5
    params = FightParams(hero, Fighter("Orc", 1, monster=True), explode="never", vs_explode="never")
    won = TunnelsFight().run(params, FaceReader(((4, 5, 6, 1), (2,))))
    assert TunnelsFight().key(won) == ("a", 1, False, False, False, False)
    assert won.finished and won.winner == "a"


def test_T10_a_monster_never_falls_below_mr_zero() -> None:
    """T-10: a loss larger than the Monster Rating leaves it at MR 0, defeated; MR 1 stands."""
    orc = monster("Orc", 2)
    assert orc.hurt(5).dice == 0 and orc.hurt(5).down
    assert orc.hurt(5).state_json() == {"name": "Orc", "mr": 0}
    assert orc.hurt(1).dice == 1 and not orc.hurt(1).down
    assert orc.hurt(0) == orc


def test_T11_endurance_reaching_exactly_zero_wounds_and_the_dead_keep_none() -> None:
    """T-11: Endurance reaching 0 exactly wounds (all of it back); at 0 again: dead, 0 left."""
    hero = character("G", 2, 3)
    assert hero.hurt(0) == hero
    wounded = hero.hurt(3)
    assert (wounded.endurance, wounded.wounded, wounded.dead) == (3, True, False)
    dead = wounded.hurt(3)
    assert (dead.endurance, dead.wounded, dead.dead) == (0, True, True)
    assert dead.state_json() == {"name": "G", "endurance": 0, "wounded": True, "dead": True}


def test_T9_T10_a_tied_exchange_costs_nobody_anything() -> None:
    """T-9/T-10: equal successes: nobody wins the exchange, so nobody loses a point."""
    hero, orc = character("G", 2, 3), monster("Orc", 2)
    tie = one_round(hero, orc, (4, 2), (5, 1), explode="never", vs_explode="never")
    assert tie.outcome.winner is None and tie.lost == 0
    assert (tie.a, tie.b, tie.rerolled) == (hero, orc, False)


def test_T9_T10_a_tie_rolled_again_shows_under_the_round_it_replays() -> None:
    """T-9 option (``tie="reroll"``): a tie is rolled again and does not count; it shows
    under the number of the round it replays, marked ``rerolled`` in the JSON only."""
    params = FightParams(
        character("G", 2, 3), monster("Orc", 2), explode="never", vs_explode="never", tie="reroll"
    )
    rolled = TunnelsFight().roll(params, [PhysicalDice((4, 2, 5, 6)), PhysicalDice((5, 1, 1, 2))])
    result = rolled.outcome
    assert [(r.number, r.rerolled) for r in result.rounds] == [(1, True), (1, False)]
    assert result.counted == 1 and result.winner == "a"
    assert rolled.faces == ((4, 2, 5, 6), (5, 1, 1, 2))
    data = fight_json(result)
    assert data["rounds"][0]["rerolled"] is True and "rerolled" not in data["rounds"][1]


def _sheet(**changes: object) -> dict[str, Any]:
    """A valid Tunnels sheet as stored, changed by ``changes``."""
    base: dict[str, Any] = {
        "system": "tunnels",
        "name": "Aria",
        "characteristics": dict(ARIA),
        "endurance": {"current": 6, "max": 6},
        "mana": {"current": 5, "max": 5},
        "chance": {"current": 4, "max": 4},
    }
    return {**base, **changes}


def test_T1_a_face_off_the_d6_makes_no_characteristic() -> None:
    """T-1: a characteristic is read from a d6 face: 0 and 7 are refused, not read as 1
    or 5 (outside {2, 3, 4})."""
    for face in (0, 7):
        with pytest.raises(RuleError):
            characters.trait_from_face(face)


def test_T2_derived_statistics_never_go_below_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T-2, T-11: Mana and Chance are at least 0 (characteristics of 0 give 0, not 1);
    Endurance at least 1, since 0 is the wound of T-11: a user formula that gives less
    is refused (it made a character born at Endurance 0, or a negative maximum)."""
    from meneur.systems.tunnels import data

    low = dict.fromkeys(data.TRAITS, 0) | {"Force": 1}
    assert characters.derive(low) == {"Endurance": 1, "Mana": 0, "Chance": 0}
    with pytest.raises(SheetError, match="une Endurance de 0 "):
        characters.derive(dict.fromkeys(data.TRAITS, 0))
    with user_data_folder(tmp_path, monkeypatch, "tunnels", (data.derived,)) as write:
        write("derived", FORMULAS.format('"Force - 5"', '"Intelligence"', '"Charisme"'))
        with pytest.raises(SheetError, match="Force - 5"):
            characters.create("B", PhysicalDice((1, 3, 5, 2, 4, 6)))


@pytest.mark.parametrize(
    "pool",
    [{"current": 0, "max": 0}, {"current": 10_000, "max": 10_000}, {"current": 0, "max": 10_000}],
)
def test_T2_a_statistic_from_0_to_10000_loads(pool: dict[str, int]) -> None:
    """T-2: Endurance, Mana and Chance lie from 0 to 10,000 (the bounds of a fight's
    Endurance, T-10): both bounds load, for the current value and the maximum."""
    sheet = characters.from_dict(_sheet(endurance=pool, mana=pool, chance=pool), "a.json")
    assert sheet.endurance.model_dump() == pool


@pytest.mark.parametrize(
    "pool",
    [
        {"current": -1, "max": 4},
        {"current": 0, "max": -1},
        {"current": 10_001, "max": 10_001},
        {"current": 0, "max": 10_001},
        {"current": 5, "max": 4},
    ],
)
def test_T2_a_statistic_past_its_bounds_is_refused(pool: dict[str, int]) -> None:
    """T-2/T-11: below 0, above 10,000, or a current value above the maximum: the sheet is
    refused, naming it."""
    with pytest.raises(SheetError):
        characters.from_dict(_sheet(mana=pool), "a.json")


def test_T1_a_sheet_without_a_name_is_refused() -> None:
    """T-1: a character has a name of 1 to 80 characters: an empty one is refused on
    loading, as ``character new`` refuses it."""
    with pytest.raises(SheetError):
        characters.from_dict(_sheet(name=""), "a.json")
    assert characters.from_dict(_sheet(name="A"), "a.json").name == "A"


@pytest.mark.parametrize(("score", "loads"), [(0, True), (100, True), (-1, False), (101, False)])
def test_T1_a_characteristic_on_a_sheet_lies_from_0_to_100(score: int, loads: bool) -> None:
    """T-1: a sheet's characteristic (2 to 4 at creation, raised in play) lies from 0 to
    100: both bounds load, one past either is refused."""
    raw = _sheet()
    raw["characteristics"] = {**raw["characteristics"], "Force": score}
    if loads:
        assert characters.from_dict(raw, "a.json").characteristics["Force"] == score
    else:
        with pytest.raises(SheetError):
            characters.from_dict(raw, "a.json")


def test_T1_creation_reads_one_stream_of_six_d6() -> None:
    """T-1: creation is one roll of six d6 on one stream (the roll log keeps it so, and
    replays it so): no second, empty stream."""
    rolled = characters.TunnelsCreation().roll(
        characters.CreationParams(), [PhysicalDice((1, 3, 5, 2, 4, 6))]
    )
    assert rolled.faces == ((1, 3, 5, 2, 4, 6),) and rolled.outcome == (2, 3, 4, 2, 3, 4)


def test_T1_a_new_character_s_name_has_1_to_80_characters() -> None:
    """T-1: ``character new`` takes a name of 1 to 80 characters, stripped: blank or 81
    characters is refused with the bound said (not a model's error)."""
    assert characters.check_name("  Aria ") == "Aria"
    assert characters.check_name("a" * 80) == "a" * 80
    for name in ("   ", "a" * 81):
        with pytest.raises(SheetError) as refused:
            characters.check_name(name)
        assert refused.value.params == {"limit": 80, "length": len(name.strip())}
