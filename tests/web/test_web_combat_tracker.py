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


def turn_of(combat: dict[str, Any]) -> tuple[int, str]:
    """The round and the name of the combatant who has the turn."""
    return combat["round"], str(combat["combatants"][combat["turn"]]["name"])


def test_a_removal_leaves_the_turn_with_the_combatant_who_has_it() -> None:
    """``remove``: removing one who acted before (a goblin killed) does not pass the
    acting combatant's turn to the next; removing the acting combatant passes it to the
    next in order, and after the last to the first of a new round (as « Tour suivant »);
    one after it changes nothing. The turn never points past the last combatant."""
    before = fights.remove(fight("Ogre", "Gobelin", "Orque", turn=1), 0)
    assert (names(before), turn_of(before)) == (["Gobelin", "Orque"], (1, "Gobelin"))
    acting = fights.remove(fight("Ogre", "Gobelin", "Orque", turn=1), 1)
    assert (names(acting), turn_of(acting)) == (["Ogre", "Orque"], (1, "Orque"))
    after = fights.remove(fight("Ogre", "Gobelin", "Orque", turn=1), 2)
    assert (names(after), turn_of(after)) == (["Ogre", "Gobelin"], (1, "Gobelin"))
    last = fights.remove(fight("Ogre", "Gobelin", "Orque", turn=2), 2)
    assert (names(last), turn_of(last)) == (["Ogre", "Gobelin"], (2, "Ogre"))
    one = fights.remove(fight("Ogre", "Gobelin", turn=1), 1)
    assert (names(one), turn_of(one)) == (["Ogre"], (2, "Ogre"))
    none = fights.remove(fight("Ogre"), 0)
    assert (names(none), none["round"], none["turn"]) == ([], 1, 0)


def test_one_added_mid_fight_ahead_of_the_acting_combatant_does_not_take_its_turn() -> None:
    """``add``: once « Tour suivant » was pressed, reinforcements sorted ahead of the
    combatant who has the turn leave it the turn (it pointed at the newcomer, and the
    acting combatant's turn was lost); while the fight is being set up (round 1, first
    turn) the first in order acts first, whoever was added first."""
    fight_on = fights.advance(fight("Ogre", "Gobelin"))  # the Gobelin's turn
    joined = fights.add(fight_on, "Orque", 2, 10)  # the Ogre's 2: after it, before the Gobelin
    assert names(joined) == ["Ogre", "Orque", "Gobelin"]
    assert turn_of(joined) == (1, "Gobelin")
    behind = fights.add(fight_on, "Rat", 0, 2)
    assert (names(behind), turn_of(behind)) == (["Ogre", "Gobelin", "Rat"], (1, "Gobelin"))
    set_up = fights.add(fights.add(fights.empty(), "Gobelin", 1, 6), "Ogre", 5, 20)
    assert (names(set_up), turn_of(set_up)) == (["Ogre", "Gobelin"], (1, "Ogre"))


def test_next_turn_after_the_last_begins_a_round_even_alone_and_not_without_anyone() -> None:
    """``advance``: after the last combatant a new round begins; a fight of one begins a
    new round at each « Tour suivant »; an empty tracker stays at round 1, turn 0."""
    alone = fights.advance(fight("Ogre"))
    assert (alone["round"], alone["turn"]) == (2, 0)
    empty = fights.advance(fights.empty())
    assert (empty["round"], empty["turn"]) == (1, 0)


def test_drawing_initiative_after_someone_acted_begins_a_new_round() -> None:
    """``reorder`` (« Tirer l'initiative »): the first in the new order acts. Once the
    turn has passed the first (someone acted in this round), a new round begins; at a
    round's first turn (a fight being set up, or « Tour suivant » just began a round),
    that round starts again in the new order: no round is counted that nobody played."""
    drawn = {"Gobelin": (9, 0)}
    mid = fights.reorder(fight("Ogre", "Gobelin", "Orque", turn=2), drawn)
    assert (names(mid), turn_of(mid)) == (["Gobelin", "Ogre", "Orque"], (2, "Gobelin"))
    set_up = fights.reorder(fight("Ogre", "Gobelin", "Orque"), drawn)
    assert (names(set_up), turn_of(set_up)) == (["Gobelin", "Ogre", "Orque"], (1, "Gobelin"))
    third = fights.advance(fights.advance(fight("Ogre", "Gobelin", turn=1)))
    assert turn_of(third) == (2, "Gobelin")  # round 2, the Gobelin acts
    began = fights.advance(third)  # round 3 begins: the Ogre's turn
    assert turn_of(fights.reorder(began, drawn)) == (3, "Gobelin")


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
