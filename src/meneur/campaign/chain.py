"""Verifiable dice and the hash-chained roll log (standard library only: light to import).

How players can trust the dice without trusting the game master's computer:

1. **Commit.** A game session draws a secret 32-byte seed and publishes
   ``sha256(seed)`` (the *commitment*) before the first roll.
2. **Draw.** Each die comes from ``HMAC-SHA256(seed, counter)`` (the counter as 8
   big-endian bytes, incremented at every attempt): the top ``bits`` bits of the digest,
   where ``bits`` is the width of ``sides - 1``, rejected when they pass ``sides - 1``.
   Every face is equally likely (rejection, never modulo), and nobody without the seed
   can predict the next one.
3. **Chain.** Each log entry stores the hash of the entry before it; its own hash is
   ``sha256(previous hash + canonical JSON of the entry)``. Changing, removing or
   reordering any entry breaks every link after it.
4. **Reveal.** At the end of the session the seed is revealed: anyone can check that it
   hashes to the commitment, recompute every committed face from the counters, and walk
   the chain (:func:`verify_log`). Physical dice (typed by a player) cannot be recomputed:
   their entries are marked ``physical`` and only chain-checked.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meneur.campaign.errors import VerifyError
from meneur.campaign.logshape import check_entry, check_session
from meneur.locale import N_
from meneur.rng import MAX_SIDES

SEED_BYTES = 32
GENESIS = "0" * 64
"""The "previous hash" of a campaign's first entry."""
LOG_VERSION = 1
"""The version of the exported log's layout (``"version"``), which ``verify`` reads."""

COMMITTED = "committed"

HASHED_FIELDS = (
    "seq",
    "at",
    "who",
    "system",
    "kind",
    "params",
    "faces",
    "decisions",
    "outcome",
    "source",
    "commitment",
    "counter",
    "draws",
)
"""The fields of a log entry covered by its hash (local database ids are not)."""


def canonical_json(data: Any) -> bytes:
    """One byte string per value: sorted keys, no spaces, UTF-8 (RFC 8785-like)."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def entry_hash(prev_hash: str, entry: Mapping[str, Any]) -> str:
    """``sha256(previous hash + canonical JSON of the hashed fields)`` in hex."""
    body = {name: entry.get(name) for name in HASHED_FIELDS}
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json(body)).hexdigest()


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment_of(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def block(seed: bytes, counter: int) -> bytes:
    return hmac.digest(seed, counter.to_bytes(8, "big"), "sha256")


def committed_face(seed: bytes, counter: int, sides: int) -> tuple[int, int]:
    """The face drawn for a die of ``sides`` from ``counter`` on, and the next counter."""
    if sides == 1:
        return 1, counter
    width = (sides - 1).bit_length()
    while True:
        value = int.from_bytes(block(seed, counter), "big") >> (256 - width)
        counter += 1
        if value < sides:
            return value + 1, counter


@dataclass
class CommittedDice:
    """A :class:`~meneur.rng.DiceSource` drawing from a committed seed (see module doc).

    It remembers what it served (``draws``: ``[sides, face]`` in order) and the counter
    range, which the log entry stores so that :func:`verify_log` can recompute the faces.
    """

    seed: bytes
    counter: int = 0
    commitment: str = ""
    draws: list[list[int]] = field(default_factory=list)
    start: int = 0

    kind = COMMITTED

    def __post_init__(self) -> None:
        self.commitment = self.commitment or commitment_of(self.seed)
        self.start = self.counter

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        from meneur.rng import _check_request

        _check_request(sides, count)
        faces = []
        for _ in range(count):
            face, self.counter = committed_face(self.seed, self.counter, sides)
            faces.append(face)
            self.draws.append([sides, face])
        return tuple(faces)

    def finish(self) -> None:
        return None

    def begin_entry(self) -> None:
        """Start a new log entry: forget the draws already logged."""
        self.draws = []
        self.start = self.counter


@dataclass(frozen=True, slots=True)
class SessionSources:
    """The entries logged during one game session, counted by the source of their dice.

    An entry belongs to the session whose commitment it names, or (any other source)
    to the session open at its moment: between ``started_at`` and ``revealed_at``. An
    entry that drew no die (a sheet edited at the table) bypasses nothing: not counted.
    """

    commitment: str
    sources: dict[str, int]

    @property
    def bypassed(self) -> int:
        """Entries of the session whose dice were not drawn from its commitment."""
        return sum(count for source, count in self.sources.items() if source != COMMITTED)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    entries: int
    recomputed: int
    physical: int
    unrevealed: int
    complete: bool
    head: str
    sessions: tuple[SessionSources, ...] = ()
    rooted: bool = True
    """The first entry links to the start of the log (its first link is checked)."""
    missing: int = 0
    """Entries left out of the file (a player's copy without the rolls secret from them, or
    a filtered export), counted from the gaps in the sequence numbers."""
    end_known: bool = True
    """The file records the log's head (its last entry when exported): without it,
    entries cut from the end of the file cannot be seen, so the file is not called
    complete (``head`` deleted along with the last rolls hid them)."""


def session_sources(
    sessions: Sequence[Mapping[str, Any]], entries: Sequence[Mapping[str, Any]]
) -> tuple[SessionSources, ...]:
    """Each game session's entries by source (see :class:`SessionSources`)."""
    counts: list[dict[str, int]] = [{} for _ in sessions]
    commitments = {str(s.get("commitment")): index for index, s in enumerate(sessions)}
    for entry in entries:
        if not any(entry.get("faces") or ()):
            continue
        source = str(entry.get("source") or "?")
        index = commitments.get(str(entry.get("commitment"))) if source == COMMITTED else None
        if index is None:
            at = str(entry.get("at") or "")
            index = next(
                (
                    number
                    for number, session in enumerate(sessions)
                    if str(session.get("started_at") or "") <= at
                    and (session.get("revealed_at") is None or at <= str(session["revealed_at"]))
                ),
                None,
            )
        if index is not None:
            counts[index][source] = counts[index].get(source, 0) + 1
    return tuple(
        SessionSources(str(session.get("commitment", "")), count)
        for session, count in zip(sessions, counts, strict=True)
    )


def command_of(entry: Mapping[str, Any]) -> str:
    """An entry's roll as the command that made it: « test tunnels », « roll » (the
    generic notation, system ``generic``), « scene roll legendes ». Command words are the
    same in every language, where « generic roll » was English in a French log."""
    from meneur.campaign.replay import GENERIC

    system, kind = str(entry.get("system", "?")), str(entry.get("kind", "?"))
    return kind if system == GENERIC else f"{kind} {system}"


def _entry_label(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "seq": entry.get("seq", "?"),
        "who": str(entry.get("who") or "-")[:80],
        "kind": command_of(entry)[:80],
    }


def _fail(message: str, entry: Mapping[str, Any], **params: Any) -> VerifyError:
    return VerifyError(message, **_entry_label(entry), **params)


def verify_log(document: Mapping[str, Any]) -> VerifyReport:
    """Check an exported log; raise :class:`VerifyError` naming the first bad entry."""
    if document.get("format") != "meneur-log":
        raise VerifyError(N_("This file is not a meneur roll log (no 'format': 'meneur-log')."))
    version = document.get("version")  # the integer itself: in Python, True == 1.0 == 1
    if type(version) is not int or version != LOG_VERSION:  # a later layout, or none
        raise VerifyError(
            N_("This log has version {found}; this meneur reads version {version}."),
            found=json.dumps(document.get("version"), ensure_ascii=False)[:20],  # "1", not 1
            version=LOG_VERSION,
        )
    _check_shape(document)
    sessions: dict[str, bytes | None] = {}
    for session in document.get("sessions", []):
        commitment = str(session.get("commitment", ""))
        seed_hex = session.get("seed")
        seed = None
        if seed_hex is not None:
            try:
                seed = bytes.fromhex(str(seed_hex))
            except ValueError:
                seed = b""
            if commitment_of(seed) != commitment:
                raise VerifyError(
                    N_(
                        "The revealed seed of the game session {commitment} does not match "
                        "its commitment."
                    ),
                    commitment=commitment[:16],
                )
        sessions[commitment] = seed
    entries: Sequence[Mapping[str, Any]] = document.get("entries", [])
    previous: Mapping[str, Any] | None = None
    counters: dict[str, int] = {}
    complete = rooted = True
    recomputed = physical = unrevealed = missing = 0
    head = GENESIS
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            raise VerifyError(N_("The log holds an entry that is not an object."))
        check_entry(entry, position)
        seq = entry.get("seq")
        before = previous.get("seq", 0) if previous is not None else 0
        if previous is not None and isinstance(seq, int) and seq <= before:
            raise _fail(
                N_(
                    "Entry {seq} ({who}, {kind}) stands after entry {before}: the file's "
                    "entries are out of order (an export lists them by number)."
                ),
                entry,
                before=before,
            )
        if isinstance(seq, int) and isinstance(before, int) and seq > before + 1:
            missing += seq - before - 1
        if previous is None:
            if entry.get("prev_hash") != GENESIS or seq != 1:
                complete = rooted = False
        elif isinstance(seq, int) and seq == previous.get("seq", 0) + 1:
            if entry.get("prev_hash") != previous.get("hash"):
                raise _fail(
                    N_("Entry {seq} ({who}, {kind}): its link to the entry before it is broken."),
                    entry,
                )
        else:
            complete = False
        prev_hash = str(entry.get("prev_hash", ""))
        try:
            recomputed_hash = entry_hash(prev_hash, entry)
        except (TypeError, ValueError, UnicodeError):
            recomputed_hash = ""
        if recomputed_hash != entry.get("hash"):
            raise _fail(
                N_("Entry {seq} ({who}, {kind}): its content was changed after it was logged."),
                entry,
            )
        source = entry.get("source")
        if source == COMMITTED:
            commitment = str(entry.get("commitment"))
            if commitment not in sessions:
                raise _fail(N_("Entry {seq} ({who}, {kind}): unknown game session."), entry)
            seed = sessions[commitment]
            counter = entry.get("counter")
            if not isinstance(counter, int) or counter < 0:
                raise _fail(N_("Entry {seq} ({who}, {kind}): no dice counter."), entry)
            expected = counters.get(commitment)
            if expected is not None and complete and counter != expected:
                raise _fail(
                    N_(
                        "Entry {seq} ({who}, {kind}): committed dice were drawn and not "
                        "logged (counter {counter}, expected {expected})."
                    ),
                    entry,
                    counter=counter,
                    expected=expected,
                )
            if seed is None:
                unrevealed += 1
                counters.pop(commitment, None)
            else:
                counters[commitment] = _check_draws(entry, seed, counter)
                recomputed += 1
        elif source == "physical":
            physical += 1
        previous = entry
        head = str(entry.get("hash"))
    after, complete = _after_last(document.get("head"), previous, complete)
    missing += after
    end_known = "head" in document
    if complete:
        seen = {GENESIS, *(str(entry.get("hash")) for entry in entries)}
        for session in document.get("sessions", []):
            closing = session.get("closing_hash")
            if closing is not None and closing not in seen:
                raise VerifyError(
                    N_(
                        "The log head published when the game session {commitment} ended "
                        "is not in this log: entries were rewritten or removed."
                    ),
                    commitment=str(session.get("commitment", ""))[:16],
                )
    by_session = session_sources(document.get("sessions", []), entries)
    return VerifyReport(
        len(entries),
        recomputed,
        physical,
        unrevealed,
        complete and end_known,
        head,
        by_session,
        rooted,
        missing,
        end_known,
    )


def _check_shape(document: Mapping[str, Any]) -> None:
    """Refuse what no export writes before reading it: ``entries`` missing or not a list
    (a file without it read as an empty log, verified), ``sessions`` not a list (of
    objects), a session value not text (:mod:`meneur.campaign.logshape`; each
    entry's values are checked as the loop reads it), a ``head`` neither an entry's
    ``{seq, hash}`` nor, for a log with no entry, null. A null head with entries read as
    « the end is known » and hid entries cut from the end from ``--strict``."""
    entries, sessions = document.get("entries"), document.get("sessions", [])
    if not isinstance(entries, list):  # missing too: no export leaves it out
        raise VerifyError(N_("The log's 'entries' is not a list of entries."))
    if not isinstance(sessions, list) or not all(isinstance(s, Mapping) for s in sessions):
        raise VerifyError(N_("The log's 'sessions' is not a list of game sessions."))
    for position, session in enumerate(sessions, start=1):
        check_session(session, position)
    if "head" in document:
        head = document["head"]
        if not isinstance(head, Mapping) and not (head is None and not entries):
            raise VerifyError(N_("The log's head is not an entry of this log."))


def _after_last(head: Any, last: Mapping[str, Any] | None, complete: bool) -> tuple[int, bool]:
    """(entries logged after the file's last one, whether the file is still complete),
    from the log's ``head`` the export recorded (absent: nothing known here, and
    :attr:`VerifyReport.end_known` says so)."""
    if not isinstance(head, Mapping):
        return 0, complete
    seq, digest = head.get("seq"), head.get("hash")
    before = last.get("seq", 0) if last is not None else 0
    if not isinstance(seq, int) or not isinstance(before, int) or seq < before:
        raise VerifyError(N_("The log's head is not an entry of this log."))
    if seq == before:
        if last is not None and digest != last.get("hash"):
            raise VerifyError(N_("The log's head is not an entry of this log."))
        return 0, complete
    return seq - before, False


def _check_draws(entry: Mapping[str, Any], seed: bytes, counter: int) -> int:
    """Recompute the committed faces of ``entry``; the counter after them."""
    draws = entry.get("draws")
    if not isinstance(draws, list):
        raise _fail(N_("Entry {seq} ({who}, {kind}): no committed draws."), entry)
    served: list[int] = []
    for number, draw in enumerate(draws, start=1):
        if (
            not isinstance(draw, list)
            or len(draw) != 2
            or not all(isinstance(x, int) for x in draw)
            or not 1 <= draw[0] <= MAX_SIDES
        ):
            raise _fail(
                N_("Entry {seq} ({who}, {kind}): die {number} is malformed."), entry, number=number
            )
        sides, face = draw
        expected, counter = committed_face(seed, counter, sides)
        if face != expected:
            raise _fail(
                N_(
                    "Entry {seq} ({who}, {kind}): die {number} shows {face}, the committed "
                    "dice gave {expected}."
                ),
                entry,
                number=number,
                face=face,
                expected=expected,
            )
        served.append(face)
    faces = entry.get("faces")
    shown = sorted(
        face
        for stream in (faces if isinstance(faces, list) else [])
        for face in (stream if isinstance(stream, list) else [stream])
    )
    if shown != sorted(served):
        raise _fail(
            N_("Entry {seq} ({who}, {kind}): the faces shown are not the faces drawn."), entry
        )
    return counter
