"""Numbers as the reader's language writes them: « 50,00 % » in French, "50.00 %" in English.

Every chance the tool prints goes through :func:`percent`, so a French table never shows
a decimal point, and a chance that is neither impossible nor certain never reads 0 or 100
(« < 0,01 % », « > 99,99 % »): rounding must not turn a critical failure that can happen
into one that cannot. Exact fractions too long to read in a terminal (explosions give
thousands of digits) say so instead of being cut by the table (:func:`exact`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Union

from meneur.locale import current_language, ngettext

if TYPE_CHECKING:  # the CLI's start-up: ``fractions`` loads ``decimal``
    from fractions import Fraction

Chances = Mapping[str, Union["Fraction", "Chances"]]
"""Named exact chances, possibly grouped (``{"p_success": ..., "successes": {"0": ...}}``)."""

EXACT_WIDTH = 40
"""Longest exact fraction printed whole in a terminal table."""


def decimal(value: float, digits: int = 2) -> str:
    """``8.81`` (« 8,81 » in French, and in any language the messages fall back to French)."""
    text = f"{value:.{digits}f}"
    return text if current_language() == "en" else text.replace(".", ",")


def grouped(n: int) -> str:
    """``30737991`` with its thousands apart: « 30 737 991 » in French (a narrow no-break
    space, as French typography writes it), "30,737,991" in English."""
    text = f"{n:,}"
    return text if current_language() == "en" else text.replace(",", "\u202f")


def percent(
    p: float | Fraction, digits: int = 2, *, signed: bool = False, symbol: bool = True
) -> str:
    """The chance ``p`` (0 to 1) in percent: ``0.5`` -> « 50,00 % ».

    ``signed`` is for a difference of two chances: it shows ``+`` and is never clamped.
    ``symbol`` false leaves out « % » (a table whose column says it).
    """
    value = float(p) * 100
    if signed:
        text = decimal(value, digits)
        text = text if text.startswith("-") else "+" + text
    else:
        unit = 10.0**-digits
        shown = float(f"{value:.{digits}f}")  # as printed, rounding included
        if p > 0 and shown == 0:
            text = "< " + decimal(unit, digits)
        elif p < 1 and shown >= 100:
            text = "> " + decimal(100 - unit, digits)
        else:
            text = decimal(value, digits)
    return f"{text} %" if symbol else text


def exact(p: Fraction) -> str:
    """``p`` as a fraction, or how many digits it has when it is too long to print whole."""
    text = fraction_text(p)
    if len(text) <= EXACT_WIDTH:
        return text
    digits = len(text) - 1  # numerator and denominator; a long chance is never whole
    return ngettext("{n} digit: see --json", "{n} digits: see --json", digits).format(n=digits)


PLAIN_BITS = 10_000
"""Integers up to this size are written by Python itself (well under its 4,300 digits)."""


def integer_text(n: int) -> str:
    """The decimal digits of ``n``, however long.

    Why: exact odds reach hundreds of thousands of digits (a Tunnels fight at 14 dice a
    side and an Endurance of 60: a denominator of 623,412 bits), and Python's ``str``
    refuses an integer of more than 4,300 digits (a guard against slow conversions of
    untrusted text) and is quadratic past it; GMP, through FLINT, writes 190,000 digits
    in under 10 ms. meneur's own inputs keep their limits (``cli.params``).
    """
    if n.bit_length() <= PLAIN_BITS:
        return str(n)
    from flint import fmpz

    return str(fmpz(n))


def fraction_text(p: Fraction) -> str:
    """``str(p)`` («3/8», «1», «0»), for a fraction of any length (:func:`integer_text`).

    The one way every JSON output writes an exact chance (``odds``, ``table``,
    ``compare``, ``simulate``, the web API): a zero read « 0 » in one and « 0/1 » in
    another, so a program reading both needed two cases. ``Fraction(text)`` reads it back.
    """
    if p.denominator == 1:
        return integer_text(p.numerator)
    return f"{integer_text(p.numerator)}/{integer_text(p.denominator)}"


def floats_of(chances: Chances) -> dict[str, Any]:
    """``chances`` as floats, under the same keys: what ``--json`` gives beside ``exact``."""
    return {k: floats_of(v) if isinstance(v, Mapping) else float(v) for k, v in chances.items()}


def fractions_of(chances: Chances) -> dict[str, Any]:
    """``chances`` as exact fractions (:func:`fraction_text`), under the same keys: every
    system's ``odds --json`` puts them under ``exact``, each beside its float's key."""
    return {
        k: fractions_of(v) if isinstance(v, Mapping) else fraction_text(v)
        for k, v in chances.items()
    }
