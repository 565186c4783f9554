"""The dice line and chat of the table: what a seat types, read and written to the log.

One line, for every seat, as in Foundry VTT:

* ``/r EXPR`` (``/roll``) rolls the generic notation of ``meneur roll`` (``4d6kh3``,
  ``2d6+3``, ``6d10cs>=8``) in the roll mode chosen beside the line; ``/gr`` (GM only),
  ``/br`` (blind) and ``/sr`` (self) force their mode. The roll is a log entry like the
  CLI's own (system ``generic``, kind ``roll``, its faces and its replayable step): the
  dice come from the open game session's commitment when there is one;
  ``/r EXPR = FACES`` logs physical dice rolled at the table (``/r 2d6+3 = 4 5``), as
  ``meneur roll --faces`` does, unless the GM takes none during a committed session;
* ``/w NAME message`` (``/whisper``) whispers to one seat: its sender, its target and
  the GM read it, nobody else (:data:`meneur.web.live.WHISPER`);
* ``/help`` (or any other ``/word``) answers with the short help, and logs nothing;
* any other text is said to the whole table.

Chat and whispers are entries of the campaign's hash-chained log (kind ``chat``, no
dice): ``meneur verify`` checks them like any entry, a player's download leaves out the
whispers they may not read and verify counts what is left out.

``NAME`` is a seat's name as the table shows it, or the name of a character the seat
plays, without regard to case or accents; ``MJ`` (or ``GM``) is always the GM. Two
seats may share a name: such a name is refused with the way to tell them apart, the
name of a character each plays or the seat's number (``/w Bastien#3 ...``, the number
the GM sees beside each seat). A name of several words is matched whole (the longest
name that fits), or quoted (``/w "Gros Jean" salut``).

A line is text, at most :data:`MAX_LINE` characters on one line; control characters,
and the bidirectional controls that would show it reversed, are refused. It is stored
as typed and shown escaped (the templates' autoescape).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meneur.campaign.records import NewRoll
from meneur.campaign.replay import GENERIC, STEPS
from meneur.campaign.store import Store
from meneur.dice.check import DiceCheck, DiceParams
from meneur.errors import UsageError
from meneur.locale import N_, ngettext
from meneur.rng import DiceSource, parse_faces
from meneur.text import fold
from meneur.web.actions import ActionRoll, log_action
from meneur.web.live import ROLL_MODES, WHISPER
from meneur.web.rolls import Roller
from meneur.web.tables import PlayerInfo, Seat

MAX_LINE = 500
"""Characters a line may hold (a chat message, a whisper, a roll)."""
CHAT = "chat"
"""The ``kind`` (and ``source``) of a said or whispered line's log entry."""
ROLLS = {
    "r": "",
    "roll": "",
    "gr": "gmroll",
    "gmroll": "gmroll",
    "br": "blindroll",
    "blindroll": "blindroll",
    "sr": "selfroll",
    "selfroll": "selfroll",
}
"""The roll commands and the mode each forces (``""``: the mode chosen beside the line)."""
WHISPERS = frozenset({"w", "whisper"})
GM_NAMES = frozenset({"mj", "gm"})
"""Names that always mean the GM (a player who named themselves « MJ » is reached by
their seat number or character)."""
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they would show a line reversed or hide its end."""
NUMBERED = re.compile(r"^(.*?)\s*#([0-9]{1,9})$")  # \d reads ٣ too
TYPED = re.compile(r"^(?P<expression>.*[^<>!=\s])\s*=\s*(?P<faces>\d[\d ,]*)$")
"""``EXPR = FACES``: physical dice typed after the expression. The ``=`` of a comparison
(``6d10cs>=8``) follows ``<``, ``>``, ``!`` or ``=``, and never reads as this one."""


class LineRefused(UsageError):
    """A line the table does not take (its text already in the request's language)."""


@dataclass(frozen=True, slots=True)
class Say:
    text: str


@dataclass(frozen=True, slots=True)
class Whisper:
    typed: str
    """The name and the message as typed (see :func:`addressee`)."""


@dataclass(frozen=True, slots=True)
class DiceLine:
    expression: str
    mode: str
    faces: str = ""
    """Physical dice typed after ``=`` (``/r 2d6+3 = 4 5``), in the order they are used."""


@dataclass(frozen=True, slots=True)
class Help:
    unknown: str = ""
    """The command typed when it is not one (``/x``), ``""`` for ``/help``."""


Command = Say | Whisper | DiceLine | Help


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat as a whisper addresses it."""

    key: str
    name: str
    characters: tuple[str, ...] = ()
    number: int = 0

    @property
    def is_gm(self) -> bool:
        return self.key == "gm"


def clean_line(text: str) -> str:
    """The line as it is kept (NFC, trimmed, tabs as spaces), or :class:`LineRefused`."""
    line = unicodedata.normalize("NFC", text).replace("\t", " ").strip()
    if not line:
        raise LineRefused(N_("Type a message, or /r 2d6+3 to roll."))
    if len(line) > MAX_LINE:
        raise LineRefused(
            ngettext(
                "A line holds at most {limit} character ({length} typed).",
                "A line holds at most {limit} characters ({length} typed).",
                MAX_LINE,
            ).format(limit=MAX_LINE, length=len(line))
        )
    if any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in BIDI for c in line):
        raise LineRefused(N_("A line cannot hold control characters or line breaks."))
    return line


def parse_line(text: str, mode: str = "public") -> Command:
    """What ``text`` asks for; ``mode`` is the roll mode chosen beside the line."""
    line = clean_line(text)
    if not line.startswith("/"):
        return Say(line)
    word, _, rest = line[1:].partition(" ")
    name, rest = word.casefold(), rest.strip()
    if name in ROLLS:
        chosen = ROLLS[name] or mode
        if chosen not in ROLL_MODES:
            raise LineRefused(N_("Unknown roll mode '{mode}'."), mode=mode)
        if not rest:
            raise LineRefused(N_("Write the dice after /{command}: /r 4d6kh3."), command=name)
        typed = TYPED.match(rest)
        expression, faces = (typed["expression"], typed["faces"]) if typed else (rest, "")
        DiceParams(expression)  # refused here, in one line, before anything is logged
        if faces:
            parse_faces(faces)
        return DiceLine(expression, chosen, faces)
    if name in WHISPERS:
        if not rest:
            raise LineRefused(N_("Write a name and a message after /w: /w Pip ready?"))
        return Whisper(rest)
    return Help("" if name in ("help", "aide", "?", "") else "/" + word[:30])


def seat_refs(players: Sequence[PlayerInfo]) -> list[SeatRef]:
    """The seats of the table a whisper may reach (the GM first)."""
    return [
        SeatRef("gm", ""),
        *(SeatRef(p.key, p.name, tuple(p.characters), p.id) for p in players),
    ]


def _answering(name: str, seats: Sequence[SeatRef]) -> list[SeatRef]:
    """The seats that answer to ``name``: the GM's names, a seat's number, a seat's name,
    a character a seat plays."""
    key = fold(name)
    if not key:
        return []
    if key in GM_NAMES:
        return [seats[0]]
    numbered = NUMBERED.match(name.strip())
    if numbered is not None:
        number, named = int(numbered.group(2)), fold(numbered.group(1))
        return [s for s in seats if s.number == number and (not named or fold(s.name) == named)]
    return [
        s
        for s in seats
        if not s.is_gm and (fold(s.name) == key or any(fold(c) == key for c in s.characters))
    ]


def addressee(typed: str, seats: Sequence[SeatRef], sender: str) -> tuple[SeatRef, str]:
    """The seat ``/w`` names and the message after the name, or :class:`LineRefused`."""
    typed = typed.strip()
    candidates: list[tuple[str, str]] = []
    if typed.startswith('"') and '"' in typed[1:]:
        name, _, rest = typed[1:].partition('"')
        candidates.append((name, rest.strip()))
    else:
        words = typed.split()
        candidates = [
            (" ".join(words[:cut]), " ".join(words[cut:])) for cut in range(len(words), 0, -1)
        ]
    for name, rest in candidates:
        found = _answering(name, seats)
        if len(found) > 1:
            choices = ", ".join(_how_to_reach(seat) for seat in found)
            raise LineRefused(
                ngettext(
                    "{count} seat answers to {name}: write {choices}.",
                    "{count} seats answer to {name}: write {choices}.",
                    len(found),
                ).format(count=len(found), name=name[:80], choices=choices)
            )
        if found:
            target = found[0]
            if target.key == sender:
                raise LineRefused(N_("You cannot whisper to yourself."))
            if not rest:
                raise LineRefused(N_("Write the message after the name: /w Pip ready?"))
            return target, rest
    first = candidates[-1][0] if candidates else typed
    raise LineRefused(
        N_("Nobody at this table answers to {name}: write a player's or a character's name."),
        name=first[:80],
    )


def _how_to_reach(seat: SeatRef) -> str:
    """``/w Bastien#3`` and the characters the seat plays, to tell two Bastien apart."""
    address = f"/w {seat.name}#{seat.number}"
    return f"{address} ({', '.join(seat.characters)})" if seat.characters else address


def _speaker(seat: Seat) -> dict[str, Any]:
    return {
        "by": "" if seat.is_gm else seat.name,
        "gm": seat.is_gm,
        "as": [] if seat.player is None else list(seat.player.characters),
    }


def say(store: Store, seat: Seat, text: str, to: SeatRef | None = None) -> dict[str, Any]:
    """Log a line said to the table, or whispered to ``to`` (worker thread): the entry."""
    params: dict[str, object] = {"trait": "-", **_speaker(seat), STEPS: []}
    decision: dict[str, object] = {"mode": "public", "seat": seat.key}
    if to is not None:
        params.update(to=to.name, to_gm=to.is_gm, to_as=list(to.characters))
        decision = {"mode": WHISPER, "seat": seat.key, "to": to.key}
    entry = NewRoll(
        system=GENERIC,
        kind=CHAT,
        params=params,
        faces=[],
        outcome={"text": text},
        source=CHAT,
        who="" if seat.is_gm else seat.name,
        decisions=[decision],
    )
    return store.append_roll(entry, campaign=seat.table.campaign)


def roll(roller: Roller, seat: Seat, line: DiceLine) -> dict[str, Any]:
    """Roll ``/r EXPR`` for ``seat`` and log it (worker thread): the entry as stored.

    The table's dice, the roll mode and the retries are :func:`~meneur.web.actions.log_action`'s,
    as for any roll between the table's characters.
    """
    from meneur.web.rolls import params_json

    check, params = DiceCheck(), DiceParams(line.expression)

    def make(source: DiceSource) -> ActionRoll:
        rolled = check.roll(params, [source])
        entry = NewRoll(
            system=GENERIC,
            kind=DiceCheck.name,
            params=params_json(line.expression, params, (check, rolled)),
            faces=[list(stream) for stream in rolled.faces],
            outcome=check.to_json(params, rolled.outcome),
            source=source.kind,
            who="" if seat.is_gm else seat.name,
            decisions=[],
        )
        return ActionRoll(entry)

    return log_action(roller, seat, line.mode, make, line.faces)
