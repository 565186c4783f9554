"""Obscur survival (O-35 to O-39) and encumbrance (O-42)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meneur.errors import RuleError, SheetError
from meneur.systems.base import FaceReader
from meneur.systems.obscur.encumbrance import (
    MarchParams,
    load_of,
    march,
    movement_malus,
    over_encumbrance,
)
from meneur.systems.obscur.encumbrance import (
    test_difficulty as load_test_difficulty,
)
from meneur.systems.obscur.gear import Load, Survival
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.state import Body, Intemperie
from meneur.systems.obscur.survival import (
    DayParams,
    Milieu,
    Traveller,
    aid_cost,
    hostility,
    milieu_from,
    milieu_named,
    milieux,
    potential,
    reduced_factors,
    resolve_day,
    resolve_journey,
)


def test_O35_milieux_are_data_with_six_factors_0_to_3() -> None:
    """O-35: a Milieu rates Faim, Froid, Obscurité, Soif, Spécial, Vents 0-3."""
    assert len(milieux().milieux) >= 3
    name, tunnels = milieu_named("tunnels")
    assert name == "Tunnels" and tunnels.obscurite == 3
    with pytest.raises(SheetError, match="froid"):
        milieu_from({"faim": 1, "froid": 4}, "x.toml")
    with pytest.raises(RuleError):
        milieu_named("Lune")


def test_O36_gear_reduces_factors_and_hostility_is_their_sum() -> None:
    """O-36: Rations/Vêtements/Éclairage/Distillateurs/Filtres reduce Faim/Froid/Obscurité/
    Soif/Vents, not below 0; Spécial has no gear."""
    milieu = Milieu(faim=2, froid=3, obscurite=1, soif=2, special=2, vents=1)
    gear = Survival(rations=1, vetements=5, eclairage=1, distillateurs=0, filtres=1)
    assert reduced_factors(milieu, gear) == {
        "faim": 1,
        "froid": 0,
        "obscurite": 0,
        "soif": 2,
        "special": 2,
        "vents": 0,
    }
    assert hostility(milieu, gear) == 5
    assert hostility(milieu, Survival()) == 11


MILD = Milieu(faim=1, froid=1)  # hostility 2 without gear


def traveller(name: str, dice: int, **kw: object) -> Traveller:
    return Traveller(name, Dice(dice), Survival(), **kw)  # type: ignore[arg-type]


def bodies(n: int) -> list[Body]:
    return [Body(f"m{i}", 10, 10) for i in range(n)]


def test_O37_ps_positive_zero_negative() -> None:
    """O-37: PS = (Marcheur + Milieu) − Hostilité. PS > 0: test at SR 1 (success: fine with
    MR; failure: Dépendant). PS = 0: an Intempérie of one die (0/1/2) or Dépendant, by
    choice. PS < 0: an Intempérie of |PS|."""
    party = (
        traveller("ok", 4),  # PS 2: faces 6,4 -> 3 successes, MR 2
        traveller("ko", 3),  # PS 1: face 1 -> Dépendant
        traveller("zero", 2),  # PS 0: one die, 6 -> Intempérie of 2
        traveller("zero-dep", 2, at_zero="dependant"),
        traveller("neg", 0),  # PS -2 -> Intempérie of 2
    )
    assert [potential(t, MILD) for t in party] == [2, 1, 0, 0, -2]
    group = bodies(5)
    faces = ((6, 4), (1,), (6,), (), ())
    day = resolve_day(DayParams("mild", MILD, party), group, FaceReader(faces))
    results = [m["result"] for m in day["members"]]
    assert results == ["fine", "dependant", "intemperie", "dependant", "intemperie"]
    assert day["members"][0]["margin"] == 2
    assert day["members"][2]["intemperie"] == 2 and day["members"][4]["intemperie"] == 2
    # the MR 2 helps one Dépendant (cost 1), not two (1 + 2 = 3 > 2)
    assert day["members"][0]["helps"] == ["ko"]
    assert day["members"][1]["helped_by"] == "ok"
    assert group[1].vie == 10 and not group[1].dependent
    # the second Dépendant was not helped and had no Intempérie: contracts one of 1
    assert group[3].vie == 9 and group[3].dependent
    zero_one = resolve_day(
        DayParams("mild", MILD, (traveller("zero", 2),)), bodies(1), FaceReader(((4,),))
    )
    assert zero_one["members"][0]["intemperie"] == 1


def test_O38_dependant_not_helped_worsens_latest_intemperie() -> None:
    """O-38: a Dépendant not helped: their latest Intempérie worsens by 1."""
    group = bodies(1)
    group[0].intemperies = [Intemperie(1, "Faim"), Intemperie(2, "Froid")]
    group[0].vie = 7
    day = resolve_day(DayParams("m", MILD, (traveller("alone", 3),)), group, FaceReader(((1,),)))
    assert day["members"][0]["worsened"] == "Froid"
    assert group[0].intemperies[-1].points == 3 and group[0].vie == 6


def test_O39_mutual_aid_costs_1_then_2_then_3() -> None:
    """O-39: the 1st Dépendant helped costs 1 MR, the 2nd 2, the 3rd 3..."""
    assert [aid_cost(n) for n in range(5)] == [0, 1, 3, 6, 10]
    party = (traveller("guide", 8), *(traveller(f"d{i}", 3) for i in range(3)))
    # guide: PS 6, faces 6,6,6,1,1,1 -> 6 successes, MR 5: helps 2 (1 + 2), 2 left
    faces = ((6, 6, 6, 1, 1, 1), (1,), (1,), (1,))
    group = bodies(4)
    day = resolve_day(DayParams("m", MILD, party), group, FaceReader(faces))
    guide = day["members"][0]
    assert guide["margin"] == 5 and guide["helps"] == ["d0", "d1"] and guide["margin_left"] == 2
    assert [b.dependent for b in group] == [False, False, False, True]


def test_O37_party_of_zero_and_journey_replays() -> None:
    with pytest.raises(RuleError):
        DayParams("m", MILD, ())
    from meneur.rng import make_source
    from meneur.systems.obscur.procedures import JourneyParams, ObscurJourney

    party = (traveller("a", 3), traveller("b", 2))
    params = DayParams("m", MILD, party)
    journey = ObscurJourney()
    procedure = JourneyParams(params, tuple(bodies(2)), 5)
    source = make_source(seed=5)
    rolled = journey.roll(procedure, [source, source])
    assert resolve_journey(params, bodies(2), rolled.faces, 5) == rolled.outcome.days
    stored = journey.params_from_json(journey.params_json(procedure))
    assert journey.resolve(stored, rolled.faces) == rolled.outcome


def test_O42_encumbrance_surencombrement_and_march_tests() -> None:
    """O-42: the load must stay strictly below Encombrement: Surencombrement = load −
    Encombrement + 1 once it reaches it, a movement malus; every
    (Résistance) hours a Résistance + Endurance test, difficulty = Surencombrement +
    tests already made that day; each failure −1 die on all rolls, cumulative."""
    load = load_of([Load(name="Sac", encombrement=8), Load(name="Tente", encombrement=6)])
    assert load == 14 and over_encumbrance(14, 12) == 3 and over_encumbrance(12, 12) == 1
    assert over_encumbrance(11, 12) == 0 and over_encumbrance(0, 0) == 0
    assert movement_malus(14, 12) == 3
    assert load_test_difficulty(2, 0) == 2 and load_test_difficulty(2, 3) == 5
    body = Body("x", 10, 10)
    params = MarchParams(13, 12, 3, Dice(4), 9)
    # tests at hours 3, 6, 9: difficulty 2, 3, 4
    faces = (6, 4, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1)  # hours 3, 6, 9
    out = march(params, body, FaceReader((faces,)))
    assert [t["hour"] for t in out["tests"]] == [3, 6, 9]
    assert [t["test"]["difficulty"] for t in out["tests"]] == [2, 3, 4]
    assert [t["test"]["passed"] for t in out["tests"]] == [True, True, False]
    assert [t["test"]["dice"] for t in out["tests"]] == [4, 4, 4]
    assert body.fatigue == 1 and body.load_tests == 3
    # not over-encumbered: no test
    assert (
        march(MarchParams(5, 12, 3, Dice(4), 9), Body("y", 10, 10), FaceReader(((),)))["tests"]
        == []
    )


def test_O42_the_hours_of_a_day_add_up_across_marches() -> None:
    """O-42: « every (Résistance) hours » counts the day's hours over-encumbered, not one
    march's: two marches of an hour with Résistance 2 make one test (none was made, so a
    load could be carried all day an hour at a time), at the second march's first hour;
    the rest carries to the next march, and a rest (a new day) forgets it."""
    body = Body("x", 10, 10)
    one_hour = MarchParams(14, 12, 2, Dice(2), 1)
    first = march(one_hour, body, FaceReader(((),)))
    assert first["tests"] == [] and first["carried_hours"] == 0 and body.load_hours == 1
    second = march(one_hour, body, FaceReader(((6, 6),)))
    assert [t["hour"] for t in second["tests"]] == [1] and second["carried_hours"] == 1
    assert body.load_hours == 0 and body.load_tests == 1
    three = march(MarchParams(14, 12, 2, Dice(2), 3), body, FaceReader(((1, 1),)))
    assert [t["hour"] for t in three["tests"]] == [2] and body.load_hours == 1
    # a march unburdened adds no hour; a Résistance that dropped tests at once
    assert march(MarchParams(5, 12, 2, Dice(2), 4), body, FaceReader(((),)))["tests"] == []
    assert body.load_hours == 1
    assert march(MarchParams(14, 12, 1, Dice(2), 1), body, FaceReader(((6, 6),)))["tests"]


def test_O37_a_maladresse_on_the_survival_test_earns_vecu() -> None:
    """O-3 on the daily test: all dice 1 is a Maladresse, +1 Vécu."""
    group = bodies(1)
    resolve_day(DayParams("m", MILD, (traveller("x", 4),)), group, FaceReader(((1, 1),)))
    assert group[0].vecu == 1 and group[0].dependent


def test_O35_a_milieu_rates_each_threat_0_to_3_and_an_unrated_one_is_0() -> None:
    """O-35: each Facteur d'Agression is 0 to 3 (below 0 is refused too); a threat the
    Milieu does not rate is 0, so only Obscurité 2 counts (O-36: Hostilité 2)."""
    with pytest.raises(SheetError, match="faim"):
        milieu_from({"faim": -1}, "x.toml")
    dark = Milieu(obscurite=2)
    assert dark.faim == dark.froid == 0
    assert reduced_factors(dark, Survival()) == {
        "faim": 0,
        "froid": 0,
        "obscurite": 2,
        "soif": 0,
        "special": 0,
        "vents": 0,
    }
    assert hostility(dark, Survival()) == 2


def test_O37_a_party_is_1_to_12_and_a_journey_1_to_60_days() -> None:
    """O-37: a day is for a party of 1 to 12 travellers; a journey lasts 1 to 60 days."""
    DayParams("m", MILD, (traveller("a", 3),))
    DayParams("m", MILD, tuple(traveller(f"t{i}", 3) for i in range(12)))
    with pytest.raises(RuleError):
        DayParams("m", MILD, tuple(traveller(f"t{i}", 3) for i in range(13)))
    params = DayParams("m", MILD, (traveller("a", 0),))  # PS -2: no dice read
    assert len(resolve_journey(params, bodies(1), ((),), 60)) == 60
    for days in (0, 61):
        with pytest.raises(RuleError):
            resolve_journey(params, bodies(1), ((),), days)


def test_O37_O38_an_intemperie_comes_from_the_worst_threat_left() -> None:
    """O-37/O-38: an Intempérie is named after the highest factor left after gear (the
    first in the text's order on a tie): Froid 2 beats Faim 1; Vêtements 1 bring Froid to
    1, level with Faim, which comes first."""
    milieu = Milieu(faim=1, froid=2)
    group = bodies(2)
    party = (traveller("cold", 0), Traveller("dressed", Dice(0), Survival(vetements=1)))
    resolve_day(DayParams("m", milieu, party), group, FaceReader(((), ())))
    assert [b.intemperies[-1].source for b in group] == ["Froid", "Faim"]


def test_O37_at_ps_0_one_die_gives_an_intemperie_of_its_successes() -> None:
    """O-37: at PS 0 the Intempérie is one die's successes: faces 1-3 give 0, 4-5 give 1,
    6 gives 2; the points lost are an Intempérie (O-32: they heal only with rest), not a
    wound."""
    points = []
    for face in range(1, 7):
        group = bodies(1)
        day = resolve_day(
            DayParams("m", MILD, (traveller("zero", 2),)), group, FaceReader(((face,),))
        )
        points.append(day["members"][0]["intemperie"])
        assert group[0].wounds == []
        assert sum(i.points for i in group[0].intemperies) == points[-1]
    assert points == [0, 0, 0, 1, 1, 2]


def test_O38_a_dependant_with_no_intemperie_contracts_one_of_1() -> None:
    """O-38: a Dépendant not helped who has no Intempérie yet contracts one of 1 (an
    Intempérie, from the worst threat, not a wound), and the day says so."""
    group = bodies(1)
    day = resolve_day(DayParams("m", MILD, (traveller("alone", 3),)), group, FaceReader(((1,),)))
    assert day["members"][0]["contracted"] == 1
    assert group[0].wounds == []
    assert [(i.points, i.source) for i in group[0].intemperies] == [(1, "Faim")]


def test_O39_an_mr_that_equals_the_cost_still_helps() -> None:
    """O-39: the 1st Dépendant costs 1 MR: an MR of exactly 1 helps one, leaving 0."""
    party = (traveller("guide", 4), traveller("lost", 3))  # PS 2 and 1
    group = bodies(2)
    day = resolve_day(DayParams("m", MILD, party), group, FaceReader(((4, 4), (1,))))
    guide = day["members"][0]
    assert guide["margin"] == 1 and guide["helps"] == ["lost"] and guide["margin_left"] == 0
    assert not group[1].dependent


def test_O39_the_largest_mr_helps_first() -> None:
    """O-39, in the order docs/obscur-play.md gives (the text gives none): the largest MR
    helps first. « big » (MR 3: 6, 4, 4 for a difficulty of 1) pays 1 then 2 for both
    Dépendants; « small » (MR 1), before it in the party, helps nobody and keeps its MR."""
    party = (traveller("small", 4), traveller("big", 5), traveller("d0", 3), traveller("d1", 3))
    faces = ((4, 4), (6, 4, 4), (1,), (1,))  # PS 2, 3, 1, 1 in a mild milieu
    day = resolve_day(DayParams("m", MILD, party), bodies(4), FaceReader(faces))
    small, big = day["members"][:2]
    assert (big["margin"], big["helps"], big["margin_left"]) == (3, ["d0", "d1"], 0)
    assert (small["margin"], small["helps"], small["margin_left"]) == (1, [], 1)


def test_O42_a_load_of_1_reaching_the_resource_is_overloaded() -> None:
    """O-42: the load must stay strictly below the resource, however small: 1 against 1
    is over by 1, 1 against 0 by 2; only nothing carried is never overloaded."""
    assert over_encumbrance(1, 1) == 1 and over_encumbrance(1, 0) == 2
    assert over_encumbrance(0, 0) == 0


def test_O42_a_march_lasts_1_to_24_hours() -> None:
    """O-42: a march is counted in hours of one day: 1 to 24."""
    for hours in (1, 24):
        assert MarchParams(5, 12, 3, Dice(2), hours).hours == hours
    for hours in (0, 25):
        with pytest.raises(RuleError):
            MarchParams(5, 12, 3, Dice(2), hours)


def test_O42_a_resistance_of_1_or_0_tests_every_hour() -> None:
    """O-42: « every (Résistance) hours »: Résistance 1 tests each hour; Résistance 0
    cannot mean never, so it tests each hour too."""
    for resistance in (1, 0):
        body = Body("x", 10, 10)
        out = march(MarchParams(14, 12, resistance, Dice(1), 3), body, FaceReader(((6, 6, 6),)))
        assert out["every_hours"] == 1 and out["carried_hours"] == 0
        assert [t["hour"] for t in out["tests"]] == [1, 2, 3]
        assert body.load_hours == 0


def test_O42_hours_carried_past_a_lower_resistance_test_once_at_the_first_hour() -> None:
    """O-42: hours carried from a march at Résistance 4 count at most one period of the
    new Résistance 2: the next march tests at its 1st hour (not at an hour 0 or before),
    then every 2 hours; an unburdened march carries nothing."""
    body = Body("x", 10, 10)
    first = march(MarchParams(14, 12, 4, Dice(1), 3), body, FaceReader(((),)))
    assert first["tests"] == [] and body.load_hours == 3
    second = march(MarchParams(14, 12, 2, Dice(1), 3), body, FaceReader(((6, 6),)))
    assert second["carried_hours"] == 1
    assert [t["hour"] for t in second["tests"]] == [1, 3]
    light = march(MarchParams(5, 12, 2, Dice(1), 3), body, FaceReader(((),)))
    assert light["carried_hours"] == 0 and light["tests"] == []


def test_O37_a_traveller_is_named_by_its_sheet_else_by_its_file(tmp_path: Path) -> None:
    """A day's report names each traveller by the sheet's name, and by its file when the
    sheet has none (a hand-written sheet may leave it out)."""
    import json

    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.survival import traveller_of
    from systems.obscur.test_obscur_sheet import EXAMPLES, sheet

    named = traveller_of(load_character(EXAMPLES / "garance.toml"))
    assert named.name == "Garance l'Épéiste"
    path = tmp_path / "sans-nom.json"
    path.write_text(json.dumps(sheet(name=None), ensure_ascii=False), encoding="utf-8")
    assert traveller_of(load_character(path)).name == str(path)


def test_O36_bad_survival_gear_is_an_error_naming_the_sheet(tmp_path: Path) -> None:
    """O-36: the gear indices are read from the sheet when the party sets out; a bad
    index is a clear error that names the sheet's file, not a traceback."""
    import json

    from meneur.systems.obscur.sheet import load_character
    from meneur.systems.obscur.survival import traveller_of

    examples = Path(__file__).resolve().parents[3] / "examples" / "obscur"
    raw = json.loads((examples / "isaure.json").read_text(encoding="utf-8"))
    raw["equipement"] = {"survie": {"rations": "beaucoup"}}
    path = tmp_path / "isaure.json"
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(SheetError, match=r"isaure\.json"):
        traveller_of(load_character(path))
