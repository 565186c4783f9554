"""Chances as each language writes them, never rounded into certainty (locale.numbers)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from meneur.locale import set_language
from meneur.locale.numbers import EXACT_WIDTH, decimal, exact, percent


@pytest.mark.parametrize(
    ("language", "half", "tiny", "nearly", "gain"),
    [
        ("fr", "50,00 %", "< 0,01 %", "> 99,99 %", "+1,2 %"),
        ("en", "50.00 %", "< 0.01 %", "> 99.99 %", "+1.2 %"),
    ],
)
def test_a_chance_reads_in_the_language_of_the_messages(
    language: str, half: str, tiny: str, nearly: str, gain: str
) -> None:
    set_language(language)
    assert percent(Fraction(1, 2)) == half
    assert percent(Fraction(1, 10**9)) == tiny
    assert percent(1 - Fraction(1, 10**9)) == nearly
    assert percent(0.0123, 1, signed=True) == gain


def test_only_the_impossible_and_the_certain_read_0_and_100() -> None:
    set_language("fr")
    assert percent(0) == "0,00 %"
    assert percent(1) == "100,00 %"
    assert percent(Fraction(99995, 100000)) == "> 99,99 %"  # 99.995 would print 100.00
    assert percent(Fraction(5, 100000)) == "0,01 %"  # rounds up to a visible 0.01
    assert percent(Fraction(4, 100000)) == "< 0,01 %"
    assert percent(Fraction(1, 3), 1, symbol=False) == "33,3"
    assert percent(Fraction(1, 1000), 0) == "< 1 %"
    assert percent(-0.02, 0, signed=True) == "-2 %"
    assert decimal(8.814) == "8,81"


def test_an_exact_fraction_too_long_for_a_table_says_where_it_is() -> None:
    set_language("en")
    assert exact(Fraction(251, 729)) == "251/729"
    long = Fraction(3**200, 2**300)
    assert len(str(long)) > EXACT_WIDTH
    assert exact(long) == f"{len(str(3**200)) + len(str(2**300))} digits: see --json"
    set_language("fr")
    assert exact(long).endswith("chiffres : voir --json")


def test_a_fraction_of_exactly_the_table_width_is_printed_whole(english: None) -> None:
    """EXACT_WIDTH (40) characters fit a table's column; one more says its digits."""
    fits = Fraction(10**18 + 1, 10**19 + 3)  # 19 digits, a slash, 20 digits
    assert len(str(fits)) == EXACT_WIDTH
    assert exact(fits) == str(fits)
    past = Fraction(10**18 + 1, 10**20 + 3)  # one digit more
    assert len(str(past)) == EXACT_WIDTH + 1
    assert exact(past) == "40 digits: see --json"


def test_integers_and_fractions_of_any_length_are_written_whole() -> None:
    """Exact odds reach hundreds of thousands of digits; Python's ``str`` refuses an
    integer past 4,300 (ValueError): ``integer_text`` writes any, the same digits."""
    import sys
    from fractions import Fraction

    from meneur.locale.numbers import fraction_text, integer_text

    huge = 3**40_000 + 7  # 19,085 digits
    assert integer_text(12345) == "12345" and integer_text(-(2**20_000)).startswith("-")
    with pytest.raises(ValueError):
        str(huge)
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        digits = str(huge)
        negative = str(-(2**20_000))
    finally:
        sys.set_int_max_str_digits(previous)
    assert integer_text(huge) == digits and integer_text(-(2**20_000)) == negative
    p = Fraction(huge, 2 * huge + 1)
    assert fraction_text(p) == f"{digits}/{integer_text(2 * huge + 1)}"
    assert fraction_text(Fraction(3)) == "3"


def test_grouped_writes_thousands_as_each_language_does() -> None:
    """« 30 737 991 jets par seconde » printed "30,737,991" in French, where the comma
    is the decimal mark: French groups with a narrow no-break space."""
    from meneur.locale import set_language
    from meneur.locale.numbers import grouped

    set_language("fr")
    assert grouped(30_737_991) == "30\u202f737\u202f991" and grouped(999) == "999"
    set_language("en")
    assert grouped(30_737_991) == "30,737,991"
    set_language("fr")


def test_one_roll_is_singular_and_many_are_grouped(capsys: pytest.CaptureFixture[str]) -> None:
    """A simulation of one roll says « 1 jet », not « 1 jets »; 20,000 read « 20 000 »."""
    from cli_helpers import invoke

    one = invoke(capsys, "simulate", "test", "tunnels", "--dice", "2", "--threshold", "1",
                 "--runs", "1", "--seed", "1")  # fmt: skip
    # a count of one alone, not the end of a speed such as « 7 561 jets par seconde »
    assert one.status == 0 and "\n1 jet :" in "\n" + one.out
    assert not re.search(r"(?<!\S)1 jets", one.out)
    many = invoke(capsys, "simulate", "test", "tunnels", "--dice", "2", "--threshold", "1",
                  "--runs", "20000", "--seed", "1")  # fmt: skip
    assert "20\u202f000 jets :" in many.out and "jets par seconde" in many.out
    english = invoke(capsys, "--lang", "en", "simulate", "test", "tunnels", "--dice", "2",
                     "--threshold", "1", "--runs", "1", "--seed", "1")  # fmt: skip
    assert "1 roll:" in english.out and not re.search(r"(?<!\S)1 rolls", english.out)
