"""Replaying the roll log: every roll re-resolved through the registry (``verify --replay``).

Each log entry stores, under its params' ``rolls`` key, one *step* per check or
procedure that rolled: where it lives (``system`` and ``check``), its canonical params
(:meth:`~meneur.systems.base.Check.params_json`, the same whatever the interface: the
dice count derived from a sheet is in them), every face per stream, and the key of its
outcome. :func:`replay_entries` resolves each step again on its faces and reports every
entry whose outcome differs, whose params no longer validate, or that cannot be replayed
(an old entry without steps, dice drawn outside any check): never silently skipped.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from meneur.campaign.logshape import whole
from meneur.errors import MeneurError
from meneur.locale import N_

if TYPE_CHECKING:
    from meneur.systems.base import Check, Rolled

STEPS = "rolls"
"""The key of an entry's params that holds its steps."""
GENERIC = "generic"
"""The ``system`` of the generic dice expression (``meneur roll``)."""
DICE_CHECK = "meneur.dice.check"
"""The module of the generic dice expression's check."""


@cache
def _checks() -> dict[tuple[str, str], Check[Any, Any]]:
    """Every check and procedure of the registry by (system, name), the dice roller too."""
    from meneur.dice.check import DiceCheck
    from meneur.systems.registry import SYSTEMS

    found: dict[tuple[str, str], Check[Any, Any]] = {(GENERIC, DiceCheck.name): DiceCheck()}
    for system in SYSTEMS:
        for name, check in {**system.checks(), **system.procedures()}.items():
            found[(system.name, name)] = check
    return found


@cache
def _place(kind: type[Any]) -> tuple[str, str] | None:
    """Where a check of this class lives: (system, name), or ``None`` outside the
    registry. Searched in its own system only, the one whose package holds the class
    (each system's ``System`` lives in its package), checks first, then procedures: a
    roll is recorded without loading every system (Obscur's checks alone take ~0.1 s
    to import, a third of ``meneur test krasses``). Nor the dice roller's module (~30 ms):
    a class of a module not imported is not the roll's."""
    from meneur.systems.registry import SYSTEMS

    dice = sys.modules.get(DICE_CHECK)
    if dice is not None and kind is dice.DiceCheck:
        return GENERIC, dice.DiceCheck.name
    for system in SYSTEMS:
        package = type(system).__module__.rpartition(".")[0]
        if not kind.__module__.startswith(package + "."):
            continue
        for found in (system.checks, system.procedures):
            for name, check in found().items():
                if type(check) is kind:
                    return system.name, name
    return None


def jsonable(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists), for stored keys."""
    return json.loads(json.dumps(value, default=str))


def step(check: Check[Any, Any], rolled: Rolled[Any, Any]) -> dict[str, Any]:
    """The replayable record of one roll (``check`` is ``None`` outside the registry)."""
    place = _place(type(check))
    if place is None:
        return {"check": None, "what": type(check).__name__, "faces": _faces(rolled.faces)}
    system, name = place
    return {
        "system": system,
        "check": name,
        "params": check.params_json(rolled.params),
        "faces": _faces(rolled.faces),
        "key": jsonable(check.key(rolled.outcome)),
    }


def _faces(faces: Sequence[Sequence[int]]) -> list[list[int]]:
    return [[int(face) for face in stream] for stream in faces]


@dataclass(frozen=True, slots=True)
class Problem:
    """Why one entry does not replay (``message`` is a catalogue id with ``values``)."""

    seq: int
    message: str
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReplayReport:
    entries: int
    rolls: int
    problems: tuple[Problem, ...]


def replay_entries(entries: Iterable[Mapping[str, Any]]) -> ReplayReport:
    """Re-resolve every step of every entry; each entry that does not replay is a problem."""
    problems: list[Problem] = []
    count = rolls = 0
    for entry in entries:
        count += 1
        seq = entry.get("seq")
        seq = seq if whole(seq) else count
        found = replay_entry(entry)
        if isinstance(found, Problem):
            problems.append(Problem(seq, found.message, found.values))
        else:
            rolls += found
    return ReplayReport(count, rolls, tuple(problems))


def replay_entry(entry: Mapping[str, Any]) -> Problem | int:
    """The number of rolls replayed, or the first problem of ``entry``."""
    params = entry.get("params")
    steps = params.get(STEPS) if isinstance(params, Mapping) else None
    if not isinstance(steps, list):
        return Problem(0, N_("not replayable: the entry has no canonical params (an older log)"))
    for index, one in enumerate(steps, start=1):
        if not isinstance(one, Mapping) or not _streams_ok(one.get("faces") or []):
            return Problem(0, N_("roll {step} is malformed"), {"step": index})
    if not _streams_ok(entry.get("faces") or []):
        return Problem(0, N_("its faces are malformed"))
    logged = [face for stream in entry.get("faces") or [] for face in stream]
    read = [face for one in steps for stream in one.get("faces") or [] for face in stream]
    shown, used = len(logged), len(read)
    if used != shown:
        return Problem(
            0,
            N_("not replayable: {shown} faces logged, {used} of them read by a check"),
            {"shown": shown, "used": used},
        )
    views = []
    for index, one in enumerate(steps, start=1):
        found = _replay_step(one)
        if isinstance(found, Problem):
            return Problem(0, found.message, {"step": index, **found.values})
        views.append(found)
    if sorted(logged) != sorted(read):  # (the faces shown, checked above in number only)
        return Problem(0, N_("not replayable: the faces logged are not the faces its rolls read"))
    if len(views) == 1:  # the entry's outcome is that roll's: what ``meneur log`` shows
        changed = _changed(entry.get("outcome"), views[0])
        if changed is not None:
            field, stored, now = changed
            return Problem(
                0,
                N_(
                    "its outcome differs from its roll at {field}: logged {stored}, the dice"
                    " give {now}"
                ),
                {"field": field[:80], "stored": stored, "now": now},
            )
    return len(steps)


def _changed(stored: Any, views: Sequence[dict[str, Any]]) -> tuple[str, str, str] | None:
    """``None`` when the logged outcome holds one of the roll's views whole (the shape an
    interface logs it in), else its first change against the view of its shape (whose
    every top-level key it has), or against the first."""
    changes = [_first_change(stored, view, "outcome") for view in views]
    if any(change is None for change in changes):
        return None
    shaped = [
        change
        for change, view in zip(changes, views, strict=True)
        if isinstance(stored, Mapping) and view.keys() <= stored.keys()
    ]
    return (shaped or changes)[0]


def _first_change(stored: Any, replayed: Any, where: str) -> tuple[str, str, str] | None:
    """The first place where the logged outcome does not hold what the replayed roll
    gives (:meth:`~meneur.systems.base.Check.logged_views`): (its path, the two values in
    at most 80 characters). The entry may hold more (the sheet written, the luck), never
    less nor otherwise."""
    if isinstance(replayed, dict):
        if not isinstance(stored, Mapping):
            return where, _shown(stored), "{…}"
        for key, value in replayed.items():
            found = _first_change(stored.get(key, _MISSING), value, f"{where}.{key}")
            if found is not None:
                return found
        return None
    if stored is _MISSING:
        return where, "-", _shown(replayed)
    if isinstance(replayed, list) and isinstance(stored, list) and len(stored) == len(replayed):
        for index, (mine, theirs) in enumerate(zip(stored, replayed, strict=True)):
            found = _first_change(mine, theirs, f"{where}[{index}]")
            if found is not None:
                return found
        return None
    if stored != replayed or type(stored) is not type(replayed):  # True is not 1
        return where, _shown(stored), _shown(replayed)
    return None


_MISSING = object()


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:79] + "…"


def _streams_ok(faces: Any) -> bool:
    """Faces as a step stores them: a list of streams, each a list of whole numbers."""
    return isinstance(faces, list) and all(
        isinstance(stream, list) and all(whole(face) for face in stream) for stream in faces
    )


def rolled_of(one: Mapping[str, Any]) -> tuple[Check[Any, Any], Any] | None:
    """The check of a logged step and its params, read back; ``None`` when they do not read."""
    check = _checks().get((str(one.get("system")), str(one.get("check"))))
    if check is None:
        return None
    try:
        return check, check.params_from_json(one.get("params"))
    except (MeneurError, TypeError, ValueError):
        return None


def _replay_step(one: Mapping[str, Any]) -> Problem | list[dict[str, Any]]:
    """The roll of one step resolved again (its :meth:`logged_views`), or its problem."""
    from meneur.systems.base import NeedMoreDice

    if one.get("check") is None:
        return Problem(
            0,
            N_("roll {step}: {what} has no canonical params"),
            {"what": str(one.get("what", "?"))[:80]},
        )
    check = _checks().get((str(one.get("system")), str(one.get("check"))))
    if check is None:
        return Problem(
            0,
            N_("roll {step}: no check {check} in system {system}"),
            {"check": str(one.get("check"))[:80], "system": str(one.get("system"))[:80]},
        )
    streams = one.get("faces") or []
    wrong = next((f for stream in streams for f in stream if not 1 <= f <= check.die_sides), None)
    if wrong is not None:
        return Problem(
            0,
            N_("roll {step}: a d{sides} has no face {face}"),
            {"sides": check.die_sides, "face": wrong},
        )
    try:
        params = check.params_from_json(one.get("params"))
        faces = tuple(tuple(int(face) for face in stream) for stream in streams)
        outcome = check.resolve(params, faces)
    except NeedMoreDice:
        return Problem(0, N_("roll {step}: its faces are too few for its params"))
    except (MeneurError, TypeError, ValueError) as error:
        detail = str(error)[:200]
        return Problem(
            0, N_("roll {step}: its params no longer validate: {error}"), {"error": detail}
        )
    now = jsonable(check.key(outcome))
    if now != one.get("key"):
        return Problem(
            0,
            N_("roll {step}: stored outcome {stored}, the rules now give {now}"),
            {"stored": json.dumps(one.get("key")), "now": json.dumps(now)},
        )
    views: list[dict[str, Any]] = jsonable(check.logged_views(params, outcome))
    return views
