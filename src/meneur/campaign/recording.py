"""The roll log of one command: every system's rolls logged by two hooks, not per command.

Every command draws its dice through :func:`meneur.cli.params.dice_sources` and prints its
result through :func:`meneur.cli.output.emit`. Both call here, so logging is wired once
for all systems, present and future:

- :func:`dice_for` (from ``dice_sources``): when rolls are logged (a campaign database
  exists, ``MENEUR_LOG=1``, or a stored character takes part), each stream is wrapped
  so that its faces are remembered; when the user chose no dice (no ``--seed``, no
  ``--faces``) and a game session is open, they come from its committed dice.
- :meth:`LoggedDice.observe` (from :meth:`meneur.systems.base.Check.roll`): the check,
  its parameters and its outcome: kept as a replayable step (:mod:`.replay`: the
  check's name, its canonical params and faces) and judged for luck against its odds.
- :func:`record` (from ``emit``): one log entry with the faces drawn since the last one
  and, in the same transaction, the new sheets of the stored characters that took part
  (without a roll, the sheets alone). Each sheet the command read must still be the
  stored one (``SheetConflict`` otherwise, and the command is played again): two
  processes hurting one character at once both count.
- :func:`stored_sheet` (``--character NAME``): a :class:`StoredSheet`, which the
  systems' sheet loaders read and write like a file (:mod:`meneur.files` knows it); the
  write waits for the log entry, so a roll and its consequences land together or not
  at all.
- :func:`begin` / :func:`finish` / :func:`abandon` (from :func:`meneur.cli.main.run`):
  a fresh recording per command; after success, a sheet changed since the last result
  is written; after an error nothing is.

This module imports only the standard library and the core at load time (every command
imports it).
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meneur.files import SheetElsewhere
from meneur.rng import DiceSource, RecordingDice

if TYPE_CHECKING:
    from meneur.campaign.chain import CommittedDice
    from meneur.campaign.hotlog import HotLog
    from meneur.systems.base import Check, Rolled

    _ConcretePath = Path
else:
    _ConcretePath = type(Path())

MAX_JUDGED = 12
"""Checks judged for luck per log entry (a long fight is judged on its first rounds)."""
LUCK_SECONDS = 0.5
"""Seconds one log entry may spend computing its rolls' luck in all, as the live table's
writer waits (``web.rolls.LUCK_BUDGET``); past it the rest stands unjudged. The exact law
of a large pool takes seconds (60 dice that always explode: ~7 s; an opposition of 20
dice a side: ~2 s, once per round of a fight), and a roll should not wait for its luck."""


class StoredSheet(_ConcretePath, SheetElsewhere):
    """A stored character, addressed like a sheet file (``--character NAME``).

    The systems' loaders take a path: this one reads the character's sheet from the
    campaign database and writes it back there (see :mod:`meneur.files`), so no system
    needs a second loader. It never touches the file system. The character and its
    system are spelled in the path's name (``Zed@tunnels.json``, quoted), so paths that
    pathlib derives from it (``resolve()``...) still name them.
    """

    @classmethod
    def of(cls, character: str, system: str) -> StoredSheet:
        from urllib.parse import quote

        return cls(f"{quote(character, safe='')}@{quote(system, safe='')}.json")

    @property
    def character(self) -> str:
        from urllib.parse import unquote

        return unquote(self.name.removesuffix(".json").rpartition("@")[0])

    @property
    def system(self) -> str:
        from urllib.parse import unquote

        return unquote(self.name.removesuffix(".json").rpartition("@")[2])

    def __str__(self) -> str:
        from meneur.locale import quoted

        return quoted(self.character)

    def identity(self) -> Hashable:
        """The character as the store finds it: « Tess » and « tess » are one."""
        from meneur.text import fold

        return ("stored", fold(self.character), self.system)

    def read_document(self) -> dict[str, Any]:
        return read_stored(self)

    def write_document(self, data: dict[str, Any]) -> None:
        write_stored(self, data)

    def __repr__(self) -> str:
        return f"StoredSheet({self.character!r})"


@dataclass
class Recording:
    """What one command rolled and changed, waiting for :func:`record`."""

    log: HotLog | None = None
    streams: list[LoggedDice] = field(default_factory=list)
    dice: CommittedDice | None = None
    sheets: dict[str, StoredSheet] = field(default_factory=dict)
    """The stored characters taking part, roller first."""
    loaded: dict[str, dict[str, Any]] = field(default_factory=dict)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    """New sheets of stored characters, written with the next log entry."""
    judged: list[dict[str, Any]] = field(default_factory=list)
    luck_spent: float = 0.0
    """Seconds spent judging luck since the last entry (:data:`LUCK_SECONDS`)."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    """The replayable record of each roll since the last entry (:mod:`.replay`)."""
    last_observed: Rolled[Any, Any] | None = None
    wanted: bool | None = None
    shown: int = 0
    """Results this command let be shown (each :func:`record` that returned): after one,
    a conflict can no longer play the command again (:func:`may_play_again`)."""

    def logging(self) -> bool:
        if self.sheets:
            return True
        if self.wanted is None:
            from meneur.campaign.paths import logging_wanted

            self.wanted = logging_wanted()
        return self.wanted

    def open_log(self) -> HotLog:
        """The campaign database, by the lightest way that serves a roll
        (:func:`~meneur.campaign.sqlitelog.open_log`); ``.store()`` for the rest."""
        if self.log is None:
            from meneur.campaign.sqlitelog import open_log

            self.log = open_log()
        return self.log

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
            self.log = None


class LoggedDice(RecordingDice):
    """One stream's dice, remembered for the log; told what each check made of them."""

    def __init__(self, source: DiceSource, recording: Recording) -> None:
        super().__init__(source)
        self.recording = recording
        self.logged = 0
        """How many of :attr:`faces` are already in the log."""

    def unlogged(self) -> list[int]:
        return self.faces[self.logged :]

    def observe(self, check: Check[Any, Any], rolled: Rolled[Any, Any]) -> None:
        """Keep the roll's replayable record; judge it against the check's exact odds."""
        if self.recording.last_observed is rolled:  # one roll, several streams
            return
        self.recording.last_observed = rolled
        from meneur.campaign.replay import step

        recording = self.recording
        recording.steps.append(step(check, rolled))
        left = LUCK_SECONDS - recording.luck_spent
        if len(recording.judged) < MAX_JUDGED and left > 0:
            import time

            from meneur.errors import MeneurError

            started = time.perf_counter()
            try:
                with _deadline(left):
                    verdict = judge(check, rolled.params, rolled.outcome)
            except (MeneurError, _OutOfTime):  # no exact odds in reach: the roll stands unjudged
                verdict = None
            recording.luck_spent += time.perf_counter() - started
            if verdict is not None:
                recording.judged.append(verdict)


class _OutOfTime(Exception):
    """The luck of a roll took longer than what its entry had left (:data:`LUCK_SECONDS`)."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`_OutOfTime` in this thread once ``seconds`` have passed (a real-time
    timer's signal, between two Python steps: a long FLINT product ends first). Only the
    main thread of a system with ``setitimer`` receives signals; elsewhere (the live
    table's writer threads, which bound luck their own way) nothing is limited."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def ring(_signum: int, _frame: Any) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_current: Recording | None = None


def current() -> Recording:
    global _current
    if _current is None:
        _current = Recording()
    return _current


def begin() -> None:
    """Start a command with nothing recorded."""
    abandon()


def abandon() -> None:
    """Forget what was recorded (after an error: nothing is written)."""
    global _current
    if _current is not None:
        _current.close()
    _current = None


def finish() -> None:
    """After a command succeeded: write stored sheets changed without a roll, then close."""
    global _current
    recording = _current
    if recording is None:
        return
    _write_pending(recording)  # refused: still current, for may_play_again; abandon closes it
    _current = None
    recording.close()


def _write_pending(recording: Recording) -> None:
    """Write the sheets changed without a roll, if the sheets read are still the stored
    ones (:class:`~meneur.campaign.errors.SheetConflict` otherwise: another process wrote
    meanwhile, and this command computed from the sheet it had read)."""
    if recording.pending:
        recording.open_log().store().update_sheets(recording.pending, previous=recording.loaded)
        _written(recording)


def _written(recording: Recording) -> None:
    """The pending sheets are stored: later writes of the command are checked against them."""
    from meneur.campaign.sheets import named

    for name, sheet in recording.pending.items():
        recording.loaded[name] = named(sheet, name)
    recording.pending = {}


def creating_database() -> None:
    """This command stores what it makes (a new character): log its rolls from the start."""
    from meneur.campaign.paths import logging_wanted

    current().wanted = logging_wanted(creating=True)


def dice_for(sources: Sequence[DiceSource], *, explicit: bool) -> list[DiceSource]:
    """The sources a command rolls with: remembered for the log when rolls are logged.

    ``explicit`` is true when the user chose the dice (``--seed``, ``--faces``): those
    are kept; otherwise an open game session's committed dice replace them.
    """
    recording = current()
    if not recording.logging():
        return list(sources)
    chosen = list(sources)
    if not explicit:
        if recording.dice is None:
            recording.dice = recording.open_log().committed_dice()
        if recording.dice is not None:
            chosen = [recording.dice] * len(chosen)
    wrapped = [LoggedDice(source, recording) for source in chosen]
    recording.streams.extend(wrapped)
    return list(wrapped)


def stored_sheet(name: str, system: str) -> StoredSheet:
    """The stored character ``name`` of the current campaign, as a sheet path.

    Its system must be ``system``: a Tunnels command cannot roll for an Obscur hero.
    """
    from meneur.campaign.errors import CampaignError
    from meneur.locale import N_
    from meneur.systems.registry import find_system

    recording = current()
    info = recording.open_log().character(name)
    if info.system != system:
        raise CampaignError(
            N_("{name} is a {system} character, not a {wanted} one."),
            name=info.name,
            system=find_system(info.system).title,
            wanted=find_system(system).title,
        )
    path = StoredSheet.of(info.name, info.system)
    recording.sheets.setdefault(info.name, path)
    recording.loaded.setdefault(info.name, info.sheet)  # as first read: what is checked
    return path


def store_character(system: str, name: str, sheet: dict[str, Any]) -> str:
    """Store a new character in the current campaign; the campaign's name.

    The character becomes the roller of the command's log entry (its creation rolls).
    """
    info = current().open_log().store().add_character(system, name, sheet)
    stored_sheet(info.name, info.system)
    return info.campaign


def read_stored(path: StoredSheet) -> dict[str, Any]:
    """The sheet as the command last left it (a copy: the loader may change it)."""
    recording = current()
    if path.character not in recording.loaded:  # a path kept from another command
        stored_sheet(path.character, path.system)
    sheet = recording.pending.get(path.character, recording.loaded[path.character])
    return copy.deepcopy(sheet)


def write_stored(path: StoredSheet, sheet: dict[str, Any]) -> None:
    """Keep the new sheet for the next log entry (or :func:`finish`)."""
    current().pending[path.character] = copy.deepcopy(sheet)


def may_play_again(error: Exception) -> bool:
    """Whether a command that failed with ``error`` may run again from the start, on the
    session and the sheets as they now are: its committed dice were drawn by another
    process first, or a sheet it read changed meanwhile (as the live table does,
    ``web.rolls``), and it has shown nothing yet. A result is logged before it is shown
    (:func:`meneur.cli.output.emit`), so the first draw was never seen: drawing again
    is fair, and the player is not told to type the command again."""
    from meneur.campaign.errors import DiceConflict, SheetConflict

    if not isinstance(error, DiceConflict | SheetConflict):
        return False
    return _current is None or _current.shown == 0


def record(
    data: dict[str, Any], words: Sequence[str] = (), options: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """Log what was rolled since the last entry, with ``data`` (the printed result); the
    caller shows it once this returns.

    ``words`` are the command's (``["test", "tunnels"]``) and ``options`` what the user
    typed, as JSON values: the interface says them, this module reads no command line.
    Nothing happens when rolls are not logged or nothing was rolled nor changed (an
    ``odds`` command, a ``show``). Returns the entry written, with its hash.
    """
    recording = _current
    if recording is None:
        return None
    entry = _logged(recording, data, words, options)
    recording.shown += 1
    return entry


def _logged(
    recording: Recording,
    data: dict[str, Any],
    words: Sequence[str],
    options: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """:func:`record`'s entry, written (``None``: nothing rolled to log)."""
    if not (recording.streams or recording.pending):
        return None
    faces = [stream.unlogged() for stream in recording.streams]
    if not any(faces):
        _write_pending(recording)  # a sheet changed without a roll, written before shown
        return None
    from meneur.campaign.records import NewRoll
    from meneur.campaign.replay import STEPS
    from meneur.text import encodable

    params = encodable(dict(options or {}))  # a file name typed as bytes that are not UTF-8
    params[STEPS] = recording.steps
    system = str(data.get("system") or (words[-1] if len(words) > 1 else "generic"))
    kind = " ".join(word for word in words if word != system) or "roll"
    kinds = {stream.kind for stream, drawn in zip(recording.streams, faces, strict=True) if drawn}
    source = "physical" if "physical" in kinds else min(kinds)
    outcome = encodable(dict(data))
    if recording.judged:
        outcome["luck"] = recording.judged
    roller = next(iter(recording.sheets), None)
    entry = recording.open_log().append_roll(
        NewRoll(
            system=system,
            kind=kind,
            params=params,
            faces=faces,
            outcome=outcome,
            source=source,
            character=roller,
            dice=recording.dice if source == "committed" else None,
        ),
        sheets=recording.pending,
        previous=recording.loaded,
    )
    for stream in recording.streams:
        stream.logged = len(stream.faces)
    _written(recording)
    recording.judged = []
    recording.luck_spent = 0.0
    recording.steps = []
    return entry


def judge(check: Check[Any, Any], params: Any, outcome: Any) -> dict[str, Any] | None:
    """Where the roll stands among the check's exact outcomes, for the luck report.

    ``rank`` is ``P(worse) + P(as good) / 2`` under fair dice: 0.5 on average whatever
    the check (a fair die's rank is uniform in that sense), near 1 for a lucky roll.
    ``var`` is its exact variance under fair dice, so that many rolls can be judged
    together. Checks without an order of results (:meth:`Check.score` is ``None``) are
    not judged.
    """
    mine = check.score(check.key(outcome))
    if mine is None:
        return None
    weights: dict[float, int] = {}
    for key, weight in check.score_odds(params).items():
        score = check.score(key)
        if score is None:
            return None
        weights[score] = weights.get(score, 0) + weight
    from fractions import Fraction  # here: a command that logs nothing never loads it

    total = sum(weights.values())
    below = 0
    rank = Fraction(0)
    second_moment = Fraction(0)
    for score in sorted(weights):
        middle = Fraction(2 * below + weights[score], 2 * total)
        second_moment += weights[score] * middle * middle
        if score == mine:
            rank = middle
        below += weights[score]
    return {
        "check": check.name,
        "rank": float(rank),
        "var": float(second_moment / total - Fraction(1, 4)),
    }
