"""Output models of the pages: a log entry as the table shows it (dice, verdict in words).

Storage models (the log entry as stored and hashed) never reach a template directly:
:func:`log_line` turns one into a :class:`LogLine` in the current language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meneur.errors import MeneurError
from meneur.locale import gettext as _
from meneur.systems.base import NeedMoreDice
from meneur.web.systems import ADAPTERS, Mark, Verdict


@dataclass(frozen=True, slots=True)
class LogLine:
    key: str
    """The entry's opaque id for this table (never its sequence number: its gaps would
    count the secret rolls)."""
    at: str
    who: str
    system: str
    title: str
    mode: str
    source: str
    streams: list[list[Mark]]
    verdict: Verdict
    hidden: bool = False


def _mark_faces(entry: Mapping[str, Any]) -> list[list[Mark]]:
    """The faces, each marked as the rule counts it (the check's own ``marks``).

    An entry that logged its roll (its params' replayable step) is marked by that check;
    an older entry falls back on its system's adapter, then on no marks.
    """
    faces = [[int(f) for f in stream] for stream in entry.get("faces") or []]
    marked = _marked_by_check(entry, faces)
    if marked is not None:
        return marked
    adapter = ADAPTERS.get(str(entry.get("system")))
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


def _verdict(entry: Mapping[str, Any]) -> Verdict:
    adapter = ADAPTERS.get(str(entry.get("system")))
    outcome = entry.get("outcome") or {}
    if entry.get("kind") == "oppose" and "names" in outcome:
        return _exchange(outcome)
    if entry.get("kind") == "melee" and "names" in outcome:
        return _melee_round(outcome)
    if entry.get("kind") == "shot" and "names" in outcome:
        return _shot(outcome)
    if adapter is not None and entry.get("kind") == "test":
        try:
            return adapter.verdict(outcome)
        except (KeyError, TypeError, ValueError):
            pass
    if "total" in outcome:
        return Verdict(None, _("Total {total}").format(total=outcome["total"]), "")
    return Verdict(None, "", "")


def _exchange(outcome: Mapping[str, Any]) -> Verdict:
    """A melee exchange (Tunnels T-10): who won, who lost how much."""
    names = list(outcome.get("names") or ["?", "?"])
    successes = (outcome.get("a") or {}).get("successes"), (outcome.get("b") or {}).get("successes")
    detail = _("{a} successes against {b}").format(a=successes[0], b=successes[1])
    winner = outcome.get("winner")
    if winner not in ("a", "b"):
        return Verdict(None, _("Tie: nobody is hurt"), detail)
    won, lost = (names[0], names[1]) if winner == "a" else (names[1], names[0])
    words = _("{winner} wins the exchange, {loser} loses {points}").format(
        winner=won, loser=lost, points=outcome.get("lost", 0)
    )
    return Verdict(None, words, detail)  # neither side is "the roller": no colour


def _melee_round(outcome: Mapping[str, Any]) -> Verdict:
    """An Obscur melee round (O-12, O-13): each blow that landed, then who is down."""
    names = list(outcome.get("names") or ["?", "?"])
    record = outcome.get("round") or {}
    index = {"a": 0, "b": 1}
    parts = []
    for strike in record.get("strikes") or []:
        attacker = index.get(str(strike.get("attacker")), 0)
        if not strike.get("hit"):
            continue
        parts.append(
            _("{attacker} hits {defender} ({zone}): {damage} damage").format(
                attacker=names[attacker],
                defender=names[1 - attacker],
                zone=strike.get("zone") or "-",
                damage=strike.get("damage", 0),
            )
        )
    words = "; ".join(parts) if parts else _("No blow lands")
    after = list(outcome.get("after") or [{}, {}])
    for name, body in zip(names, after, strict=False):
        status = body.get("status")
        if status == "coma":
            words += " · " + _("{name} falls into a coma").format(name=name)
        elif status == "dead":
            words += " · " + _("{name} is dead").format(name=name)
    detail = _("Vie: {a} {vie_a}, {b} {vie_b}").format(
        a=names[0],
        vie_a=after[0].get("vie", "?"),
        b=names[1],
        vie_b=after[1].get("vie", "?") if len(after) > 1 else "?",
    )
    return Verdict(None, words, detail)


def _shot(outcome: Mapping[str, Any]) -> Verdict:
    """An Obscur shot (O-14, O-15, O-21): hit or miss, the damage, the target's Vie."""
    names = list(outcome.get("names") or ["?", "?"])
    shot = outcome.get("shot") or {}
    attack = shot.get("attack") or {}
    detail = _("{successes} successes for a difficulty of {difficulty}").format(
        successes=attack.get("successes", "?"), difficulty=shot.get("difficulty", "?")
    )
    if not shot.get("hit"):
        return Verdict(
            None, _("{shooter} misses {target}").format(shooter=names[0], target=names[1]), detail
        )
    words = _("{shooter} hits {target} ({zone}): {damage} damage").format(
        shooter=names[0],
        target=names[1],
        zone=shot.get("zone") or "-",
        damage=shot.get("damage", 0),
    )
    status = (shot.get("target") or {}).get("status")
    if status == "coma":
        words += " · " + _("{name} falls into a coma").format(name=names[1])
    elif status == "dead":
        words += " · " + _("{name} is dead").format(name=names[1])
    return Verdict(None, words, detail)


def mode_label(mode: str) -> str:
    return {
        "public": _("public"),
        "gmroll": _("GM only"),
        "blindroll": _("blind"),
        "selfroll": _("self"),
    }.get(mode, mode)


def log_line(
    entry: Mapping[str, Any], mode: str, *, hidden: bool = False, key: str = ""
) -> LogLine:
    """The entry as shown; ``hidden``: the roller of a blind roll sees that it happened only."""
    params = entry.get("params") or {}
    trait = params.get("trait") if isinstance(params, dict) else None
    system = str(entry.get("system", ""))
    title = str(trait) if trait and trait != "-" else str(entry.get("kind", ""))
    if entry.get("kind") == "oppose" and entry.get("system") == "tunnels":
        title = _("melee exchange (T-10)")
    elif entry.get("kind") == "melee" and entry.get("system") == "obscur":
        title = _("melee round (O-12)")
    elif entry.get("kind") == "shot" and entry.get("system") == "obscur":
        title = _("shot (O-14)")
    at = str(entry.get("at", ""))[11:19]
    if hidden:
        return LogLine(
            key,
            at,
            str(entry.get("who") or "-"),
            system,
            title,
            mode,
            "",
            [],
            Verdict(None, _("Blind roll: only the GM sees the dice."), ""),
            hidden=True,
        )
    return LogLine(
        key,
        at,
        str(entry.get("who") or "-"),
        system,
        title,
        mode,
        str(entry.get("source", "")),
        _mark_faces(entry),
        _verdict(entry),
    )
