"""Names with the terminal's markup (``[/]``, ``[red]``): one clear line and exit 2.

rich reads ``[...]`` in printed text as styles, so such a name would crash the output
(``[/]`` closes nothing) or restyle it. The systems print names inside their own styled
lines, so names are refused where they enter a system: every system's sheet (and so
every stored character, whose sheet is validated), Légendes' oppositions and helpers.
The campaign commands print names as text instead (``tests/campaign``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from meneur.text import has_markup, plain_name

ROOT = Path(__file__).resolve().parents[1]
Capsys = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def _database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'hostile.db'}")


def refused(result: object) -> None:
    status, err = result.status, result.err  # type: ignore[attr-defined]
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "[ ]" in err


@pytest.mark.parametrize("name", ["a[/]b", "[bold red]Zed[/]", "]"])
def test_stored_names_are_refused(capsys: Capsys, name: str) -> None:
    refused(invoke(capsys, "character", "new", "tunnels", name, "--seed", "1"))
    krasses = invoke(capsys, "character", "new", "krasses", "--name", name)
    refused(krasses)
    assert "(Nom :" in krasses.err  # type: ignore[attr-defined]  # the field, in French
    assert invoke(capsys, "character", "list", "--json").json() == []  # nothing was made


def test_sheet_files_with_markup_names_are_refused(capsys: Capsys, tmp_path: Path) -> None:
    sheets = {
        "tunnels": {
            "system": "tunnels", "name": "c[/]d",
            "characteristics": {t: 2 for t in (
                "Force", "Dextérité", "Constitution", "Volonté", "Intelligence", "Charisme")},
            "endurance": {"current": 4, "max": 4}, "mana": {"current": 1, "max": 1},
            "chance": {"current": 1, "max": 1},
        },
        "obscur": {**json.loads((ROOT / "examples/obscur/isaure.json").read_text()),
                   "name": "[/]"},
        "legendes": {**json.loads((ROOT / "examples/legendes/lyssia.json").read_text()),
                     "name": "[/]"},
    }  # fmt: skip
    commands = {
        "tunnels": ["test", "tunnels", "--trait", "Force", "--threshold", "1", "--sheet"],
        "obscur": ["test", "obscur", "--trait", "Bagarre", "--difficulty", "1", "--sheet"],
        "legendes": ["scene", "legendes", "start"],
    }
    for system, sheet in sheets.items():
        path = tmp_path / f"{system}.json"
        path.write_text(json.dumps(sheet, ensure_ascii=False))
        result = invoke(capsys, *commands[system], str(path))
        assert result.status == 2 and "Traceback" not in result.err, (system, result.err)
        assert "Nom :" in result.err and "name" not in result.err  # the field, in French
    stored = invoke(
        capsys, "character", "new", "obscur", "Isaure", "--from", str(tmp_path / "obscur.json")
    )
    assert stored.status == 0  # the stored name is the one typed: plain


def test_legendes_opposition_and_helper_names(capsys: Capsys, tmp_path: Path) -> None:
    sheet = tmp_path / "lyssia.json"
    sheet.write_bytes((ROOT / "examples/legendes/lyssia.json").read_bytes())
    assert invoke(capsys, "scene", "legendes", "start", str(sheet)).status == 0
    before = sheet.read_bytes()
    refused(invoke(capsys, "scene", "legendes", "add", str(sheet), "Or[/]sk", "--level", "commun"))
    refused(invoke(
        capsys, "scene", "legendes", "aid", str(sheet), "--helper", "T[/]", "--helper-dice", "2",
    ))  # fmt: skip
    assert sheet.read_bytes() == before


def test_plain_name() -> None:
    assert plain_name("Zoé d'Arc") == "Zoé d'Arc" and not has_markup("Zoé (la) <b>")
    with pytest.raises(ValueError):
        plain_name("x[y")


def test_one_name_length_everywhere(capsys: Capsys, tmp_path: Path) -> None:
    """A name of 81 characters is refused in one line by every way in: Tunnels'
    ``character new`` allowed 100 and crashed on its own sheet; the store says 80. A
    name of exactly 80 is made and stored (``meneur.text.NAME_LENGTH``)."""
    from meneur.errors import SheetError
    from meneur.systems.krasses.sheet import validated
    from meneur.systems.legendes.sheet import hero_from
    from meneur.systems.obscur.sheet import character_from
    from meneur.text import NAME_LENGTH

    long = "a" * (NAME_LENGTH + 1)
    for args in (
        ("character", "new", "tunnels", long, "--seed", "1"),
        ("character", "new", "tunnels", long, "--seed", "1", "--out", str(tmp_path / "t.json")),
        ("character", "new", "krasses", "--name", long),
    ):
        result = invoke(capsys, *args)
        assert result.status == 2 and "Traceback" not in result.err, result.err
        assert "80" in result.err and len(result.err.strip().splitlines()) == 1
    lyssia = json.loads((ROOT / "examples/legendes/lyssia.json").read_text())
    isaure = json.loads((ROOT / "examples/obscur/isaure.json").read_text())
    for load, raw in (
        (lambda r: validated(r, "k"), {"system": "krasses", "name": long}),
        (lambda r: hero_from(r, "l"), {**lyssia, "name": long}),
        (lambda r: character_from(r, "o"), {**isaure, "name": long}),
    ):
        with pytest.raises(SheetError):
            load(raw)
    exact = "b" * NAME_LENGTH
    made = invoke(capsys, "character", "new", "tunnels", exact, "--seed", "1", "--json")
    assert made.status == 0, made.err
    assert invoke(capsys, "character", "show", exact, "--json").json()["name"] == exact


@pytest.mark.parametrize("blank", ["   ", "\u00a0"])
def test_a_name_of_spaces_is_refused_on_every_sheet(blank: str) -> None:
    """A name of spaces passed every sheet's ``min_length=1`` and printed nothing where
    the character's name stood (a Krâsses skill, an advantage's target too): refused on
    the four systems' sheets, in the words of :func:`meneur.text.plain_name`."""
    from meneur.errors import SheetError
    from meneur.systems.krasses.sheet import validated
    from meneur.systems.legendes.sheet import hero_from
    from meneur.systems.obscur.sheet import character_from
    from meneur.systems.tunnels.character import from_dict

    aurore = json.loads((ROOT / "examples/krasses/aurore-equipee.json").read_text())
    lyssia = json.loads((ROOT / "examples/legendes/lyssia.json").read_text())
    isaure = json.loads((ROOT / "examples/obscur/isaure.json").read_text())
    tunnels = {
        "system": "tunnels", "name": blank,
        "characteristics": {t: 2 for t in (
            "Force", "Dextérité", "Constitution", "Volonté", "Intelligence", "Charisme")},
        "endurance": {"current": 4, "max": 4}, "mana": {"current": 1, "max": 1},
        "chance": {"current": 1, "max": 1},
    }  # fmt: skip
    for load, raw in (
        (lambda r: from_dict(r, "t"), tunnels),
        (lambda r: validated(r, "k"), {**aurore, "name": blank}),
        (lambda r: hero_from(r, "l"), {**lyssia, "name": blank}),
        (lambda r: character_from(r, "o"), {**isaure, "name": blank}),
    ):
        with pytest.raises(SheetError, match="ni vide ni fait que d'espaces"):
            load(raw)
    assert plain_name(" Zed ") == " Zed "  # spaces around a name are the sheet's own


@pytest.mark.parametrize("bad", ["a\tb", "Or\nsk", "x\u200by", "x\u2028y"])
def test_a_tab_or_a_line_break_is_refused_in_names_and_titles(
    capsys: Capsys, tmp_path: Path, bad: str
) -> None:
    """A scene's title or an opposition's name with a tab or a line break broke the
    one-line display (and a line break in a Légendes name ended in a traceback): every
    sheet name, scene title, opposition and helper refuses control characters in one
    line, the sheet untouched."""
    from meneur.errors import SheetError
    from meneur.systems.legendes.sheet import hero_from

    sheet = tmp_path / "lyssia.json"
    sheet.write_bytes((ROOT / "examples/legendes/lyssia.json").read_bytes())
    before = sheet.read_bytes()
    for args in (
        ("scene", "legendes", "start", str(sheet), "--title", bad),
        ("scene", "legendes", "add", str(sheet), bad, "--level", "commun"),
        ("scene", "legendes", "aid", str(sheet), "--helper", bad, "--helper-dice", "2"),
        ("character", "new", "tunnels", bad, "--seed", "1"),
    ):
        result = invoke(capsys, *args)
        assert result.status == 2 and "Traceback" not in result.err, (args, result.err)
        assert len(result.err.strip().splitlines()) == 1, result.err
    assert sheet.read_bytes() == before
    lyssia = json.loads(before)
    with pytest.raises(SheetError):
        hero_from({**lyssia, "name": bad}, "l")


def test_the_log_table_shows_control_characters_as_escapes() -> None:
    """A cell of ``meneur log`` (a name inside a fight's result, who rolled) is printed
    with its control characters as escapes: rich passes ``\\x1b[31m`` through, and the
    terminal would run it."""
    from meneur.cli.campaign import _text

    assert _text("Zed\x1b[31m l'emporte").plain == "Zed\\x1b[31m l'emporte"
    assert _text("Zed l'emporte après 1 tour").plain == "Zed l'emporte après 1 tour"


@pytest.mark.parametrize(
    "args",
    [
        ("character", "show", "\udcff"),
        ("campaign", "use", "\udcff"),
        ("log", "--character", "\udcff"),
        ("test", "tunnels", "--threshold", "1", "--character", "\udcff"),
    ],
)
def test_a_name_of_bytes_that_are_not_utf8_is_one_error(capsys: Capsys, args: tuple[str]) -> None:
    """A name typed as bytes that are not UTF-8 (``$'\\xff'``) reaches Python as a lone
    surrogate, which SQLite cannot store: a traceback, where a line and exit 2 are due."""
    assert invoke(capsys, "campaign", "new", "essai").status == 0
    made = invoke(capsys, "campaign", "new", "\udcff")  # said « control characters »
    assert made.status == 2 and "UTF-8" in made.err, made.err
    done = invoke(capsys, *args)
    assert done.status == 2 and "UTF-8" in done.err and "Traceback" not in done.err


def test_a_database_url_with_a_null_byte_is_one_error(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``%00`` in ``MENEUR_DB_URL``: « embedded null byte », a traceback."""
    monkeypatch.setenv("MENEUR_DB_URL", "sqlite:////tmp/x/%00.db")
    done = invoke(capsys, "campaign", "list")
    assert done.status == 2 and "MENEUR_DB_URL" in done.err, done.err


def test_control_characters_in_a_contact_or_a_helper_are_refused_and_nothing_written(
    capsys: Capsys, tmp_path: Path
) -> None:
    """An Obscur contact (``xp --contact``) and a Légendes helper (``scene aid``) were
    written to the sheet whatever they held: an escape sequence then reached the
    terminal raw, and a helper with a line break made the sheet unloadable."""
    import shutil

    isaure = tmp_path / "isaure.json"
    shutil.copy(ROOT / "examples" / "obscur" / "isaure.json", isaure)
    kept = isaure.read_bytes()
    for name in ("Z\x1b[31m", "A\nB", "x" * 200):
        done = invoke(capsys, "xp", "obscur", "--sheet", str(isaure), "--trait", name,
                      "--to", "1", "--apply", "--contact")  # fmt: skip
        assert done.status == 2 and "\x1b" not in done.err, done.err
        assert isaure.read_bytes() == kept
    lyssia = tmp_path / "lyssia.json"
    shutil.copy(ROOT / "examples" / "legendes" / "lyssia.json", lyssia)
    assert invoke(capsys, "scene", "legendes", "start", str(lyssia), "--title", "t").status == 0
    kept = lyssia.read_bytes()
    for name in ("V\nW", "U\u202eevil", "\x1b"):
        done = invoke(capsys, "scene", "legendes", "aid", str(lyssia), "--helper", name,
                      "--helper-dice", "2", "--domain", "arc", "--seed", "3")  # fmt: skip
        assert done.status == 2, done.err
        assert lyssia.read_bytes() == kept


def test_an_escape_sequence_in_a_name_is_called_a_control_character(capsys: Capsys) -> None:
    """``ESC [31m`` in a name was refused for its square bracket: the message pointed at
    the bracket, not at the escape sequence."""
    done = invoke(capsys, "character", "new", "tunnels", "Ze\x1b[31mRED", "--seed", "1")
    assert done.status == 2 and "contrôle" in done.err and "crochets" not in done.err, done.err


def test_a_hero_is_checked_before_it_is_written(tmp_path: Path) -> None:
    """A step that changes a hero in place (a list appended to) skips the model's checks:
    ``save_hero`` reads the hero back through the model before it writes, so a sheet that
    would load no more is never written."""
    import shutil

    from meneur.errors import SheetError
    from meneur.systems.legendes.sheet import Scene, load_hero, save_hero

    path = tmp_path / "lyssia.json"
    shutil.copy(ROOT / "examples" / "legendes" / "lyssia.json", path)
    kept = path.read_bytes()
    hero = load_hero(path)
    hero.scene = Scene()
    hero.scene.helpers_used.append("V\nW")
    with pytest.raises(SheetError):
        save_hero(path, hero)
    assert path.read_bytes() == kept


def test_a_scene_title_too_long_is_refused_not_cut(capsys: Capsys, tmp_path: Path) -> None:
    """A title of 5,000 characters was cut to 200 on the sheet while the output echoed
    it whole; other texts too long are refused with their bound, and so is this one."""
    import shutil

    lyssia = tmp_path / "lyssia.json"
    shutil.copy(ROOT / "examples" / "legendes" / "lyssia.json", lyssia)
    kept = lyssia.read_bytes()
    done = invoke(capsys, "scene", "legendes", "start", str(lyssia), "--title", "t" * 5000)
    assert done.status == 2 and "200" in done.err and lyssia.read_bytes() == kept, done.err
    done = invoke(capsys, "scene", "legendes", "start", str(lyssia), "--title", "t" * 200)
    assert done.status == 0, done.err


def test_a_scene_domain_is_held_to_a_names_rules(capsys: Capsys, tmp_path: Path) -> None:
    """``scene legendes roll/aid --domain``: any text names a domain (what the sheet does
    not list is ordinary, L-1), and it is kept in the roll log. An empty one, an escape
    sequence or a line break was rolled as ordinary and logged; the help cut a long one to
    80 characters unsaid while the roll refused it."""
    import shutil

    lyssia = tmp_path / "lyssia.json"
    shutil.copy(ROOT / "examples" / "legendes" / "lyssia.json", lyssia)
    assert invoke(capsys, "scene", "legendes", "start", str(lyssia), "--title", "t").status == 0
    assert (
        invoke(capsys, "scene", "legendes", "add", str(lyssia), "Orsk", "--level", "elite").status
        == 0
    )
    kept = lyssia.read_bytes()
    steps = (
        ("roll", str(lyssia), "--vs", "Orsk", "--seed", "3"),
        ("aid", str(lyssia), "--helper", "Tam", "--helper-dice", "2", "--seed", "3"),
    )
    for step in steps:
        for domain in ("", " ", "a\x1b[2Jb", "A\nB", "x" * 81):
            done = invoke(capsys, "scene", "legendes", *step, "--domain", domain)
            assert done.status == 2 and "domaine" in done.err, (step[0], domain, done.err)
            assert "\x1b" not in done.err and lyssia.read_bytes() == kept
        done = invoke(capsys, "scene", "legendes", *step, "--domain", "Escalade")
        assert done.status == 0, done.err  # not on the sheet: ordinary (L-1)
        kept = lyssia.read_bytes()
