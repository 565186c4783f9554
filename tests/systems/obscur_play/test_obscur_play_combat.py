"""Obscur combat (O-11 to O-22): setup, split, damage, variants, reproducible fights."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from meneur.rng import make_source
from meneur.systems.base import Check, NeedMoreDice
from meneur.systems.obscur.combat import (
    Arm,
    Fighter,
    FightParams,
    RangedParams,
    action_rank,
    blow_damage,
    check_strategy,
    fighter_of,
    initiator,
    pa_malus,
    ranged_modifier,
    resolve_fight,
    resolve_shot,
    split,
)
from meneur.systems.obscur.gear import armoury
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.procedures import ObscurFight
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.state import Body
from obscur_melee_helpers import body, fighter, weapon

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"
ONES = (1,) * 80


def test_O13_damage_of_a_blow_example_of_the_issue() -> None:
    """O-13: MR 2 + Hargne 4 (medium) + 1 − armour 2 − Résistance 1 = 4; long, Hargne 3: +4."""
    medium = weapon("Moyennes", damage=1)
    assert blow_damage(2, medium, 4, protection=2, resistance=1) == 4
    long = weapon("Longues")
    assert long.hargne_bonus(3) == 4  # 3/2 of 3, rounded down
    assert weapon("Courtes").hargne_bonus(3) == 1
    assert weapon("Trait").hargne_bonus(5) == 0
    assert weapon("Feu").hargne_bonus(5) == 0
    assert weapon("Hast").hargne_bonus(4) == 6
    assert weapon("Projectiles lourds").hargne_bonus(3) == 3
    # never below 0
    assert blow_damage(0, weapon("Trait"), 3, protection=5, resistance=2) == 0


def test_O13_unknown_weapon_class_is_an_error() -> None:
    from meneur.errors import SheetError

    with pytest.raises(SheetError):
        armoury().weapon_class("Bazooka")


def test_O11_pa_ra_and_initiative_from_a_sheet() -> None:
    """O-11: PA = Gardien du feu + weapon Compétence; RA = Agilité − Initiative."""
    garance = fighter_of(load_character(EXAMPLES / "garance.toml"))
    assert garance.arms[0].pa.dice == 3 + 3
    assert action_rank(garance, garance.arms) == 3 - 1
    # bare hands: Hargne + Bagarre
    assert garance.unarmed.pa.dice == 3 + 1
    # moving points of Gardien du feu to the RA takes them out of the PA
    moved = Fighter(**{**garance.__dict__, "ra_points": 2})
    assert action_rank(moved, moved.arms) == 4
    # highest RA initiates; tie: Agilité; still tied: simultaneous
    assert initiator(3, 1, 0, 5) == "a"
    assert initiator(1, 1, 2, 3) == "b"
    assert initiator(1, 1, 2, 2) is None


def test_O11_moving_more_than_gardien_is_refused() -> None:
    from meneur.errors import RuleError

    with pytest.raises(RuleError):
        fighter("x", ra_points=3)


def test_O12_split_strategies() -> None:
    """O-12: the split is a choice; automatic fighters follow a named strategy."""
    b = body("x")
    assert split("equilibree", 5, b) == (3, 2)
    assert split("offensive", 5, b) == (4, 1)
    assert split("defensive", 5, b) == (2, 3)
    assert split("totale", 5, b) == (5, 0)
    assert split("attaque=2", 5, b) == (2, 3)
    assert split("attaque=9", 5, b) == (5, 0)
    hurt = Body("x", 4, 10)
    assert split("prudente", 8, hurt) == (2, 6)
    assert split("prudente", 8, b) == (4, 4)
    assert check_strategy("Équilibrée") == "equilibree"


def test_O12_O22_round_attack_against_parade_defense_and_shield() -> None:
    """O-12/O-22: both fighters split their dice; the defender's Parade = its Parade dice
    + the weapon's Défense + the shield's Protection; a hit has MR = the difference."""
    a = fighter("A", agility=3, strategy="attaque=2")
    b = fighter(
        "B",
        agility=1,
        arms=(Arm(weapon("Hast", initiative=2, defense=1), Dice(4)),),
        shield=2,
        strategy="attaque=3",
    )
    params = FightParams(a, b, body("A"), body("B"), max_rounds=1)
    # A: attack 6,6 (4 successes), zone die 2 (Torse), then its parade: ones.
    # B: parade of 1 + 1 + 2 = 4 dice: 1,1,1,4 (1 success), then Choc 1,1.
    out = resolve_fight(params, ((6, 6, 2, *ONES), (1, 1, 1, 4, 1, 1, *ONES)))
    record = out.rounds[0]
    assert record["initiator"] == "a"
    assert record["a"]["split"][0] | {} == {"weapon": "w", "pa": 4, "attack": 2, "parade": 2}
    assert record["b"]["split"][0]["attack"] == 3 and record["b"]["split"][0]["parade"] == 1
    strike = record["strikes"][0]
    assert strike["parade"]["dice"] == 4
    assert (strike["parade"]["parade_dice"], strike["parade"]["defense"]) == (1, 1)
    assert strike["parade"]["shield"] == 2
    assert strike["hit"] and strike["margin"] == 3
    assert strike["zone"] == "Torse"
    # damage: MR 3 + Hargne 2 (medium) + 1 − 0 − Résistance 1 = 5
    assert strike["damage"] == 5
    assert out.b["vie"] == 5
    # O-28: 5 HP lost: shock 3 (table provisoire), Choc test 1,1 reduces nothing;
    # B's 3 attack dice lose 3: no dice rolled, no hit
    assert strike["shock"]["malus"] == 3
    assert record["strikes"][1]["attack"]["dice"] == 0
    assert not record["strikes"][1]["hit"]


def test_O22_armour_of_the_zone_hit_reduces_damage() -> None:
    """O-22: only the armour covering the zone hit protects (hit-zone table provisoire)."""
    a = fighter("A", agility=3, strategy="totale")
    b = fighter("B", agility=1, armour={"Tête": 2}, strategy="totale")
    params = FightParams(a, b, body("A"), body("B"), max_rounds=1)
    head = resolve_fight(params, ((6, 6, 6, 6, 1, *ONES), ONES)).rounds[0]["strikes"][0]
    torso = resolve_fight(params, ((6, 6, 6, 6, 2, *ONES), ONES)).rounds[0]["strikes"][0]
    assert head["zone"] == "Tête" and torso["zone"] == "Torse"
    assert head["protection"] == 2 and torso["protection"] == 0
    assert torso["damage"] - head["damage"] == 2
    assert armoury().zones_file.provisional


def test_O16_two_weapons_each_pa_loses_3_and_parries_pool() -> None:
    """O-16: one PA per weapon, each −3 dice per extra weapon; parries pooled in one test."""
    two = (
        Arm(weapon("Moyennes", defense=1), Dice(6)),
        Arm(weapon("Courtes", defense=1), Dice(5)),
    )
    a = fighter("A", agility=4, arms=two, strategy="attaque=1")
    assert pa_malus(a, 2) == 3
    b = fighter("B", agility=1, strategy="defensive")
    params = FightParams(a, b, body("A"), body("B"), max_rounds=1)
    out = resolve_fight(params, (ONES, ONES))
    splits = out.rounds[0]["a"]["split"]
    assert [s["pa"] for s in splits] == [3, 2]
    # B attacks A: A's parade pools 2 + 1 parade dice, and both weapons' Défense
    parade = out.rounds[0]["strikes"][-1]["parade"]
    assert parade["parade_dice"] == 2 + 1 and parade["defense"] == 2
    # both of A's attacks meet the same Parade of B (rolled once)
    first, second = out.rounds[0]["strikes"][0], out.rounds[0]["strikes"][1]
    assert first["attacker"] == second["attacker"] == "a"
    assert first["parade"] is second["parade"]


def test_O17_outnumbered_by_three_loses_6_dice_and_parade_holds() -> None:
    """O-17: against three opponents, −6 dice (3 per opponent beyond the first)."""
    a = fighter("A", opponents=3, arms=(Arm(weapon("Moyennes"), Dice(9)),))
    assert pa_malus(a, 1) == 6
    params = FightParams(a, fighter("B", agility=1), body("A"), body("B"), max_rounds=1)
    out = resolve_fight(params, (ONES, ONES))
    assert out.rounds[0]["a"]["split"][0]["pa"] == 3
    assert fighter("C", opponents=1).opponents == 1


def test_O18_draw_difficulty_3_and_2_ra_lost() -> None:
    """O-18: drawing while fighting: Gardien du feu, difficulty 3; −2 RA next round."""
    # in a fight: round 1 bare-handed while drawing, round 2 armed with RA − 2
    a = fighter("A", agility=4, sheathed=True)
    params = FightParams(a, fighter("B", agility=0), body("A", 40), body("B", 40), max_rounds=2)
    out = resolve_fight(params, ((6, 6, *ONES), ONES))
    r1, r2 = out.rounds[0]["a"], out.rounds[1]["a"]
    assert r1["draw"]["drawn"] and r1["split"][0]["weapon"] == "Mains nues"
    assert r1["ra"] == 4 and r2["ra"] == 4 - 1 - 2 and r2["split"][0]["weapon"] == "w"
    assert r1["draw"]["difficulty"] == 3 and r1["draw"]["successes"] == 4
    # a failed draw (Gardien 2 showing 6, 1: 2 successes < 3) costs no RA: bare-handed
    # again, drawing again, the next rounds
    failed = resolve_fight(params, ((6, 1, *ONES), ONES))
    for side in (r["a"] for r in failed.rounds):
        assert side["draw"]["drawn"] is False and side["draw"]["difficulty"] == 3
        assert side["ra"] == 4 and side["split"][0]["weapon"] == "Mains nues"


def test_O19_disengage_breaks_the_combat_or_dodges() -> None:
    """O-19: RA from an Agilité test above the attacker's RA breaks the combat; else
    Hargne + Esquive against the Attack."""
    a = fighter("A", agility=2)  # RA 1
    b = fighter("B", agility=2, flee_at=10)
    params = FightParams(a, b, body("A"), body("B"))
    out = resolve_fight(params, (ONES, (6, 1, *ONES)))  # Agilité 2 dice: 2 successes > RA 1
    assert out.end == "disengaged" and out.winner == "a"
    assert out.rounds[0]["disengage"]["broken"]
    # not broken (0 successes); A attacks 2 dice: 4,4; B dodges 6,6: dodged
    out = resolve_fight(
        FightParams(a, b, body("A"), body("B"), max_rounds=1), ((4, 4, *ONES), (1, 1, 6, 6, *ONES))
    )
    strike = out.rounds[0]["strikes"][0]
    assert not out.rounds[0]["disengage"]["broken"] and not strike["hit"]
    # dodge fails: the blow lands
    out = resolve_fight(
        FightParams(a, b, body("A"), body("B"), max_rounds=1),
        ((6, 6, 3, *ONES), (1, 1, 1, 1, *ONES)),
    )
    assert out.rounds[0]["strikes"][0]["hit"] and out.b["vie"] < 10


def test_O20_impress_margin_is_a_malus_for_the_whole_fight() -> None:
    """O-20: Prestance + Intimidation, difficulty = the opponent's Sang-froid; the MR is a
    dice malus for the opponent for the whole fight."""
    a = fighter("A", agility=3)
    b = fighter("B", agility=1, sang_froid=1)
    params = FightParams(a, b, body("A", 50), body("B", 50), impress=("a",), max_rounds=2)
    out = resolve_fight(params, ((6, 6, 1, *ONES), ONES))  # 4 successes, difficulty 1: MR 3
    assert out.opening[0]["malus"] == 3 and out.opening[0]["test"]["difficulty"] == 1
    assert out.rounds[0]["b"]["malus"] == 3 and out.rounds[1]["b"]["malus"] == 3


def test_O14_O15_O21_ranged_attacks() -> None:
    """O-14 passive target: PA less speed/cover/distance (table provisoire), difficulty 1.
    O-15 active target: its dodge successes are the difficulty (at least 1). O-21 aim."""
    bow = weapon("Trait", damage=2)
    assert ranged_modifier("course", "partielle", "longue") == 5
    shot = resolve_shot(RangedParams(Dice(6), 3, bow, distance="longue"), ((6, 1, 1, 1),))
    assert shot["attack"]["dice"] == 4 and shot["difficulty"] == 1
    assert shot["hit"] and shot["damage"] == 1 + 0 + 2
    dodge = RangedParams(Dice(4), 2, bow, dodge=Dice(3))
    shot = resolve_shot(dodge, ((6, 6, 1, 1), (4, 5, 1)))
    assert shot["difficulty"] == 2 and shot["damage"] == 2 + 2
    none = resolve_shot(dodge, ((4, 1, 1, 1), (1, 1, 1)))
    assert none["difficulty"] == 1 and none["hit"]
    # O-21: two rounds aiming: +2 dice
    aimed = resolve_shot(RangedParams(Dice(4), 2, bow, aim_rounds=2), ((1,) * 6,))
    assert aimed["attack"]["dice"] == 6
    # O-21: only Gardien du feu rolled (2 dice); on success the 4 unrolled dice add damage
    sniper = resolve_shot(RangedParams(Dice(6), 2, bow, gardien_only=True), ((4, 1),))
    assert sniper["attack"]["dice"] == 2 and sniper["aimed_bonus"] == 4
    assert sniper["damage"] == 0 + 2 + 4


def run_fight(params: FightParams, seed: int) -> tuple[object, tuple[tuple[int, ...], ...]]:
    source = make_source(seed=seed)
    rolled = ObscurFight().roll(params, [source, source])
    return rolled.outcome, rolled.faces


def test_O12_fight_is_reproducible_and_replays_from_its_faces() -> None:
    """A fight between two sheets with a seed is reproducible; its faces replay it."""
    a = load_character(EXAMPLES / "garance.toml")
    b = load_character(EXAMPLES / "corbeau.toml")
    from meneur.systems.obscur.state import body_of

    params = FightParams(fighter_of(a), fighter_of(b), body_of(a), body_of(b))
    first, faces = run_fight(params, 11)
    second, faces2 = run_fight(params, 11)
    assert first == second and faces == faces2
    assert resolve_fight(params, faces) == first
    with pytest.raises(NeedMoreDice):
        resolve_fight(params, (faces[0][:-1], faces[1]))


def test_O31_fight_ends_in_coma_and_a_comatose_fighter_is_refused() -> None:
    from meneur.errors import RuleError

    a = fighter("A", agility=3, strategy="totale")
    b = fighter("B", agility=1, strategy="totale")
    out = resolve_fight(
        FightParams(a, b, body("A"), Body("B", 2, 10)), ((6, 6, 6, 6, 2, *ONES), ONES)
    )
    assert out.end == "coma" and out.winner == "a" and out.b["status"] == "coma"
    with pytest.raises(RuleError):
        FightParams(a, b, body("A"), Body("B", -1, 10))
    assert Fraction(1, 2) == armoury().unarmed().hargne_share


def test_O13_strike_check_exact_odds_against_icepool() -> None:
    """O-12/O-13/O-22: one blow's exact damage distribution, checked by an independent
    icepool computation (the conformance suite also checks it against brute force)."""
    import icepool

    from meneur.systems.obscur.rules import TestParams
    from meneur.systems.obscur.strike import StrikeCheck, StrikeParams

    params = StrikeParams(
        TestParams(3, difficulty=0, tally=True),
        TestParams(2, difficulty=0, tally=True),
        weapon_class="Moyennes",
        weapon_damage=1,
        hargne=4,
        armour=(("Tête", 2),),
        resistance=1,
    )
    ours = StrikeCheck().odds(params).probabilities()
    success = icepool.Die({0: 3, 1: 2, 2: 1})
    attack, parade = 3 @ success, 2 @ success
    zone_prot = icepool.Die([2, 0, 0, 0, 0, 0])

    def damage(a: int, p: int, prot: int) -> tuple[bool, int]:
        if a <= p:
            return (False, 0)
        return (True, max(0, a - p + 4 + 1 - prot - 1))

    oracle = icepool.map(damage, attack, parade, zone_prot)
    expected = {k: Fraction(oracle.quantity(k), oracle.denominator()) for k in oracle.outcomes()}
    assert ours == expected
    # MR 2 with Hargne 4, +1, armour 2, Résistance 1: 4 damage (the issue's example)
    assert params.damage(2, "Tête") == 4


def test_O22_special_blows_cost_attack_dice_and_apply_their_effect() -> None:
    """O-22 coups spéciaux (table provisoire): a cost in Attack dice, an effect on a hit."""
    from meneur.systems.obscur.combat import special_blow, special_blows

    assert special_blows().provisional
    power, head, disarm = (
        special_blow("coup puissant"),
        special_blow("Coup à la tête"),
        special_blow("désarmer"),
    )
    base = fighter("A", agility=3, strategy="totale")
    b = fighter("B", agility=1, strategy="totale")
    plain = resolve_fight(
        FightParams(base, b, body("A"), body("B", 40), max_rounds=1),
        ((6, 6, 6, 6, 3, *ONES), ONES),
    ).rounds[0]["strikes"][0]
    # 4 dice − 2: the same first faces give fewer successes, and +2 damage on a hit
    strong = Fighter(**{**base.__dict__, "special": power})
    hit = resolve_fight(
        FightParams(strong, b, body("A"), body("B", 40), max_rounds=1),
        ((6, 6, 3, *ONES), ONES),
    ).rounds[0]["strikes"][0]
    assert hit["attack"]["dice"] == 2 and hit["special"]["cost"] == 2
    assert plain["margin"] == 8 and hit["margin"] == 4
    assert hit["damage"] == plain["damage"] - 4 + 2
    # a chosen zone: no hit-zone die is read
    aimed = Fighter(**{**base.__dict__, "special": head})
    out = resolve_fight(
        FightParams(aimed, b, body("A"), body("B", 40), max_rounds=1), ((6, *ONES), ONES)
    )
    assert out.rounds[0]["strikes"][0]["zone"] == "Tête"
    assert out.rounds[0]["strikes"][0]["zone_face"] is None
    # disarmed: the defender must draw again next round (O-18)
    rough = Fighter(**{**base.__dict__, "special": disarm})
    out = resolve_fight(
        FightParams(rough, b, body("A"), body("B", 40), max_rounds=2), ((6, 6, 2, *ONES), ONES)
    )
    assert out.rounds[0]["strikes"][0]["disarmed"]
    assert "draw" in out.rounds[1]["b"] and out.rounds[1]["b"]["split"][0]["weapon"] == "Mains nues"


def test_O12_one_pass_draw_equals_the_inherited_loop() -> None:
    """The one-pass draw (speed) gives the same faces and outcome as Check.roll's loop."""
    from meneur.systems.obscur.state import body_of

    a = load_character(EXAMPLES / "garance.toml")
    b = load_character(EXAMPLES / "corbeau.toml")
    params = FightParams(fighter_of(a), fighter_of(b), body_of(a), body_of(b))
    for seed in range(5):
        s1, s2 = make_source(seed=seed), make_source(seed=seed)
        slow = Check.roll(ObscurFight(), params, [s1, s1])
        fast = ObscurFight().roll(params, [s2, s2])
        assert (slow.faces, slow.outcome) == (fast.faces, fast.outcome)


def test_O12_maladresses_in_a_fight_earn_vecu() -> None:
    """O-3/O-40 in a fight: each Maladresse (all dice 1) earns its roller 1 Vécu."""
    a = fighter("A", agility=3, strategy="attaque=2")
    b = fighter("B", agility=1, strategy="attaque=2")
    # A attacks 1,1 (Maladresse); B parries 1,1,1 (Maladresse); B attacks; A parries
    out = resolve_fight(FightParams(a, b, body("A"), body("B"), max_rounds=1), (ONES, ONES))
    assert out.a["fumbles"] == 2 and out.b["fumbles"] == 2
    assert out.a["vecu"] == 6 + 2 and out.b["vecu"] == 6 + 2


def test_O13_O22_one_strike_reads_attack_parade_then_the_zone_die() -> None:
    """O-12/O-13/O-22, one blow from its faces: the Attack on stream 0, the Parade on
    stream 1, then one more die of the attacker (stream 0) for the zone. With no weapon
    damage, Hargne or Résistance given, the damage is the MR alone; a blow that does not
    win has margin 0, no zone and reads no zone die."""
    from meneur.systems.obscur.rules import TestParams
    from meneur.systems.obscur.strike import StrikeParams, resolve_strike

    params = StrikeParams(
        TestParams(2, difficulty=0, tally=True),
        TestParams(2, difficulty=0, tally=True),
        armour=(("Jambes", 5),),
    )
    hit = resolve_strike(params, ((6, 4, 1), (4, 1)))
    assert (hit.attack.faces, hit.parade.faces) == ((6, 4), (4, 1))
    assert (hit.hit, hit.margin, hit.zone, hit.damage) == (True, 2, "Tête", 2)
    miss = resolve_strike(params, ((4, 1), (6, 1)))
    assert (miss.hit, miss.margin, miss.zone, miss.damage) == (False, 0, None, 0)


def test_O13_a_strike_takes_hargne_and_resistance_from_0_to_30() -> None:
    """O-13: Hargne and Résistance of a blow are 0 to 30 each, both ends included."""
    from meneur.errors import RuleError
    from meneur.systems.obscur.rules import TestParams
    from meneur.systems.obscur.strike import StrikeParams

    dice = TestParams(1, difficulty=0, tally=True)
    for hargne, resistance in ((0, 0), (30, 30)):
        StrikeParams(dice, dice, hargne=hargne, resistance=resistance)
    for hargne, resistance in ((-1, 0), (31, 0), (0, -1), (0, 31)):
        with pytest.raises(RuleError):
            StrikeParams(dice, dice, hargne=hargne, resistance=resistance)
