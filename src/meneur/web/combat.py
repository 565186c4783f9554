"""A simple, honest combat tracker: initiative order, rounds, each combatant's health.

The state is one JSON object kept with the table (``web_tables.combat``)::

    {"round": 1, "turn": 0, "combatants": [
        {"name": "Zoé", "initiative": 4, "health": 12, "max": 12, "wounds": "", "last": ""}]}

Order: highest initiative first; the GM types it (the order the opposed tests gave),
unless a character's system gives it from the sheet (its web adapter's ``combatant``).
``health`` is whatever the system counts: the GM adjusts it, and an exchange of blows
(each system's ``exchange``) writes what the rules made of it; a roll by a combatant
writes its verdict in ``last``, so the table sees who acted and how.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from meneur.errors import RuleError, UsageError
from meneur.locale import N_

MAX_COMBATANTS = 40
LAST = 300
"""Characters of a combatant's last result: room for one result against each of two
opponents named (an exchange of three, L-10), each name up to 80 characters."""


def empty() -> dict[str, Any]:
    return {"round": 1, "turn": 0, "combatants": []}


def normal(combat: dict[str, Any]) -> dict[str, Any]:
    state = empty()
    state.update({k: combat[k] for k in ("round", "turn", "combatants") if k in combat})
    return state


def add(
    combat: dict[str, Any],
    name: str,
    initiative: int,
    health: int,
    *,
    dice: int = 0,
    wounded: bool = False,
    system: str = "",
    agility: int = 0,
    most: int | None = None,
    level: str = "",
) -> dict[str, Any]:
    """Add a combatant; ``dice``: the dice it fights with, when its system counts them;
    ``most``: the maximum health, when the sheet knows it; ``level``: a level shown
    instead of health (an opposition without a sheet).
    ``system`` names the system of a character of the campaign (its exchange follows
    that system's rules); ``agility`` breaks ties of initiative (O-11: the higher Agilité
    acts first)."""
    state = normal(combat)
    people = list(state["combatants"])
    if len(people) >= MAX_COMBATANTS:
        raise RuleError(N_("A fight holds at most {limit} combatants."), limit=MAX_COMBATANTS)
    clean = name.strip()[:80]
    if not clean:
        raise RuleError(N_("A combatant needs a name."))
    people.append(
        {
            "name": clean,
            "initiative": initiative,
            "health": health,
            "max": health if most is None else max(most, health),
            "wounds": "",
            "last": "",
            "dice": dice,
            "wounded": wounded,
            "system": system,
            "agility": agility,
            "level": level,
        }
    )
    acting = people[state["turn"]] if started(state) and state["turn"] < len(people) - 1 else None
    people.sort(key=in_order)
    state["combatants"] = people
    if acting is not None:  # one added ahead of the acting combatant does not take its turn
        state["turn"] = next(i for i, person in enumerate(people) if person is acting)
    return state


def started(combat: dict[str, Any]) -> bool:
    """Whether « Tour suivant » was pressed since the fight (or its order) began: until
    then combatants are being added and the first in order acts first, whoever came
    first; from then on the turn stays with the combatant who has it."""
    return int(combat["round"]) > 1 or int(combat["turn"]) > 0


def in_order(combatant: dict[str, Any]) -> tuple[int, int]:
    """The highest initiative first; ties to the highest ``agility`` (O-11), then as typed."""
    return (-int(combatant["initiative"]), -int(combatant.get("agility") or 0))


def reorder(combat: dict[str, Any], found: Mapping[str, tuple[int, int]]) -> dict[str, Any]:
    """The fight with the initiatives ``found`` (by name: the value and its tie-break)
    and sorted by them; the others keep their typed initiative. The first in the new
    order acts: a new round begins when someone has acted in this one (the turn had
    passed the first); at a round's first turn, that round starts again in the new order.
    By name, so that it applies to the tracker as it is under its row lock."""
    state = normal(combat)
    people = [dict(c) for c in state["combatants"]]
    for person in people:
        value = found.get(str(person["name"]))
        if value is not None:
            person.update(initiative=value[0], agility=value[1])
    people.sort(key=in_order)  # stable: equal combatants keep their typed order
    if state["turn"] > 0:
        state["round"] += 1
    state.update(combatants=people, turn=0)
    return state


def _present(people: list[Any], index: int, name: str | None = None) -> None:
    """Refuse a combatant the tracker does not have: a change asked for one removed in
    the meantime (or never there) did nothing and said nothing. ``name``: the combatant
    the page showed at ``index``; another there now (one before it was removed, or the
    order changed, at the same moment) is refused, not hurt or removed in its place."""
    if not 0 <= index < len(people):
        raise UsageError(
            N_("No combatant {number} in the tracker (perhaps just removed)."), number=index + 1
        )
    if name and str(people[index]["name"]) != name:
        raise UsageError(
            N_(
                "Combatant {number} is no longer {name} (the tracker changed meanwhile): "
                "nothing was changed."
            ),
            number=index + 1,
            name=name,
        )


def shown_there(combat: dict[str, Any], places: Iterable[int], fields: Mapping[str, str]) -> None:
    """Refuse an exchange whose page showed another combatant at one of its ``places``:
    its form says whom each place showed (``shown_<place>``), and a removal or an
    addition sent at the same moment must not make it play the wrong fighters."""
    people = list(normal(combat)["combatants"])
    for place in places:
        shown = fields.get(f"shown_{place}")
        if shown:
            _present(people, place, shown)


def remove(combat: dict[str, Any], index: int, name: str | None = None) -> dict[str, Any]:
    """The fight without the combatant at ``index``; the turn stays with the one who has
    it, and passes to the next in order when that one is removed (after the last, a new
    round begins, as « Tour suivant » would)."""
    state = normal(combat)
    people = list(state["combatants"])
    _present(people, index, name)
    people.pop(index)
    state["combatants"] = people
    turn = state["turn"]
    if index < turn:  # one who acted before: the combatant who has the turn keeps it
        turn -= 1
    elif index == turn and turn >= len(people) > 0:  # the last to act: as « Tour suivant »
        turn = 0
        state["round"] += 1
    state["turn"] = min(turn, max(0, len(people) - 1))
    return state


def advance(combat: dict[str, Any]) -> dict[str, Any]:
    """The next combatant's turn; after the last, a new round begins."""
    state = normal(combat)
    count = len(state["combatants"])
    if count == 0:
        return state
    turn = state["turn"] + 1
    if turn >= count:
        turn = 0
        state["round"] += 1
    state["turn"] = turn
    return state


def adjust(
    combat: dict[str, Any], index: int, delta: int, wounds: str | None, name: str | None = None
) -> dict[str, Any]:
    state = normal(combat)
    people = [dict(c) for c in state["combatants"]]
    _present(people, index, name)
    people[index]["health"] = int(people[index]["health"]) + delta
    if wounds is not None:
        people[index]["wounds"] = wounds.strip()[:120]
    state["combatants"] = people
    return state


def set_health(
    combat: dict[str, Any], index: int, health: int, wounds: str, wounded: bool, last: str
) -> dict[str, Any]:
    """A combatant after an exchange: its new Endurance (or MR), its state, the verdict."""
    state = normal(combat)
    people = [dict(c) for c in state["combatants"]]
    if 0 <= index < len(people):
        people[index].update(health=health, wounds=wounds[:120], wounded=wounded, last=last[:120])
    state["combatants"] = people
    return state


def record_roll(combat: dict[str, Any], name: str, verdict: str) -> dict[str, Any] | None:
    """Note a combatant's roll; ``None`` when ``name`` is not in the fight."""
    state = normal(combat)
    people = [dict(c) for c in state["combatants"]]
    for person in people:
        if str(person["name"]).casefold() == name.casefold():
            person["last"] = verdict[:120]
            state["combatants"] = people
            return state
    return None
