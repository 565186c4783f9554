"""Every error message quotes at most the first 40 characters of what the user typed,
and says it cut (« … »): a Krâsses name of 10,000 characters and a number of 300
digits were echoed whole (:func:`meneur.errors.echoed`, one place for every message)."""

from __future__ import annotations

import pytest

from cli_helpers import invoke
from meneur.errors import RuleError, UsageError

LONG = "x" * 10_000
BOUNDED = 300
"""Longer than any of these messages' own words, far shorter than the value."""


@pytest.mark.parametrize(
    "args",
    [
        ("character", "new", "krasses", "A" * 10_000),
        ("campaign", "use", LONG),
        ("character", "show", LONG),
        ("test", "krasses", "--difficulty", LONG),
        ("test", "tunnels", "--dice", "3", "--threshold", "2", "--sixes", LONG),
        ("table", "tunnels", "--rows", "9" * 300, "--cols", "2"),
        ("table", "tunnels", "--rows", "1.." + "x" * 300, "--cols", "2"),
        (LONG,),
        ("roll", "1d6", "--" + LONG),
    ],
    ids=lambda a: " ".join(a)[:40],
)
def test_a_long_value_is_quoted_cut_short(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    result = invoke(capsys, *args)
    assert result.status != 0
    assert result.err.startswith("Erreur") and len(result.err) < BOUNDED, result.err[:400]


def test_the_cut_is_said_and_keeps_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "test", "krasses", "--difficulty", "abcdefghij" * 10)
    assert "« " + ("abcdefghij" * 4) + "… »" in result.err


def test_an_error_cuts_a_typed_value_but_not_its_own_words() -> None:
    known = ", ".join(f"niveau-{n}" for n in range(30))
    message = "Unknown '{name}': choose among {known}."
    error = UsageError(message, name=LONG, known=known)
    assert str(error) == message.format(name="x" * 40 + "…", known=known)
    assert error.params["name"] == LONG  # kept whole for a program that reads it
    assert str(RuleError("{number}", number=10**300)) == "1" + "0" * 39 + "…"


def test_a_long_path_keeps_its_file_name() -> None:
    """A sheet's path or source is cut at its start: its end names the file."""
    from meneur.errors import SheetError

    folder = "/home/" + "dossier/" * 30
    error = SheetError("{source}: field {field}", source=folder + "isaure.json", field="nom")
    shown = str(error)
    assert shown.startswith("…") and shown.endswith("isaure.json: field nom")
    assert len(shown) < 160
