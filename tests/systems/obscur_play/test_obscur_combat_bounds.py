"""Obscur melee (O-11 to O-22): the bounds and defaults of the setup and of the split,
each pinned at its edge (mutation survivors of ``obscur/combat.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from data_helpers import WriteData, user_data_folder
from meneur.errors import RuleError, UsageError
from meneur.systems.obscur import combat
from meneur.systems.obscur.combat import (
    MAX_ROUNDS,
    Arm,
    Fighter,
    FightParams,
    action_rank,
    check_strategy,
    pa_malus,
    resolve_fight,
    split,
)
from meneur.systems.obscur.gear import armoury
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.state import Body
from obscur_melee_helpers import weapon

RANGED = (
    '[ranged]\nspeed = { "immobile" = 0 }\ncover = { "aucune" = 0 }\ndistance = { "courte" = 0 }\n'
)


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[WriteData]:
    """Write ``obscur/NAME.toml`` in a user data folder; the tables are read afresh."""
    tables = (combat.combat_data, combat.special_blows)
    with user_data_folder(tmp_path, monkeypatch, "obscur", tables) as write:
        yield write


def fighter(**kw: object) -> Fighter:
    base: dict[str, object] = {
        "name": "A",
        "agility": 5,
        "hargne": 2,
        "resistance": 1,
        "gardien": 2,
        "arms": (Arm(weapon("Moyennes"), Dice(4)),),
        "unarmed": Arm(armoury().unarmed(), Dice(3)),
    }
    base.update(kw)
    return Fighter(**base)  # type: ignore[arg-type]


def body(lost: int = 0, vie_max: int = 10) -> Body:
    return Body("x", vie_max - lost, vie_max, vecu=6, volonte=3, volonte_max=3)


def test_O16_O17_O18_O21_a_user_file_without_variants_keeps_the_rule_numbers(
    user_data: WriteData,
) -> None:
    """A user's ``combat.toml`` that gives only the ranged table keeps the rule's numbers:
    −3 dice per extra weapon (O-16) and per extra opponent (O-17), drawing at difficulty 3
    and −2 RA (O-18), +1 die per round of aim (O-21), and the 30-round limit."""
    user_data("combat", RANGED)
    variants = combat.combat_data().variants
    assert variants.extra_weapon_malus == 3
    assert variants.extra_opponent_malus == 3
    assert variants.draw_difficulty == 3
    assert variants.draw_ra_loss == 2
    assert variants.aim_die_per_round == 1
    assert variants.max_rounds == 30
    assert pa_malus(fighter(opponents=2), 2) == 6


def test_O12_the_shared_combat_tables_cannot_be_changed_by_a_caller() -> None:
    """The combat tables are read once and shared: a caller cannot change them."""
    variants = combat.combat_data().variants
    with pytest.raises(ValidationError):
        variants.extra_weapon_malus = 0  # type: ignore[misc]
    assert combat.combat_data().variants.extra_weapon_malus == 3


def test_O12_a_fight_lasts_1_to_200_rounds() -> None:
    """A fight's round limit is 1 to 200, both ends included."""
    a, b = fighter(), fighter(name="B")
    assert MAX_ROUNDS == 200
    for rounds in (1, 200):
        assert FightParams(a, b, body(), body(), max_rounds=rounds).max_rounds == rounds
    for rounds in (0, 201):
        with pytest.raises(RuleError):
            FightParams(a, b, body(), body(), max_rounds=rounds)


def test_O12_attaque_n_takes_up_to_three_digits() -> None:
    """``attaque=N`` names N dice in up to three digits; anything else is refused. A name
    is read as typed by a person: case, accents and spaces around ``=`` do not matter."""
    assert check_strategy("attaque=999") == "attaque=999"
    assert check_strategy(" Attaque = 2 ") == "attaque=2"
    assert check_strategy("Défensive") == "defensive"
    for name in ("attaque=1000", "attaque=", "attaque", "attaque=x", "defense=2", "=2"):
        with pytest.raises(UsageError):
            check_strategy(name)


def test_O12_split_edges_of_each_strategy() -> None:
    """O-12 split: a PA below 0 splits as 0; ``defensive`` attacks with a quarter rounded
    up (4 dice: 1); ``prudente`` turns defensive once half the Vie is lost, exactly half
    included."""
    assert split("equilibree", -2, body()) == (0, 0)
    assert split("totale", -2, body()) == (0, 0)
    assert split("defensive", 4, body()) == (1, 3)
    assert split("offensive", 4, body()) == (3, 1)
    assert split("equilibree", 4, body()) == (2, 2)
    assert split("prudente", 8, body(lost=5)) == (2, 6)
    assert split("prudente", 8, body(lost=4)) == (4, 4)


def test_O11_O16_O17_the_fighter_bounds() -> None:
    """A fighter faces 1 to 10 opponents (O-17), holds at most 4 weapons (O-16) and may
    move all of its Gardien du feu to the RA, not more (O-11)."""
    for opponents in (1, 10):
        assert fighter(opponents=opponents).opponents == opponents
    for opponents in (0, 11):
        with pytest.raises(RuleError):
            fighter(opponents=opponents)
    arm = Arm(weapon("Moyennes"), Dice(4))
    assert len(fighter(arms=(arm,) * 4).arms) == 4
    with pytest.raises(RuleError):
        fighter(arms=(arm,) * 5)
    assert fighter(ra_points=2).ra_points == 2


def test_O16_O17_extra_weapons_and_opponents_add_up() -> None:
    """O-16 + O-17: two weapons against two opponents: −3 for the weapon, −3 for the
    opponent; one weapon against one opponent: no malus."""
    assert pa_malus(fighter(opponents=2), 2) == 6
    assert pa_malus(fighter(opponents=4), 3) == 6 + 9
    assert pa_malus(fighter(), 1) == 0


def test_O11_the_rank_reads_the_slowest_weapon_in_hand() -> None:
    """O-11/O-16: with several weapons, the RA is Agilité − the slowest one's Initiative,
    plus points moved from Gardien du feu, less the Surencombrement (O-42)."""
    arms = (
        Arm(weapon("Moyennes", initiative=1), Dice(4)),
        Arm(weapon("Moyennes", initiative=3), Dice(4)),
    )
    two = fighter(arms=arms)
    assert action_rank(two, arms) == 5 - 3
    assert action_rank(fighter(arms=arms, ra_points=2, overload=1), arms) == 5 - 3 + 2 - 1


def test_O22_a_user_blow_says_its_effect_and_nothing_more(user_data: WriteData) -> None:
    """O-22 coups spéciaux (table provisoire): a conteur's ``damage`` blow that gives no
    value adds no damage; a ``zone`` blow must name a zone of the hit-zone table."""
    user_data(
        "special_blows",
        '[[blows]]\nname = "Coup sec"\ncost = 1\neffect = "damage"\n'
        '[[blows]]\nname = "Aux jambes"\ncost = 1\neffect = "zone"\nzone = "jambes"\n',
    )
    assert combat.special_blow("coup sec").value == 0
    assert combat.special_blow("Aux jambes").zone == "jambes"
    user_data(
        "special_blows", '[[blows]]\nname = "Au cou"\ncost = 1\neffect = "zone"\nzone = "Cou"\n'
    )
    with pytest.raises(RuleError):
        combat.special_blows()


def test_O12_O22_no_shield_adds_no_parade_die() -> None:
    """O-12/O-22: a fighter without a shield parries with its Parade dice + its weapon's
    Défense only (4 PA split evenly: 2 + Défense 1 = 3 dice)."""
    a = fighter(agility=5)
    b = fighter(name="B", agility=1, arms=(Arm(weapon("Moyennes", defense=1), Dice(4)),))
    out = resolve_fight(FightParams(a, b, body(), body(), max_rounds=1), ((1,) * 40, (1,) * 40))
    parade = out.rounds[0]["strikes"][0]["parade"]
    assert (parade["parade_dice"], parade["defense"], parade["shield"]) == (2, 1, 0)
    assert parade["dice"] == 3


def test_O12_attack_and_parade_are_opposed_rolls_and_a_miss_has_no_margin() -> None:
    """O-12: Attack and Parade are counted against each other, with no difficulty of
    their own; a fresh fighter rolls all its dice; a blow that does not win has MR 0."""
    a = fighter(agility=5)
    b = fighter(name="B", agility=1)
    out = resolve_fight(FightParams(a, b, body(), body(), max_rounds=1), ((1,) * 40, (1,) * 40))
    strike = out.rounds[0]["strikes"][0]
    assert strike["attack"]["difficulty"] is None and strike["parade"]["difficulty"] is None
    assert strike["attack"]["dice"] == 2 and strike["parade"]["dice"] == 2
    assert not strike["hit"] and strike["margin"] == 0


def test_O12_O28_a_maladresse_on_the_shock_test_earns_vecu() -> None:
    """O-3/O-40 in a fight: the wounded fighter's Choc test (O-28) is a test too; all its
    dice at 1 is a Maladresse that earns Vécu, as its Parade's does."""
    a = fighter(agility=5, strategy="totale")
    b = fighter(name="B", agility=1, choc=Dice(2), strategy="attaque=1")
    faces = ((6, 6, 6, 6, 2, *(1,) * 40), (1,) * 40)
    out = resolve_fight(FightParams(a, b, body(), body(vie_max=30), max_rounds=1), faces)
    strike = out.rounds[0]["strikes"][0]
    assert strike["parade"]["fumble"] and strike["shock"]["test"]["fumble"]
    assert out.b["fumbles"] == 2 and out.b["vecu"] == 6 + 2


def test_O22_only_the_disarming_blow_disarms() -> None:
    """O-22/O-18: a blow whose effect is damage does not make the defender draw again."""
    a = fighter(agility=5, strategy="totale", special=combat.special_blow("coup puissant"))
    b = fighter(name="B", agility=1)
    faces = ((6, 6, 6, 6, 2, *(1,) * 40), (1,) * 40)
    out = resolve_fight(FightParams(a, b, body(), body(vie_max=40), max_rounds=2), faces)
    assert out.rounds[0]["strikes"][0]["hit"]
    assert "disarmed" not in out.rounds[0]["strikes"][0]
    assert "draw" not in out.rounds[1]["b"] and out.rounds[1]["b"]["split"][0]["weapon"] == "w"


def test_O13_O22_a_hit_reads_one_zone_die_from_the_attackers_stream() -> None:
    """O-22 in a fight: a hit reads exactly one more die of its attacker for the zone; the
    attacker's next dice (its own Parade, when the defender strikes back) follow it."""
    a = fighter(agility=5)
    b = fighter(name="B", agility=1)
    faces = ((6, 6, 2, 6, 6, *(1,) * 40), (1,) * 40)
    out = resolve_fight(FightParams(a, b, body(), body(), max_rounds=1), faces)
    first, back = out.rounds[0]["strikes"]
    assert first["hit"] and (first["zone_face"], first["zone"]) == (2, "Torse")
    assert back["attacker"] == "b" and back["parade"]["faces"] == [6, 6]
