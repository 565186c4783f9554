"""A Tunnels melee exchange from the combat tracker (T-10, T-11), logged like any roll.

Two combatants trade blows: an opposed Force test (a combatant without a Tunnels sheet
fights with its tracker value as Monster Rating). The loser loses the margin, through
:class:`meneur.systems.tunnels.combat.Fighter.hurt` (a monster loses MR; a character
loses Endurance, is wounded at 0 and recovers it, dies at 0 if already wounded). The
exchange is one log entry (committed dice when a session is open) and the tracker shows
the new values; a Tunnels character's sheet gets its new Endurance, wound and death in
the same transaction as the entry.
"""

from __future__ import annotations

from typing import Any

from meneur.campaign.records import NewRoll
from meneur.errors import RuleError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.web import combat as fights
from meneur.web.exchange import (
    combatants,
    exchange_sources,
    log_exchange,
    public_verdict,
)
from meneur.web.rolls import Roller, params_json
from meneur.web.tables import Seat


def fighter(person: dict[str, Any]) -> Any:
    from meneur.systems.tunnels.combat import Fighter

    health = int(person["health"])
    if int(person.get("dice") or 0) > 0:
        return Fighter(
            str(person["name"]),
            int(person["dice"]),
            health,
            max(health, int(person.get("max") or health)),
            wounded=bool(person.get("wounded")),
        )
    if health < 1:
        raise RuleError(N_("{name} is already out of the fight."), name=str(person["name"]))
    return Fighter(str(person["name"]), health, monster=True)


def new_sheet(
    roller: Roller, campaign: str, fighter: Any, person: dict[str, Any]
) -> dict[str, Any] | None:
    """The Tunnels sheet of a character after the exchange (T-11), or ``None``.

    Only a combatant that is a Tunnels character of the campaign has a sheet; its
    Endurance, wound and death are written with the exchange's log entry (one transaction).
    """
    from meneur.campaign.errors import CampaignError

    if fighter.monster or int(person.get("dice") or 0) <= 0:
        return None
    try:
        info = roller.sheet(campaign, fighter.name)
    except CampaignError:
        return None
    if info.system != "tunnels" or not isinstance(info.sheet.get("endurance"), dict):
        return None
    sheet = dict(info.sheet)
    endurance = dict(sheet["endurance"])
    endurance["current"] = min(fighter.endurance, int(endurance.get("max", fighter.endurance)))
    sheet.update(endurance=endurance, wounded=fighter.wounded, dead=fighter.dead)
    return sheet


def state_words(fighter: Any) -> str:
    if fighter.monster:
        return _("defeated") if fighter.down else ""
    if fighter.dead:
        return _("dead")
    return _("wounded") if fighter.wounded else ""


def exchange(
    roller: Roller,
    seat: Seat,
    combat: dict[str, Any],
    first: int,
    second: int,
    faces: str = "",
    vs_faces: str = "",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one exchange between two combatants (worker thread): the entry, the new tracker."""
    from meneur.systems.tunnels.combat import FightParams, TunnelsFight

    people = combatants(combat, first, second)
    a, b = fighter(people[first]), fighter(people[second])
    if a.down or b.down:
        raise RuleError(N_("A combatant out of the fight cannot trade blows."))
    fight = FightParams(a, b, max_rounds=1)  # one exchange of the system's fight (T-10, T-11)
    procedure = TunnelsFight()
    campaign = seat.table.campaign
    committed = roller.committed(campaign)
    sources, kind = exchange_sources(committed, faces, vs_faces)
    rolled = procedure.roll(fight, sources)
    (played,) = rolled.outcome.rounds
    a, b = played.a, played.b
    params = fight.exchange(fight.a, fight.b)
    sheets = {
        one.name: changed
        for one, person in ((a, people[first]), (b, people[second]))
        if (changed := new_sheet(roller, campaign, one, person)) is not None
    }
    result = procedure.exchange_json(fight, rolled.outcome)
    result.update(names=[a.name, b.name], after=[a.state_json(), b.state_json()])
    entry = log_exchange(
        roller,
        seat,
        NewRoll(
            system="tunnels",
            kind="oppose",
            params=params_json("-", params, (procedure, rolled)),
            faces=[list(stream) for stream in rolled.faces],
            outcome=result,
            source=kind,
            who=f"{a.name} / {b.name}"[:80],
        ),
        committed,
        sheets,
    )
    verdict = public_verdict(entry)
    updated = combat
    for index, one in ((first, a), (second, b)):
        health = one.dice if one.monster else one.endurance
        updated = fights.set_health(updated, index, health, state_words(one), one.wounded, verdict)
    return entry, updated
