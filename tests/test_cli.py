"""The command line: help, version, roll, languages, and one clear line for bad input."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cli_helpers import invoke
from meneur import __version__


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "--version")
    assert result.status == 0
    assert __version__ in result.out


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "--help")
    assert result.status == 0
    assert "roll" in result.out
    assert "meneur" in result.out


def test_no_arguments_shows_help(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys)
    assert result.status == 0
    assert "roll" in result.out


def test_roll_json_tree_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = invoke(capsys, "roll", "4d6kh3", "--seed", "1", "--json")
    again = invoke(capsys, "roll", "4d6kh3", "--seed", "1", "--json")
    assert first.status == 0
    data = first.json()
    assert data == again.json()
    dice = data["tree"]["dice"]
    assert len(dice) == 4
    assert sum(not d["kept"] for d in dice) == 1
    assert 3 <= data["total"] <= 18
    assert data["total"] == sum(d["face"] for d in dice if d["kept"])


def test_uppercase_d_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert invoke(capsys, "roll", "4D6kh3", "--seed", "1").status == 0


def test_roll_with_physical_faces(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "roll", "3d6+2", "--faces", "1,4,6", "--json")
    assert result.json()["total"] == 13
    assert result.json()["dice_source"] == "physical"


def test_roll_human_output_shows_every_die(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "roll", "4d6kh3", "--faces", "2,5,1,3")
    assert result.status == 0
    assert "~~1~~" in result.out
    assert "= 10" in result.out


BAD_INPUT = [
    ("roll", "1000000d6"),
    ("roll", "3d0"),
    ("roll", "1d20rr<21"),
    ("roll", "((((("),
    ("roll", ""),
    ("roll", "1d6+" * 1249 + "1"),
    ("roll", "3d6", "--faces", "7"),
    ("roll", "3d6", "--faces", "a,b"),
    ("roll", "3d6", "--faces", "1"),
    ("roll", "3d6", "--faces", "1,2,3,4"),
    ("roll", "3d6", "--seed", "-1"),
    ("roll", "3d6", "--seed", "9" * 1000),
    ("roll", "3d6", "--lang", "xx"),
    ("roll", "3d6", "--nope"),
    ("roll",),
    ("nope",),
]


@pytest.mark.parametrize("args", BAD_INPUT, ids=lambda a: " ".join(a)[:40])
def test_bad_input_gives_one_clear_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    result = invoke(capsys, *args)
    assert result.status == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith(("Erreur", "Error"))
    assert "Traceback" not in result.err
    assert result.out == ""


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (("character", "show"), "NOM", "NAME"),
        (("verify",), "FICHIER", "FILE"),
        (("table",), "SYSTÈME", "SYSTEM"),
    ],
)
def test_a_missing_argument_is_named_as_the_help_names_it(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], french: str, english: str
) -> None:
    """« Il manque NAME. » named the argument in English where the help says NOM."""
    assert invoke(capsys, "--lang", "fr", *args).err == f"Erreur : Il manque {french}.\n"
    assert invoke(capsys, "--lang", "en", *args).err == f"Error: Missing {english}.\n"


def test_errors_speak_the_users_language(capsys: pytest.CaptureFixture[str]) -> None:
    french = invoke(capsys, "roll", "3d0")
    english = invoke(capsys, "roll", "3d0", "--lang", "en")
    assert french.err.startswith("Erreur : Un dé a au moins une face")
    assert english.err.startswith("Error: A die needs at least one side")


def test_an_empty_language_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    """``--lang ''`` is refused as empty: the message must not name the language the
    environment would have chosen (a valid one) as the unknown one."""
    result = invoke(capsys, "roll", "3d6", "--lang", "")
    assert result.status == 2
    assert "« fr »" not in result.err and "'fr'" not in result.err
    assert "«  »" in result.err


SUPERSCRIPT = "\u00b2"
"""``²``: ``str.isdigit`` says yes, ``int()`` says no."""


@pytest.mark.parametrize(
    "args",
    [
        ("test", "tunnels", "--dice", SUPERSCRIPT, "--threshold", "3"),
        ("test", "tunnels", "--dice", "3", "--threshold", "1" + SUPERSCRIPT),
        ("test", "krasses", "--skill", "2", "--difficulty", SUPERSCRIPT),
        ("test", "obscur", "--dice", "3", "--faces", SUPERSCRIPT + ",1,1"),
        ("test", "obscur", "--dice", "2", "--adjust", "1", "--adjust-on", SUPERSCRIPT + ":+1"),
        ("test", "obscur", "--dice", "2", "--pay", "vecu=" + SUPERSCRIPT),
        ("roll", "3d6", "--faces", SUPERSCRIPT + ",1,1"),
    ],
    ids=lambda a: " ".join(a)[:40],
)
def test_digits_other_than_0_to_9_are_refused_by_name(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """A superscript digit passed ``isdigit`` and then broke ``int()``, which printed a
    bare « Valeur invalide » or worse: every number parser names the typed text."""
    typed = next(arg for arg in args if SUPERSCRIPT in arg)
    result = invoke(capsys, *args)
    assert result.status == 2 and "Traceback" not in result.err
    message = result.err.strip()
    assert SUPERSCRIPT in message and not message.endswith(f": {typed}"), message


@pytest.mark.parametrize("digits", [2000, 5000])
def test_a_threshold_pages_long_is_not_echoed(
    capsys: pytest.CaptureFixture[str], digits: int
) -> None:
    """T-3: a threshold is 1 to 1000; a number of thousands of digits is refused by its
    length, in one short line, not printed back whole."""
    result = invoke(capsys, "test", "tunnels", "--dice", "3", "--threshold", "9" * digits)
    assert result.status == 2
    assert len(result.err) < 200 and f"{digits} chiffres" in result.err


def test_unknown_language_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MENEUR_LANG", "xx")
    result = invoke(capsys, "roll", "3d6")
    assert result.status == 2
    assert "xx" in result.err


def test_the_installed_command_runs_without_traceback() -> None:
    """The real entry point, in a fresh process, as a user runs it."""
    env = {**os.environ, "MENEUR_LANG": "en"}
    done = subprocess.run(
        [sys.executable, "-c", "from meneur.cli.main import main; main()", "roll", "3d0"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "Error: A die needs at least one side: '3d0'."


def test_plain_roll_does_not_import_heavy_modules() -> None:
    """Start-up: numpy, SQLAlchemy, FastAPI and matplotlib stay out of a plain roll."""
    code = (
        "import sys; from meneur.cli.main import run; run(['roll', '3d6', '--seed', '1']);"
        "heavy = [m for m in ('numpy', 'sqlalchemy', 'fastapi', 'matplotlib', 'icepool')"
        " if m in sys.modules]; print('HEAVY:' + ','.join(heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "HEAVY:"


@pytest.mark.parametrize(
    ("command", "data"),
    [
        (["roll", "3d6"], False),
        (["test", "tunnels", "--dice", "3", "--threshold", "2"], False),
        (["test", "krasses", "--bonus", "5", "--difficulty", "15"], True),
    ],
)
def test_start_up_leaves_out_what_the_command_does_not_use(command: list[str], data: bool) -> None:
    """Issue 18, start-up: secure dice without ``secrets`` (hmac, OpenSSL), messages from the
    marshalled catalogue (no ``.mo`` parse), no JSON without ``--json``, no TOML parser
    unless rule data is read (Krâsses' difficulties), and no ``simulate`` commands
    (``register_lab_cli``) outside ``meneur simulate``."""
    late = ["secrets", "hmac", "_hashlib", "json", "meneur.cli.labkit"]
    late += [f"meneur.systems.{s}.lab_cli" for s in ("tunnels", "krasses", "obscur", "legendes")]
    late += [] if data else ["tomllib"]
    code = (
        "import sys, gettext; from meneur.cli.main import run;"
        "parsed = []; gettext.GNUTranslations._parse = lambda *a: parsed.append(1);"
        f"run({command!r}); late = [m for m in {late!r} if m in sys.modules];"
        "print('LATE:' + ','.join(late), 'PARSED:', len(parsed))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "LATE: PARSED: 0"


RULE_MODULES = {
    "tunnels": ("rules", "combat", "character"),
    "obscur": ("checks", "strike", "procedures"),
    "krasses": ("rules",),
    "legendes": ("rules", "procedures"),
}
"""Each system's checks and procedures: what a roll of another system never loads."""


@pytest.mark.parametrize(
    "command",
    [
        ["roll", "3d6"],
        ["test", "tunnels", "--dice", "3", "--threshold", "2"],
        ["test", "krasses", "--bonus", "5", "--difficulty", "15"],
    ],
)
def test_a_logged_roll_loads_no_other_system(command: list[str]) -> None:
    """Start-up (issues 2 and 18): the roll log names a roll's check by looking in its own
    system only (``campaign.replay``), so a logged roll loads no other system's checks
    or procedures, nor its own procedures (Obscur's checks alone take ~0.1 s to
    import), and writes plain params without pydantic (~0.1 s more): 0.64 s -> 0.43 s
    for ``meneur test krasses`` with its log, measured without compiled bytecode."""
    own = command[1] if command[0] == "test" else None
    late = [
        f"meneur.systems.{system}.{module}"
        for system, modules in RULE_MODULES.items()
        for module in modules
        if (system, module) != (own, "rules")
    ]
    late.append("pydantic")  # the log form of plain params is written without it
    code = (
        "import sys; from meneur.cli.main import run;"
        f"run({command!r}); late = [m for m in {late!r} if m in sys.modules];"
        "print('LATE:' + ','.join(late))"
    )
    logged = {**os.environ, "MENEUR_LOG": "1"}  # as when the campaign log exists
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=logged
    )
    assert done.stdout.strip().splitlines()[-1] == "LATE:"


def test_simulate_still_reaches_every_system_s_lab_commands() -> None:
    """``register_lab_cli`` runs for ``meneur simulate``: each group lists its systems."""
    import typer

    from meneur.cli.main import build_app

    app = typer.main.get_command(build_app(("simulate", "test")))
    tests = app.commands["simulate"].commands["test"].commands  # type: ignore[attr-defined]
    assert {"tunnels", "krasses", "obscur", "legendes"} <= set(tests)
    tunnels_only = typer.main.get_command(build_app(("test", "tunnels")))
    assert "tunnels" not in tunnels_only.commands["simulate"].commands  # type: ignore[attr-defined]


def test_lazily_registered_commands_are_all_listed_and_reachable() -> None:
    """Campaign and lab modules load only for their own commands; none may fall through."""
    import typer

    from meneur.cli.main import CAMPAIGN_COMMANDS, LAB_COMMANDS, build_app

    listed = typer.main.get_command(build_app(())).commands  # type: ignore[attr-defined]
    for name in (*CAMPAIGN_COMMANDS, *LAB_COMMANDS):
        assert name in listed
        assert name in typer.main.get_command(build_app((name,))).commands  # type: ignore[attr-defined]
    roll_only = typer.main.get_command(build_app(("roll",))).commands  # type: ignore[attr-defined]
    assert "roll" in roll_only


@pytest.mark.parametrize(
    "args",
    [
        ("test", "krasses", "--bonus", "3", "--difficulty", "moyen", "--krasse", "é\x1b[2Jb:xyz"),
        ("test", "krasses", "--bonus", "3", "--difficulty", "moyen", "--krasse", "é\x1b[2Jb"),
        ("test", "tunnels", "--dice", "3", "--threshold", "dur\x1b]0;x\x07"),
        ("roll", "2d6\x1b[2J"),
    ],
)
def test_an_error_never_echoes_a_control_character_raw(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """Whatever message quotes the user's input, an escape sequence in it (one that clears
    the terminal or retitles its window) is shown escaped, accents kept; one line, exit 2."""
    r = invoke(capsys, *args)
    assert r.status == 2 and len(r.err.strip().splitlines()) == 1
    assert "\x1b" not in r.err and "\x07" not in r.err and "\\x1b" in r.err


def test_character_help_says_what_each_command_does_with_it() -> None:
    """``odds --character`` promised that « what the roll changes is saved », where odds
    roll nothing; ``--vs-character`` read as ``--character``, never saying it is the
    other side. (A new process: options' help is read once per process, in the
    language of the first command.)"""

    def helped(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "meneur", "--lang", "en", *args, "--help"],
            capture_output=True,
            text=True,
            check=True,
        )
        return " ".join(done.stdout.split())

    for system in ("obscur", "krasses"):
        shown = helped("odds", system)
        assert "nothing is rolled or saved" in shown and "is saved with its log" not in shown
    assert "The other side: a character stored" in helped("fight", "tunnels")


def test_json_output_is_indented_utf8(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` prints accents as they are (a program reads UTF-8), two spaces deep."""
    from meneur.cli.output import print_json

    print_json({"nom": "Élodie", "dés": [1]})
    assert capsys.readouterr().out == '{\n  "nom": "Élodie",\n  "dés": [\n    1\n  ]\n}\n'


def test_a_result_whose_text_breaks_the_markup_is_shown_as_typed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name such as « [/] » breaks rich's markup: the result is shown once, as typed,
    not half styled (:func:`meneur.cli.output.emit`)."""
    from meneur.cli import journal
    from meneur.cli.output import emit

    monkeypatch.setattr(journal, "_loader", None)  # nothing to log here
    emit({}, lambda out: out.print("Zoé [/] [bold]x"), as_json=False)
    assert capsys.readouterr().out == "Zoé [/] [bold]x\n"


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (
            "test krasses",
            "--character NAME A character stored in the current campaign, "
            "instead of a sheet file: what the roll changes is saved with its log entry.",
        ),
        (
            "odds krasses",
            "--character NAME A character stored in the current campaign, "
            "instead of a sheet file: its traits are read, nothing is rolled or saved.",
        ),
        (
            "oppose krasses",
            "--vs-character NAME The other side: a character stored in the "
            "current campaign, instead of --vs-sheet",
        ),
    ],
)
def test_the_help_says_what_a_stored_character_option_does_to_the_character(
    command: str, says: str
) -> None:
    """``odds`` rolls nothing and must not promise a saved change; ``--vs-character`` is the
    other side's (:func:`meneur.cli.params.character_option`). In a process of its own: an
    option's help is written in the language of the process that first imports it."""
    shown = subprocess.run(
        [sys.executable, "-m", "meneur", "--lang", "en", *command.split(), "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert says in " ".join(shown.stdout.split())
