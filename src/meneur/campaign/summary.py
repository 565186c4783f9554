"""One log entry's result in one short line: what ``meneur log`` prints under « Result »
and what the live table says of an entry it has no words of its own for.

An entry the command line made (a fight, a day of survival, a new character) reaches the
table's log too: the table read only the outcomes of its own forms and showed such a line
with no result at all. Both interfaces now read the same words: the entry's system's own
(:meth:`meneur.systems.base.System.log_summary`), else the outcome's usual fields (a
verdict, a total, a winner), else its JSON, cut short.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from meneur.locale import N_, labelled
from meneur.locale import gettext as _

SUMMARY_FIELDS = {
    "verdict": N_("verdict"),
    "result": N_("result"),
    "outcome": N_("outcome"),
    "total": N_("total"),
    "successes": N_("successes"),
    "winner": N_("winner"),
    "passed": N_("passed"),
    "name": N_("name"),
    "text": N_("text"),
}
"""The outcome fields read when the system has no words of its own, first found first,
in the reader's words (the log printed the English keys: « successes: 1 »)."""

EDIT = "edit"
"""The ``kind`` of a sheet edited at the live table (:mod:`meneur.web.sheets`): no dice,
its changes in its params."""

SHAPE_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What reading an outcome of another shape raises (an entry another version wrote): the
line is then read by the fields every entry has, never a stopped log."""

LONGEST = 120
"""A summary longer than this is cut (one line of the log's table)."""


def entry_summary(entry: Mapping[str, Any]) -> str:
    """The entry's result in the reader's language, at most :data:`LONGEST` characters."""
    outcome = entry.get("outcome") or {}
    if entry.get("kind") == EDIT:
        changes, by = edit_words(entry)
        return _cut(f"{changes} ({by})")
    own = _system_summary(entry, outcome)
    if own is not None:
        return _cut(own)
    for key, label in SUMMARY_FIELDS.items():
        value = outcome.get(key) if isinstance(outcome, dict) else None
        if value is not None and not isinstance(value, dict | list):
            if isinstance(value, bool):
                value = _("yes") if value else _("no")
            return labelled(_(label), str(value))
    text = json.dumps(outcome, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _system_summary(entry: Mapping[str, Any], outcome: Any) -> str | None:
    """The entry's system's own words for its result (``System.log_summary``), if it is
    a registered system that has some."""
    from meneur.errors import UnknownSystemError
    from meneur.systems.registry import find_system

    if not isinstance(outcome, dict):
        return None
    try:
        system = find_system(str(entry.get("system", "")))
    except UnknownSystemError:  # the generic dice roller, or an entry of another version
        return None
    try:
        return system.log_summary(str(entry.get("kind", "")), outcome)
    except SHAPE_ERRORS:  # an outcome its system does not write (any more)
        return None


def edit_words(entry: Mapping[str, Any]) -> tuple[str, str]:
    """A sheet edited at the table: each field before → after, and who changed it."""
    params = entry.get("params")
    params = params if isinstance(params, Mapping) else {}
    changes = params.get("changes")
    words = " ; ".join(
        f"{change.get('field')} {change.get('before')} → {change.get('after')}"
        for change in (changes if isinstance(changes, list) else [])
        if isinstance(change, dict)
    )
    by = _("the GM") if params.get("gm") else str(params.get("by") or "-")
    return words, _("changed by {who}").format(who=by)


def _cut(text: str) -> str:
    return text if len(text) <= LONGEST else text[: LONGEST - 3] + "..."
