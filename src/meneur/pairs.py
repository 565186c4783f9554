"""``NAME=VALUE`` as a player types it (a characteristic and its score, a skill and its
level): one reading for the command line (``--skill Escalade=3``, repeated) and the web
table's creation form (``Escalade=3, Bagarre=2``), so that both refuse the same text
with the same words. The value is a whole number by meneur's one rule
(:func:`meneur.whole.parse_whole`); the name's own rule (its length, its characters) is
the sheet's, and each interface says its bounds where it knows them.
"""

from __future__ import annotations

from collections.abc import Iterable

from meneur.errors import UsageError
from meneur.locale import N_
from meneur.whole import parse_whole

WRITE_PAIR = N_("Write NAME=VALUE, such as Escalade=3, not '{text}'.")
"""The refusal of a text that is no ``NAME=VALUE`` (no ``=``, no name)."""


def parse_pair(text: str, *, low: int | None = None, high: int | None = None) -> tuple[str, int]:
    """``Escalade=3`` as ``("Escalade", 3)``, the name stripped (and whole: its length is
    the caller's or the sheet's to refuse, named). No ``=`` (``Escalade``: never read as
    0), or a value that is no whole number from ``low`` to ``high`` (``Escalade=``,
    ``Escalade=x``): :class:`UsageError`, the text quoted (cut, as every error quotes)."""
    name, sep, value = str(text).partition("=")
    if not sep:
        raise UsageError(WRITE_PAIR, text=text)
    try:
        return name.strip(), parse_whole(value, low=low, high=high)
    except UsageError as error:
        raise UsageError(
            N_("Write NAME=VALUE, such as Escalade=3, not '{text}'{detail}."),
            text=text,
            detail=f" ({str(error).rstrip('.')})",  # the sentence has its own stop
        ) from None


def once_each(pairs: Iterable[tuple[str, int]], where: str) -> dict[str, int]:
    """The pairs as a table; a name given twice is refused, ``where`` (the option or the
    field that gave them) named: the second silently won (``Force=2, Force=5`` kept 5)."""
    table: dict[str, int] = {}
    for name, value in pairs:
        if name in table:
            raise UsageError(N_("{where}: '{name}' is given twice."), where=where, name=name)
        table[name] = value
    return table
