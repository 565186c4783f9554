"""Issue 15: Obscur as the text says — the sheet's conditions on every roll, difficulty at
least 1, asphyxia's coma, shock on any Vie lost, recovery, ranged combat, survival with
physical dice, the overload threshold (rule ids in each test)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke, one_line_error
from meneur.errors import LimitError, RuleError
from meneur.systems.base import FaceReader
from meneur.systems.obscur import health
from meneur.systems.obscur.combat import FightParams, action_rank, fighter_of
from meneur.systems.obscur.encumbrance import over_encumbrance
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.rules import TestParams as Params
from meneur.systems.obscur.sheet import load_character
from meneur.systems.obscur.state import Body, Intemperie, Wound, body_of

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"


def sheet_pool(character: object, trait: str) -> Any:
    """The one derivation of a sheet's pool (imported here: new in issue 15)."""
    from meneur.systems.obscur.conditions import sheet_pool as derive

    return derive(character, trait)  # type: ignore[arg-type]


def maluses(**named: int) -> Any:
    from meneur.systems.obscur.rules import Maluses

    return Maluses(**named)


def wounded_isaure(folder: Path, *, volonte: int = 5) -> Path:
    """Isaure at Vie 6/12 (a blow of 6: pain 2, table provisoire) and fatigue 1 (O-42)."""
    path = folder / "isaure.json"
    raw = json.loads(path.read_text())
    raw["ressources"]["vie"]["current"] = 6
    raw["ressources"]["volonte"]["current"] = volonte
    raw["etat"] = {"blessures": [{"points": 6, "source": "coup"}], "fatigue": 1}
    path.write_text(json.dumps(raw, ensure_ascii=False))
    return path


def test_O29_conditions_reach_test_odds_and_push_with_their_breakdown(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-29 (and O-42 fatigue): the wounded, fatigued Isaure rolls Acrobaties + Agilité
    with 5 − 2 pain − 1 fatigue = 2 dice in test, odds and push alike, shown as such."""
    path = wounded_isaure(sheets)
    args = ("--sheet", str(path), "--trait", "Acrobaties")
    rolled = invoke(capsys, "test", "obscur", *args, "--faces", "6,4", "--json")
    assert rolled.status == 0, rolled.err
    data = rolled.json()
    assert data["faces"] == [6, 4] and data["dice"] == 2
    assert data["pool"] == {
        "base": 5,
        "modifier": 0,
        "extra_dice": 0,
        "maluses": {"pain": 2, "fatigue": 1},
        "dice": 2,
    }
    odds = invoke(capsys, "odds", "obscur", *args, "--json").json()
    assert odds["pool"] == data["pool"]
    # 2 dice, difficulty 1: P(at least one 4+) = 1 − (1/2)²
    assert Fraction(odds["exact"]["p_success"]) == Fraction(3, 4)
    push = invoke(capsys, "push", "obscur", *args, "--points", "0", "--json").json()
    assert push["dice"] == 2 and push["pool"] == data["pool"]
    human = invoke(capsys, "test", "obscur", *args, "--faces", "6,4", "--lang", "fr")
    assert "5 dés − 2 douleur − 1 fatigue = 2 dés" in human.out
    english = invoke(capsys, "odds", "obscur", *args, "--lang", "en")
    assert "5 dice − 2 pain − 1 fatigue = 2 dice" in english.out


def test_O29_one_derivation_for_the_cli_and_the_web(sheets: Path) -> None:
    """O-29: the web table's params (its roll, its odds, its Dépassement) are built by the
    same function as the CLI's: the same pool, the same exact odds."""
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.web.systems import RollOptions

    path = wounded_isaure(sheets)
    sheet = json.loads(path.read_text())
    params = ObscurWeb().params(sheet, "Acrobaties", RollOptions(difficulty=1))
    cli = sheet_pool(load_character(path), "Acrobaties").params()
    assert params == cli and params.pool == 2
    assert ObscurWeb().success(params) == Fraction(3, 4)


def test_O38_intemperies_give_maluses_like_wounds_shown_apart() -> None:
    """O-38: Intempéries cost Vie and give maluses like wounds: the pain table is read on
    all the HP lost, and the breakdown shows the Intempéries' share apart."""
    body = Body("x", 6, 12, wounds=[Wound(3)], intemperies=[Intemperie(3, "Froid")])
    found = health.maluses_of(body)
    assert found == maluses(pain=1, intemperies=1)  # 3 HP: 1; 6 HP: 2 (table provisoire)
    assert found.total == health.pain_malus(6)


def test_O42_movement_malus_on_movement_rolls_only(sheets: Path) -> None:
    """O-42: Mireille carries 10 for an Encombrement of 10: overloaded by 1, a malus on
    her Agilité-based tests and her Rang d'Action, not on her other rolls."""
    mireille = load_character(sheets / "mireille.toml")
    assert sheet_pool(mireille, "Acrobaties").maluses == maluses(movement=1)
    assert sheet_pool(mireille, "Agilité").maluses == maluses(movement=1)
    assert sheet_pool(mireille, "Milieu").maluses == maluses()
    fighter = fighter_of(mireille)
    assert fighter.overload == 1
    assert action_rank(fighter, fighter.arms) == 3 - 3 - 1  # Agilité − Arbalète's Initiative
    body = Body("x", 12, 12, overload=2)
    out = health.fall(body, FaceReader(((6, 6, 6),)), 3, Dice(5))
    assert out["test"]["pool"]["maluses"] == {"movement": 2} and out["test"]["dice"] == 3


def test_O42_a_load_equal_to_the_resource_is_overloaded() -> None:
    """O-42: « doit rester inférieur »: a load equal to Encombrement is over by 1."""
    assert over_encumbrance(10, 10) == 1
    assert over_encumbrance(9, 10) == 0
    assert over_encumbrance(12, 10) == 3
    assert over_encumbrance(0, 0) == 0  # nothing carried


def test_O8_a_difficulty_of_0_is_refused_in_the_cli_and_the_web(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-8: « obtenir au moins 1 Succès »: a difficulty of 0 is refused with one line, the
    same in the CLI and the web (it is the params' own check); a Maladresse never passes."""
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.web.systems import RollOptions

    fr = one_line_error(
        invoke(
            capsys,
            "test",
            "obscur",
            "--dice",
            "2",
            "--difficulty",
            "0",
            "--faces",
            "1,1",
            "--lang",
            "fr",
        )
    )
    assert "au moins 1 Succès" in fr and "O-8" in fr
    en = one_line_error(
        invoke(capsys, "odds", "obscur", "--dice", "2", "--difficulty", "0", "--lang", "en")
    )
    with pytest.raises(RuleError) as web:
        ObscurWeb().params(
            json.loads((sheets / "isaure.json").read_text()), "Agilité", RollOptions(difficulty=0)
        )
    assert web.value.message.format(**web.value.params) in en  # one message for both
    assert "A difficulty is at least 1 success (O-8" in en
    with pytest.raises(RuleError):
        Params(2, difficulty=0)
    fumble = invoke(capsys, "test", "obscur", "--dice", "2", "--faces", "1,1", "--json").json()
    assert fumble["fumble"] and not fumble["passed"]


def test_O34_volonte_at_0_refuses_tests_until_breath_is_caught(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-34: Volonté 0, incapable of effort: a test from the sheet is refused with the
    reason (CLI and web) until the GM records the minutes (heal --catch-breath)."""
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.web.systems import RollOptions

    path = wounded_isaure(sheets, volonte=0)
    args = ("test", "obscur", "--sheet", str(path), "--trait", "Crochetage", "--faces", "6,1,1")
    line = one_line_error(invoke(capsys, *args, "--lang", "en"))
    assert "O-34" in line and "Volonté 0" in line
    with pytest.raises(RuleError, match="O-34"):
        ObscurWeb().params(json.loads(path.read_text()), "Agilité", RollOptions())
    exhausted = load_character(path)
    corbeau = load_character(sheets / "corbeau.toml")
    with pytest.raises(RuleError, match="O-34"):
        FightParams(
            fighter_of(exhausted), fighter_of(corbeau), body_of(exhausted), body_of(corbeau)
        )
    breath = invoke(capsys, "heal", "obscur", "--sheet", str(path), "--catch-breath", "--json")
    assert breath.status == 0, breath.err
    assert breath.json()["after"]["volonte"] == 1
    assert invoke(capsys, *args).status == 0
    one_line_error(invoke(capsys, "heal", "obscur", "--sheet", str(path), "--catch-breath"))


def test_O32_O33_recovery_without_rest_never_heals_intemperies(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-32, O-33: a Froid 1 is not healed by recovery without rest, only by rest."""
    path = sheets / "isaure.json"
    raw = json.loads(path.read_text())
    raw["ressources"]["vie"]["current"] = 11
    raw["etat"] = {"intemperies": [{"points": 1, "source": "Froid"}]}
    path.write_text(json.dumps(raw, ensure_ascii=False))
    no_rest = invoke(
        capsys, "rest", "obscur", "--sheet", str(path), "--no-rest", "--faces", "6,6", "--json"
    )
    assert no_rest.status == 0, no_rest.err
    data = no_rest.json()
    assert data["result"]["gained"] == 0 and data["after"]["vie"] == 11
    assert data["after"]["intemperies"] == [{"points": 1, "source": "Froid"}]
    rest = invoke(capsys, "rest", "obscur", "--sheet", str(path), "--json").json()
    assert rest["after"]["vie"] == 12 and rest["after"]["intemperies"] == []


def test_O33_recovery_without_rest_counts_6_day_periods(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-33: without rest, 30 days are five 6-day periods: five tests, each capped at
    Résistance + Régénération; 5 days are no whole period: no test."""
    body = Body("x", 2, 20, wounds=[Wound(18)])
    out = health.recover(body, FaceReader(((6, 6, 6) * 5,)), Dice(3), days=30, rest=False)
    assert len(out["periods"]) == 5
    # 12 HP lost at the start: pain 4 (table provisoire) takes every die: 0 each period
    assert [p["gained"] for p in out["periods"]] == [0, 0, 0, 0, 0]
    fresh = Body("y", 16, 20, wounds=[Wound(4)])
    out = health.recover(fresh, FaceReader(((6, 6, 6) * 2,)), Dice(3), days=13, rest=False)
    assert [p["test"]["successes"] for p in out["periods"]] == [4, 6]  # pain 1 then 0
    assert [p["gained"] for p in out["periods"]] == [3, 1] and fresh.vie == 20
    assert (
        health.recover(Body("z", 10, 20), FaceReader(((),)), Dice(3), days=5, rest=False)["periods"]
        == []
    )
    path = sheets / "isaure.json"
    raw = json.loads(path.read_text())
    raw["ressources"]["vie"]["current"] = 10
    path.write_text(json.dumps(raw, ensure_ascii=False))
    cli = invoke(
        capsys, "rest", "obscur", "--sheet", str(path), "--no-rest", "--days", "30", "--seed", "1"
    )
    assert cli.status == 0, cli.err
    data = invoke(
        capsys,
        "rest",
        "obscur",
        "--sheet",
        str(path),
        "--no-rest",
        "--days",
        "30",
        "--seed",
        "1",
        "--dry-run",
        "--json",
    ).json()
    assert len(data["result"]["periods"]) == 5


def test_O24_asphyxia_coma_is_recorded_and_costs_the_threshold_each_round(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-24: at 0 dice the character falls into a coma, recorded on the sheet while Vie
    is still above 0; each later step is a round costing the threshold in Vie."""
    body = Body("x", 12, 12)
    out = health.asphyxia(body, FaceReader(((1, 1),)), "gaz", Dice(2), minutes=3)
    first, second, third = out["minutes"]
    assert first["test"]["margin"] == -3 and first["coma"] and body.asphyxia_coma
    assert second == {"round": 1, "coma": True, "lost": 3}
    assert third == {"round": 2, "coma": True, "lost": 3}
    assert body.vie == 6 and body.coma  # Vie above 0, in a coma all the same
    path = sheets / "isaure.json"
    hurt = invoke(
        capsys,
        "hurt",
        "obscur",
        "--sheet",
        str(path),
        "--asphyxia",
        "sans air",
        "--faces",
        "1,1,1",
        "--json",
    )
    assert hurt.status == 0, hurt.err
    saved = load_character(path).sheet.state
    assert saved["coma_asphyxie"] is True and load_character(path).resource("vie").current == 12
    line = one_line_error(
        invoke(capsys, "fight", "obscur", "--a", str(path), "--b", str(sheets / "corbeau.toml"))
    )
    assert "O-24" in line  # in a coma for lack of air: no fight
    invoke(capsys, "rest", "obscur", "--sheet", str(path), "--days", "1")
    assert load_character(path).sheet.state["coma_asphyxie"] is False  # the air returned


@pytest.mark.parametrize(
    ("option", "faces"),
    [
        (("--fire", "5"), "1,1,1,1,1,1,1"),  # Résistance 3 dice, then Résistance + Choc 4
        (("--poison", "4,4"), "1,1,1,1,1,1,1"),
        (("--aggravate", "1"), "1,1"),  # 6 HP lost already: pain -2 on the Choc test
    ],
)
def test_O28_any_vie_lost_shocks(
    capsys: pytest.CaptureFixture[str], sheets: Path, option: tuple[str, str], faces: str
) -> None:
    """O-28: fire, poison, aggravation (and asphyxia, drowning): any Vie lost computes a
    shock, reduced by a Résistance + Choc test (fire and poison: in the round of each
    step's loss, here the one step)."""
    path = sheets / "corbeau.toml"
    if option[0] == "--aggravate":
        text = path.read_text().replace(
            "vie = { max = 16, current = 16 }", "vie = { max = 16, current = 10 }"
        )
        path.write_text(text + '\n[etat]\nblessures = [{ points = 6, source = "coup" }]\n')
    args = ["hurt", "obscur", "--sheet", str(path), *option, "--json", "--dry-run"]
    result = invoke(capsys, *args, "--faces", faces)
    assert result.status == 0, result.err
    data = result.json()["result"]
    lost = result.json()["before"]["vie"] - result.json()["after"]["vie"]
    assert lost > 0
    steps = data.get("rounds") or data.get("periods") or [data]
    (shock,) = [step["shock"] for step in steps]
    assert shock["lost"] == lost and shock["base_malus"] >= 1
    assert shock["test"]["test"] == "Résistance + Choc"


def test_O14_O15_O21_fight_shoot_through_the_cli(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-14/O-15/O-21: `fight obscur --shoot`: Mireille's crossbow (Gardien du feu 3 +
    Armes de trait 3) at Corbeau, moyenne distance (-1, table provisoire), 2 rounds aimed
    (+2); Corbeau dodges (Hargne 4 + Esquive 1): 2 successes, so difficulty 2."""
    a, b = sheets / "mireille.toml", sheets / "corbeau.toml"
    base = ["fight", "obscur", "--a", str(a), "--b", str(b), "--shoot"]
    shot = invoke(
        capsys,
        *base,
        "--distance",
        "moyenne",
        "--aim",
        "2",
        "--dodge",
        "--faces",
        "6,4,4,1,1,1,1,2",
        "--vs-faces",
        "5,4,1,1,1,1,1,1,1",
        "--save",
        "--json",
    )
    assert shot.status == 0, shot.err
    data = shot.json()["shot"]
    assert data["rule"] == "O-15" and data["difficulty"] == 2
    assert data["attack"]["dice"] == 6 + 2 - 1 and data["attack"]["successes"] == 4
    # MR 2 + Arbalète 4 − Veste de cuir on the zone of a 2 − Résistance 3
    assert data["zone_face"] == 2
    assert data["damage"] == 2 + 4 - data["protection"] - 3
    assert load_character(b).resource("vie").current == 16 - data["damage"]
    passive = invoke(capsys, *base, "--faces", "1,1,1,1,1,1", "--json").json()["shot"]
    assert passive["rule"] == "O-14" and passive["difficulty"] == 1 and not passive["hit"]
    sniper = invoke(
        capsys, *base, "--gardien-only", "--faces", "4,1,1,2", "--vs-faces", "1,1,1,1", "--json"
    ).json()["shot"]
    assert sniper["attack"]["dice"] == 3 and sniper["aimed_bonus"] == 3
    for bad in (("--aim", "11"), ("--aim", "-1"), ("--cover", "mur"), ("--aim", "x")):
        one_line_error(invoke(capsys, *base, *bad))
    one_line_error(
        invoke(capsys, "fight", "obscur", "--a", str(b), "--b", str(a), "--shoot", "--seed", "1")
    )  # Corbeau holds no ranged weapon
    with pytest.raises(LimitError):
        from meneur.systems.obscur.combat import shot_of

        shot_of(load_character(a), load_character(b), aim_rounds=11)


def test_O37_survive_takes_physical_faces(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """O-37 with physical dice: `survive obscur --faces`, typed in the order rolled."""
    args = [
        "survive",
        "obscur",
        "--milieu-file",
        str(sheets / "marais.toml"),
        "--party",
        str(sheets / "ninon.toml"),
    ]
    ninon = invoke(capsys, *args, "--faces", "6,1", "--json")
    assert ninon.status == 0, ninon.err
    member = ninon.json()["days"][0]["members"][0]
    assert member["test"]["faces"] == [6, 1] and member["result"] == "fine"
    assert member["margin"] == 1
    one_line_error(invoke(capsys, *args, "--faces", "7,1"))


def test_O29_a_breakdown_counts_one_die_in_the_singular() -> None:
    """O-29's breakdown in French: « 3 dés − 2 douleur = 1 dé », never « 1 dés »."""
    from meneur.locale import set_language
    from meneur.systems.obscur.render import pool_text

    set_language("fr")
    pool = {"base": 3, "modifier": 0, "extra_dice": 0, "maluses": {"pain": 2}, "dice": 1}
    assert pool_text(pool) == "3 dés − 2 douleur = 1 dé"
    assert pool_text({**pool, "base": 1, "maluses": {}}) == "1 dé"
    set_language("en")
    assert pool_text(pool) == "3 dice − 2 pain = 1 die"
    set_language("fr")


def test_O5_O6_a_sheet_pool_scores_a_trait_at_0_by_itself() -> None:
    """O-5/O-6 from the sheet alone (no zero rule asked): Garance's Natation, a Capacité
    at 0, counts only 6s, 2 each; Bruno's Fouineur, a Connaissance at 0, only 6s, 1 each;
    Agilité 3 is scored normally."""
    from meneur.systems.obscur.scoring import Scoring

    garance = load_character(EXAMPLES / "garance.toml")
    bruno = load_character(EXAMPLES / "bruno.toml")
    assert sheet_pool(garance, "Natation").params().scoring is Scoring.ZERO_SKILL
    assert sheet_pool(bruno, "Fouineur").params().scoring is Scoring.ZERO_ATTRIBUTE
    assert sheet_pool(garance, "Agilité").params().scoring is Scoring.NORMAL
