"""A Légendes opposed roll from the combat tracker (L-6 to L-8, L-10, L-13, L-14), logged.

Two or three combatants of the tracker roll: heroes of the campaign (their stored
sheets) and oppositions (combatants without a sheet, given a level: commun, élite,
héroïque, légendaire). With a third, either the first and the third attack the second
(« deux personnages s'attaquent à un troisième ») or, each against each, the three fight
one another (« trois personnages se combattent les uns les autres »): everyone rolls
once and every pair is compared (L-10). The roll is
:func:`meneur.systems.legendes.scene.roll`, the rules of ``meneur scene legendes roll``,
run on a copy of one hero (the first named) whose scene holds the others — the other
heroes as characters, with their own wounds — and the wounds and roll counts the tracker
keeps: the wounds slow everyone (L-13), a *victoire partielle* wounds the loser (light,
then grave) or, asked for a social contest, makes them doubt; the winner may take less
(L-8); a non-heroic opposition is out after its first wound and anyone is out after a
*victoire définitive* (L-14). Every hero's stored sheet gets its new wound with the log
entry (one transaction); a hero's own scene, if the command line runs one, is left as it
was. The tracker shows each side's wound, who is out, and its own result.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from meneur.campaign.records import NewRoll
from meneur.errors import RuleError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.web import combat as fights
from meneur.web.exchange import combatants, exchange_sources, log_exchange
from meneur.web.rolls import Roller
from meneur.web.tables import Seat


class OpposeFields(BaseModel):
    """The tracker form's fields of an opposed roll of the scene."""

    trait: str = Field(default="", max_length=80)
    """The domain the hero fights with (empty: their first legendary domain)."""
    faces: str = Field(default="", max_length=400)
    vs_faces: str = Field(default="", max_length=400)
    third: int = Field(default=-1, ge=-1, le=100)
    """A third combatant (-1: none), beside the first or each against each (L-10)."""
    each_other: bool = False
    """The three combatants fight one another (L-10)."""
    partial: str = Field(default="", max_length=20)
    """What a partial victory does, wound or doubt (L-13; empty: a wound)."""
    take: str = Field(default="", max_length=20)
    """The lesser band the winner takes (L-8; empty: what the dice allow)."""


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


def mirrored(pair: dict[str, Any]) -> dict[str, Any]:
    """A pair told from its opposition's side: its « Échec » is the other's « Réussite »."""
    return {
        **pair,
        "total": pair["opposition_total"],
        "opposition_total": pair["total"],
        "winner": {"pc": "opposition", "opposition": "pc"}.get(pair["winner"]),
    }


def faced(pairs: list[dict[str, Any]], name: str, lead: str) -> list[tuple[str, dict[str, Any]]]:
    """Each opponent ``name`` faced in the roll, with its pair told from ``name``'s side
    (L-10: every pair is compared on its own)."""
    found = []
    for pair in pairs:
        side = pair["side"] or lead
        if side == name:
            found.append((str(pair["opposition"]), pair))
        elif pair["opposition"] == name:
            found.append((str(side), mirrored(pair)))
    return found


def own_words(pairs: list[dict[str, Any]], name: str, lead: str) -> str:
    """``name``'s result against every opponent it faced, told from its own side (L-10:
    each pair is compared on its own; the log's verdict is the lead hero's, whose
    « Échec » is the other side's « Réussite »): the bare result when it faced one,
    « against X: ... ; against Y: ... » when it faced several."""
    from meneur.systems.legendes.web.adapter import LegendesWeb

    words = [
        (foe, LegendesWeb().pair_verdict(pair).words) for foe, pair in faced(pairs, name, lead)
    ]
    if len(words) == 1:
        return words[0][1]
    return " ; ".join(
        _("against {name}: {result}").format(name=foe, result=result) for foe, result in words
    )


def default_domain(hero: Any) -> str:
    """The hero's first legendary domain, else secondary, else an ordinary action."""
    for names in (hero.legendary, hero.secondary):
        if names:
            return str(names[0])
    return "ordinary"


def _participant(roller: Roller, campaign: str, person: dict[str, Any]) -> Any:
    """The opposition or character a combatant is in the playing hero's scene."""
    from meneur.systems.legendes.rules import level_dice
    from meneur.systems.legendes.scene import domain_of
    from meneur.systems.legendes.sheet import Hero, Opposition

    if person.get("out"):
        raise RuleError(
            N_("'{name}' is already out of the scene (L-14)."), name=str(person["name"])
        )
    rolls = int(person.get("rolls") or 0)
    info = hero_of(roller, campaign, person)
    if info is not None:  # another hero: a character, with its own domain and wound (L-10)
        hero = Hero.model_validate(dict(info.sheet))
        kind, _name = domain_of(hero, default_domain(hero))
        from meneur.systems.legendes.rules import domain_dice

        return Opposition(
            name=hero.name, character=True, dice=domain_dice(kind), rolls=rolls, wound=hero.wound
        )
    level = str(person.get("level") or "")
    if not level:
        raise RuleError(
            N_("Give {name} a level of opposition to fight a Légendes hero."),
            name=str(person["name"])[:80],
        )
    return Opposition(
        name=str(person["name"]),
        level=level,  # type: ignore[arg-type]
        dice=level_dice(level),  # type: ignore[arg-type]
        rolls=rolls,
        wound=str(person.get("wounds_state") or "none"),  # type: ignore[arg-type]
    )


def exchange(
    roller: Roller,
    seat: Seat,
    combat: dict[str, Any],
    first: int,
    second: int,
    domain: str = "",
    faces: str = "",
    vs_faces: str = "",
    third: int = -1,
    each_other: bool = False,
    partial: str = "",
    take: str = "",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The combatants roll, compared two by two (worker thread): the entry, the new tracker.

    ``third`` (-1: none) joins the first against the second, or, ``each_other``, the three
    fight one another (L-10). ``partial`` (wound or doubt, L-13) and ``take`` (a lesser
    band, L-8) are read by the same parsers as the command line.
    """
    from meneur.campaign.replay import STEPS, step
    from meneur.systems.legendes import scene
    from meneur.systems.legendes.procedures import SceneRoll, SceneRollParams
    from meneur.systems.legendes.rules import parse_band, parse_partial
    from meneur.systems.legendes.sheet import Hero, Scene

    people = combatants(combat, first, second)
    chosen = [first, second]
    if third >= 0:
        if third >= len(people) or third in chosen:
            raise RuleError(N_("Choose three different combatants."))
        chosen.append(third)
    elif each_other:
        raise RuleError(N_("Each against each needs a third combatant (L-10)."))
    asked_partial = parse_partial(partial) if partial.strip() else None
    asked_take = parse_band(take) if take.strip() else None
    campaign = seat.table.campaign
    found = {i: hero_of(roller, campaign, people[i]) for i in chosen}
    heroes = [i for i in chosen if found[i] is not None]
    if not heroes:
        raise RuleError(
            N_("A Légendes exchange sets a hero of the campaign against an opposition.")
        )
    lead = heroes[0]
    info = found[lead]
    if people[lead].get("out"):
        raise RuleError(
            N_("'{name}' is already out of the scene (L-14)."), name=str(people[lead]["name"])
        )
    others = {i: _participant(roller, campaign, people[i]) for i in chosen if i != lead}
    attackers = [first, *chosen[2:]]
    if each_other or lead == second:
        against, allies = [i for i in chosen if i != lead], []
    else:  # the lead hero attacks the second, beside the third if any
        against, allies = [second], [i for i in attackers if i != lead]
    hero = Hero.model_validate(dict(info.sheet))
    named = domain.strip() or default_domain(hero)
    scene.check_domain(hero, named)  # a typo is refused before any die, not rolled with 0
    playing = hero.model_copy(deep=True)
    waiting = list(hero.scene.pending_help) if hero.scene is not None else []
    playing.scene = Scene(oppositions=list(others.values()), pending_help=waiting)  # L-11
    committed = roller.committed(campaign)
    sources, kind = exchange_sources(committed, faces, vs_faces)
    lead_first = chosen.index(lead) == 0
    hero_source, vs_source = (sources[0], sources[1]) if lead_first else sources[::-1]
    request = scene.RollRequest(
        domain=named,
        against=[others[i].name for i in against],
        allies=[others[i].name for i in allies],
        each_other=each_other,
        take=asked_take,
        partial=asked_partial,
    )
    procedure = SceneRoll()
    rolled = procedure.roll(SceneRollParams(playing, request), [hero_source, vs_source])
    after, report = rolled.outcome.hero, rolled.outcome.report
    for source in {id(s): s for s in sources}.values():
        source.finish()
    assert after.scene is not None
    fought = {i: after.scene.oppositions[n] for n, i in enumerate(others)}
    pair = report["pairs"][0]
    kept: dict[str, Any] = {"wound": after.wound, "dead": after.dead}
    if waiting:  # the help waiting for this hero's next roll is spent by this one (L-11)
        kept["scene"] = hero.scene.model_copy(update={"pending_help": []})  # type: ignore[union-attr]
    sheets = {info.name: hero.model_copy(update=kept)}
    for i, person in fought.items():
        if person.character:
            other = Hero.model_validate(dict(found[i].sheet))
            sheets[found[i].name] = other.model_copy(update={"wound": person.wound})
    outcome = procedure.table_json(rolled.params, rolled.outcome)
    outcome.update(
        names=[hero.name, pair["opposition"]],
        opposition_wound=fought[against[0]].wound,
        opposition_out=fought[against[0]].out,
    )
    side_faces = [*report["faces"], *(f for ally in report["allies"] for f in ally["faces"])]
    vs_faces_all = [f for p in report["pairs"] if p["side"] is None for f in p["vs_faces"]]
    entry = log_exchange(
        roller,
        seat,
        NewRoll(
            system="legendes",
            kind="test",
            params={
                "trait": report["domain"],
                "against": [others[i].name for i in against],
                "with": [others[i].name for i in allies],
                "each_other": each_other,
                "level": others[against[0]].level,
                "partial": report["partial"],
                "take": asked_take,
                STEPS: [step(procedure, rolled)],
            },
            faces=[side_faces, vs_faces_all],
            outcome=outcome,
            source=kind,
            character=info.name,
        ),
        committed,
        {name: sheet.model_dump(mode="json", exclude_none=True) for name, sheet in sheets.items()},
    )
    state = fights.normal(combat)
    crowd = [dict(c) for c in state["combatants"]]
    defeated = after.scene.hero_defeated or after.dead
    crowd[lead].update(
        wounds=wound_words(after.wound, False, defeated),
        wounds_state=after.wound,
        wounded=after.wound != "none",
        out=defeated,
        last=own_words(report["pairs"], hero.name, hero.name)[: fights.LAST],
    )
    for i, person in fought.items():
        crowd[i].update(
            wounds=wound_words(person.wound, person.out),
            wounds_state=person.wound,
            wounded=person.wound != "none",
            out=person.out,
            rolls=person.rolls,
            last=own_words(report["pairs"], person.name, hero.name)[: fights.LAST],
        )
    state["combatants"] = crowd
    return entry, state
