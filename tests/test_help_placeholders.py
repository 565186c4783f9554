"""The French ``--help`` reads French to the placeholders: ``--campaign NOM``, not ``NAME``."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from cli_helpers import invoke
from meneur.cli.helpformat import PLACEHOLDERS

ENGLISH = re.compile(
    r"(?<![A-Za-z-])(?:" + "|".join(p for p in PLACEHOLDERS if p != "OPTIONS") + r")(?![A-Za-z])"
)


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (("serve",), ("--host HÔTE", "--campaign NOM"), ("--host HOST", "--campaign NAME")),
        (("verify",), ("FICHIER",), ("FILE",)),
        (("log",), ("--export FICHIER",), ("--export FILE",)),
        (
            ("hurt", "obscur"),
            ("--fire INTENSITÉ", "--blow DOMMAGES", "--aggravate JOURS"),
            ("--fire INTENSITY", "--blow DAMAGE", "--aggravate DAYS"),
        ),
        (
            ("test", "legendes"),
            ("--domain DOMAINE", "--aid RÉSULTAT", "--take BANDE"),
            ("--domain DOMAIN", "--aid RESULT", "--take BAND"),
        ),
    ],
)
def test_help_placeholders_follow_the_language(
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    french: tuple[str, ...],
    english: tuple[str, ...],
) -> None:
    fr = invoke(capsys, *args, "--help", "--lang", "fr")
    en = invoke(capsys, *args, "--help", "--lang", "en")
    assert fr.status == en.status == 0
    for text in french:
        assert text in fr.out
    for text in english:
        assert text in en.out
    assert not ENGLISH.findall(fr.out), fr.out


def test_every_placeholder_has_a_french_word() -> None:
    from meneur.locale import gettext, set_language

    set_language("fr")
    assert gettext(PLACEHOLDERS["HOST"]) == "HÔTE"
    assert all(gettext(word) for word in PLACEHOLDERS.values())


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and subcommand of the CLI, as the words that reach it."""
    from typer.main import get_command

    from meneur.cli.main import build_app

    root = get_command(build_app())
    paths: list[tuple[str, ...]] = []
    for top in root.list_commands(root.context_class(root)):  # type: ignore[attr-defined]
        group = get_command(build_app([top]))
        stack = [((top,), group.get_command(group.context_class(group), top))]  # type: ignore[attr-defined]
        while stack:
            path, command = stack.pop()
            paths.append(path)
            if hasattr(command, "list_commands"):
                context = command.context_class(command)
                for name in command.list_commands(context):
                    stack.append(((*path, name), command.get_command(context, name)))
    return sorted(paths)


def test_no_option_shows_a_function_name_for_its_value(capsys: pytest.CaptureFixture[str]) -> None:
    """An option with a custom ``parser=`` and no ``metavar`` reads ``--dice <parser>``:
    every option of every command names what it takes (``N``, ``FILE``...)."""
    paths = _command_paths()
    assert ("simulate", "sweep", "tunnels") in paths and len(paths) > 80
    for path in paths:
        for lang in ("fr", "en"):
            shown = invoke(capsys, "--lang", lang, *path, "--help")
            assert shown.status == 0, (path, shown.err)
            assert not re.findall(r"<\w+>", shown.out), (path, lang, shown.out)


def test_no_argument_shows_its_python_name(capsys: pytest.CaptureFixture[str]) -> None:
    """An argument without a ``metavar`` read ``{name}`` or ``[sheet]`` in the usage line
    (the function's parameter, never translated): every argument names what it takes in
    capitals, translated with the others (``NOM``; Typer's braces are dropped)."""
    for path in _command_paths():
        shown = invoke(capsys, "--lang", "fr", *path, "--help")
        usage = shown.out.splitlines()[0]
        arguments = usage.split(" ".join(("meneur", *path)), 1)[1]
        assert not re.findall(r"(?<![A-Za-z-])[a-z_]{2,}(?![A-Za-z])", arguments), (path, usage)


def test_the_other_sides_faces_are_not_described_as_the_rollers() -> None:
    """``--vs-faces`` had the help of ``--faces`` word for word. In a subprocess: an
    option's help is read once per process, in the language of its first command."""
    env = {**os.environ, "MENEUR_LANG": "fr", "COLUMNS": "100"}
    fr = subprocess.run(
        [sys.executable, "-m", "meneur", "oppose", "tunnels", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    faces, vs_faces = (
        " ".join(fr.split(flag, 1)[1].split("--", 1)[0].split())
        for flag in ("--faces", "--vs-faces")
    )
    assert "camp adverse" in vs_faces and "camp adverse" not in faces


def test_usage_and_headings_read_as_each_language_writes_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A required argument bare in the usage line (``EXPR``, not Typer's ``{EXPR}``, which
    reads as something to type), and French headings with their space: « Options : »."""
    fr = invoke(capsys, "roll", "--help", "--lang", "fr").out
    assert "Utilisation : meneur roll [OPTIONS] EXPR" in fr and "{EXPR}" not in fr
    assert "\nOptions :\n" in fr and "\nArguments :\n" in fr
    en = invoke(capsys, "roll", "--help", "--lang", "en").out
    assert "Usage: meneur roll [OPTIONS] EXPR" in en and "\nOptions:\n" in en
