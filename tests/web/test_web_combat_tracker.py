"""The combat tracker's own state (:mod:`meneur.web.combat`), without a table: order,
turns and rounds, removals, bounds, and the combatant a change names.

docs/web.md, « Le combat »: the order follows the initiative, « Tour suivant »
advances and a new round begins after the last; the tracker's pages number the
combatants from 1 (an ``<ol>``).
"""

from __future__ import annotations

from typing import Any

import pytest

from meneur.errors import RuleError, UsageError
from meneur.web import combat as fights


def fight(*names: str, turn: int = 0) -> dict[str, Any]:
    """A tracker holding ``names`` in that order (decreasing initiatives), at ``turn``."""
    combat = fights.empty()
    for place, name in enumerate(names):
        combat = fights.add(combat, name, len(names) - place, 10)
    combat["turn"] = turn
    return combat


def names(combat: dict[str, Any]) -> list[str]:
    return [str(c["name"]) for c in combat["combatants"]]


def test_a_fight_holds_max_combatants_and_refuses_one_more() -> None:
    """``add``: « A fight holds at most {limit} combatants. »: the last place is taken,
    the one past it refused, with the limit in the message."""
    combat = fights.empty()
    for number in range(fights.MAX_COMBATANTS):
        combat = fights.add(combat, f"Gobelin {number}", 0, 4)
    assert len(combat["combatants"]) == fights.MAX_COMBATANTS
    with pytest.raises(RuleError) as refused:
        fights.add(combat, "Un de trop", 0, 4)
    assert refused.value.params == {"limit": fights.MAX_COMBATANTS}


def test_a_combatant_below_its_maximum_keeps_the_sheet_s_maximum() -> None:
    """``add``'s ``most``: the maximum health when the sheet knows it. Isaure at 7 Vie
    of 12 shows 7/12; a health above the sheet's maximum stands as its own maximum."""
    combat = fights.add(fights.empty(), "Isaure", 4, 7, most=12)
    assert [(c["health"], c["max"]) for c in combat["combatants"]] == [(7, 12)]
    combat = fights.add(fights.empty(), "Isaure", 4, 14, most=12)
    assert [(c["health"], c["max"]) for c in combat["combatants"]] == [(14, 14)]
    combat = fights.add(fights.empty(), "Gobelin", 0, 6)
    assert [(c["health"], c["max"]) for c in combat["combatants"]] == [(6, 6)]


def test_O11_equal_initiative_goes_to_agilite_1_before_agilite_0() -> None:
    """O-11: at equal Rang d'Action the higher Agilité acts first, an Agilité of 0
    included (it is not « unknown »): Brune (Agilité 1), added second, acts before
    Aube (Agilité 0); without an Agilité at all a combatant counts 0 and keeps its
    typed place."""
    combat = fights.add(fights.empty(), "Aube", 5, 10, agility=0)
    combat = fights.add(combat, "Brune", 5, 10, agility=1)
    assert names(combat) == ["Brune", "Aube"]
    unknown = {"name": "Cyr", "initiative": 5}
    assert fights.in_order(unknown) == (-5, 0)


@pytest.mark.parametrize("change", ["remove", "adjust"])
def test_a_change_one_place_past_the_last_is_refused_not_a_crash(change: str) -> None:
    """``_present``: a place the tracker does not have (here the one just past the last,
    a combatant removed meanwhile) is refused with a clear message, never an
    ``IndexError``; the message numbers it as the page does, from 1."""
    combat = fight("Ogre", "Gobelin")
    with pytest.raises(UsageError) as refused:
        if change == "remove":
            fights.remove(combat, 2)
        else:
            fights.adjust(combat, 2, -1, None)
    assert refused.value.params == {"number": 3}
    assert names(combat) == ["Ogre", "Gobelin"]


def test_a_combatant_no_longer_at_its_place_is_named_with_the_page_s_number() -> None:
    """``_present``: the page showed the Gobelin second (index 1, « 2 » on the page); the
    Orque is there now: refused, naming place 2 and the Gobelin."""
    combat = fight("Orque", "Ogre")
    with pytest.raises(UsageError) as refused:
        fights.adjust(combat, 1, -1, None, name="Gobelin")
    assert refused.value.params == {"number": 2, "name": "Gobelin"}
    with pytest.raises(UsageError) as first:
        fights.remove(combat, 0, name="Gobelin")
    assert first.value.params == {"number": 1, "name": "Gobelin"}


def test_a_removal_keeps_the_turn_on_a_combatant_still_there() -> None:
    """``remove``: the turn never points past the last combatant. The last one's turn,
    when it is removed, passes to the new last; a turn before the removed place stays
    where it is; the last combatant removed leaves turn 0."""
    last = fights.remove(fight("Ogre", "Gobelin", "Orque", turn=2), 2)
    assert (names(last), last["turn"]) == (["Ogre", "Gobelin"], 1)
    first = fights.remove(fight("Ogre", "Gobelin", "Orque", turn=0), 1)
    assert (names(first), first["turn"]) == (["Ogre", "Orque"], 0)
    one = fights.remove(fight("Ogre", "Gobelin", turn=1), 1)
    assert (names(one), one["turn"]) == (["Ogre"], 0)
    none = fights.remove(fight("Ogre"), 0)
    assert (names(none), none["turn"]) == ([], 0)


def test_next_turn_after_the_last_begins_a_round_even_alone_and_not_without_anyone() -> None:
    """``advance``: after the last combatant a new round begins; a fight of one begins a
    new round at each « Tour suivant »; an empty tracker stays at round 1, turn 0."""
    alone = fights.advance(fight("Ogre"))
    assert (alone["round"], alone["turn"]) == (2, 0)
    empty = fights.advance(fights.empty())
    assert (empty["round"], empty["turn"]) == (1, 0)


def test_an_exchange_s_result_for_a_place_the_tracker_has_not_changes_nothing() -> None:
    """``set_health`` writes the exchange's result at a place the tracker has; a place
    just past the last (the tracker changed meanwhile) writes nothing, and no crash."""
    combat = fight("Ogre", "Gobelin")
    after = fights.set_health(combat, 2, 0, "mort", True, "Échec")
    assert after == combat
    hurt = fights.set_health(combat, 1, 3, "blessé", True, "Échec")
    assert [(c["health"], c["wounded"], c["last"]) for c in hurt["combatants"]] == [
        (10, False, ""),
        (3, True, "Échec"),
    ]
