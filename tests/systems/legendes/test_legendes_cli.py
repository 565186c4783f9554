"""The command line: JSON contracts, bad input (exit 2, one line, sheet untouched), scenes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "legendes" / "lyssia.json"
TEST_KEYS = {"system", "total", "opposition_total", "difference", "winner", "outcome"}
ODDS_KEYS = {
    "win:definitive",
    "win:partial",
    "win:advantage",
    "win:cosmetic",
    "tie",
    "loss:cosmetic",
    "loss:advantage",
    "loss:partial",
    "loss:definitive",
}


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "lyssia.json"
    shutil.copy(EXAMPLE, path)
    return path


def test_L8_test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """L-8: `meneur test legendes` JSON keys; typed faces give a known outcome."""
    result = invoke(
        capsys,
        "test",
        "legendes",
        "--domain",
        "legendary",
        "--vs",
        "heroic",
        "--faces",
        "6,5,4",
        "--vs-faces",
        "1,2",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert data.keys() >= TEST_KEYS
    assert data["system"] == "legendes"
    assert (data["total"], data["opposition_total"], data["difference"]) == (15, 3, 12)
    assert (data["winner"], data["outcome"]) == ("pc", "definitive")


def test_L4_group_flag_steps_level_up(capsys: pytest.CaptureFixture[str]) -> None:
    """L-4: `--vs elite --group` rolls as héroïque (2 dice); légendaires never merge, so
    a group of légendaires is refused with one line (they are as many oppositions)."""
    result = invoke(
        capsys,
        "test",
        "legendes",
        "--dice",
        "1",
        "--vs",
        "elite",
        "--group",
        "--faces",
        "1",
        "--vs-faces",
        "1,1",
        "--json",
    )
    assert result.status == 0, result.err
    assert result.json()["opposition_dice"] == 2
    result = invoke(
        capsys, "odds", "legendes", "--dice", "3", "--vs", "legendaire", "--group", "--json"
    )
    assert result.status == 2 and "L-4" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_L5_commoners_swept_unless_weakness(capsys: pytest.CaptureFixture[str]) -> None:
    """L-5: `--vs commun` is swept with no roll; with `--weakness` the dice are rolled."""
    swept = invoke(
        capsys, "test", "legendes", "--dice", "3", "--vs", "commun", "--seed", "1", "--json"
    ).json()
    assert swept["swept"] is True and swept["faces"] == [] and swept["winner"] == "pc"
    rolled = invoke(
        capsys,
        "test",
        "legendes",
        "--dice",
        "3",
        "--vs",
        "commun",
        "--weakness",
        "--seed",
        "1",
        "--json",
    ).json()
    assert rolled["swept"] is False and len(rolled["faces"]) == 2


def test_L8_odds_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """L-8: `meneur odds legendes` gives all nine keys, summing to 1; P(tie) = 15/216."""
    result = invoke(capsys, "odds", "legendes", "--dice", "3", "--vs-dice", "2", "--json")
    assert result.status == 0, result.err
    data = result.json()
    assert data["system"] == "legendes" and set(data["outcomes"]) == ODDS_KEYS
    assert data["outcomes"]["tie"] == pytest.approx(15 / 216)
    assert data["exact"]["outcomes"]["tie"] == "5/72"
    assert sum(data["outcomes"].values()) == pytest.approx(1)


def test_L7_odds_with_modifier(capsys: pytest.CaptureFixture[str]) -> None:
    """L-7: a −2 circumstance moves the odds toward the opposition."""
    base = invoke(capsys, "odds", "legendes", "--dice", "2", "--vs", "heroique", "--json").json()[
        "outcomes"
    ]
    minus = invoke(
        capsys, "odds", "legendes", "--dice", "2", "--vs", "heroique", "--modifier", "-2", "--json"
    ).json()["outcomes"]
    assert minus["win:definitive"] < base["win:definitive"]
    assert base["win:partial"] == pytest.approx(base["loss:partial"])


def test_L11_aid_json_and_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """L-11: helper 10 vs helped 4 → +1 die; helped higher → no effect; odds of help."""
    data = invoke(
        capsys,
        "aid",
        "legendes",
        "--helper-dice",
        "2",
        "--helped-dice",
        "1",
        "--faces",
        "5,5",
        "--vs-faces",
        "4",
        "--json",
    ).json()
    assert (data["effect"], data["extra_dice"], data["bonus"]) == ("extra_die", 1, 0)
    data = invoke(
        capsys,
        "aid",
        "legendes",
        "--helper-dice",
        "1",
        "--helped-dice",
        "1",
        "--faces",
        "2",
        "--vs-faces",
        "5",
        "--json",
    ).json()
    assert data["effect"] == "none"
    odds = invoke(
        capsys, "aid", "legendes", "--helper-dice", "3", "--helped-dice", "2", "--odds", "--json"
    )
    assert odds.json()["exact"]["outcomes"]["extra_die"] == "791/2592"


@pytest.mark.parametrize(
    "args",
    [
        ("test", "legendes", "--dice", "-1", "--vs", "elite"),
        ("test", "legendes", "--dice", "3", "--vs", "dieu"),
        ("test", "legendes", "--dice", "3", "--vs", "elite", "--regret", "3"),
        ("test", "legendes", "--dice", "3", "--vs", "elite", "--modifier", "10"),
        ("test", "legendes", "--dice", "10000", "--vs", "elite"),
        ("test", "legendes", "--vs", "elite"),
        ("test", "legendes", "--dice", "3"),
        ("test", "legendes", "--dice", "3", "--vs-dice", "2", "--group"),
        ("test", "legendes", "--dice", "3", "--vs", "elite", "--faces", "1,2"),
        ("odds", "legendes", "--dice", "3", "--vs", "dieu"),
        ("odds", "legendes", "--dice", "3", "--vs-dice", "2", "--modifier", "10"),
        ("aid", "legendes", "--helper-dice", "-1", "--helped-dice", "2"),
    ],
)
def test_bad_input_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """Bad input: a clear message on one line, exit status 2, never a traceback."""
    result = invoke(capsys, *args)
    assert result.status == 2
    assert "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_L7_modifier_message_says_only_two(capsys: pytest.CaptureFixture[str]) -> None:
    """L-7: `--modifier 10` says that only ±2 is a circumstance."""
    result = invoke(capsys, "test", "legendes", "--dice", "3", "--vs", "elite", "--modifier", "10")
    assert result.status == 2 and "±2" in result.err


def test_L11_scene_help_twice_refused_sheet_untouched(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-11: a second help by the same helper in the scene: exit 2, sheet byte for byte the same."""
    assert invoke(capsys, "scene", "legendes", "start", str(sheet)).status == 0
    first = invoke(
        capsys,
        "scene",
        "legendes",
        "aid",
        str(sheet),
        "--helper",
        "Tomas",
        "--helper-dice",
        "2",
        "--domain",
        "arc",
        "--faces",
        "6,6",
        "--vs-faces",
        "1,1",
        "--json",
    )
    assert first.status == 0, first.err
    assert first.json()["effect"] == "extra_die"
    before = sheet.read_bytes()
    again = invoke(
        capsys,
        "scene",
        "legendes",
        "aid",
        str(sheet),
        "--helper",
        "Tomas",
        "--helper-dice",
        "2",
        "--seed",
        "3",
    )
    assert again.status == 2 and "Tomas" in again.err and "Traceback" not in again.err
    assert sheet.read_bytes() == before


@pytest.mark.parametrize(
    "args",
    [
        ("--vs", "Nobody", "--seed", "1"),
        ("--vs", "Orsk", "--spend", "5", "--seed", "1"),
        ("--vs", "Orsk", "--modifier", "10"),
        ("--vs", "Orsk", "--regret", "3"),
        ("--vs", "Orsk", "--domain", "legendary", "--faces", "1"),
    ],
)
def test_scene_bad_roll_leaves_sheet_untouched(
    capsys: pytest.CaptureFixture[str], sheet: Path, args: tuple[str, ...]
) -> None:
    """A refused scene roll: exit 2, one line, the sheet unchanged."""
    invoke(capsys, "scene", "legendes", "start", str(sheet))
    invoke(capsys, "scene", "legendes", "add", str(sheet), "Orsk", "--level", "heroique")
    before = sheet.read_bytes()
    result = invoke(capsys, "scene", "legendes", "roll", str(sheet), *args)
    assert result.status == 2 and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert sheet.read_bytes() == before


def test_L9_L13_scene_through_the_cli(capsys: pytest.CaptureFixture[str], sheet: Path) -> None:
    """L-9, L-13: rolls saved across invocations; the light wound heals at `end`."""
    invoke(capsys, "scene", "legendes", "start", str(sheet), "--title", "Le pont")
    invoke(capsys, "scene", "legendes", "add", str(sheet), "Orsk", "--level", "legendaire")
    result = invoke(
        capsys,
        "scene",
        "legendes",
        "roll",
        str(sheet),
        "--vs",
        "orsk",
        "--domain",
        "magie des ronces",
        "--faces",
        "1,1,1",
        "--vs-faces",
        "2,2,3",
        "--json",
    )
    assert result.status == 0, result.err
    data = result.json()
    assert data["domain_kind"] == "legendary" and data["hero_wound"] == "light"
    saved = json.loads(sheet.read_text())
    assert saved["wound"] == "light" and saved["scene"]["oppositions"][0]["rolls"] == 1
    for expected in ("an exchange", "a series of exchanges"):
        result = invoke(
            capsys, "scene", "legendes", "roll", str(sheet), "--vs", "Orsk", "--seed", "2", "--json"
        )
        assert result.status == 0, result.err
        assert result.json()["pairs"][0]["duration"] == expected
    show = invoke(capsys, "scene", "legendes", "show", str(sheet), "--json").json()
    assert show["scene"]["oppositions"][0]["rolls"] == 3
    end = invoke(capsys, "scene", "legendes", "end", str(sheet), "--json").json()
    saved = json.loads(sheet.read_text())
    assert "scene" not in saved
    assert end["light_wound_healed"] == (data["hero_wound"] == "light" and saved["wound"] == "none")


def test_L12_motivation_through_the_cli(capsys: pytest.CaptureFixture[str], sheet: Path) -> None:
    """L-12: progress adds a point; keep → exactly 1; raise → points kept."""
    invoke(capsys, "scene", "legendes", "progress", str(sheet))
    invoke(capsys, "scene", "legendes", "progress", str(sheet))
    assert json.loads(sheet.read_text())["motivation_points"] == 3
    raised = invoke(
        capsys, "scene", "legendes", "reached", str(sheet), "--raise", "Voir Tel", "--json"
    ).json()
    assert raised["motivation_points"] == 3
    kept = invoke(capsys, "scene", "legendes", "reached", str(sheet), "--keep", "--json").json()
    assert kept["motivation_points"] == 1
    bad = invoke(capsys, "scene", "legendes", "reached", str(sheet))
    assert bad.status == 2


def test_bad_sheets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing, malformed or TOML sheet: one line, exit 2."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "X", "motivation_points": -3}')
    toml = tmp_path / "hero.toml"
    toml.write_text('name = "X"\n')
    for path in (tmp_path / "none.json", broken, toml):
        result = invoke(capsys, "scene", "legendes", "start", str(path))
        assert result.status == 2 and "Traceback" not in result.err
        assert len(result.err.strip().splitlines()) == 1
    assert broken.read_text() == '{"name": "X", "motivation_points": -3}'


def test_human_output_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    """The rich output keeps the French game terms."""
    result = invoke(
        capsys,
        "test",
        "legendes",
        "--dice",
        "3",
        "--vs",
        "heroique",
        "--faces",
        "6,5,4",
        "--vs-faces",
        "1,2",
    )
    assert result.status == 0 and "victoire définitive" in result.out


def test_L13_wound_and_heal_through_the_cli(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-13: wound twice → grave; a grave wound stays after the scene until healed."""
    invoke(capsys, "scene", "legendes", "start", str(sheet))
    invoke(capsys, "scene", "legendes", "wound", str(sheet))
    assert json.loads(sheet.read_text())["wound"] == "light"
    invoke(capsys, "scene", "legendes", "wound", str(sheet))
    invoke(capsys, "scene", "legendes", "end", str(sheet))
    assert json.loads(sheet.read_text())["wound"] == "grave"
    result = invoke(capsys, "scene", "legendes", "heal", str(sheet), "--json")
    assert result.json()["wound"] == "none"


def test_L13_a_scene_aid_applies_the_hero_s_wound(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-13: `scene legendes aid` rolls the wounded hero's side as their own roll would: a
    light wound −2 (7 − 2 = 5), then a grave one a die less (Arc: 1 die)."""
    invoke(capsys, "scene", "legendes", "start", str(sheet), "--title", "W")
    invoke(capsys, "scene", "legendes", "wound", str(sheet))
    aid = ("scene", "legendes", "aid", str(sheet), "--helper-dice", "2", "--domain", "arc")
    light = invoke(
        capsys, *aid, "--helper", "Tomas", "--faces", "3,3", "--vs-faces", "4,3", "--json"
    )
    assert light.status == 0, light.err
    assert (light.json()["helped_total"], light.json()["effect"]) == (5, "cosmetic")
    invoke(capsys, "scene", "legendes", "wound", str(sheet))
    assert json.loads(sheet.read_text())["wound"] == "grave"
    grave = invoke(capsys, *aid, "--helper", "Mira", "--faces", "3,3", "--vs-faces", "4", "--json")
    assert grave.status == 0, grave.err
    assert (grave.json()["helped_faces"], grave.json()["helped_total"]) == ([4], 4)


@pytest.mark.parametrize("command", ["test", "odds"])
def test_L13_a_light_and_a_grave_wound_at_once_are_refused(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """L-13: a hero has one wound, light or grave ("a second wound makes it grave"): both
    flags at once are refused in one line, exit 2, instead of −1 die and −2 together."""
    both = ("legendes", "--dice", "3", "--vs", "elite", "--light-wound", "--grave-wound")
    faces = ("--faces", "4,4", "--vs-faces", "1") if command == "test" else ()
    result = invoke(capsys, command, *both, *faces, "--json")
    assert result.status == 2, result.out
    assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1
    assert "légère ou grave, pas les deux (L-13" in result.err
    english = invoke(capsys, "--lang", "en", command, *both, *faces)
    assert english.status == 2 and "A wound is light or grave, not both (L-13" in english.err


def test_english_messages(capsys: pytest.CaptureFixture[str]) -> None:
    """The same command in English keeps the French game terms."""
    result = invoke(capsys, "--lang", "en", "test", "legendes", "--dice", "3", "--vs", "dieu")
    assert result.status == 2 and "Unknown opposition level 'dieu'" in result.err


def test_L4_ten_legendaires_join_a_scene_as_ten_oppositions(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-4: `scene legendes add … --level legendaire --count 10` adds ten légendaire
    oppositions of 3 dice each (not one); `--group` at légendaire is refused, sheet intact."""
    invoke(capsys, "scene", "legendes", "start", str(sheet))
    added = invoke(
        capsys, "scene", "legendes", "add", str(sheet), "Dragon", "--level", "legendaire",
        "--count", "10", "--json",
    )  # fmt: skip
    assert added.status == 0, added.err
    oppositions = added.json()["added"]
    assert [(o["level"], o["dice"], o["group"]) for o in oppositions] == [
        ("legendaire", 3, False)
    ] * 10
    assert oppositions[-1]["name"] == "Dragon 10"
    before = sheet.read_bytes()
    refused = invoke(
        capsys, "scene", "legendes", "add", str(sheet), "Vouivre", "--level", "legendaire",
        "--group",
    )  # fmt: skip
    assert refused.status == 2 and "L-4" in refused.err
    assert len(refused.err.strip().splitlines()) == 1
    assert sheet.read_bytes() == before


def test_L13_test_partial_doubt_in_json_and_words(capsys: pytest.CaptureFixture[str]) -> None:
    """L-13: `test legendes --partial doubt`: a victoire partielle makes the loser doubt;
    the JSON says which effect the partial victory has (default: a wound)."""
    args = ("test", "legendes", "--dice", "3", "--vs", "heroique", "--faces", "2,2,2")
    doubt = invoke(capsys, *args, "--vs-faces", "1,1", "--partial", "doute", "--json")
    assert doubt.status == 0, doubt.err
    assert (doubt.json()["taken"], doubt.json()["partial"]) == ("partial", "doubt")
    wound = invoke(capsys, *args, "--vs-faces", "1,1", "--json").json()
    assert wound["partial"] == "wound"
    words = invoke(capsys, "--lang", "en", *args, "--vs-faces", "1,1", "--partial", "doubt")
    assert "the loser doubts (L-13)" in words.out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("test", "legendes", "--dice", "3", "--vs", "elite", "--partial", "maim"), "maim"),
        (("scene", "legendes", "start", "{sheet}", "--kind", "epic"), "epic"),
        (("scene", "legendes", "roll", "{sheet}", "--vs", "Orsk", "--partial", "x"), "L-13"),
        (("scene", "legendes", "add", "{sheet}", "Brune", "--pc"), "--dice"),
        (("scene", "legendes", "add", "{sheet}", "Brune", "--pc", "--level", "elite"), "--level"),
        (("scene", "legendes", "add", "{sheet}", "Brune", "--pc", "--dice", "31"), "31"),
        (("scene", "legendes", "add", "{sheet}", "Brune"), "--level"),
        (("scene", "legendes", "roll", "{sheet}", "--vs", "Orsk", "--with", "Orsk"), "Orsk"),
        (("scene", "legendes", "roll", "{sheet}", "--vs", "Orsk", "--with", "Nobody"), "Nobody"),
    ],
)  # fmt: skip
def test_L10_L13_new_options_refused_one_line_sheet_untouched(
    capsys: pytest.CaptureFixture[str], sheet: Path, args: tuple[str, ...], needle: str
) -> None:
    """L-10/L-13: bad characters, kinds and partial effects: exit 2, one line, sheet intact."""
    invoke(capsys, "scene", "legendes", "start", str(sheet))
    invoke(capsys, "scene", "legendes", "add", str(sheet), "Orsk", "--level", "heroique")
    if args[2] == "start":
        invoke(capsys, "scene", "legendes", "end", str(sheet))
    before = sheet.read_bytes()
    result = invoke(capsys, "--lang", "en", *(str(sheet) if a == "{sheet}" else a for a in args))
    assert result.status == 2, result.out
    assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1
    assert needle in result.err
    assert sheet.read_bytes() == before


def test_L10_L13_a_social_scene_with_two_heroes_through_the_cli(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-10/L-13: a social scene: Lyssia and Tomas (a character, secondary: 2 dice) plead
    against a councillor; the partial victories make him doubt, nobody is wounded."""
    assert invoke(capsys, "scene", "legendes", "start", str(sheet), "--kind", "sociale").status == 0
    tomas = invoke(
        capsys, "scene", "legendes", "add", str(sheet), "Tomas", "--pc", "--domain",
        "secondaire", "--json",
    )  # fmt: skip
    assert tomas.status == 0, tomas.err
    assert tomas.json()["added"][0] | {"name": "Tomas"} == {
        "name": "Tomas", "level": None, "character": True, "dice": 2, "group": False,
        "rolls": 0, "wound": "none", "keeps_fighting": None, "out": False,
    }  # fmt: skip
    invoke(capsys, "scene", "legendes", "add", str(sheet), "Conseiller", "--level", "heroique")
    result = invoke(
        capsys, "scene", "legendes", "roll", str(sheet), "--domain", "magie des ronces",
        "--vs", "Conseiller", "--with", "Tomas", "--faces", "3,3,2,4,3", "--vs-faces", "2,2",
        "--json",
    )  # fmt: skip
    assert result.status == 0, result.err
    data = result.json()
    assert data["partial"] == "doubt"
    assert [
        (p["side"], p["total"], p["opposition_total"], p["effects"]) for p in data["pairs"]
    ] == [
        (None, 8, 4, ["opposition_doubt"]),
        ("Tomas", 7, 4, []),
    ]
    stored = json.loads(sheet.read_text())
    assert stored["wound"] == "none" and stored["scene"]["kind"] == "social"
    assert [o["wound"] for o in stored["scene"]["oppositions"]] == ["none", "none"]


def test_a_scene_title_and_a_regret_like_markup_are_shown_as_typed(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """Titles, regrets and domains are typed by players: ``[/]`` used to break the output
    (printed twice, our tags showing) and ``[bold]x`` to restyle it."""
    data = json.loads(sheet.read_text())
    data["regret"] = "Perdu [bold]x"
    sheet.write_text(json.dumps(data))
    alone = invoke(capsys, "scene", "legendes", "show", str(sheet))
    assert alone.status == 0 and "Perdu [bold]x" in alone.out
    start = invoke(capsys, "scene", "legendes", "start", str(sheet), "--title", "Fin [/]")
    assert start.status == 0 and "Fin [/]" in start.out
    shown = invoke(capsys, "scene", "legendes", "show", str(sheet))
    assert shown.status == 0, shown.err
    assert "Fin [/]" in shown.out and "Perdu [bold]x" in shown.out
    assert shown.out.count("Lyssia") == 1 and "[bold]Lyssia" not in shown.out


def test_the_odds_title_counts_its_dice_in_the_singular_below_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """L-3: a Commun opponent rolls no die: « 1 dé +0 contre 0 dé », not « 1 dés »."""
    french = invoke(capsys, "--lang", "fr", "odds", "legendes", "--dice", "1", "--vs", "commun")
    assert french.status == 0 and "1 dé +0 contre 0 dé" in french.out
    english = invoke(capsys, "--lang", "en", "odds", "legendes", "--dice", "3", "--vs", "elite")
    assert "3 dice +0 against 1 die" in english.out


def orsk_scene(capsys: pytest.CaptureFixture[str], sheet: Path) -> bytes:
    """Lyssia (Magie des ronces, Arc, Herboristerie) against Orsk; the sheet as it stands."""
    assert invoke(capsys, "scene", "legendes", "start", str(sheet)).status == 0
    added = invoke(capsys, "scene", "legendes", "add", str(sheet), "Orsk", "--level", "heroique")
    assert added.status == 0, added.err
    return sheet.read_bytes()


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("roll", "{sheet}", "--vs", "Orsk", "--domain", "magie des ronses"), "Magie des ronces"),
        (("roll", "{sheet}", "--vs", "Orsk", "--domain", "ARCS"), "Arc"),
        (("aid", "{sheet}", "--helper", "Tomas", "--helper-dice", "2", "--domain",
          "herboristeri"), "Herboristerie"),
    ],
)  # fmt: skip
def test_L1_a_domain_nearly_on_the_sheet_is_refused_before_the_roll(
    capsys: pytest.CaptureFixture[str], sheet: Path, args: tuple[str, ...], meant: str
) -> None:
    """L-1 rolls what the sheet does not list as ordinary (0 dice): a typo of one of its
    domains cost the hero the exchange, saved. Refused instead: exit 2, one line naming
    the typed name and the listed one, saying how to roll an ordinary domain; nothing saved."""
    before = orsk_scene(capsys, sheet)
    typed = args[args.index("--domain") + 1]
    command = ("scene", "legendes", *(str(sheet) if a == "{sheet}" else a for a in args))
    french = invoke(capsys, *command, "--seed", "3")
    assert french.status == 2, french.out
    assert len(french.err.strip().splitlines()) == 1 and "Traceback" not in french.err
    assert f"« {typed} » n'est pas sur la fiche de Lyssia" in french.err
    assert f"vouliez-vous dire « {meant} » ?" in french.err
    assert (
        "comme domaine ordinaire (L-1) ;" in french.err
        and "nommez le domaine « ordinaire »" in french.err
    )
    english = invoke(capsys, "--lang", "en", *command, "--seed", "3")
    assert english.status == 2, english.out
    assert f"'{typed}' is not on Lyssia's sheet: did you mean '{meant}'?" in english.err
    assert "name the domain 'ordinary'" in english.err
    assert sheet.read_bytes() == before


def test_L1_a_kind_mistyped_is_refused_too(capsys: pytest.CaptureFixture[str], sheet: Path) -> None:
    """L-1: « legendair » is not a domain of the sheet, nor the kind it nearly names: it
    would roll as ordinary. Refused, the kinds suggested (both languages' words work)."""
    before = orsk_scene(capsys, sheet)
    command = ("scene", "legendes", "roll", str(sheet), "--vs", "Orsk", "--domain", "legendair")
    french = invoke(capsys, *command, "--seed", "3")
    assert french.status == 2, french.out
    assert "vouliez-vous dire « legendaire », « legendary » ?" in french.err
    assert sheet.read_bytes() == before


def test_L1_an_ordinary_domain_on_purpose_is_rolled_with_0_dice(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-1: what the refusal offers works: the kind « ordinaire » rolls 0 dice, unflagged;
    so does a listed domain typed in another case and without accents."""
    orsk_scene(capsys, sheet)
    args = ("scene", "legendes", "roll", str(sheet), "--vs", "Orsk", "--json")
    ordinary = invoke(capsys, *args, "--domain", "ordinaire", "--vs-faces", "1,1")
    assert ordinary.status == 0, ordinary.err
    data = ordinary.json()
    assert (data["dice"], data["domain_kind"], data["domain_unlisted"]) == (0, "ordinary", False)
    invoke(capsys, "scene", "legendes", "end", str(sheet))
    orsk_scene(capsys, sheet)
    listed = invoke(
        capsys, *args, "--domain", "MAGIE DES RONCES", "--faces", "1,1,1", "--vs-faces", "1,1"
    )
    assert listed.status == 0, listed.err
    assert (listed.json()["domain_kind"], listed.json()["domain_unlisted"]) == ("legendary", False)


def test_L1_a_domain_far_from_the_sheet_rolls_ordinary_and_says_so(
    capsys: pytest.CaptureFixture[str], sheet: Path
) -> None:
    """L-1: « Escalade » is like nothing on Lyssia's sheet: rolled as ordinary (0 dice),
    and the output says so, in words and in the JSON (``domain_unlisted``); so does a help."""
    orsk_scene(capsys, sheet)
    roll = ("scene", "legendes", "roll", str(sheet), "--vs", "Orsk", "--domain", "Escalade")
    french = invoke(capsys, *roll, "--vs-faces", "1,1")
    assert french.status == 0, french.err
    assert "« Escalade » n'est pas sur la fiche : domaine ordinaire, 0 dé (L-1)." in french.out
    invoke(capsys, "scene", "legendes", "end", str(sheet))
    orsk_scene(capsys, sheet)
    english = invoke(capsys, "--lang", "en", *roll, "--vs-faces", "1,1")
    assert english.status == 0, english.err
    assert "'Escalade' is not on the sheet: an ordinary domain, 0 dice (L-1)." in english.out
    invoke(capsys, "scene", "legendes", "end", str(sheet))
    orsk_scene(capsys, sheet)
    data = invoke(capsys, *roll, "--vs-faces", "1,1", "--json").json()
    assert (data["domain"], data["dice"], data["domain_kind"]) == ("Escalade", 0, "ordinary")
    assert data["domain_unlisted"] is True
    aid = invoke(
        capsys, "scene", "legendes", "aid", str(sheet), "--helper", "Tomas", "--helper-dice",
        "2", "--domain", "Escalade", "--faces", "3,3", "--json",
    )  # fmt: skip
    assert aid.status == 0, aid.err
    assert (aid.json()["domain"], aid.json()["domain_unlisted"]) == ("Escalade", True)
    assert aid.json()["helped_faces"] == []
