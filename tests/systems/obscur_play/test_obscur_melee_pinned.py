"""Obscur melee and shots (O-11 to O-22): rule readings pinned by mutation testing."""

from __future__ import annotations

from pathlib import Path

import pytest

from meneur.errors import LimitError, UsageError
from meneur.systems.base import FaceReader
from meneur.systems.obscur.combat import (
    Arm,
    FightParams,
    RangedParams,
    dice_of,
    fighter_of,
    ranged_modifier,
    resolve_fight,
    resolve_shot,
    shoot,
    shot_of,
)
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.state import Body
from obscur_melee_helpers import body, fighter, weapon

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"
TWOS = (2,) * 80  # no success, no Maladresse


def test_O11_a_fighter_without_weapons_fights_bare_handed() -> None:
    """O-11: with no weapon in hand the PA is Hargne + Bagarre (the unarmed blow)."""
    a = fighter("A", agility=3, arms=())
    params = FightParams(a, fighter("B", agility=1), body("A"), body("B"), max_rounds=1)
    split = resolve_fight(params, (TWOS, TWOS)).rounds[0]["a"]["split"]
    assert [(s["weapon"], s["pa"]) for s in split] == [("Mains nues", 3)]


def test_O18_the_ra_lost_to_a_draw_lasts_one_round_only() -> None:
    """O-18: the drawer loses 2 RA the round after its draw, then no more; the other
    fighter, who never draws, keeps its RA every round."""
    a = fighter("A", agility=4, sheathed=True)
    b = fighter("B", agility=3)
    params = FightParams(a, b, body("A", 40), body("B", 40), max_rounds=4)
    out = resolve_fight(params, ((6, 6, *TWOS), TWOS))
    assert [r["a"]["ra"] for r in out.rounds] == [4, 3 - 2, 3, 3]
    assert [r["b"]["ra"] for r in out.rounds] == [2, 2, 2, 2]


def test_O18_O3_a_maladresse_on_the_draw_earns_vecu() -> None:
    """O-18, O-3, O-40: the draw is a test; all its dice on 1 is a Maladresse (+1 Vécu)."""
    a = fighter("A", agility=4, sheathed=True)
    params = FightParams(a, fighter("B", agility=1), body("A"), body("B"), max_rounds=1)
    fumbled = resolve_fight(params, ((1, 1, *TWOS), TWOS))
    clean = resolve_fight(params, ((2, 2, *TWOS), TWOS))
    assert fumbled.rounds[0]["a"]["draw"]["fumble"]
    assert fumbled.a["fumbles"] == clean.a["fumbles"] + 1
    assert fumbled.a["vecu"] == clean.a["vecu"] + 1


def test_O17_O29_pain_and_numbers_both_take_pa_dice() -> None:
    """O-17, O-29: the dice lost to the opponents and to the pain of the wounds add up."""
    a = fighter("A", agility=3, opponents=2, arms=(Arm(weapon("Moyennes"), Dice(9)),))
    wounded = Body("A", 4, 10, vecu=6, volonte=3, volonte_max=3)  # 6 HP lost: pain 2
    params = FightParams(a, fighter("B", agility=1), wounded, body("B"), max_rounds=1)
    record = resolve_fight(params, (TWOS, TWOS)).rounds[0]["a"]
    assert record["malus"] == 3 + 2 and record["split"][0]["pa"] == 9 - 5


def test_O17_a_malus_beyond_the_dice_leaves_a_pa_of_0() -> None:
    """O-17: three opponents take 6 dice; a weapon of 4 dice keeps 0, never fewer."""
    a = fighter("A", agility=3, opponents=3)
    params = FightParams(a, fighter("B", agility=1), body("A"), body("B"), max_rounds=1)
    split = resolve_fight(params, (TWOS, TWOS)).rounds[0]["a"]["split"][0]
    assert (split["pa"], split["attack"], split["parade"]) == (0, 0, 0)


def test_O11_points_moved_to_the_ra_leave_every_round_s_pa() -> None:
    """O-11: points moved from Gardien du feu to the RA raise the RA and leave the PA."""
    a = fighter("A", agility=3, ra_points=2)
    params = FightParams(a, fighter("B", agility=1), body("A"), body("B"), max_rounds=1)
    record = resolve_fight(params, (TWOS, TWOS)).rounds[0]["a"]
    assert record["ra"] == 3 - 1 + 2 and record["split"][0]["pa"] == 4 - 2


def flight(a_faces: tuple[int, ...], b_faces: tuple[int, ...], **b_body: int) -> dict[str, object]:
    """One round where B (Agilité 3, Hargne 5, Esquive 2 dice) flees A (RA 1)."""
    b = fighter("B", agility=3, hargne=5, flee_at=10)
    fleer = Body("B", 10, 10, vecu=6, volonte=3, volonte_max=3, **b_body)  # type: ignore[arg-type]
    params = FightParams(fighter("A", agility=2), b, body("A"), fleer, max_rounds=1)
    out = resolve_fight(params, ((*a_faces, *TWOS), (*b_faces, *TWOS)))
    return {"round": out.rounds[0], "a": out.a, "b": out.b}


def test_O19_the_fleer_s_ra_is_its_agilite_successes_only_above_breaks() -> None:
    """O-19: the fleer's RA is the successes of an Agilité test (no difficulty), a
    movement roll (O-42: Surencombrement); equal to the attacker's RA does not break."""
    out = flight((), (4,), overload=2)  # Agilité 3 − 2 = 1 die: 1 success = A's RA 1
    disengage = out["round"]["disengage"]  # type: ignore[index]
    assert disengage["agility"]["dice"] == 1 and disengage["agility"]["difficulty"] is None
    assert (disengage["ra"], disengage["attacker_ra"]) == (1, 1)
    assert not disengage["broken"] and out["round"]["strikes"]  # type: ignore[index]


def test_O19_attack_against_hargne_esquive_are_counts_of_successes() -> None:
    """O-19: Attack against Hargne + Esquive (the Esquive pool, not bare Hargne), both
    counts of successes without a difficulty; a tie lands with a margin of 0, on the zone
    of the attacker's next die (O-22: the armour of another zone does not protect), and
    its shock (O-28) weighs on the fleer."""
    b = fighter("B", agility=3, hargne=5, flee_at=10, armour={"Torse": 3})
    params = FightParams(fighter("A", agility=2), b, body("A"), body("B"), max_rounds=1)
    # A: attack 4,4 then zone die 1 (Tête); B: Agilité 2,2,2, dodge 4,4, Choc 2,2
    out = resolve_fight(params, ((4, 4, 1, *TWOS), (2, 2, 2, 4, 4, 2, 2, *TWOS)))
    strike = out.rounds[0]["strikes"][0]
    assert strike["attack"]["difficulty"] is None and strike["dodge"]["difficulty"] is None
    assert strike["dodge"]["dice"] == 2
    assert strike["hit"] and strike["margin"] == 0
    assert (strike["zone_face"], strike["zone"], strike["protection"]) == (1, "Tête", 0)
    # MR 0 + Hargne 2 (medium) + 1 − 0 − Résistance 1
    assert strike["damage"] == 2 and out.b["vie"] == 8
    assert out.rounds[0]["state"]["b"]["shock"] == strike["shock"]["malus"] == 1


def test_O19_O28_a_dodged_blow_of_0_damage_has_no_shock() -> None:
    """O-19, O-28: a blow that lands for 0 damage (here all stopped by the armour)
    takes no HP, so no shock test."""
    b = fighter("B", agility=3, hargne=5, flee_at=10, armour={"Tête": 5})
    params = FightParams(fighter("A", agility=2), b, body("A"), body("B"), max_rounds=1)
    out = resolve_fight(params, ((4, 4, 1, *TWOS), (2, 2, 2, 2, 2, *TWOS)))
    strike = out.rounds[0]["strikes"][0]
    assert strike["hit"] and strike["damage"] == 0 and "shock" not in strike
    assert out.b["vie"] == 10 and out.rounds[0]["state"]["b"]["shock"] == 0


def test_O19_O3_a_maladresse_on_the_fleer_s_shock_test_earns_vecu() -> None:
    """O-19, O-28, O-3: the shock test of a landed blow is the fleer's test."""
    b = fighter("B", agility=3, hargne=5, flee_at=10)
    params = FightParams(fighter("A", agility=2), b, body("A"), body("B"), max_rounds=1)
    out = resolve_fight(params, ((4, 4, 1, *TWOS), (2, 2, 2, 2, 2, 1, 1, *TWOS)))
    assert out.rounds[0]["strikes"][0]["shock"]["test"]["fumble"]
    assert out.b["fumbles"] == 1


def test_O19_O3_maladresses_of_flight_earn_vecu() -> None:
    """O-19, O-3: the fleer's Agilité test and its dodge, and the attack on it, are
    tests: each all-ones roll is a Maladresse counted for its roller."""
    out = flight((1, 1), (1, 1, 1, 1, 1))
    assert out["a"]["fumbles"] == 1 and out["b"]["fumbles"] == 2  # type: ignore[index]


def test_O19_O5_without_esquive_the_dodge_is_hargne_with_a_zero_skill() -> None:
    """O-19, O-5: no Esquive: Hargne alone dodges, where only the 6s count."""
    b = fighter("B", agility=3, hargne=2, dodge=None, flee_at=10)
    params = FightParams(fighter("A", agility=2), b, body("A"), body("B"), max_rounds=1)
    out = resolve_fight(params, ((4, 4, 4, *TWOS), (2, 2, 2, 4, 6, *TWOS)))
    dodge = out.rounds[0]["strikes"][0]["dodge"]
    assert dodge["dice"] == 2 and dodge["successes"] == 2


def test_O19_an_attack_lands_from_its_first_success() -> None:
    """O-19: no success on the Attack: no blow, even against a dodge without successes;
    one success against none lands."""
    out = flight((2, 2), (2, 2, 2, 2, 2))
    strike = out["round"]["strikes"][0]  # type: ignore[index]
    assert strike["attack"]["successes"] == strike["dodge"]["successes"] == 0
    assert not strike["hit"] and out["b"]["vie"] == 10  # type: ignore[index]
    one = flight((4, 2, 2), (2, 2, 2, 2, 2))["round"]["strikes"][0]  # type: ignore[index]
    assert one["hit"] and one["margin"] == 1  # a single success lands


def test_O19_O22_a_landed_blow_reads_one_zone_die() -> None:
    """O-19, O-22: the zone of a landed blow is one die of the attacker: its next
    round's Attack reads the dice right after it."""
    b = fighter("B", agility=3, hargne=5, flee_at=40)
    params = FightParams(fighter("A", agility=2), b, body("A", 40), body("B", 40), max_rounds=2)
    out = resolve_fight(params, ((4, 4, 1, 6, 5, *TWOS), TWOS))
    first, second = out.rounds[0]["strikes"][0], out.rounds[1]["strikes"][0]
    assert first["zone_face"] == 1 and second["attack"]["faces"] == [6, 5]


def impressing(a_faces: tuple[int, ...], **kw: object) -> tuple[dict[str, object], object]:
    """A tries to impress B (Sang-froid from ``kw``) before a one-round fight."""
    a = fighter("A", agility=3, impress=kw.pop("impress", Dice(3)))
    b = fighter("B", agility=1, **kw)
    params = FightParams(a, b, body("A"), body("B"), impress=("a",), max_rounds=1)
    out = resolve_fight(params, ((*a_faces, *TWOS), TWOS))
    return out.opening[0], out


def test_O20_the_difficulty_is_the_sang_froid_at_least_1() -> None:
    """O-20: difficulty = the opponent's Sang-froid (3 here); a Sang-froid of 0 still
    asks 1 success (the code's reading: a test of difficulty 0 could not fail)."""
    opening, _ = impressing((6, 4, 2), sang_froid=3)
    assert opening["test"]["difficulty"] == 3 and opening["malus"] == 0  # type: ignore[index]
    opening, _ = impressing((4, 2, 2), sang_froid=0)
    assert opening["test"]["difficulty"] == 1 and opening["malus"] == 0  # type: ignore[index]


def test_O20_a_failed_or_impossible_impression_is_no_malus() -> None:
    """O-20: a failed test gives no malus; without Intimidation dice there is no roll."""
    opening, out = impressing((2, 2, 2), sang_froid=1)
    assert not opening["test"]["passed"] and opening["malus"] == 0  # type: ignore[index]
    assert out.rounds[0]["b"]["malus"] == 0  # type: ignore[attr-defined]
    opening, out = impressing((6, 6, 6), sang_froid=1, impress=None)
    assert opening["test"]["dice"] == 0 and opening["malus"] == 0  # type: ignore[index]
    assert out.rounds[0]["a"]["split"][0]["pa"] == 4  # type: ignore[attr-defined]


def test_O20_O3_a_maladresse_while_impressing_earns_vecu() -> None:
    """O-20, O-3: the impression is a test; all ones is a Maladresse (+1 Vécu)."""
    _, fumbled = impressing((1, 1, 1), sang_froid=1)
    _, clean = impressing((2, 2, 2), sang_froid=1)
    assert fumbled.a["fumbles"] == clean.a["fumbles"] + 1  # type: ignore[attr-defined]


def test_O12_both_down_in_a_simultaneous_round_is_no_winner() -> None:
    """O-11, O-12: simultaneous blows (tied RA and Agilité) can down both: no winner."""
    params = FightParams(fighter("A"), fighter("B"), body("A", 3), body("B", 3), max_rounds=1)
    # each: Attack 6,6 (4 successes) against a Parade of 2,2,2, zone die 2
    out = resolve_fight(params, ((6, 6, 2, 2, 2, 2, *TWOS), (2, 2, 2, 6, 6, 2, *TWOS)))
    assert out.rounds[0]["initiator"] is None
    assert out.end in ("coma", "dead") and out.winner is None


def test_O19_when_both_would_flee_a_disengages_first() -> None:
    """O-19: one fighter disengages per round; both at their flight threshold: A (the
    code's reading), and B attacks it."""
    a, b = fighter("A", flee_at=10), fighter("B", flee_at=10)
    out = resolve_fight(FightParams(a, b, body("A"), body("B"), max_rounds=1), (TWOS, TWOS))
    assert out.rounds[0]["disengage"]["fighter"] == "a"
    assert out.rounds[0]["strikes"][0]["attacker"] == "b"


BOW = weapon("Trait", damage=2)


def test_O21_a_shot_is_aimed_0_to_10_rounds() -> None:
    """O-21: +1 die per round aiming; the option is bounded to 0..10 rounds."""
    shot = resolve_shot(RangedParams(Dice(2), 2, BOW, aim_rounds=10), ((2,) * 12,))
    assert shot["attack"]["dice"] == 12 and shot["aim_dice"] == 10
    for rounds in (11, -1):
        with pytest.raises(LimitError):
            RangedParams(Dice(2), 2, BOW, aim_rounds=rounds)


def test_O14_a_plain_shot_rolls_the_pa_at_difficulty_1() -> None:
    """O-14: by default no Hargne, no aim, no Protection nor Résistance: the PA's dice
    at difficulty 1; damage = MR + the weapon's damage."""
    heavy = weapon("Projectiles lourds", damage=1)  # a Hargne bonus, were Hargne given
    shot = resolve_shot(RangedParams(Dice(4), 2, heavy), ((6, 4, 2, 2),))
    assert shot["attack"]["dice"] == 4 and shot["difficulty"] == 1
    assert shot["protection"] == 0 and shot["aimed_bonus"] == 0 and "zone" not in shot
    assert shot["damage"] == (3 - 1) + 1


def test_O14_speed_cover_distance_add_up_whatever_the_case() -> None:
    """O-14: each of speed, cover and distance removes its dice (table provisoire),
    names read without case; an unknown name is refused."""
    assert ranged_modifier("marche", "importante", "moyenne") == 1 + 2 + 1
    assert ranged_modifier("Course", "AUCUNE", "Courte") == 2
    shot = resolve_shot(RangedParams(Dice(4), 2, BOW, aim_rounds=3, speed="marche"), ((2,) * 6,))
    assert shot["attack"]["dice"] == 4 + 3 - 1
    with pytest.raises(UsageError):
        ranged_modifier("vol", "aucune", "courte")


def test_O15_the_dodge_successes_are_the_difficulty_never_below_1() -> None:
    """O-15: the target's dodge (its own dice, stream 1, no difficulty) sets the
    shooter's difficulty: 3 successes, 3; none, 1."""
    high = resolve_shot(RangedParams(Dice(4), 2, BOW, dodge=Dice(2)), ((6, 6, 4, 2), (6, 4)))
    assert high["dodge"]["difficulty"] is None and high["dodge"]["faces"] == [6, 4]
    assert high["difficulty"] == 3 and high["damage"] == 2 + 2
    low = resolve_shot(RangedParams(Dice(4), 2, BOW, dodge=Dice(2)), ((4, 2, 2, 2), (2, 2)))
    assert low["difficulty"] == 1 and low["hit"] and low["damage"] == 0 + 2


def test_O21_gardien_only_above_the_pa_adds_nothing() -> None:
    """O-21: rolling only Gardien du feu adds the unrolled dice of the PA; a Gardien
    above the PA leaves none to add."""
    shot = resolve_shot(RangedParams(Dice(2), 4, BOW, gardien_only=True), ((4, 2, 2, 2),))
    assert shot["attack"]["dice"] == 4 and shot["aimed_bonus"] == 0
    assert shot["damage"] == 0 + 2


def test_O14_a_missed_shot_does_no_damage_and_reads_no_zone() -> None:
    """O-14: a miss: damage 0, no zone die read, no Protection."""
    params = RangedParams(Dice(3), 2, BOW, armour=(("Torse", 1),))
    shot = resolve_shot(params, ((2, 2, 2),))
    assert not shot["hit"] and shot["damage"] == 0
    assert "zone" not in shot and "protection" not in shot


def test_O22_a_shot_reads_its_zone_die_from_the_shooter() -> None:
    """O-22: a hit on an armoured target reads one more die of the shooter (stream 0)
    for the zone; a zone without armour has no Protection; damage never below 0."""
    armour = (("Tête", 9),)
    params = RangedParams(Dice(2), 2, BOW, dodge=Dice(1), armour=armour)
    torso = resolve_shot(params, ((6, 2, 2), (2, 1)))
    assert (torso["zone_face"], torso["zone"], torso["protection"]) == (2, "Torse", 0)
    assert torso["damage"] == 1 + 2
    head = resolve_shot(params, ((6, 2, 1), (2, 2)))
    assert head["zone"] == "Tête" and head["damage"] == 0


def test_O28_O3_a_shot_s_shock_and_the_target_s_maladresses() -> None:
    """O-28: a wound's shock test is the target's (stream 1, after its dodge); a shot
    of 0 damage asks none. O-3, O-40: the target's Maladresses (dodge, shock) earn Vécu."""
    target = body("T")
    params = RangedParams(Dice(4), 2, BOW, dodge=Dice(1))
    # dodge 1 (Maladresse), attack 6,6 (4 successes): MR 3 + 2 = 5; Choc 1,1 (Maladresse)
    shot = shoot(params, target, Dice(2), FaceReader(((6, 6, 2, 2), (1, 1, 1))))
    assert shot["damage"] == 5 and shot["shock"]["test"]["faces"] == [1, 1]
    assert shot["target_fumbles"] == 2 and target.vecu == 6 + 2
    armoured = RangedParams(Dice(4), 2, BOW, protection=9)
    untouched = body("U")
    shot = shoot(armoured, untouched, Dice(2), FaceReader(((6, 6, 2, 2), (2, 2))))
    assert shot["hit"] and shot["damage"] == 0 and "shock" not in shot
    assert untouched.vecu == 6


def test_O11_a_sheet_s_fighter_faces_one_drawn_opponent_by_default() -> None:
    """O-11, O-17, O-18, O-20: from a sheet, by default one opponent and the weapon in hand;
    each weapon's PA uses its own Compétence; a strategy given beats the sheet's."""
    garance = load_character(EXAMPLES / "garance.toml")
    plain = fighter_of(garance)
    assert plain.opponents == 1 and not plain.sheathed
    assert plain.arms[0].pa == dice_of(garance, "Armes moyennes") != dice_of(garance, "Bagarre")
    assert plain.strategy == "equilibree" and plain.special is None
    assert plain.name == "Garance l'Épéiste"
    assert plain.sang_froid == 2  # O-20: the sheet's Sang-froid, what impressing her asks
    assert fighter_of(garance, strategy="totale").strategy == "totale"


def test_O14_a_sheet_s_shot_rolls_its_ranged_weapon_s_competence() -> None:
    """O-14, O-11: the shot's PA is Gardien du feu + the ranged weapon's Compétence."""
    mireille = load_character(EXAMPLES / "mireille.toml")
    shot = shot_of(mireille, load_character(EXAMPLES / "garance.toml"))
    assert shot.pa == dice_of(mireille, "Armes de trait") != dice_of(mireille, "Bagarre")


def test_O22_a_sheet_s_tactics_choose_its_special_blow(tmp_path: Path) -> None:
    """O-22: the coup spécial named in the sheet's tactics is tried without an option."""
    text = (EXAMPLES / "garance.toml").read_text(encoding="utf-8")
    text = text.replace(
        'tactique = { strategie = "equilibree" }',
        'tactique = { strategie = "equilibree", coup = "Coup puissant" }',
    )
    sheet = tmp_path / "garance.toml"
    sheet.write_text(text, encoding="utf-8")
    special = fighter_of(load_character(sheet)).special
    assert special is not None and special.name == "Coup puissant"


def test_O14_a_sheet_s_shot_defaults_to_a_passive_unaimed_target() -> None:
    """O-14: by default a shot from a sheet is not aimed (O-21), rolls its whole PA and
    aims at a passive target (no dodge, O-15)."""
    shot = shot_of(
        load_character(EXAMPLES / "mireille.toml"), load_character(EXAMPLES / "garance.toml")
    )
    assert shot.aim_rounds == 0 and not shot.gardien_only and shot.dodge is None


def test_O11_O14_a_bad_equipement_names_its_sheet(tmp_path: Path) -> None:
    """O-11, O-14: a malformed ``equipement`` of the fighter, the shooter or the target
    is refused with the sheet's path, so the user knows which file to fix."""
    from meneur.errors import SheetError

    text = (EXAMPLES / "mireille.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        text.replace('tactique = { strategie = "defensive" }', "tactique = { strategie = 3 }"),
        encoding="utf-8",
    )
    broken, good = load_character(bad), load_character(EXAMPLES / "mireille.toml")
    for build in (lambda: fighter_of(broken), lambda: shot_of(broken, good)):
        with pytest.raises(SheetError, match=r"bad\.toml"):
            build()
    with pytest.raises(SheetError, match=r"bad\.toml"):
        shot_of(good, broken)
