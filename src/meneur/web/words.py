"""Counted words of the table, in one place: « 1 dé », « 0 dé », « 2 dés », « 1 dégât ».

French puts 0 and 1 in the singular, English only 1: each count goes through the
catalogue's ``ngettext``, never a fixed « dés ». The systems' web parts use these too.
"""

from __future__ import annotations

from meneur.locale import ngettext


def dice_words(count: int) -> str:
    """A number of dice with its plural right (the systems' trait labels)."""
    return ngettext("{count} die", "{count} dice", count).format(count=count)


def points_words(count: int) -> str:
    """A number of points with its plural right (the templates' ``points_words``)."""
    return ngettext("{count} point", "{count} points", count).format(count=count)
