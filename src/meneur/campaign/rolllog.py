"""Logging a roll: the one function the systems' commands call, and the generic roll's hook.

For a system's command (later work wires ``--character NAME``)::

    from meneur.campaign.rolllog import log_roll
    log_roll(store, "krasses", "test", params_json, rolled.faces, outcome_json,
             source.kind, character="Zed", state=new_state)

The entry and the character's new state are written in one transaction. Pass the
:class:`~meneur.campaign.chain.CommittedDice` you rolled with (``dice=``) when a game
session is open (:meth:`Store.committed_dice`), so that ``meneur verify`` can recompute
the faces.

For ``meneur roll``: :func:`open_roll_log` returns ``None`` (nothing imported, nothing
written) unless logging is wanted (:func:`meneur.campaign.paths.logging_wanted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meneur.campaign.paths import logging_wanted
from meneur.rng import DiceSource, RecordingDice

if TYPE_CHECKING:
    from meneur.campaign.chain import CommittedDice
    from meneur.campaign.store import Store


def log_roll(
    store: Store,
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
    from meneur.campaign.store import NewRoll

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


@dataclass
class RollLog:
    """The generic roll's link to the log: committed dice if a game session is open."""

    store: Store
    dice: CommittedDice | None = None
    recorder: RecordingDice | None = None

    def source(self, chosen: DiceSource, *, explicit: bool) -> RecordingDice:
        """The source to roll with: the session's committed dice unless the user chose."""
        if not explicit:
            self.dice = self.store.committed_dice()
        self.recorder = RecordingDice(self.dice if self.dice is not None else chosen)
        return self.recorder

    def record(self, expression: str, outcome: dict[str, Any]) -> None:
        """Log the roll served by :meth:`source` (then close the database)."""
        recorder = self.recorder
        assert recorder is not None, "source() comes first"
        log_roll(
            self.store,
            "generic",
            "roll",
            {"expression": expression},
            [recorder.faces],
            outcome,
            recorder.kind,
            dice=self.dice,
        )
        self.store.close()


def open_roll_log() -> RollLog | None:
    """The log for ``meneur roll``, or ``None`` when rolls are not logged (the default)."""
    if not logging_wanted():
        return None
    from meneur.campaign.store import Store

    return RollLog(Store())
