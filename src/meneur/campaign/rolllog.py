"""Logging a roll from code that is not a command (the web table, scripts, tests)::

    from meneur.campaign.rolllog import log_roll
    log_roll(store, "krasses", "test", params_json, rolled.faces, outcome_json,
             source.kind, character="Zed", state=new_state)

The entry and the character's new state are written in one transaction. Pass the
:class:`~meneur.campaign.chain.CommittedDice` you rolled with (``dice=``) when a game
session is open (:meth:`Store.committed_dice`), so that ``meneur verify`` can recompute
the faces. The commands need none of this: :mod:`meneur.campaign.recording` logs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meneur.campaign.records import NewRoll

if TYPE_CHECKING:
    from meneur.campaign.chain import CommittedDice
    from meneur.campaign.hotlog import HotLog


def log_roll(
    store: HotLog,
    system: str,
    check_name: str,
    params_json: dict[str, Any],
    rolled_faces: Sequence[Sequence[int]],
    outcome_json: dict[str, Any],
    source_kind: str,
    character: str | None = None,
    *,
    decisions: Sequence[Any] = (),
    state: dict[str, Any] | None = None,
    dice: CommittedDice | None = None,
    who: str | None = None,
    campaign: str | None = None,
) -> dict[str, Any]:
    """Append one roll to the current campaign's log (with ``state`` for ``character``).

    ``rolled_faces`` is one sequence of faces per stream (``Rolled.faces``), every face
    of every batch in the order rolled; ``decisions`` lists choices made during the roll
    (explode, push...) as JSON values. Returns the entry as exported, with its hash.
    """
    roll = NewRoll(
        system=system,
        kind=check_name,
        params=params_json,
        faces=rolled_faces,
        outcome=outcome_json,
        source=source_kind,
        character=character,
        who=who,
        decisions=decisions,
        dice=dice if source_kind == (dice.kind if dice else None) else None,
    )
    return store.append_roll(roll, state=state, campaign=campaign)
