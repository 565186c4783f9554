"""The shape of an exported log's values, checked where the file is read (``meneur verify``).

A log is handed to other people to check: it is untrusted input. Before the chain reads
an entry or a game session, each value it uses must have the type an export writes
(``seq`` a whole number, faces lists of whole numbers on a die, hashes text...), or the
file is refused with a message naming the entry, never a traceback deep in the checks.
A missing or null field stays accepted (older exports, filtered copies): the chain
already reads it as absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from meneur.campaign.errors import VerifyError
from meneur.locale import N_
from meneur.rng import MAX_SIDES

ENTRY_TEXT = ("at", "who", "system", "kind", "source", "commitment", "prev_hash", "hash")
"""Entry fields an export writes as text (or null)."""
SESSION_TEXT = ("commitment", "started_at", "revealed_at", "seed", "closing_hash")
"""Game session fields an export writes as text (or null)."""


def whole(value: Any) -> TypeGuard[int]:
    """A JSON whole number (``true`` is not one, though Python counts it as an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def faces_ok(faces: Any, sides: int = MAX_SIDES) -> bool:
    """``faces`` is a list of streams (or bare faces), each face a whole number from 1 to
    ``sides``: a 0, a 7 on a d6 or a text face is no die's face."""
    if not isinstance(faces, list):
        return False
    for stream in faces:
        for face in stream if isinstance(stream, list) else [stream]:
            if not whole(face) or not 1 <= face <= sides:
                return False
    return True


def check_entry(entry: Mapping[str, Any], position: int) -> None:
    """Refuse an entry whose values are not what an export writes (see module doc)."""
    seq = entry.get("seq")
    if not whole(seq) or seq < 1:
        raise VerifyError(
            N_("Entry number {position} of the file has no valid sequence number."),
            position=position,
        )
    for name in ENTRY_TEXT:
        if entry.get(name) is not None and not isinstance(entry[name], str):
            raise _bad(seq, name)
    typed = (("params", dict), ("outcome", dict), ("decisions", list), ("draws", list))
    for name, kind in typed:
        if entry.get(name) is not None and not isinstance(entry[name], kind):
            raise _bad(seq, name)
    counter = entry.get("counter")
    if counter is not None and (not whole(counter) or counter < 0):
        raise _bad(seq, "counter")
    if entry.get("faces") is not None and not faces_ok(entry["faces"]):
        raise _bad(seq, "faces")


def check_session(session: Mapping[str, Any], position: int) -> None:
    """Refuse a game session whose values are not text (or null): the commitment, the seed,
    the published closing head."""
    for name in SESSION_TEXT:
        if session.get(name) is not None and not isinstance(session[name], str):
            raise VerifyError(
                N_("Game session number {position} of the file: its '{field}' is malformed."),
                position=position,
                field=name,
            )


def _bad(seq: int, name: str) -> VerifyError:
    return VerifyError(N_("Entry {seq}: its '{field}' is malformed."), seq=seq, field=name)
