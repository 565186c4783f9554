"""One rule for every whole number a user types (:mod:`meneur.whole`): the digits 0 to 9,
an optional sign, spaces around; never another script's digits nor ``1_000``, which
Python's ``int()`` reads. ``--rows ٣..٥`` was taken as 3..5 while ``--seed +3`` was
refused."""

from __future__ import annotations

import pytest

from cli_helpers import invoke
from meneur.errors import UsageError
from meneur.whole import parse_whole

REFUSED = ["٣", "1_0", "３", "1e3", "1 0", "--3", "+-3", "", "²"]


@pytest.mark.parametrize("text", REFUSED)
def test_the_rule_refuses_what_int_reads_and_a_player_does_not_mean(text: str) -> None:
    with pytest.raises(UsageError):
        parse_whole(text)


@pytest.mark.parametrize(("text", "number"), [("12", 12), ("+3", 3), ("-3", -3), (" 7 ", 7)])
def test_the_rule_reads_digits_with_a_sign(text: str, number: int) -> None:
    assert parse_whole(text) == number


def _table(rows: str) -> tuple[str, ...]:
    return ("table", "tunnels", "--rows", rows, "--cols", "2")


BAD_NUMBERS = [
    _table("٣..٥"),
    _table("1_0..12"),
    _table("３"),
    ("roll", "1d6", "--seed", "٣"),
    ("roll", "1d6", "--seed", "1_0"),
    ("test", "tunnels", "--dice", "٣", "--threshold", "2"),
    ("test", "obscur", "--dice", "1_0", "--difficulty", "2"),
    ("acquire", "obscur", "--rarity", "2", "--price", "١٠٠"),
    ("acquire", "obscur", "--rarity", "2", "--price", "1_000"),
]


@pytest.mark.parametrize("args", BAD_NUMBERS, ids=lambda a: " ".join(a)[:50])
def test_every_option_refuses_other_digits_and_underscores(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    typed = next(a for a in args if not a.isascii() or "_" in a)
    result = invoke(capsys, *args)
    assert result.status == 2, result.out
    assert result.err.startswith("Erreur") and f"« {typed} »" in result.err, result.err
    assert result.out == ""


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "1d6", "--seed", "+3"),
        _table("+3..+4"),
        ("test", "tunnels", "--dice", "+3", "--threshold", "2", "--seed", "1"),
    ],
    ids=lambda a: " ".join(a)[:50],
)
def test_every_option_reads_a_plus_sign(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    result = invoke(capsys, *args)
    assert result.status == 0, result.err


def test_a_seed_with_a_plus_sign_is_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        invoke(capsys, "roll", "3d6", "--seed", "+3").out
        == invoke(capsys, "roll", "3d6", "--seed", "3").out
    )


def test_the_message_says_how_to_write_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    french = invoke(capsys, "roll", "1d6", "--seed", "٣")
    english = invoke(capsys, "--lang", "en", "roll", "1d6", "--seed", "٣")
    assert "« ٣ » n'est pas un nombre entier : écrivez-le avec les chiffres de 0 à 9" in french.err
    assert "'٣' is not a whole number: write it with the digits 0 to 9" in english.err


@pytest.mark.parametrize("typed", ["٣", "1_0", "--3"])
def test_the_web_forms_follow_the_same_rule(typed: str) -> None:
    """The tracker's field read ``--3`` as digits, then ``int()`` crashed on it; a
    system's form read ``٣`` as 3."""
    from meneur.errors import RuleError
    from meneur.web.routes.pages import whole
    from meneur.web.systems import int_field

    with pytest.raises(RuleError):
        whole(typed, -100, 100)
    with pytest.raises(RuleError):
        int_field({"x": typed}, "x", 0, -100, 100)


def test_a_number_quoted_inside_another_message_has_one_full_stop(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """« ... comme 12.). » doubled the stop when the number's message was quoted."""
    result = invoke(capsys, "character", "new", "krasses", "Zoé", "--skill", "Escalade=abc")
    assert result.err.endswith("chiffres de 0 à 9, comme 12).\n"), result.err


def test_twenty_digits_are_read_the_sign_not_counted_and_twenty_one_refused() -> None:
    """MAX_DIGITS = 20 holds a 64-bit seed; a sign is not a digit."""
    twenty = "9" * 20
    assert parse_whole(twenty) == int(twenty)
    assert parse_whole("+" + twenty) == int(twenty)
    assert parse_whole("-" + twenty) == -int(twenty)
    with pytest.raises(UsageError, match="21"):
        parse_whole("1" + twenty)


def test_a_range_includes_its_ends_and_each_side_says_what_it_refuses(english: None) -> None:
    assert parse_whole("0", low=0, high=5) == 0
    assert parse_whole("5", low=0, high=5) == 5
    with pytest.raises(UsageError, match="out of range: give a number from 0 to 5"):
        parse_whole("6", low=0, high=5)
    with pytest.raises(UsageError, match="out of range"):
        parse_whole("-1", low=0, high=5)
    with pytest.raises(UsageError, match="too small: the least allowed is 1"):
        parse_whole("0", low=1)
    with pytest.raises(UsageError, match="too large: the most allowed is 9"):
        parse_whole("10", high=9)
    assert parse_whole("-7", high=9) == -7
    assert parse_whole("1000", low=1) == 1000


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("10", 10), ("07", 7), ("11", None), ("010", None), ("+3", None), ("٣", None)],
)
def test_whole_within_reads_plain_digits_no_longer_than_its_high(
    text: str, number: int | None
) -> None:
    """An index or an id read quietly (``whole_within(text, 0, 10)``): both ends
    included, nothing past the length of ``high`` passed to ``int()``."""
    from meneur.whole import whole_within

    assert whole_within(text, 0, 10) == number
    assert whole_within("3", 4, 10) is None
