"""The Obscur play commands: fight, survive, hurt, heal, rest, march, and bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_helpers import Result, invoke, one_line_error

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"


def fight(capsys: pytest.CaptureFixture[str], d: Path, *extra: str) -> Result:
    return invoke(
        capsys,
        "fight",
        "obscur",
        "--a",
        str(d / "garance.toml"),
        "--b",
        str(d / "corbeau.toml"),
        *extra,
    )


def test_O12_fight_json_is_reproducible_and_replays_from_faces(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-11..O-13: a fight with a seed is reproducible; --faces/--vs-faces replay it."""
    first = fight(capsys, sheets, "--seed", "7", "--json")
    assert first.status == 0, first.err
    data = first.json()
    assert data["system"] == "obscur"
    assert {"fighters", "rounds", "outcome", "faces"} <= set(data)
    assert data["outcome"]["end"] in {"coma", "dead", "disengaged", "rounds"}
    record = data["rounds"][0]
    assert {"initiator", "a", "b", "strikes", "state"} <= set(record)
    assert {"ra", "split", "malus"} <= set(record["a"])
    again = fight(capsys, sheets, "--seed", "7", "--json")
    assert again.out == first.out
    faces_a = ",".join(map(str, data["faces"]["a"]))
    faces_b = ",".join(map(str, data["faces"]["b"]))
    replay = fight(capsys, sheets, "--faces", faces_a, "--vs-faces", faces_b, "--json")
    replayed = replay.json()
    assert replayed["rounds"] == data["rounds"] and replayed["outcome"] == data["outcome"]


def test_O12_fight_human_output_and_save(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """The fight shows RA, split, dice, damage; --save writes Vie and wounds back."""
    before = (sheets / "corbeau.toml").read_text()
    shown = fight(capsys, sheets, "--seed", "7", "--lang", "fr")
    assert shown.status == 0 and "Tour 1" in shown.out and "table provisoire" in shown.out
    assert (sheets / "corbeau.toml").read_text() == before  # no --save: untouched
    saved = fight(capsys, sheets, "--seed", "7", "--save", "--json").json()
    from meneur.systems.obscur.sheet import load_character

    corbeau = load_character(sheets / "corbeau.toml")
    assert corbeau.resource("vie").current == saved["outcome"]["b"]["vie"]
    wounds = corbeau.sheet.state["blessures"]
    assert sum(w["points"] for w in wounds) == 16 - saved["outcome"]["b"]["vie"]


def test_O31_bad_input_fight(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """A weapon of unknown class, a sheet with Vie below 0: one line, exit 2, untouched."""
    path = sheets / "garance.toml"
    text = path.read_text().replace(
        'armes = ["Épée"]', 'armes = [{ name = "Hache", class = "Lourdingues" }]'
    )
    path.write_text(text)
    line = one_line_error(fight(capsys, sheets, "--seed", "1", "--save"))
    assert "Lourdingues" in line
    assert path.read_text() == text
    broken = sheets / "corbeau.toml"
    low = broken.read_text().replace(
        "vie = { max = 16, current = 16 }", "vie = { max = 16, current = -2 }"
    )
    broken.write_text(low)
    (sheets / "garance.toml").write_text((EXAMPLES / "garance.toml").read_text())
    line = one_line_error(fight(capsys, sheets, "--seed", "1", "--save"))
    assert "-2" in line
    assert broken.read_text() == low
    one_line_error(fight(capsys, sheets, "--strategy-a", "berserk"))
    one_line_error(fight(capsys, sheets, "--rounds", "100000"))


@pytest.mark.parametrize(
    ("extra", "flag"),
    [
        (("--shoot", "--rounds", "3"), "--rounds"),
        (("--shoot", "--strategy-a", "offensive"), "--strategy-a"),
        (("--shoot", "--opponents-b", "2"), "--opponents-b"),
        (("--aim", "2",), "--aim"),
        (("--dodge",), "--dodge"),
        (("--cover", "partielle"), "--cover"),
    ],
)  # fmt: skip
def test_O14_O12_a_shot_and_a_melee_refuse_each_other_s_options(
    capsys: pytest.CaptureFixture[str], sheets: Path, extra: tuple[str, ...], flag: str
) -> None:
    """O-14 (a shot) and O-12 (a melee) read different options: a shot ignored
    ``--rounds`` and the strategies, a melee the shot's aim and cover, silently."""
    before = (sheets / "garance.toml").read_bytes()
    line = one_line_error(fight(capsys, sheets, "--seed", "1", "--save", *extra))
    assert flag in line
    assert (sheets / "garance.toml").read_bytes() == before


def test_O37_survive_party_and_bad_input(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """O-35..O-39 through the CLI; a milieu factor of 4 and a party of zero are refused."""
    party = [
        arg
        for name in ("garance", "corbeau", "ninon")
        for arg in ("--party", str(sheets / f"{name}.toml"))
    ]
    result = invoke(
        capsys,
        "survive",
        "obscur",
        "--milieu",
        "Tunnels",
        *party,
        "--days",
        "3",
        "--seed",
        "2",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert len(data["days"]) == 3 and len(data["days"][0]["members"]) == 3
    assert data["milieu"]["provisional"]
    again = invoke(
        capsys,
        "survive",
        "obscur",
        "--milieu",
        "Tunnels",
        *party,
        "--days",
        "3",
        "--seed",
        "2",
        "--json",
    )
    assert again.out == result.out
    custom = invoke(
        capsys,
        "survive",
        "obscur",
        "--milieu-file",
        str(sheets / "marais.toml"),
        *party,
        "--seed",
        "1",
    )
    assert custom.status == 0 and "Marais" in custom.out
    bad = sheets / "bad.toml"
    bad.write_text("faim = 4\n")
    before = (sheets / "ninon.toml").read_text()
    line = one_line_error(
        invoke(capsys, "survive", "obscur", "--milieu-file", str(bad), *party, "--save")
    )
    assert "faim" in line
    assert (sheets / "ninon.toml").read_text() == before
    one_line_error(invoke(capsys, "survive", "obscur", "--milieu", "Tunnels"))  # party of zero
    coma = sheets / "isaure.json"
    coma.write_text(coma.read_text().replace('"current": 12', '"current": -1'))
    line = one_line_error(
        invoke(capsys, "survive", "obscur", "--milieu", "Tunnels", "--party", str(coma), "--save")
    )
    assert "-1" in line
    one_line_error(invoke(capsys, "survive", "obscur", "--milieu", "Lune", *party))
    saved = invoke(
        capsys,
        "survive",
        "obscur",
        "--milieu",
        "Désert de cendres",
        *party,
        "--seed",
        "4",
        "--save",
        "--json",
    )
    assert saved.status == 0
    final = {m["name"]: m["vie"] for m in saved.json()["final"]}
    from meneur.systems.obscur.sheet import load_character

    ninon = load_character(sheets / "ninon.toml")
    assert ninon.resource("vie").current == final[ninon.sheet.name]


def test_O23_hurt_heal_rest_write_the_sheet(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-23, O-32, O-33: hurt, heal and rest change the sheet's state and save it."""
    from meneur.systems.obscur.sheet import load_character

    path = sheets / "corbeau.toml"
    hurt = invoke(
        capsys,
        "hurt",
        "obscur",
        "--sheet",
        str(path),
        "--fall",
        "6",
        "--faces",
        "1,1,4,4,1,1",
        "--json",
    )
    assert hurt.status == 0, hurt.err
    assert hurt.json()["after"]["vie"] == 10
    # O-28: 6 HP lost: shock 3 (table provisoire), less 2 successes of Résistance + Choc
    assert hurt.json()["result"]["shock"]["malus"] == 1
    # O-3: the fall test 1,1 is a Maladresse: +1 Vécu written to the sheet
    assert hurt.json()["fumbles"] == 1 and hurt.json()["after"]["vecu"] == 7
    assert load_character(path).resource("vecu").current == 7
    from meneur.systems.obscur.sheet import load_character

    assert load_character(path).resource("vie").current == 10
    healed = invoke(
        capsys,
        "heal",
        "obscur",
        "--sheet",
        str(path),
        "--healer",
        str(sheets / "ninon.toml"),
        "--faces",
        "6,6,6,1,1,1",
        "--json",
    )
    data = healed.json()
    assert data["result"]["treated"] and data["result"]["healed"] == 3  # 6 successes, difficulty 3
    assert load_character(path).sheet.state["blessures"][0]["soignee"] is True
    rest = invoke(capsys, "rest", "obscur", "--sheet", str(path), "--days", "6", "--json")
    assert rest.json()["after"]["vie"] == 16
    dry = invoke(
        capsys, "hurt", "obscur", "--sheet", str(path), "--fire", "5", "--seed", "1", "--dry-run"
    )
    assert dry.status == 0 and load_character(path).resource("vie").current == 16
    for args in (("--fall", "3", "--fire", "2"), ("--poison", "6"), ("--asphyxia", "lune"), ()):
        one_line_error(invoke(capsys, "hurt", "obscur", "--sheet", str(path), *args))
    one_line_error(invoke(capsys, "heal", "obscur", "--sheet", str(path)))  # no open wound


def test_O27_steps_count_the_periodes_of_a_poison(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-27: ``--steps 1`` applies one Période of poison (it ran until the Virulence was
    spent, as with no ``--steps``, and so killed Isaure where one Période leaves her 4 Vie);
    with no ``--steps`` the poison runs its course (Virulence 9, 7, 5, 3, 1)."""
    path = str(sheets / "isaure.json")

    def periods(*steps: str) -> list[int]:
        done = invoke(capsys, "hurt", "obscur", "--sheet", path, "--poison", "9,2", *steps,
                      "--seed", "3", "--dry-run", "--json")  # fmt: skip
        assert done.status == 0, done.err
        return [period["virulence"] for period in done.json()["result"]["periods"]]

    assert periods("--steps", "1") == [9]
    assert periods("--steps", "2") == [9, 7]
    assert periods() == [9, 7, 5, 3, 1]
    # physical dice: one Période asks for one Résistance test (then the shock test, O-28)
    one = invoke(capsys, "hurt", "obscur", "--sheet", path, "--poison", "5,2", "--steps", "1",
                 "--faces", "4,1,1,1", "--dry-run", "--json")  # fmt: skip
    assert one.status == 0, one.err
    assert [p["lost"] for p in one.json()["result"]["periods"]] == [4]


def test_O31_hang_on_through_the_cli(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """O-31: a dead character spends 6 Vécu to hang on to life."""
    path = sheets / "ninon.toml"
    path.write_text(
        path.read_text().replace(
            "vie = { max = 11, current = 11 }", "vie = { max = 11, current = -11 }"
        )
    )
    result = invoke(
        capsys,
        "heal",
        "obscur",
        "--sheet",
        str(path),
        "--hang-on",
        "--faces",
        "6",
        "--json",
    )
    data = result.json()
    # O-29: 22 HP lost, pain -4 (table provisoire): 1 die of 5 rolled, a 6 for 2 minutes
    assert data["result"]["test"]["dice"] == 1 and data["result"]["test"]["faces"] == [6]
    assert data["result"]["minutes"] == 2 and data["after"]["vecu"] == 15 - 6


def test_O42_march_through_the_cli(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """O-42: an over-encumbered march tests every (Résistance) hours."""
    path = sheets / "corbeau.toml"
    text = path.read_text().replace("encombrement = 15", "encombrement = 8")
    path.write_text(text)
    result = invoke(
        capsys,
        "march",
        "obscur",
        "--sheet",
        str(path),
        "--hours",
        "6",
        "--faces",
        "1,1,1,1,1,1,1,1,1,1,1",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    # O-42: a load of 10 against 8 is 3 over (a load equal to the resource is already over)
    assert data["result"]["surencombrement"] == 3 and data["result"]["every_hours"] == 3
    assert [t["test"]["difficulty"] for t in data["result"]["tests"]] == [3, 4]
    assert data["after"]["fatigue_malus"] == 2
    from meneur.systems.obscur.sheet import load_character

    assert load_character(path).sheet.state["tests_charge"] == 2


def test_O42_marches_of_one_hour_add_up_on_the_sheet(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """O-42: the hours marched over-encumbered are kept on the sheet (``heures_charge``)
    until a rest: three marches of an hour with Résistance 3 make one test, at the third
    (each march made none: an overloaded character marched all day untested)."""
    from meneur.systems.obscur.sheet import load_character

    path = sheets / "corbeau.toml"
    path.write_text(path.read_text().replace("encombrement = 15", "encombrement = 8"))

    def march_an_hour(*faces: str) -> list[int]:
        done = invoke(capsys, "march", "obscur", "--sheet", str(path), "--hours", "1",
                      *faces, "--json")  # fmt: skip
        assert done.status == 0, done.err
        return [t["test"]["difficulty"] for t in done.json()["result"]["tests"]]

    assert march_an_hour("--seed", "1") == [] and march_an_hour("--seed", "1") == []
    assert load_character(path).sheet.state["heures_charge"] == 2
    assert march_an_hour("--faces", "1,1,1,1,1,1") == [3]  # Surencombrement 3, no test yet
    state = load_character(path).sheet.state
    assert state["heures_charge"] == 0 and state["tests_charge"] == 1
    assert march_an_hour("--seed", "1") == []
    assert load_character(path).sheet.state["heures_charge"] == 1
    rest = invoke(capsys, "rest", "obscur", "--sheet", str(path), "--days", "1", "--seed", "1")
    assert rest.status == 0, rest.err
    assert load_character(path).sheet.state["heures_charge"] == 0


def test_existing_examples_still_load() -> None:
    from meneur.systems.obscur.sheet import load_character

    for path in EXAMPLES.iterdir():
        if path.name != "marais.toml":
            load_character(path)
    assert json.loads((EXAMPLES / "isaure.json").read_text())["name"]


def test_O17_outnumbered_option(capsys: pytest.CaptureFixture[str], sheets: Path) -> None:
    """O-17: --opponents-a 3 takes 6 dice from A's PA."""
    one = fight(capsys, sheets, "--seed", "1", "--rounds", "1", "--json").json()
    three = fight(
        capsys, sheets, "--seed", "1", "--rounds", "1", "--opponents-a", "3", "--json"
    ).json()
    pa = one["rounds"][0]["a"]["split"][0]["pa"]
    assert three["rounds"][0]["a"]["split"][0]["pa"] == max(0, pa - 6)
    one_line_error(fight(capsys, sheets, "--opponents-a", "0"))


def test_a_fight_saves_both_sheets_or_neither(
    capsys: pytest.CaptureFixture[str], sheets: Path
) -> None:
    """``--save`` wrote Garance's sheet, then was refused Corbeau's and exited in error:
    the two sides out of step. Every sheet is checked writable first. Corbeau's name here
    is readable but leaves no room for the temporary file a write makes beside it."""
    long = sheets / ("c" * 245 + ".toml")
    shutil.copy(sheets / "corbeau.toml", long)
    before = (sheets / "garance.toml").read_text()
    args = ("--a", str(sheets / "garance.toml"), "--b", str(long), "--seed", "9", "--save")
    line = one_line_error(invoke(capsys, "--lang", "en", "fight", "obscur", *args))
    assert "Cannot write" in line and "too long" in line
    assert (sheets / "garance.toml").read_text() == before


def test_a_sheet_whose_equipment_is_malformed_is_not_stored(
    capsys: pytest.CaptureFixture[str],
    sheets: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sheet whose ``equipement`` had the wrong shape was stored (exit 0), then refused
    by every roll from it: refused when stored, as its other fields are."""
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'equip.db'}")
    data = json.loads((sheets / "isaure.json").read_text("utf-8"))
    data["equipement"] = {"armes": "x"}
    (sheets / "ie.json").write_text(json.dumps(data), "utf-8")
    made = invoke(
        capsys,
        "--lang",
        "en",
        "character",
        "new",
        "obscur",
        "IE",
        "--from",
        str(sheets / "ie.json"),
    )
    assert "armes" in one_line_error(made)
    listed = invoke(capsys, "character", "list", "--json")
    assert listed.status == 0 and listed.json() == []
