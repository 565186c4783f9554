"""The Krâsses command line refuses what it would have ignored or mixed up: an option of
another kind of roll (K-4, K-7), a krâsse or a sheet's name given twice (K-5, K-1), each
in one clear line in the reader's language; and its help shows faces a d20 can show."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import invoke
from meneur.errors import SheetError

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "krasses" / "aurore-equipee.json"
HARD_TEST = ("--bonus", "0", "--difficulty", "40")
"""A plain test (K-2: only a natural 20 passes it)."""


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        (("--krasse", "5"), "Erreur : Un jet opposé n'a pas de difficulté : retirez --krasse."),
        (
            ("--difficulty", "10"),
            "Erreur : Un jet opposé n'a pas de difficulté : retirez --difficulty.",
        ),
        (
            ("--difficulty", "10", "--krasse", "5"),
            "Erreur : Un jet opposé n'a pas de difficulté : retirez --difficulty, --krasse.",
        ),
    ],
)
def test_K4_an_opposition_s_odds_name_the_difficulty_option_given(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], line: str
) -> None:
    """K-4: ``odds krasses --vs-bonus 2 --krasse 5`` said « retirez --difficulty », an
    option nobody gave: the refusal names the one given."""
    refused = invoke(capsys, "odds", "krasses", "--bonus", "1", "--vs-bonus", "2", *extra)
    assert refused.status == 2
    assert _one_line(refused.err) == line


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            (*HARD_TEST, "--ignore-naturals", "--vs-modifier", "7", "--a-kind", "npc"),
            "Erreur : Un test n'a pas de camp adverse : retirez --vs-modifier, --a-kind, "
            "--ignore-naturals, ou donnez --vs-bonus pour un jet opposé.",
        ),
        (
            ("--bonus", "0", "--difficulty", "10", "--b-kind", "pc"),
            "Erreur : Un test n'a pas de camp adverse : retirez --b-kind, ou donnez --vs-bonus "
            "pour un jet opposé.",
        ),
        (
            ("--member", "5:1", "--difficulty", "15", "--ignore-naturals", "--modifier", "2"),
            "Erreur : --member ne se combine pas avec --modifier, --ignore-naturals.",
        ),
        (
            ("--member", "5:1", "--difficulty", "15", "--vs-modifier", "1", "--skill", "x"),
            "Erreur : --member ne se combine pas avec --skill, --vs-modifier.",
        ),
        (
            ("--member", "5:1", "--difficulty", "15", "--vs-bonus", "3", "--a-kind", "pc"),
            "Erreur : --member ne se combine pas avec --vs-bonus, --a-kind.",
        ),
    ],
)
def test_K4_K7_odds_refuse_an_option_of_another_roll(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], line: str
) -> None:
    """K-4, K-7: ``odds krasses --difficulty 40 --ignore-naturals --vs-modifier 7
    --a-kind npc`` answered a plain test (exit 0), the opposition's options silently
    ignored, and so did ``--member`` with them: refused, named, exit 2."""
    refused = invoke(capsys, "odds", "krasses", *args)
    assert refused.status == 2, refused.out
    assert _one_line(refused.err) == line


def test_K4_the_options_that_apply_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    """K-4: the kinds and the options of an opposition still count where they apply, and
    side a of an opposition's odds may come from a sheet (its --sheet was ignored, or
    asked for a --bonus)."""
    tie = invoke(capsys, "odds", "krasses", "--bonus", "3", "--vs-bonus", "3",
                 "--b-kind", "pc", "--json").json()  # fmt: skip
    assert tie["exact"]["p_a_wins"] == "1/2"
    npc = invoke(capsys, "odds", "krasses", "--bonus", "3", "--vs-bonus", "3", "--a-kind",
                 "npc", "--b-kind", "pc", "--vs-modifier", "0", "--json").json()  # fmt: skip
    assert npc["exact"]["p_a_wins"] == "19/40"  # a tie goes to b, the PC
    sheet = invoke(capsys, "odds", "krasses", "--sheet", str(EXAMPLE), "--skill", "escalade",
                   "--vs-bonus", "7", "--json").json()  # fmt: skip
    by_hand = invoke(capsys, "odds", "krasses", "--bonus", "5", "--modifier", "2",
                     "--vs-bonus", "7", "--json").json()  # fmt: skip
    assert sheet["exact"] == by_hand["exact"]
    plain = invoke(capsys, "oppose", "krasses", "--bonus", "0", "--vs-bonus", "10", "--faces",
                   "20", "--vs-faces", "19", "--ignore-naturals", "--json").json()  # fmt: skip
    assert plain["winner"] == "b"


@pytest.fixture
def krasses_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The conteur's ``krasses.toml`` in a fresh data folder (the table's cache emptied
    around the test)."""
    from meneur.systems.krasses import data

    folder = tmp_path / "data" / "krasses"
    folder.mkdir(parents=True)
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path / "data"))
    data.krasse_table.cache_clear()
    yield folder / "krasses.toml"
    data.krasse_table.cache_clear()


TWICE = 'provisional=false\n[[krasse]]\nname="A"\nvalue=1\n[[krasse]]\nname="a"\nvalue=2\n'


def test_K5_a_krasse_named_twice_is_said_in_the_reader_s_language(
    capsys: pytest.CaptureFixture[str], krasses_toml: Path
) -> None:
    """K-5: a krasses.toml that names a krâsse twice was refused in English inside the
    French line (« invalide en krasse : the krâsse name 'a' is given twice »); it now
    says it as difficulties.toml does, through the same check."""
    krasses_toml.write_text(TWICE, encoding="utf-8")
    args = ("test", "krasses", "--bonus", "1", "--difficulty", "10", "--krasse", "A",
            "--faces", "5")  # fmt: skip
    refused = invoke(capsys, *args)
    assert refused.status == 2
    line = _one_line(refused.err)
    assert line.endswith("invalide en krasse : le nom « a » est donné deux fois."), line
    english = invoke(capsys, "--lang", "en", *args)
    assert _one_line(english.err).endswith("at krasse: the name 'a' is given twice."), english.err


def test_K5_an_alias_that_repeats_its_own_krasse_is_one_name(krasses_toml: Path) -> None:
    """K-5: the krâsses' names are checked as the ladder's (one shared check): an alias
    equal to its own krâsse's name names nothing else; another krâsse's name is refused."""
    from meneur.systems.krasses.data import krasse_table

    krasses_toml.write_text(
        '[[krasse]]\nname="Pluie"\nvalue=5\naliases=["pluie"]\n', encoding="utf-8"
    )
    assert [k.name for k in krasse_table().krasse] == ["Pluie"]
    krasse_table.cache_clear()
    krasses_toml.write_text(
        '[[krasse]]\nname="Pluie"\nvalue=5\n[[krasse]]\nname="Vent"\nvalue=2\naliases=["PLUIE"]\n',
        encoding="utf-8",
    )
    with pytest.raises(SheetError, match="le nom « PLUIE » est donné deux fois"):
        krasse_table()


def _help(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    shown = invoke(capsys, *command, "--help")
    assert shown.status == 0, shown.err
    return " ".join(shown.out.split())  # one line: the wrapping never splits a check


@pytest.mark.parametrize(
    ("command", "faces"),
    [
        (("test", "krasses"), "--faces 14 "),
        (("cooperate", "krasses"), "--faces 14,8,15 "),
        (("oppose", "krasses"), "--faces 12 "),
    ],
)
def test_K1_the_help_s_faces_are_faces_of_a_d20(
    capsys: pytest.CaptureFixture[str], command: tuple[str, ...], faces: str
) -> None:
    """K-1: a Krâsses test rolls one d20; its help showed ``--faces 1,1,4,6``, the four
    d6 of a Tunnels test. Each system now gives its own example (Tunnels keeps its)."""
    shown = _help(capsys, *command)
    assert faces in shown and "1,1,4,6" not in shown, shown
    assert "--faces 1,1,4,6 " in _help(capsys, "test", "tunnels")


def test_K3_the_difficulty_help_says_its_names_are_the_default_ladder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """K-3: the help lists the shipped ladder even where a table's difficulties.toml
    replaces it: it says the list is the default one and where to change it, without
    reading the ladder (the help stays as fast as the command's start)."""
    from meneur.systems.krasses import ladder

    ladder.ladder.cache_clear()
    shown = _help(capsys, "test", "krasses")
    assert re.search(r"échelle par défaut : \$MENEUR_DATA_DIR/krasses/difficulties\.toml", shown)
    info = ladder.ladder.cache_info()
    assert info.hits + info.misses == 0  # no data file was read for the help


def _sheet(path: Path, **changes: object) -> Path:
    """A copy of Aurore's sheet (examples/krasses/aurore-equipee.json), changed."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for key, value in changes.items():
        data[key] = value(data[key]) if callable(value) else value
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        (
            {"advantages": lambda a: [*a, {"name": "Escalade", "score": 9}]},
            "(Avantages : « Escalade » est à la fois un avantage et une compétence",
        ),
        (
            {"characteristics": lambda c: {**c, "escalade": 1}},
            "(Compétences : « Escalade » est à la fois une compétence et une caractéristique",
        ),
        (
            {"characteristics": lambda c: {**c, "CHAT DE GOUTTIERE": 1}},
            "(Avantages : « Chat de gouttière » est à la fois un avantage et une caractéristique",
        ),
    ],
)
def test_K1_a_name_in_two_sections_of_a_sheet_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, changes: dict[str, object], said: str
) -> None:
    """K-1: a roll is asked for by name and takes the skill, else the advantage, else the
    characteristic: an advantage « Escalade » (or a characteristic) beside the skill
    Escalade could never be rolled. Such a sheet is refused when read, the name and the
    two sections said (names compared folded, as a roll looks them up)."""
    path = _sheet(tmp_path / "aurore.json", **changes)
    refused = invoke(capsys, "test", "krasses", "--sheet", str(path), "--skill", "escalade",
                     "--difficulty", "10", "--faces", "5")  # fmt: skip
    assert refused.status == 2, refused.out
    assert said in _one_line(refused.err), refused.err


def test_K1_character_new_refuses_a_skill_named_as_a_characteristic(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """K-1: ``character new krasses`` builds its sheet through the same check."""
    refused = invoke(capsys, "character", "new", "krasses", "Zed", "--characteristic",
                     "Force=1", "--skill", "force=2")  # fmt: skip
    assert refused.status == 2
    assert "« force » est à la fois une compétence et une caractéristique" in refused.err
    assert invoke(capsys, "character", "list", "--json").json() == []  # nothing was stored
