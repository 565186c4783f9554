"""Obscur health (O-23 to O-34): each rule on a body, from given faces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meneur.errors import RuleError
from meneur.systems.base import FaceReader
from meneur.systems.obscur import health
from meneur.systems.obscur.conditions import refuse_exhausted
from meneur.systems.obscur.health import Dice, health_tables
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.state import (
    Body,
    Intemperie,
    Wound,
    body_of,
    refuse_coma,
    save_body,
)
from systems.obscur.test_obscur_sheet import sheet


def reader(*faces: int) -> FaceReader:
    return FaceReader((tuple(faces),))


def fresh(vie: int = 12, **kw: int) -> Body:
    return Body(
        "Test", vie, 12, vecu=kw.get("vecu", 10), volonte=kw.get("volonte", 3), volonte_max=5
    )


def test_O23_fall_metres_less_acrobatics_successes() -> None:
    """O-23: 1 damage per metre less Agilité + Acrobaties successes; no armour/Résistance."""
    body = fresh()
    result = health.fall(body, reader(6, 4, 1), 4, Dice(3))
    assert result["test"]["successes"] == 3 and result["lost"] == 1 and body.vie == 11
    # height/surprise modifier removes dice
    body = fresh()
    assert health.fall(body, reader(6), 4, Dice(3), modifier=-2)["lost"] == 2
    # never a gain
    body = fresh()
    assert health.fall(body, reader(6, 6, 6), 1, Dice(3))["lost"] == 0 and body.vie == 12


def test_O24_asphyxia_cumulative_malus_then_coma() -> None:
    """O-24: success: next test −1 die; failure: the ME is a cumulative malus; at 0 dice:
    coma, losing the threshold each round (no armour, no Résistance)."""
    body = fresh()
    out = health.asphyxia(body, reader(6, 1, 1, 1, 1, 1, 4), "fumée", Dice(4), minutes=2)
    first, second = out["minutes"]
    assert out["threshold"] == 2
    assert first["test"]["dice"] == 4 and first["test"]["passed"] and first["malus_after"] == 1
    assert second["test"]["dice"] == 3 and not second["test"]["passed"]
    assert second["malus_after"] == 2  # +1 from ME 1
    body = fresh()
    out = health.asphyxia(body, reader(6), "fumée", Dice(1), minutes=3)
    assert out["minutes"][1]["coma"] and out["minutes"][1]["lost"] == 2
    assert body.vie == 12 - 4 and body.intemperies[0].source == "asphyxie"
    with pytest.raises(RuleError):
        health.asphyxia(fresh(), reader(), "vide sidéral", Dice(2))


def test_O25_drowning_metres_or_asphyxia() -> None:
    """O-25: Agilité + Natation vs the drowning table; success: MR metres; failure: asphyxia."""
    body = fresh()
    out = health.drowning(body, reader(6, 6, 4), "eau calme", Dice(3), Dice(2))
    assert out["difficulty"] == 1 and out["metres"] == 4
    body = fresh()
    out = health.drowning(body, reader(1, 1, 1, 6, 6), "eau calme", Dice(3), Dice(2))
    assert "asphyxia" in out["minutes"][0] and out["metres"] == 0
    assert body.asphyxia == 1


def test_O26_fire_intensity_less_resistance_and_armour() -> None:
    """O-26: each round lose fire intensity − Résistance successes − armour."""
    body = fresh()
    out = health.fire(body, reader(6, 1, 4, 1), 5, Dice(2), 1, rounds=2)
    assert [r["lost"] for r in out["rounds"]] == [2, 3] and body.vie == 7


def test_O8_a_tally_has_no_verdict() -> None:
    """O-8: a Maladresse is never a success and a difficulty is never below 1. The
    Résistance successes that reduce a fire's loss are a tally, not a test: its record
    showed difficulty 0 and « passed » beside « fumble », now null verdict and margin."""
    out = health.fire(fresh(), reader(1, 1), 3, Dice(2), 0, rounds=1)
    test = out["rounds"][0]["test"]
    assert test["fumble"] and test["successes"] == 0
    assert (test["difficulty"], test["passed"], test["margin"]) == (None, None, None)


def test_O27_poison_virulence_drops_by_dispersion_each_period() -> None:
    """O-27: lose Virulence − Résistance successes; then Virulence − Dispersion."""
    body = fresh(20)
    body.vie_max = 20
    # period 1: 2 dice 4,1 (1 success): lose 5; pain then takes dice (O-29):
    # period 2: 1 die (1): lose 4; period 3: no die left: lose 2; Virulence 0: over
    out = health.poison(body, reader(4, 1, 1), 6, 2, Dice(2))
    assert [p["virulence"] for p in out["periods"]] == [6, 4, 2]
    assert [p["test"]["dice"] for p in out["periods"]] == [2, 1, 0]
    assert [p["lost"] for p in out["periods"]] == [5, 4, 2]
    assert body.vie == 9 and all(i.source == "poison" for i in body.intemperies)
    with pytest.raises(RuleError):
        health.poison(fresh(), reader(), 3, 0, Dice(2))


def test_O28_shock_table_reduced_by_choc_test() -> None:
    """O-28: a malus for the rest of the round from HP lost (table provisoire), reduced by
    the successes of Résistance + Choc."""
    assert health_tables().provisional
    out = health.shock(reader(4, 4), 5, Dice(2))
    assert out["base_malus"] == 3 and out["malus"] == 1
    assert health.shock(reader(), 0, Dice(2))["malus"] == 0
    assert health.shock(reader(6, 6), 1, Dice(2))["malus"] == 0


def test_O29_pain_malus_from_hp_lost() -> None:
    """O-29: after the round, a dice malus from HP lost (table provisoire)."""
    assert [health.pain_malus(n) for n in (0, 2, 3, 6, 9, 12, 30)] == [0, 0, 1, 2, 3, 4, 4]
    body = fresh(6)
    assert health.body_malus(body) == 2
    body.fatigue = 1
    assert health.body_malus(body) == 3


def test_O30_untreated_wounds_worsen() -> None:
    """O-30: untreated wounds worsen by the damage table (provisoire); treated ones don't."""
    body = fresh(4)
    body.wounds = [Wound(4, "coup"), Wound(4, "coup", treated=True)]
    out = health.aggravate(body, 2)
    assert out["lost"] == 2 and body.wounds[0].points == 6 and body.wounds[1].points == 4
    assert body.vie == 2


def test_O31_coma_death_and_hanging_on() -> None:
    """O-31: Vie 0 → coma; Vie lost ≥ twice the resource → dead; *s'accrocher à la vie*
    costs 6 Vécu, Trempe + Détermination, 1 minute per success (less the pain of the 20
    HP lost, O-29: 4 dice, table provisoire)."""
    assert Body("x", 0, 10).status == "coma"
    assert Body("x", -9, 10).status == "coma"
    assert Body("x", -10, 10).status == "dead"
    assert Body("x", 1, 10).status == "ok"
    dead = Body("x", -10, 10, vecu=7)
    out = health.hang_on(dead, reader(6, 4, 1), Dice(7))
    assert out["test"]["pool"]["maluses"] == {"pain": 4} and out["test"]["dice"] == 3
    assert out["vecu_spent"] == 6 and dead.vecu == 1 and out["minutes"] == 3
    with pytest.raises(RuleError):
        health.hang_on(dead, reader(6), Dice(3))  # 1 Vécu left
    with pytest.raises(RuleError):
        health.hang_on(Body("x", 3, 10, vecu=20), reader(6), Dice(3))


def test_O32_first_aid_heals_mr_and_stops_aggravation() -> None:
    """O-32: Nourrisseur + Secourisme vs the wound table; success heals MR HP and the
    wound stops worsening; Intempéries heal only with rest."""
    body = fresh(8)
    body.wounds = [Wound(4, "coup")]
    out = health.treat(body, reader(6, 6, 1), Dice(3))
    assert out["test"]["difficulty"] == 2 and out["healed"] == 2 and out["treated"]
    assert body.vie == 10 and body.wounds[0].points == 2 and body.wounds[0].treated
    assert health.aggravate(body, 3)["lost"] == 0
    sick = fresh(9)
    sick.intemperies = [Intemperie(3, "Froid")]
    with pytest.raises(RuleError):
        health.treat(sick, reader(6, 6), Dice(2))
    failed = fresh(8)
    failed.wounds = [Wound(4, "coup")]
    out = health.treat(failed, reader(4, 1, 1), Dice(3))
    assert not out["treated"] and out["healed"] == 0 and not failed.wounds[0].treated


def test_O33_recovery_with_and_without_rest() -> None:
    """O-33: at rest, Résistance + Régénération HP every 6 days; without rest, the test's
    successes, capped at Résistance + Régénération."""
    body = fresh(2)
    body.wounds = [Wound(6, "coup")]
    body.intemperies = [Intemperie(4, "Froid")]
    out = health.recover(body, reader(), Dice(3), days=13, rest=True)
    assert out["gained"] == 6 and body.vie == 8
    assert body.intemperies == [] and body.wounds[0].points == 4  # Intempéries first
    body = fresh(10)
    body.wounds = [Wound(5, "coup")]
    out = health.recover(body, reader(6, 6), Dice(2), days=6, rest=False)
    assert out["periods"][0]["test"]["successes"] == 4 and out["gained"] == 2


def test_O34_morale_exhaustion_and_regain() -> None:
    """O-34: Volonté 0: incapable, then 1 back; Fouineur + Éloquence: listeners regain
    Volonté equal to the successes, up to their maximum (house rule)."""
    body = fresh(volonte=0)
    with pytest.raises(RuleError, match="O-34"):
        refuse_exhausted(body)
    assert health.catch_breath(body) == 1 and body.volonte == 1
    refuse_exhausted(body)  # 1 Volonté back: able again
    creature = Body("sans Volonté", 5, 5, volonte=0, volonte_max=0)
    refuse_exhausted(creature)  # no Volonté to lose (a maximum of 0): never exhausted
    other = Body("y", 5, 5, volonte=4, volonte_max=5)
    out = health.cheer([body, other], reader(6, 4, 1), Dice(3))
    assert out["house_rule"] and out["gained"] == {"Test": 3, "y": 1}
    assert body.volonte == 4 and other.volonte == 5


def test_O28_provisional_tables_are_overridable_by_a_user_file(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O-28/O-29: the shipped tables are provisional; a user file replaces them."""
    from pathlib import Path

    from meneur.files import load_data

    shipped = load_data("obscur", "health_tables")
    assert shipped["provisional"] is True
    folder = Path(str(tmp_path)) / "obscur"
    folder.mkdir()
    text = Path(health.__file__).with_name("data").joinpath("health_tables.toml").read_text()
    text = text.replace("provisional = true", "provisional = false")
    text = text.replace("[[shock]]\nfrom = 1\nmalus = 1", "[[shock]]\nfrom = 1\nmalus = 5", 1)
    (folder / "health_tables.toml").write_text(text)
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    health.health_tables.cache_clear()
    try:
        assert not health_tables().provisional
        assert health.shock(reader(1, 1), 1, Dice(2))["base_malus"] == 5
    finally:
        monkeypatch.delenv("MENEUR_DATA_DIR")
        health.health_tables.cache_clear()
    assert health_tables().provisional


def test_O31_broken_user_table_is_one_clear_error(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from meneur.errors import SheetError

    folder = Path(str(tmp_path)) / "obscur"
    folder.mkdir()
    (folder / "health_tables.toml").write_text("asphyxia = {}\n")
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    health.health_tables.cache_clear()
    try:
        with pytest.raises(SheetError, match="health_tables"):
            health_tables()
    finally:
        monkeypatch.delenv("MENEUR_DATA_DIR")
        health.health_tables.cache_clear()


def test_O24_O25_a_level_by_number_is_a_difficulty_from_1_to_20() -> None:
    """O-24/O-25 with O-8: a level not in the table may be given as its Difficulté, 1 to
    20: « 1 » and « 20 » are read as such; « 0 » (O-8: never below 1 success) and « 21 »
    are refused with the known levels."""
    assert health.asphyxia(fresh(), reader(6), "1", Dice(1))["threshold"] == 1
    assert health.asphyxia(fresh(), reader(6), "20", Dice(1))["threshold"] == 20
    assert health.drowning(fresh(), reader(6, 6), "20", Dice(1), Dice(1))["difficulty"] == 20
    for level in ("0", "21"):
        with pytest.raises(RuleError):
            health.asphyxia(fresh(), reader(6), level, Dice(1))
        with pytest.raises(RuleError):
            health.drowning(fresh(), reader(6, 6), level, Dice(1), Dice(1))


def test_O25_a_failed_minute_is_an_asphyxia_minute_without_air() -> None:
    """O-25: « Failure: asphyxia (O-24) from lack of oxygen »: the minute is read at the
    asphyxia table's worst level (« sans air », Difficulté 4 in the provisional table),
    not its mildest; a conscious minute loses no HP (O-24)."""
    body = fresh()
    out = health.drowning(body, reader(1, 6, 6, 4, 1), "eau calme", Dice(1), Dice(4))
    minute = out["minutes"][0]["asphyxia"]
    assert health_tables().asphyxia["sans air"] == max(health_tables().asphyxia.values())
    assert minute["test"]["difficulty"] == 4 and minute["test"]["successes"] == 5
    assert minute["test"]["passed"] and minute["lost"] == 0 and not minute["coma"]


def test_O25_O42_swimming_is_a_movement_roll() -> None:
    """O-25 with O-42: Surencombrement is a malus on every movement roll, and swimming is
    one: 3 dice of Natation with an overload of 1 roll 2."""
    body = fresh()
    body.overload = 1
    out = health.drowning(body, reader(6, 6), "eau calme", Dice(3), Dice(2))
    test = out["minutes"][0]["test"]
    assert test["dice"] == 2 and test["pool"]["maluses"] == {"movement": 1}
    assert out["metres"] == 3


def test_O24_O29_pain_counts_towards_the_dice_that_run_out() -> None:
    """O-24: « Lorsque le nombre de dés lancés tombe à zéro », coma. The dice rolled
    are Résistance + Endurance less the asphyxia malus AND the sheet's pain (O-29): at 3 HP
    lost (pain 1), 2 dice and one passed minute leave 2 − 1 − 1 = 0 dice: coma."""
    body = fresh(9)
    out = health.asphyxia(body, reader(6), "air raréfié", Dice(2))
    minute = out["minutes"][0]
    assert minute["test"]["dice"] == 1 and minute["test"]["passed"]
    assert minute["malus_after"] == 1 and minute["coma"] and body.asphyxia_coma
    unhurt = fresh()  # no pain: 2 − 1 = 1 die left, still conscious
    minute = health.asphyxia(unhurt, reader(6, 1), "air raréfié", Dice(2))["minutes"][0]
    assert minute["malus_after"] == 1 and not minute["coma"] and not unhurt.asphyxia_coma


@pytest.mark.parametrize(
    "tally",
    ["fall", "fire", "poison", "shock", "hang_on", "recover", "cheer"],
)
def test_O8_every_tally_of_health_has_no_difficulty(tally: str) -> None:
    """O-8: a difficulty is at least 1 success; the rolls that only count successes (O-23
    fall, O-26 fire, O-27 poison, O-28 shock, O-31 hanging on, O-33 recovery without
    rest, O-34 cheering) are tallies: no difficulty, verdict nor margin in their record."""
    body = fresh()
    if tally == "fall":
        test = health.fall(body, reader(4, 1), 3, Dice(2))["test"]
    elif tally == "fire":
        test = health.fire(body, reader(4, 1), 3, Dice(2), 0)["rounds"][0]["test"]
    elif tally == "poison":
        test = health.poison(body, reader(4, 1), 3, 3, Dice(2))["periods"][0]["test"]
    elif tally == "shock":
        test = health.shock(reader(4, 1), 5, Dice(2))["test"]
    elif tally == "hang_on":
        body.vie = -12
        test = health.hang_on(body, reader(4, *[1] * 7), Dice(8))["test"]
    elif tally == "recover":
        body.vie = 6
        out = health.recover(body, reader(4, *[1] * 7), Dice(8), days=6, rest=False)
        test = out["periods"][0]["test"]
    else:
        test = health.cheer([body], reader(4, 1), Dice(2))["test"]
    assert test["successes"] == 1 and not test["fumble"]
    assert (test["difficulty"], test["passed"], test["margin"]) == (None, None, None)


def test_O27_O32_poison_is_an_intemperie_and_a_dispersion_of_1_ends() -> None:
    """O-27: Virulence − Résistance successes each Période, then the Virulence drops by
    the Dispersion: 2 then 1, so a Dispersion of 1 ends by itself (only 0 needs
    --steps). O-32: poison is an Intempérie, not a wound: every HP lost is recorded as
    one."""
    body = fresh()
    out = health.poison(body, reader(1, 1, 1, 1), 2, 1, Dice(2))
    assert [p["virulence"] for p in out["periods"]] == [2, 1]
    assert [p["lost"] for p in out["periods"]] == [2, 1]
    assert body.vie == 9 and body.wounds == []
    assert sum(i.points for i in body.intemperies) == 3
    assert {i.source for i in body.intemperies} == {"poison"}


def test_O30_the_report_names_the_wound_that_worsened() -> None:
    """O-30: only the untreated wound of 3+ points worsens (table provisoire: +1 from 3),
    and the report names it by its number on the sheet, from 1: the 2nd here."""
    body = fresh(5)
    body.wounds = [Wound(4, "coup", treated=True), Wound(3, "coup")]
    out = health.aggravate(body, 1)
    assert out["changes"] == [{"wound": 2, "worsened_by": 1}] and out["lost"] == 1


def test_O31_exactly_six_vecu_is_enough_to_hang_on() -> None:
    """O-31: *s'accrocher à la vie* costs 6 Vécu: a dead character with exactly 6 may,
    and is left with 0."""
    dead = Body("x", -10, 10, vecu=6)
    out = health.hang_on(dead, reader(6, 1, 1), Dice(7))
    assert out["vecu_spent"] == 6 and dead.vecu == 0 and out["minutes"] == 2


def test_O32_first_aid_takes_the_worst_untreated_wound_or_the_one_named() -> None:
    """O-32, ``heal --wound N`` (default: the worst): the worst untreated wound is
    treated, a treated one never again (it no longer worsens); a wound named by its
    number (from 1) is the one treated; a wound of 1 or 2 points has Difficulté 1
    (table provisoire: from 1), and of 0 points is no wound."""
    body = fresh(10)
    body.wounds = [Wound(2, "coup"), Wound(6, "coup", treated=True), Wound(5, "coup")]
    out = health.treat(body, reader(6, 4, 1), Dice(3))
    assert out["wound"] == 3 and out["wound_points"] == 5 and out["test"]["difficulty"] == 2
    assert out["healed"] == 1 and body.wounds[2].points == 4 and body.wounds[2].treated
    out = health.treat(body, reader(4, 1, 1), Dice(3), wound=1)
    assert out["wound"] == 1 and out["test"]["difficulty"] == 1
    assert out["healed"] == 0 and out["treated"] and body.wounds[0].treated
    with pytest.raises(RuleError):
        health.treat(body, reader(6, 6, 6), Dice(3), wound=2)  # treated already
    single = fresh(11)
    single.wounds = [Wound(1, "coup")]
    out = health.treat(single, reader(6, 1), Dice(2))
    assert out["test"]["difficulty"] == 1 and out["healed"] == 1 and single.vie == 12
    healed = fresh()
    healed.wounds = [Wound(0, "coup")]
    with pytest.raises(RuleError):
        health.treat(healed, reader(6, 6), Dice(2))


def test_O34_catching_breath_only_after_exhaustion_and_within_the_maximum() -> None:
    """O-34: « Volonté at 0 ... then 1 Volonté comes back »: only an exhausted character
    (Volonté 0) gets it back, a maximum of 1 is enough, a maximum of 0 has none to give;
    at Volonté 1 or 3 nothing happens."""
    for volonte, most, back in ((0, 1, 1), (0, 0, 0), (1, 5, 0), (3, 5, 0)):
        body = Body("x", 5, 5, volonte=volonte, volonte_max=most)
        assert health.catch_breath(body) == back
        assert body.volonte == volonte + back


def test_O33_a_healed_wound_leaves_the_sheet_a_scratch_stays() -> None:
    """O-33: recovery heals wounds; a wound healed to 0 points is gone from the sheet,
    one of 1 point left is still a wound. The record says whether it was at rest."""
    body = fresh(7)
    body.wounds = [Wound(3, "coup"), Wound(2, "coup")]
    out = health.recover(body, reader(), Dice(4), days=6, rest=True)
    assert out["rest"] is True and out["gained"] == 4
    assert [(w.points, w.source) for w in body.wounds] == [(1, "coup")]
    body = fresh(7)
    body.wounds = [Wound(5, "coup")]
    out = health.recover(body, reader(6, 6, 1), Dice(3), days=6, rest=False)
    assert out["rest"] is False and out["gained"] == 3
    assert [w.points for w in body.wounds] == [2]


def test_O29_an_unhurt_body_has_lost_nothing() -> None:
    """O-29: the pain malus is read from the HP lost: at full Vie that is 0 (not 1, which a
    user's pain table may already count), 3 below it; never negative."""
    assert Body("x", 12, 12).lost == 0
    assert Body("x", 9, 12).lost == 3
    assert Body("x", -2, 12).lost == 14


def test_O24_O31_the_coma_of_no_air_is_told_apart_from_vie_at_0() -> None:
    """O-24: out of dice against asphyxia with Vie 1, still above 0, is the coma for lack
    of air (until the air returns); O-31: at Vie 0 the coma is the wounds' one (heal them
    first), out of air or not."""
    with pytest.raises(RuleError) as airless:
        refuse_coma(Body("x", 1, 10, asphyxia_coma=True))
    assert "O-24" in str(airless.value) and "O-31" not in str(airless.value)
    with pytest.raises(RuleError) as wounded:
        refuse_coma(Body("x", 0, 10, asphyxia_coma=True))
    assert "O-31" in str(wounded.value) and "O-24" not in str(wounded.value)
    refuse_coma(Body("x", 1, 10))  # standing: nothing refused


def isaure_with(folder: Path, **changes: Any) -> Path:
    """The example sheet isaure.json as ``sheet(**changes)`` gives it, written in ``folder``."""
    path = folder / "isaure.json"
    path.write_text(json.dumps(sheet(**changes), ensure_ascii=False), encoding="utf-8")
    return path


def test_O32_O38_records_at_0_points_leave_the_sheet_those_of_1_stay(tmp_path: Path) -> None:
    """O-32/O-38: a wound or an Intempérie healed to 0 points is gone from the sheet when
    the body is saved; one of 1 point is still there, Intempérie as much as wound."""
    etat = {
        "blessures": [{"points": 0, "source": "chute"}, {"points": 1, "source": "coup"}],
        "intemperies": [{"points": 0, "source": "Soif"}, {"points": 1, "source": "Froid"}],
    }
    path = isaure_with(tmp_path, etat=etat)
    character = load_character(path)
    save_body(character, body_of(character))
    saved = load_character(path).sheet.state
    assert saved["blessures"] == [{"points": 1, "source": "coup", "soignee": False}]
    assert saved["intemperies"] == [{"points": 1, "source": "Froid"}]


def test_O38_a_sheet_without_etat_is_not_dependant_and_unnamed_takes_its_file(
    tmp_path: Path,
) -> None:
    """O-38: a sheet that records no state is nobody Dépendant, with no wound, no
    Intempérie, no malus; saved, it says so; nor is a body built without one (the
    procedures' examples). A sheet that leaves its name out is named by its file."""
    assert not Body("x", 10, 10).dependent
    path = isaure_with(tmp_path, name=None)
    character = load_character(path)
    body = body_of(character)
    assert not body.dependent and not body.asphyxia_coma and body.status == "ok"
    assert (body.wounds, body.intemperies, body.asphyxia, body.fatigue) == ([], [], 0, 0)
    assert body.name == str(path)
    save_body(character, body)
    assert load_character(path).sheet.state["dependant"] is False
