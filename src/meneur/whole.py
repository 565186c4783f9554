"""The one rule for a whole number a user types, on the command line as in a web form.

Python's ``int()`` reads more than a player means: ``٣`` (Arabic-Indic digits), ``1_000``,
a thousand-digit number. Every option and field reads its numbers here instead, so that
``--rows ٣..٥`` and ``--seed +3`` follow the same rule: the digits 0 to 9, an optional
sign (``+3`` is 3; ``-3`` is then refused or not by the option's range), spaces around
ignored, nothing else.
"""

from __future__ import annotations

from meneur.errors import UsageError
from meneur.locale import N_
from meneur.text import is_digits

MAX_DIGITS = 20
"""Enough for a seed (up to 2**64 - 1); a longer number is refused by its length, before
``int()`` (which refuses strings past 4,300 digits with an error of its own)."""


def is_whole(text: str) -> bool:
    """Whether ``text`` is written as a whole number by the rule (whatever its length)."""
    cleaned = str(text).strip()
    return is_digits(cleaned[1:] if cleaned[:1] in "+-" else cleaned)


def parse_whole(text: str, *, low: int | None = None, high: int | None = None) -> int:
    """``text`` as a whole number between ``low`` and ``high``; :class:`UsageError` with
    one clear line otherwise."""
    cleaned = str(text).strip()
    digits = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if not is_whole(cleaned):
        raise UsageError(
            N_("'{value}' is not a whole number: write it with the digits 0 to 9, such as 12."),
            value=cleaned,
        )
    if len(digits) > MAX_DIGITS:
        raise UsageError(N_("{digits} digits is too long for a number here."), digits=len(digits))
    number = int(cleaned)
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            message = N_("{number} is out of range: give a number from {low} to {high}.")
        elif low is not None:
            message = N_("{number} is too small: the least allowed is {low}.")
        else:
            message = N_("{number} is too large: the most allowed is {high}.")
        raise UsageError(message, number=number, low=low, high=high)
    return number


def whole_within(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` (the digits 0 to 9 only), or
    ``None``: a value read quietly (an index, an id in an address) that is refused
    elsewhere, never passed to ``int()`` longer than ``high`` is written, where ``int()``
    of 4,300 digits or more raises an error of its own (a traceback, an HTTP 500)."""
    if not is_digits(text) or len(text) > len(str(high)):
        return None
    number = int(text)
    return number if low <= number <= high else None
