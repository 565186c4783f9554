"""The Obscur command line: the JSON contracts of issue 4 and every bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke, one_line_error

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"


@pytest.fixture
def isaure(tmp_path: Path) -> Path:
    target = tmp_path / "isaure.json"
    shutil.copy(EXAMPLES / "isaure.json", target)
    return target


def test_O2_test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """O-2: faces 6,4,2 give 3 successes; the JSON keys are the contract."""
    result = invoke(capsys, "test", "obscur", "--dice", "3", "--faces", "6,4,2", "--json")
    data = result.json()
    assert result.status == 0
    assert {"system", "faces", "successes", "difficulty", "passed", "margin", "fumble"} <= set(data)
    assert data["system"] == "obscur" and data["faces"] == [6, 4, 2]
    assert (
        data["successes"],
        data["difficulty"],
        data["passed"],
        data["margin"],
        data["fumble"],
    ) == (3, 1, True, 2, False)


def test_O3_O5_O6_O7_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """O-3 fumble, O-5/O-6 zero rules, O-7 modifier on the command line."""
    data = invoke(capsys, "test", "obscur", "--dice", "3", "--faces", "1,1,1", "--json").json()
    assert data["fumble"] and data["successes"] == 0
    data = invoke(
        capsys, "test", "obscur", "--dice", "3", "--zero-skill", "--faces", "6,5,4", "--json"
    ).json()
    assert data["successes"] == 2
    data = invoke(
        capsys, "test", "obscur", "--dice", "3", "--zero-attribute", "--faces", "6,5,4", "--json"
    ).json()
    assert data["successes"] == 1
    data = invoke(
        capsys, "test", "obscur", "--dice", "3", "--modifier", "-1", "--faces", "6,5", "--json"
    ).json()
    assert data["successes"] == 3 and data["dice"] == 2
    data = invoke(
        capsys, "test", "obscur", "--dice", "3", "--automatic", "réussite", "--json"
    ).json()
    assert data["passed"] and data["automatic"] and data["faces"] == []


def test_O3_maladresse_adds_vecu_to_the_sheet(
    capsys: pytest.CaptureFixture[str], isaure: Path
) -> None:
    """O-3: a Maladresse from a sheet writes +1 Vécu back (Bagarre + Hargne = 4 dice)."""
    data = invoke(
        capsys,
        "test",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Bagarre",
        "--faces",
        "1,1,1,1",
        "--json",
    ).json()
    assert (
        data["fumble"]
        and data["sheet"]["vecu_gained"] == 1
        and data["sheet"]["trait"] == "Bagarre + Hargne"
    )
    assert json.loads(isaure.read_text(encoding="utf-8"))["ressources"]["vecu"] == 9
    data = invoke(
        capsys,
        "test",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Bagarre",
        "--faces",
        "1,1,1,4",
        "--json",
    ).json()
    assert not data["fumble"]
    assert json.loads(isaure.read_text(encoding="utf-8"))["ressources"]["vecu"] == 9


def test_O10_depassement_paid_from_the_sheet(
    capsys: pytest.CaptureFixture[str], isaure: Path
) -> None:
    """O-10: a reroll (1 point) and an adjustment (3 points) paid Vécu then Volonté."""
    result = invoke(
        capsys,
        "test",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Esquive",
        "--difficulty",
        "3",
        "--faces",
        "1,2,3,4,5,1",
        "--reroll",
        "1",
        "--adjust",
        "3",
        "--pay",
        "volonte=2,moral=2",
        "--json",
    )
    data = result.json()
    assert data["rolled"] == [1, 2, 3, 4, 5] and data["rerolled"] == [1]
    assert data["push"]["cost"] == 4 and data["sheet"]["paid"] == {"volonte": 2, "moral": 2}
    saved = json.loads(isaure.read_text(encoding="utf-8"))["ressources"]
    assert (
        saved["volonte"]["current"] == 3 and saved["moral"]["current"] == 2 and saved["vecu"] == 8
    )


def test_O9_oppose_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """O-9: {"system", "a", "b", "winner", "margin"}."""
    data = invoke(
        capsys,
        "oppose",
        "obscur",
        "--dice",
        "3",
        "--vs",
        "2",
        "--faces",
        "6,4,1",
        "--vs-faces",
        "5,1",
        "--json",
    ).json()
    assert data["system"] == "obscur" and data["winner"] == "a" and data["margin"] == 2
    assert data["a"]["successes"] == 3 and data["b"]["successes"] == 1
    data = invoke(
        capsys,
        "oppose",
        "obscur",
        "--dice",
        "1",
        "--vs",
        "1",
        "--faces",
        "4",
        "--vs-faces",
        "5",
        "--json",
    ).json()
    assert data["winner"] is None and data["margin"] == 0


def test_O8_odds_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """O-8: 3 dice at difficulty 1: 7/8; P(Maladresse) = 1/216."""
    data = invoke(capsys, "odds", "obscur", "--dice", "3", "--difficulty", "1", "--json").json()
    assert data["system"] == "obscur"
    assert data["p_success"] == 7 / 8 and data["p_fumble"] == 1 / 216
    assert data["successes"]["0"] == 1 / 8 and data["exact"]["successes"]["2"] == "7/24"
    big = invoke(
        capsys, "odds", "obscur", "--dice", "40", "--difficulty", "20", "--zero-skill", "--json"
    ).json()
    assert 0 < big["p_success"] < 1


def test_O10_push_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    """O-10: the advisor lists spends with cost and exact probability, best first."""
    data = invoke(
        capsys, "push", "obscur", "--dice", "4", "--difficulty", "3", "--points", "6", "--json"
    ).json()
    assert data["stage"] == "before" and data["best"] == data["options"][0]
    assert [o["p_success"] for o in data["options"]] == sorted(
        (o["p_success"] for o in data["options"]), reverse=True
    )
    assert {o["spend"]["extra_dice"] for o in data["options"]} == {0, 1, 2, 3}
    data = invoke(
        capsys,
        "push",
        "obscur",
        "--dice",
        "3",
        "--difficulty",
        "2",
        "--points",
        "6",
        "--faces",
        "3,3,1",
        "--json",
    ).json()
    assert data["stage"] == "after" and data["best"]["p_exact"] == "1" and data["best"]["cost"] == 3
    assert data["cheapest_sure"] == data["best"]
    text = invoke(capsys, "push", "obscur", "--dice", "3", "--difficulty", "2", "--points", "6")
    assert text.status == 0 and "Réussite" in text.out


def test_O40_xp_command(capsys: pytest.CaptureFixture[str], isaure: Path) -> None:
    """O-40: the cost, then --apply spends Vécu and writes the level."""
    data = invoke(
        capsys, "xp", "obscur", "--sheet", str(isaure), "--trait", "Agilité", "--to", "4", "--json"
    ).json()
    assert data["cost"] == 36 and not data["affordable"] and not data["applied"]
    data = invoke(
        capsys, "xp", "obscur", "--sheet", str(isaure), "--trait", "Milieu", "--to", "3", "--json"
    ).json()
    assert data["cost"] == 9
    data = invoke(
        capsys,
        "xp",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Mère Ardoise",
        "--contact",
        "--to",
        "3",
        "--apply",
        "--json",
    ).json()
    assert data["applied"] and data["vecu_after"] == 5
    saved = json.loads(isaure.read_text(encoding="utf-8"))
    assert saved["contacts"]["Mère Ardoise"] == 3 and saved["ressources"]["vecu"] == 5


def test_O41_acquire_command(capsys: pytest.CaptureFixture[str]) -> None:
    """O-41: 3 successes vs Rareté 2: available at 140 %, with the exact odds."""
    data = invoke(
        capsys, "acquire", "obscur", "--rarity", "2", "--price", "50", "--faces", "6,4,1", "--json"
    ).json()
    assert data["available"] and data["price_percent"] == 140 and data["price"] == 70
    assert type(data["price"]) is int  # a whole price is written whole: 70, not 70.0
    cheap = invoke(
        capsys, "acquire", "obscur", "--rarity", "1", "--price", "5", "--faces", "6,4,1", "--json"
    ).json()
    assert cheap["price_percent"] == 130 and cheap["price"] == 6.5  # not rounded to 6
    assert data["p_available_exact"] == "1/3"
    text = invoke(capsys, "acquire", "obscur", "--rarity", "1", "--distance", "2", "--seed", "3")
    assert text.status == 0 and "provisoire" in text.out


def _sheet_with(tmp_path: Path, text: str, name: str = "bad.json") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda d: d["associations"].pop("Crochetage"), "competences.Crochetage"),
        (lambda d: d["capacites"].__setitem__("Bagarre", -2), "capacites.Bagarre"),
        (lambda d: d["capacites"].__setitem__("Voltige", 1), "capacites.Voltige"),
    ],
)
def test_bad_sheets_exit_2_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, edit, needle: str
) -> None:  # type: ignore[no-untyped-def]
    data = json.loads((EXAMPLES / "isaure.json").read_text(encoding="utf-8"))
    edit(data)
    path = _sheet_with(tmp_path, json.dumps(data, ensure_ascii=False))
    before = path.read_bytes()
    line = one_line_error(
        invoke(
            capsys,
            "test",
            "obscur",
            "--sheet",
            str(path),
            "--trait",
            "Bagarre",
            "--faces",
            "1,1,1,1",
        )
    )
    assert needle in line
    assert path.read_bytes() == before


@pytest.mark.parametrize(("text", "name"), [("{ not json", "bad.json"), ("name = ", "bad.toml")])
def test_malformed_sheets_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, name: str
) -> None:
    path = _sheet_with(tmp_path, text, name)
    line = one_line_error(
        invoke(capsys, "test", "obscur", "--sheet", str(path), "--trait", "Bagarre")
    )
    assert name in line
    assert path.read_text(encoding="utf-8") == text


def test_unknown_trait_and_overdrawn_resource_leave_the_sheet(
    capsys: pytest.CaptureFixture[str], isaure: Path
) -> None:
    before = isaure.read_bytes()
    assert "Voltige" in one_line_error(
        invoke(capsys, "test", "obscur", "--sheet", str(isaure), "--trait", "Voltige")
    )
    # 6 + 6 + 6 + 6 = 24 points; the sheet has 8 + 5 + 4 = 17.
    overdrawn = invoke(
        capsys,
        "test",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Bagarre",
        "--faces",
        "1,1,1,1,1,1,1",
        "--push-dice",
        "6",
        "--reroll",
        "6",
        "--adjust",
        "6",
        "--margin-points",
        "6",
    )
    one_line_error(overdrawn)
    asked = invoke(
        capsys,
        "test",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Bagarre",
        "--faces",
        "1,1,1,1",
        "--adjust",
        "6",
        "--pay",
        "moral=6",
    )
    assert "Moral" in one_line_error(asked)
    assert isaure.read_bytes() == before


@pytest.mark.parametrize(
    "args",
    [
        ("push", "obscur", "--dice", "3", "--difficulty", "2", "--points", "-1"),
        ("test", "obscur", "--dice", "10000"),
        ("test", "obscur", "--dice", "3", "--sheet", "x.json"),
        ("test", "obscur"),
        ("test", "obscur", "--dice", "2", "--adjust", "1", "--adjust-on", "5:+1"),
        ("test", "obscur", "--dice", "2", "--adjust-on", "x"),
        ("odds", "obscur", "--dice", "-3"),
        ("acquire", "obscur", "--rarity", "9"),
        ("acquire", "obscur", "--rarity", "2", "--distance", "9"),
        ("acquire", "obscur", "--rarity", "2", "--price", "abc"),
        ("test", "obscur", "--dice", "2", "--pay", "or=3"),
    ],
)
def test_bad_options_exit_2_in_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    one_line_error(invoke(capsys, *args))


def test_a_price_too_long_is_refused_by_its_length_not_cut_short(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A price of 26 digits was echoed cut to 20 (« '99999999999999999999' n'est pas un
    prix »), a number that looks like a valid price: its length is said instead."""
    r = invoke(capsys, "acquire", "obscur", "--rarity", "3", "--price", "9" * 26)
    assert r.status == 2 and "26" in r.err and "9" * 20 not in r.err
    one_line_error(r)


def test_O10_push_from_a_sheet_cannot_spend_more_than_it_has(
    capsys: pytest.CaptureFixture[str], isaure: Path
) -> None:
    """O-10: the advisor's budget defaults to the sheet's points and never exceeds them."""
    data = invoke(
        capsys,
        "push",
        "obscur",
        "--sheet",
        str(isaure),
        "--trait",
        "Esquive",
        "--difficulty",
        "3",
        "--json",
    ).json()
    assert data["points"] == 8 + 5 + 4 and data["dice"] == 5
    line = one_line_error(
        invoke(
            capsys, "push", "obscur", "--sheet", str(isaure), "--trait", "Esquive", "--points", "20"
        )
    )
    assert "17" in line


def test_O10_after_roll_names_the_dice_to_raise(capsys: pytest.CaptureFixture[str]) -> None:
    """O-10: after the roll, an adjustment option says which dice to raise (1-based)."""
    data = invoke(
        capsys,
        "push",
        "obscur",
        "--dice",
        "5",
        "--difficulty",
        "3",
        "--points",
        "6",
        "--faces",
        "2,5,1,3,1",
        "--json",
    ).json()
    assert data["best"]["spend"]["adjust_on"] == [[2, 1], [4, 1]] and data["best"]["cost"] == 3


def test_O10_no_kind_twice_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """O-10: one tier of each kind per test: a kind given twice is refused."""
    line = one_line_error(
        invoke(
            capsys,
            "test",
            "obscur",
            "--dice",
            "2",
            "--reroll",
            "1",
            "--reroll",
            "3",
            "--faces",
            "4,4",
        )
    )
    assert "--reroll" in line


def test_O40_xp_apply_never_overdraws(capsys: pytest.CaptureFixture[str], isaure: Path) -> None:
    """O-40: --apply with too little Vécu: exit 2, the sheet untouched."""
    before = isaure.read_bytes()
    line = one_line_error(
        invoke(
            capsys,
            "xp",
            "obscur",
            "--sheet",
            str(isaure),
            "--trait",
            "Agilité",
            "--to",
            "5",
            "--apply",
        )
    )
    assert "Vécu" in line
    assert isaure.read_bytes() == before


def test_O10_push_prints_a_long_exact_chance_as_its_count_of_digits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """O-10 advisor in the terminal: a chance of 60 digits says so and sends to --json
    (the table cut it with an ellipsis, a number that read like another); the JSON keeps
    every digit."""
    args = ("--lang", "en", "push", "obscur", "--dice", "20", "--difficulty", "10")
    shown = invoke(capsys, *args, "--points", "6")
    assert shown.status == 0, shown.err
    data = invoke(capsys, *args, "--points", "6", "--json").json()
    digits = len(data["options"][0]["p_exact"]) - 1
    assert f"{digits} digits: see --json" in shown.out


@pytest.mark.parametrize(
    ("faces", "needle"), [("2,5,1", "2 dés manquent sur 5"), ("2,5,1,3,1,4", "1 dé non utilisé")]
)
def test_O10_push_after_reads_exactly_the_pool(
    capsys: pytest.CaptureFixture[str], faces: str, needle: str
) -> None:
    """O-10: the advisor after the roll judges the faces of the pool rolled, no fewer and
    no more: --dice 5 with three faces is refused as `test obscur` refuses it."""
    line = one_line_error(
        invoke(capsys, "push", "obscur", "--dice", "5", "--points", "3", "--faces", faces)
    )
    assert needle in line


def test_O9_oppose_without_the_other_side_names_its_real_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """O-9: the other camp's dice are --vs; the message must not send the user to an
    option that does not exist."""
    line = one_line_error(invoke(capsys, "oppose", "obscur", "--dice", "3"))
    assert "--vs N" in line and "--vs-dice" not in line
    line = one_line_error(
        invoke(capsys, "oppose", "obscur", "--dice", "3", "--vs", "2", "--vs-sheet", "x.json")
    )
    assert "--vs," in line and "--vs-dice" not in line


def test_O8_O10_push_takes_every_pool_test_takes_and_refuses_what_test_refuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """O-10: ``push`` refused 60 dice + 60 of modifier that ``test`` and ``odds`` roll;
    O-8: a difficulty of -1 is refused as 0 is, citing the rule (it said « 0 à 200 »,
    then 0 was refused as « au moins 1 »)."""
    data = invoke(
        capsys, "push", "obscur", "--dice", "60", "--modifier", "60", "--difficulty", "2",
        "--points", "3", "--json",
    ).json()  # fmt: skip
    assert data["dice"] == 120 and data["best"]["p_success"] > 0.99
    for command, extra in (("test", ()), ("odds", ()), ("push", ("--points", "3"))):
        for difficulty in ("-1", "0"):
            args = (command, "obscur", "--dice", "3", "--difficulty", difficulty, *extra)
            line = one_line_error(invoke(capsys, *args))
            assert "au moins 1 Succès" in line and f"pas {difficulty}." in line, line


def test_O9_labels_are_punctuated_as_each_language_writes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """« Camp A : » in French, "Side A:" in English (labels built in code skipped the
    space French puts before a colon: meneur.locale.labelled)."""
    french = invoke(capsys, "oppose", "obscur", "--dice", "3", "--vs", "2", "--seed", "1")
    assert "Camp A : " in french.out and "Camp A:" not in french.out
    english = invoke(
        capsys, "--lang", "en", "oppose", "obscur", "--dice", "3", "--vs", "2", "--seed", "1"
    )
    assert "Side A: " in english.out


@pytest.mark.parametrize("price", ["-5", "1e400", "1e13"])
def test_a_price_out_of_bounds_is_refused_with_its_bounds_where_it_was_typed(
    capsys: pytest.CaptureFixture[str], price: str
) -> None:
    """-5 said « n'est pas un prix » and 1e400 the bounds without naming --price: both
    name the option and the bounds, grouped as French writes them."""
    r = invoke(capsys, "acquire", "obscur", "--rarity", "3", "--price", price)
    assert r.status == 2 and "--price" in r.err and "1\u202f000\u202f000\u202f000\u202f000" in r.err
    one_line_error(r)
