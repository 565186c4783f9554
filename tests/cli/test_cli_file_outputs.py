"""Files the commands write: a plot is replaced only with ``--force``, like every export,
and ``-`` as an export's file means standard output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from meneur.campaign.chain import verify_log

PLOTTING = {
    "odds": ("odds", "krasses", "--bonus", "3", "--difficulty", "15"),
    "table": ("table", "tunnels", "--rows", "2", "--cols", "2"),
    "compare": (
        "compare",
        "tunnels",
        "--variant",
        "explode=never",
        "--variant",
        "explode=always",
        "--rows",
        "1..2",
        "--cols",
        "1..2",
    ),
    "simulate": (
        "simulate",
        "fight",
        "tunnels",
        "--dice",
        "4",
        "--endurance",
        "8",
        "--vs-mr",
        "5",
        "--runs",
        "100",
        "--seed",
        "1",
    ),
}


@pytest.mark.parametrize("command", PLOTTING.values(), ids=PLOTTING.keys())
def test_a_plot_never_replaces_a_file_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """``--plot FILE`` replaced any file in silence (a plot kept for a report, a photo
    named .png), where ``--out`` and ``log --export`` ask for ``--force``: every command
    that plots now asks too, before computing anything, and leaves the file as it was."""
    kept = tmp_path / "kept.png"
    kept.write_bytes(b"precious")
    refused = invoke(capsys, "--lang", "en", *command, "--plot", str(kept))
    assert (refused.status, refused.out) == (2, "")
    assert refused.err.strip() == f"Error: {kept} exists: add --force to replace it."
    assert kept.read_bytes() == b"precious"
    replaced = invoke(capsys, *command, "--plot", str(kept), "--force")
    assert replaced.status == 0, replaced.err
    assert kept.read_bytes().startswith(b"\x89PNG")
    fresh = tmp_path / "fresh.svg"  # a new file needs no --force
    assert invoke(capsys, *command, "--plot", str(fresh)).status == 0
    assert fresh.read_bytes().lstrip().startswith(b"<?xml")
    words = command[: next(i for i, word in enumerate(command) if word.startswith("-"))]
    helped = invoke(capsys, *words, "--help")
    assert "--force" in helped.out


def test_an_export_to_dash_is_written_to_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``log --export -`` wrote a file named « - »: ``-`` is standard output, as for most
    commands, with nothing else printed there (the document only), and no ``--force``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MENEUR_LOG", "1")
    invoke(capsys, "roll", "2d6", "--seed", "1")
    (tmp_path / "-").write_text("precious")  # a file named « - » is not touched either
    done = invoke(capsys, "log", "--export", "-")
    assert done.status == 0, done.err
    document = json.loads(done.out)
    assert document["format"] == "meneur-log" and len(document["entries"]) == 1
    assert verify_log(document).entries == 1
    assert (tmp_path / "-").read_text() == "precious"
    helped = " ".join(invoke(capsys, "log", "--help").out.split())  # the help's words are
    said = ("'-' writes it to standard output", "« - » l'écrit sur la sortie standard")
    assert any(words in helped for words in said)  # those of the language at its import


@pytest.mark.parametrize("command", PLOTTING.values(), ids=PLOTTING.keys())
def test_a_plot_says_the_very_name_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """« Plot written to » read the file's name as console markup (« [bold]x.png » was
    said « x.png ») and printed its control characters raw (an escape sequence typed in
    the name ran in the terminal): the name is said as written, controls escaped."""
    for name, said in (("[bold]x.png", "[bold]x.png"), ("t\x1b[31m.png", "t\\x1b[31m.png")):
        target = tmp_path / name
        done = invoke(capsys, "--lang", "en", *command, "--plot", str(target))
        assert done.status == 0, done.err
        assert target.exists()
        expected = f"Plot written to {tmp_path}/{said}."
        assert "".join(expected.split()) in "".join(done.out.split())  # wrapped or not
        assert "\x1b" not in done.out
