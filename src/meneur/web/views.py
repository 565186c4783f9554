"""Output models of the pages: a log entry as the table shows it (dice, verdict in words).

Storage models (the log entry as stored and hashed) never reach a template directly:
:func:`log_line` turns one into a :class:`LogLine` in the current language.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from meneur.campaign.summary import EDIT, SHAPE_ERRORS, edit_words, entry_summary
from meneur.errors import MeneurError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.base import NeedMoreDice
from meneur.web.systems import Mark, Verdict, adapters
from meneur.web.waiting import CLOSED

log = logging.getLogger("meneur.web")

CHAT = "chat"
"""The ``kind`` of a line said or whispered at the table (see :mod:`meneur.web.chat`)."""
KIND_TITLES = {
    "test": N_("test"),
    "roll": N_("dice roll"),
    "oppose": N_("opposed test"),
    "fight": N_("fight"),
    "character new": N_("new character"),
    "acquire": N_("acquisition"),
    "cooperate": N_("cooperation"),
    "aid": N_("help"),
    "survive": N_("survival"),
    "hurt": N_("damage"),
    "heal": N_("care"),
    "rest": N_("recovery"),
    "march": N_("march"),
    "scene roll": N_("scene roll"),
    "scene aid": N_("help in a scene"),
}
"""The title of an entry with no trait that its system does not describe, in the reader's
words: the command line logs its rolls by the command's words (``meneur log`` shows them
as the commands one types), which a French page showed as « character new »."""


@dataclass(frozen=True, slots=True)
class Said:
    """A line said at the table, as one reader reads it."""

    head: str
    """Who speaks (« Alice (Brindille) », « MJ »), or for a whisper the reader's part
    in it: « Vous chuchotez à Pip », « Alice vous chuchote », « Alice chuchote à Pip »."""
    text: str
    whisper: bool = False
    gm: bool = False
    """Said by the GM: the page marks it with what no player's name can write (a seat
    named « Le MJ » read as the GM, whose words it is)."""


@dataclass(frozen=True, slots=True)
class LogLine:
    key: str
    """The entry's opaque id for this table (never its sequence number: its gaps would
    count the secret rolls)."""
    at: str
    """The time in the server's zone (``HH:MM:SS``): what a page without script shows;
    the page's script shows :attr:`at_iso` in the reader's own zone instead."""
    who: str
    """Who rolled, as the table says it: the character, or « GM for Pip » when the GM
    rolled for a character."""
    system: str
    title: str
    mode: str
    source: str
    streams: list[list[Mark]]
    verdict: Verdict
    hidden: bool = False
    at_iso: str = ""
    """The moment in UTC (ISO 8601), for ``<time datetime>``."""
    batches: list[list[list[Mark]]] | None = None
    """Each stream cut into its batches (the first roll, then each explosion), when the
    outcome says where the batches end; ``None``: one batch per stream."""
    said: Said | None = None
    """A chat line or a whisper (no dice, no verdict)."""


def _mark_faces(entry: Mapping[str, Any]) -> list[list[Mark]]:
    """The faces, each marked as the rule counts it (the check's own ``marks``).

    An entry that logged its roll (its params' replayable step) is marked by that check;
    an older entry falls back on its system's adapter, then on no marks.
    """
    faces = [[int(f) for f in stream] for stream in entry.get("faces") or []]
    marked = _marked_by_check(entry, faces)
    if marked is not None:
        return marked
    adapter = adapters().get(str(entry.get("system")))
    if adapter is not None and entry.get("kind") == "test":
        try:
            return adapter.marks_json(entry.get("params") or {}, faces)
        except (KeyError, TypeError, ValueError, MeneurError):
            pass
    return [[Mark(face, "") for face in stream] for stream in faces]


def _marked_by_check(entry: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]] | None:
    from meneur.campaign.replay import STEPS, rolled_of

    steps = (entry.get("params") or {}).get(STEPS)
    if not isinstance(steps, list) or len(steps) != 1 or steps[0].get("faces") != faces:
        return None
    found = rolled_of(steps[0])
    if found is None:
        return None
    check, params = found
    try:
        marks = check.marks(params, tuple(tuple(stream) for stream in faces))
    except (MeneurError, NeedMoreDice):
        return None
    return [
        [Mark(face, mark) for face, mark in zip(stream, kinds, strict=True)]
        for stream, kinds in zip(faces, marks, strict=True)
    ]


def _speaker(name: Any, playing: Any, gm: Any) -> str:
    """« MJ » for the GM, else the seat's name and the characters it played then."""
    if gm:
        return _("GM")
    characters = ", ".join(str(c) for c in playing or [] if isinstance(c, str))
    return f"{name} ({characters})" if characters else str(name or "-")


def said(entry: Mapping[str, Any], viewer: str) -> Said:
    """A chat entry as ``viewer`` (a seat key) reads it; a whisper in their own words."""
    from meneur.web.live import roll_meta, whisper_to

    params = entry.get("params") or {}
    text = str((entry.get("outcome") or {}).get("text", ""))
    gm = bool(params.get("gm"))
    speaker = _speaker(params.get("by"), params.get("as"), gm)
    target = whisper_to(dict(entry))
    if target is None:
        return Said(speaker, text, gm=gm)
    to_gm = bool(params.get("to_gm"))
    to = _speaker(params.get("to"), params.get("to_as"), to_gm)
    if viewer == roll_meta(dict(entry))[1]:
        if to_gm:
            return Said(_("You whisper to the GM"), text, whisper=True, gm=gm)
        return Said(_("You whisper to {name}").format(name=to), text, whisper=True, gm=gm)
    if viewer == target:
        if gm:
            return Said(_("The GM whispers to you"), text, whisper=True, gm=True)
        return Said(_("{name} whispers to you").format(name=speaker), text, whisper=True)
    if to_gm:
        return Said(_("{name} whispers to the GM").format(name=speaker), text, whisper=True)
    if gm:
        return Said(_("The GM whispers to {name}").format(name=to), text, whisper=True, gm=True)
    words = _("{name} whispers to {target}").format(name=speaker, target=to)
    return Said(words, text, whisper=True)


def _described(entry: Mapping[str, Any]) -> tuple[str, Verdict] | None:
    """The entry's system's own title and words for it, if it has some: ``None`` too for
    an outcome not shaped as its system expects (another version's, or another
    interface's), which is then read as ``meneur log`` reads it: one line that a system
    cannot read never stops the table's whole log."""
    adapter = adapters().get(str(entry.get("system")))
    if adapter is None:
        return None
    try:
        return adapter.describe(entry)
    except SHAPE_ERRORS:
        return None


def _verdict(entry: Mapping[str, Any], described: tuple[str, Verdict] | None) -> Verdict:
    """The entry's verdict (``described``: its system's own, :func:`_described`), and a
    waiting roll closed unchosen said (its seat rolled again before choosing:
    :data:`meneur.web.waiting.CLOSED`)."""
    told = _told(entry, described)
    if CLOSED not in (entry.get("decisions") or []):
        return told
    note = _("closed unchosen: its player made another roll")
    return Verdict(told.passed, told.words, " ; ".join(filter(None, (told.detail, note))))


def _told(entry: Mapping[str, Any], described: tuple[str, Verdict] | None) -> Verdict:
    if entry.get("kind") == EDIT:
        return Verdict(None, *edit_words(entry))
    if described is not None:
        return described[1]
    adapter = adapters().get(str(entry.get("system")))
    outcome = entry.get("outcome") or {}
    if adapter is not None and entry.get("kind") == "test":
        try:
            return adapter.verdict(outcome)
        except SHAPE_ERRORS:
            pass
    if "total" in outcome:
        return Verdict(None, _("Total {total}").format(total=outcome["total"]), "")
    return Verdict(None, entry_summary(entry), "")  # what ``meneur log`` says of it


def mode_label(mode: str) -> str:
    return {
        "public": _("public"),
        "gmroll": _("GM only"),
        "blindroll": _("blind"),
        "selfroll": _("self"),
        "whisper": _("whisper"),
    }.get(mode, mode)


REFEREED = frozenset({"oppose", "melee", "shot"})
"""Entries the GM resolves between two combatants: the GM referees, rolls for nobody."""


def local_time(at: str) -> str:
    """``HH:MM:SS`` of a logged UTC moment in the server's zone (the page's fallback)."""
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at[11:19]
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%H:%M:%S")


def roller_words(entry: Mapping[str, Any]) -> str:
    """Who rolled: the character, « GM for Pip » when the GM's seat rolled for one."""
    from meneur.web.live import roll_meta

    who = str(entry.get("who") or "-")
    if roll_meta(dict(entry))[1] != "gm" or entry.get("kind") in REFEREED:
        return who
    return _("GM") if who == "-" else _("GM for {name}").format(name=who)


def _batches(entry: Mapping[str, Any], streams: list[list[Mark]]) -> list[list[list[Mark]]] | None:
    """The streams cut where the outcome's ``batches`` end (an exploding roll, T-5)."""
    told = (entry.get("outcome") or {}).get("batches")
    if len(streams) != 1 or not isinstance(told, list) or len(told) < 2:
        return None
    if not all(isinstance(batch, list) for batch in told):
        return None
    if [face for batch in told for face in batch] != [mark.face for mark in streams[0]]:
        return None
    cut: list[list[Mark]] = []
    start = 0
    for batch in told:
        cut.append(streams[0][start : start + len(batch)])
        start += len(batch)
    return [cut]


def _kind_title(kind: str) -> str:
    """:data:`KIND_TITLES`' words for ``kind``, else the kind as logged (another version's)."""
    known = KIND_TITLES.get(kind)
    return _(known) if known is not None else kind


def log_line(
    entry: Mapping[str, Any], mode: str, *, hidden: bool = False, key: str = "", viewer: str = ""
) -> LogLine:
    """The entry as shown; ``hidden``: the roller of a blind roll sees that it happened only;
    ``viewer``: the seat reading it (a whisper reads differently for each of its readers).

    An entry not shaped as this version writes it (another version's) is shown plainly,
    with the words ``meneur log`` has for it and no dice: one line never stops the page.
    """
    try:
        return _log_line(entry, mode, hidden=hidden, key=key, viewer=viewer)
    except SHAPE_ERRORS:
        log.warning("log entry %s shown plainly", str(entry.get("seq"))[:20], exc_info=True)
    at_iso = str(entry.get("at", ""))
    words = _("Blind roll: only the GM sees the dice.") if hidden else entry_summary(entry)
    title = _kind_title(str(entry.get("kind", "")))
    who, system = str(entry.get("who") or "-"), str(entry.get("system", ""))
    verdict = Verdict(None, words, "")
    return LogLine(
        key, local_time(at_iso), who, system, title, mode, "", [], verdict, hidden, at_iso
    )


def _log_line(
    entry: Mapping[str, Any], mode: str, *, hidden: bool, key: str, viewer: str
) -> LogLine:
    params = entry.get("params") or {}
    trait = params.get("trait") if isinstance(params, dict) else None
    system = str(entry.get("system", ""))
    kind = str(entry.get("kind", ""))
    title = str(trait) if trait and trait != "-" else _kind_title(kind)
    if kind == EDIT:
        title = _("sheet edited")
    described = _described(entry)
    if described is not None:
        title = described[0]
    at_iso = str(entry.get("at", ""))
    at = local_time(at_iso)
    who = roller_words(entry)
    line = partial(LogLine, key, at, who, system, title, mode, at_iso=at_iso)
    source = str(entry.get("source", ""))
    if kind == CHAT and not hidden:
        return line(source, [], Verdict(None, "", ""), said=said(entry, viewer))
    if hidden:
        blind = Verdict(None, _("Blind roll: only the GM sees the dice."), "")
        return line("", [], blind, hidden=True)
    streams = _mark_faces(entry)
    verdict = _verdict(entry, described)
    return line(source, streams, verdict, batches=_batches(entry, streams))
