"""A Légendes opposed roll from the combat tracker (L-6 to L-8, L-13, L-14), logged.

A hero of the campaign rolls against an opposition of the tracker (a combatant without a
sheet, given a level: commun, élite, héroïque, légendaire). The roll is
:func:`meneur.systems.legendes.scene.roll`, the rules of ``meneur scene legendes roll``,
run on a copy of the hero whose scene holds only this opposition, with the wound and the
roll count the tracker keeps for it: the wounds slow both sides (L-13), a *victoire
partielle* wounds the loser (light, then grave), a non-heroic opposition is out after
its first wound and any is out after a *victoire définitive* (L-14); a hero beaten by a
*victoire définitive* is defeated. The hero's stored sheet gets its new wound with the
log entry (one transaction); its own scene, if the command line runs one, is left as it
was. The tracker shows each side's wound and who is out.
"""

from __future__ import annotations

from typing import Any

from meneur.campaign.store import NewRoll
from meneur.errors import RuleError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.web import combat as fights
from meneur.web.exchange import (
    combatants,
    exchange_sources,
    holding_dice,
    log_exchange,
    public_verdict,
)
from meneur.web.rolls import Roller
from meneur.web.tables import Seat


def hero_of(roller: Roller, campaign: str, person: dict[str, Any]) -> Any:
    """The stored hero behind a combatant, or ``None`` for an opposition."""
    from meneur.campaign.errors import CampaignError

    if person.get("system") != "legendes":
        return None
    try:
        info = roller.sheet(campaign, str(person["name"]))
    except CampaignError:
        return None
    return info if info.system == "legendes" else None


def wound_words(wound: str, out: bool, defeated: bool = False) -> str:
    words = {"light": _("light wound"), "grave": _("grave wound")}.get(wound, "")
    if out or defeated:
        gone = _("defeated") if defeated else _("out of the fight")
        words = f"{words}, {gone}" if words else gone
    return words


def default_domain(hero: Any) -> str:
    """The hero's first legendary domain, else secondary, else an ordinary action."""
    for names in (hero.legendary, hero.secondary):
        if names:
            return str(names[0])
    return "ordinary"


def exchange(
    roller: Roller,
    seat: Seat,
    combat: dict[str, Any],
    first: int,
    second: int,
    domain: str = "",
    faces: str = "",
    vs_faces: str = "",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The hero rolls against the opposition (worker thread): the entry, the new tracker."""
    from meneur.systems.legendes import scene
    from meneur.systems.legendes.rules import level_dice
    from meneur.systems.legendes.sheet import Hero, Opposition, Scene

    people = combatants(combat, first, second)
    campaign = seat.table.campaign
    found = [hero_of(roller, campaign, people[i]) for i in (first, second)]
    if (found[0] is None) == (found[1] is None):
        raise RuleError(
            N_("A Légendes exchange sets a hero of the campaign against an opposition.")
        )
    hero_side = 0 if found[0] is not None else 1
    info = found[hero_side]
    hero_index, vs_index = (first, second) if hero_side == 0 else (second, first)
    opponent = people[vs_index]
    for person in (people[hero_index], opponent):
        if person.get("out"):
            raise RuleError(
                N_("'{name}' is already out of the scene (L-14)."), name=str(person["name"])
            )
    level = str(opponent.get("level") or "")
    if not level:
        raise RuleError(
            N_("Give {name} a level of opposition to fight a Légendes hero."),
            name=str(opponent["name"])[:80],
        )
    hero = Hero.model_validate(dict(info.sheet))
    playing = hero.model_copy(deep=True)
    playing.scene = Scene(
        oppositions=[
            Opposition(
                name=str(opponent["name"]),
                level=level,  # type: ignore[arg-type]
                dice=level_dice(level),  # type: ignore[arg-type]
                rolls=int(opponent.get("rolls") or 0),
                wound=str(opponent.get("wounds_state") or "none"),  # type: ignore[arg-type]
            )
        ]
    )
    committed = roller.committed(campaign)
    sources, kind = exchange_sources(committed, faces, vs_faces)
    hero_source, vs_source = (sources[0], sources[1]) if hero_side == 0 else sources[::-1]
    request = scene.RollRequest(
        domain=domain.strip() or default_domain(hero), against=[str(opponent["name"])]
    )
    with holding_dice(roller, campaign):
        after, report = scene.roll(playing, request, hero_source, vs_source)
        for source in {id(s): s for s in sources}.values():
            source.finish()
        assert after.scene is not None
        [pair] = report["pairs"]
        [fought] = after.scene.oppositions
        sheet = hero.model_copy(update={"wound": after.wound, "dead": after.dead})
        outcome = dict(pair)
        outcome.update(
            names=[hero.name, fought.name],
            hero_wound=after.wound,
            hero_defeated=after.scene.hero_defeated,
            hero_dead=after.dead,
            opposition_wound=fought.wound,
            opposition_out=fought.out,
        )
        entry = log_exchange(
            roller,
            seat,
            NewRoll(
                system="legendes",
                kind="test",
                params={"trait": report["domain"], "against": fought.name, "level": level},
                faces=[list(pair["faces"]), list(pair["vs_faces"])],
                outcome=outcome,
                source=kind,
                character=info.name,
            ),
            committed,
            {info.name: sheet.model_dump(mode="json", exclude_none=True)},
        )
    verdict = public_verdict(entry)
    state = fights.normal(combat)
    crowd = [dict(c) for c in state["combatants"]]
    defeated = after.scene.hero_defeated or after.dead
    crowd[hero_index].update(
        wounds=wound_words(after.wound, False, defeated),
        wounds_state=after.wound,
        wounded=after.wound != "none",
        out=defeated,
        last=verdict[:120],
    )
    crowd[vs_index].update(
        wounds=wound_words(fought.wound, fought.out),
        wounds_state=fought.wound,
        wounded=fought.wound != "none",
        out=fought.out,
        rolls=fought.rolls,
        last=verdict[:120],
    )
    state["combatants"] = crowd
    return entry, state
