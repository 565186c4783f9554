"""An Obscur entry's « Result » in ``meneur log`` (``System.log_summary``): one short line.

Obscur's procedures store whole records (every round of a fight, every day of a
journey), where the log's usual fields (a total, successes, a winner) are missing or
buried: the log showed their raw JSON. Each kind says its result in the reader's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meneur.locale import gettext as _
from meneur.locale import labelled, ngettext, plural_count
from meneur.systems.log_words import fight_words, opposition_words, test_words


def log_summary(kind: str, outcome: Mapping[str, Any]) -> str | None:
    """The result of an opposition, a fight, a shot, a melee round or a shot of the live
    table's combat tracker, a journey, a purchase, morale regained, or a body's care (a
    hurt, a heal, a rest, a march: its Vie before and after); None for another kind (the
    log then reads the usual fields)."""
    if kind == "fight" and isinstance(outcome.get("shot"), Mapping):
        return _shot(outcome["shot"], outcome.get("shooter"), outcome.get("target"))
    if kind == "fight" and isinstance(outcome.get("outcome"), Mapping):
        return fight_words(outcome["outcome"])
    if kind == "melee" and "names" in outcome:  # the combat tracker's round
        return melee_round_words(outcome)[0]
    if kind == "shot" and "names" in outcome:  # the combat tracker's shot
        return shot_words(outcome)[0]
    if kind == "survive" and isinstance(outcome.get("final"), list):
        return _journey(outcome)
    if kind == "test":  # « maladresse (0 succès sur 2) » (O-3)
        fumble = _("fumble") if outcome.get("fumble") else None
        return test_words(outcome, "successes", "difficulty", fumble)
    said = opposition_words(outcome, "successes") if kind == "oppose" else None
    if said is not None:  # O-11: « b l'emporte de 4 (0 contre 4) »
        return said
    if kind == "acquire" and "available" in outcome:
        return _("available") if outcome.get("available") else _("not available")
    result = outcome.get("result")
    gained = result.get("gained") if isinstance(result, Mapping) else None
    if isinstance(gained, Mapping):  # morale regained (O-34): the body's Vie says nothing
        return labelled(_("morale"), ", ".join(f"{who} +{n}" for who, n in gained.items()))
    before, after = outcome.get("before"), outcome.get("after")
    if isinstance(before, Mapping) and isinstance(after, Mapping) and "vie" in after:
        return labelled(_name(after), _care(before, after))
    return None


STATUSES = ("coma", "dead")
"""The states a line must say (a body below 0 Vie is not merely wounded)."""


def _status(body: Mapping[str, Any]) -> str:
    """`` — coma`` or `` — mort`` after a body's numbers; nothing when it is well."""
    status = body.get("status")
    return " — " + (_("coma") if status == "coma" else _("dead")) if status in STATUSES else ""


def _care(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """A hurt, a heal, a rest, a march: the Vie before and after, and the state it ends
    in."""
    words = _("Vie {before} → {after}/{most}").format(
        before=before.get("vie", "?"), after=after["vie"], most=after.get("vie_max", "?")
    )
    return words + _status(after)


def _name(side: Any) -> str:
    return str(side.get("name", "?")) if isinstance(side, Mapping) else "?"


def _shot(shot: Mapping[str, Any], shooter: Any, target: Any) -> str:
    """The shooter's result against the target: « Mireille → Corbeau : manqué »."""
    if shot.get("fumble"):
        words = _("fumble")
    elif shot.get("hit"):
        words = _("hit ({zone}), damage {damage}").format(
            zone=shot.get("zone", "?"), damage=shot.get("damage", 0)
        )
    else:
        words = _("missed")
    return labelled(f"{_name(shooter)} → {_name(target)}", words)


def _journey(outcome: Mapping[str, Any]) -> str:
    days = len(outcome.get("days") or [])
    members = ", ".join(
        f"{_name(member)} {member.get('vie', '?')}/{member.get('vie_max', '?')}{_status(member)}"
        for member in outcome["final"]
        if isinstance(member, Mapping)
    )
    return labelled(ngettext("{count} day", "{count} days", days).format(count=days), members)


def melee_round_words(outcome: Mapping[str, Any]) -> tuple[str, str]:
    """A melee round of the combat tracker (O-12, O-13): each blow that landed, then who
    is down; and each fighter's Vie."""
    names = list(outcome.get("names") or ["?", "?"])
    record = outcome.get("round") or {}
    index = {"a": 0, "b": 1}
    parts = []
    for strike in record.get("strikes") or []:
        attacker = index.get(str(strike.get("attacker")), 0)
        if not strike.get("hit"):
            continue
        damage = strike.get("damage", 0)
        parts.append(
            ngettext(
                "{attacker} hits {defender} ({zone}): {damage} damage",
                "{attacker} hits {defender} ({zone}): {damage} damage",
                plural_count(damage),
            ).format(
                attacker=names[attacker],
                defender=names[1 - attacker],
                zone=strike.get("zone") or "-",
                damage=damage,
            )
        )
    words = "; ".join(parts) if parts else _("No blow lands")
    after = list(outcome.get("after") or [{}, {}])
    for name, body in zip(names, after, strict=False):
        words += _down_words(name, body.get("status"))
    detail = _("Vie: {a} {vie_a}, {b} {vie_b}").format(
        a=names[0],
        vie_a=after[0].get("vie", "?"),
        b=names[1],
        vie_b=after[1].get("vie", "?") if len(after) > 1 else "?",
    )
    return words, detail


def shot_words(outcome: Mapping[str, Any]) -> tuple[str, str]:
    """A shot of the combat tracker (O-14, O-15, O-21): hit or miss, the damage, the
    target's state; and the attack's successes against its difficulty."""
    names = list(outcome.get("names") or ["?", "?"])
    shot = outcome.get("shot") or {}
    attack = shot.get("attack") or {}
    successes = attack.get("successes", "?")
    detail = ngettext(
        "{successes} success for a difficulty of {difficulty}",
        "{successes} successes for a difficulty of {difficulty}",
        plural_count(successes),
    ).format(successes=successes, difficulty=shot.get("difficulty", "?"))
    if not shot.get("hit"):
        return _("{shooter} misses {target}").format(shooter=names[0], target=names[1]), detail
    damage = shot.get("damage", 0)
    words = ngettext(
        "{shooter} hits {target} ({zone}): {damage} damage",
        "{shooter} hits {target} ({zone}): {damage} damage",
        plural_count(damage),
    ).format(shooter=names[0], target=names[1], zone=shot.get("zone") or "-", damage=damage)
    return words + _down_words(names[1], (shot.get("target") or {}).get("status")), detail


def _down_words(name: str, status: Any) -> str:
    """« · Garou tombe dans le coma » (O-31) or « · Garou est mort », else nothing."""
    if status == "coma":
        return " · " + _("{name} falls into a coma").format(name=name)
    if status == "dead":
        return " · " + _("{name} is dead").format(name=name)
    return ""
