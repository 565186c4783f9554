"""An Obscur melee round from the combat tracker (O-11 to O-13, O-28, O-31), logged.

Two Obscur characters of the campaign fight one round of
:func:`meneur.systems.obscur.combat.fight_with` (``max_rounds=1``): the Rang d'Action
decides who strikes first (O-11), each splits its PA between Attaque and Parade (O-12,
the sheet's strategy), a blow that beats the Parade hits a zone and deals its damage
(O-13), the wounded test their shock (O-28), Vie at 0 is a coma (O-31). Nothing here
re-implements a rule: the rules module runs on the two sheets and its bodies are written
back with :func:`meneur.systems.obscur.state.save_body` (in memory: the sheets are stored
with the log entry, in one transaction). The dice are committed when a game session is
open, else secure; the GM may type the faces of physical dice, one line per fighter.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

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
from meneur.web.rolls import Roller
from meneur.web.tables import Seat


def obscur_character(roller: Roller, campaign: str, person: dict[str, Any]) -> Any:
    """The Obscur character behind a combatant (its sheet validated), or a clear error."""
    from meneur.campaign.errors import CampaignError
    from meneur.systems.obscur.sheet import character_from

    name = str(person["name"])
    try:
        info = roller.sheet(campaign, name)
    except CampaignError:
        info = None
    if info is None or info.system != "obscur":
        raise RuleError(
            N_("An Obscur exchange needs two Obscur characters of the campaign, not {name}."),
            name=name[:80],
        )
    return info.name, character_from(dict(info.sheet), info.name)


def wound_words(body: Any) -> str:
    """What the tracker shows beside Vie: coma or death (O-31), else the open wounds."""
    if body.dead:
        return _("dead")
    if body.coma:
        return _("coma")
    points = [str(w.points) for w in body.wounds if w.points > 0]
    return _("wounds: {points}").format(points=" + ".join(points)) if points else ""


def exchange(
    roller: Roller,
    seat: Seat,
    combat: dict[str, Any],
    first: int,
    second: int,
    faces: str = "",
    vs_faces: str = "",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one melee round between two Obscur combatants (worker thread)."""
    from meneur.campaign.replay import STEPS, step
    from meneur.systems.obscur.combat import FightParams, fighter_of, final_bodies
    from meneur.systems.obscur.procedures import ObscurFight
    from meneur.systems.obscur.state import body_of, save_body

    people = combatants(combat, first, second)
    campaign = seat.table.campaign
    name_a, char_a = obscur_character(roller, campaign, people[first])
    name_b, char_b = obscur_character(roller, campaign, people[second])
    params = FightParams(
        fighter_of(char_a), fighter_of(char_b), body_of(char_a), body_of(char_b), max_rounds=1
    )
    committed = roller.committed(campaign)
    sources, kind = exchange_sources(committed, faces, vs_faces)
    fight = ObscurFight()
    rolled = fight.roll(params, sources)
    outcome = rolled.outcome
    body_a, body_b = final_bodies(params, outcome)
    sheets = {
        name_a: save_body(char_a, body_a).raw,
        name_b: save_body(char_b, body_b).raw,
    }
    result: dict[str, Any] = {**fight.round_json(params, outcome), "names": [name_a, name_b]}
    entry = log_exchange(
        roller,
        seat,
        NewRoll(
            system="obscur",
            kind="melee",
            params={"a": name_a, "b": name_b, "rounds": 1, STEPS: [step(fight, rolled)]},
            faces=[list(stream) for stream in rolled.faces],
            outcome=result,
            source=kind,
            who=f"{name_a} / {name_b}"[:80],
        ),
        committed,
        sheets,
    )
    verdict = public_verdict(entry)
    updated = combat
    for index, body in ((first, body_a), (second, body_b)):
        updated = fights.set_health(
            updated, index, body.vie, wound_words(body), bool(body.wounds) or body.coma, verdict
        )
    return entry, updated


def shoot(
    roller: Roller,
    seat: Seat,
    combat: dict[str, Any],
    first: int,
    second: int,
    options: dict[str, Any],
    faces: str = "",
    vs_faces: str = "",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One shot from the first combatant at the second (O-14, O-15, O-21), logged: the
    same :func:`meneur.systems.obscur.combat.shot_of` as ``fight obscur --shoot``, so the
    same options are refused with the same message; the target's state is written back."""
    from meneur.campaign.replay import STEPS, step
    from meneur.systems.obscur.combat import dice_of, shot_of
    from meneur.systems.obscur.procedures import ObscurShot, ShotParams
    from meneur.systems.obscur.state import body_of, require_standing, save_body

    people = combatants(combat, first, second)
    campaign = seat.table.campaign
    name_a, char_a = obscur_character(roller, campaign, people[first])
    name_b, char_b = obscur_character(roller, campaign, people[second])
    require_standing(char_a, body_of(char_a))
    params = shot_of(char_a, char_b, **options)
    shot = ShotParams(params, body_of(char_b), dice_of(char_b, "Choc"))
    committed = roller.committed(campaign)
    sources, kind = exchange_sources(committed, faces, vs_faces)

    shooting = ObscurShot()
    rolled = shooting.roll(shot, sources)
    result, body_b = rolled.outcome.result, rolled.outcome.target
    sheets = {name_b: save_body(char_b, body_b).raw}
    if result["fumble"]:  # O-3: the shooter's Maladresse earns Vécu (O-40)
        from meneur.systems.obscur.tables import rule_tables

        shooter = body_of(char_a)
        shooter.vecu += rule_tables().experience.fumble_reward
        sheets[name_a] = save_body(char_a, shooter).raw
    outcome: dict[str, Any] = {
        "system": "obscur",
        "rule": result["rule"],
        "names": [name_a, name_b],
        "shot": result,
        "weapon": params.weapon.name,
    }
    entry = log_exchange(
        roller,
        seat,
        NewRoll(
            system="obscur",
            kind="shot",
            params={"a": name_a, "b": name_b, **options, STEPS: [step(shooting, rolled)]},
            faces=[list(stream) for stream in rolled.faces],
            outcome=outcome,
            source=kind,
            who=f"{name_a} / {name_b}"[:80],
        ),
        committed,
        sheets,
    )
    verdict = public_verdict(entry)
    updated = fights.set_health(
        combat, second, body_b.vie, wound_words(body_b), bool(body_b.wounds) or body_b.coma, verdict
    )
    return entry, updated


class ShotFields(BaseModel):
    """The tracker form's fields of a shot (O-14): the target's speed, cover, the distance
    and the rounds aimed (O-21), checked by the shot's own params."""

    speed: str = Field(default="immobile", max_length=40)
    cover: str = Field(default="aucune", max_length=40)
    distance: str = Field(default="courte", max_length=40)
    aim: int = Field(default=0, ge=-1000, le=1000)
    gardien_only: bool = False
    dodge: bool = False
    faces: str = Field(default="", max_length=400)
    vs_faces: str = Field(default="", max_length=400)

    def params(self) -> dict[str, Any]:
        return {
            "speed": self.speed,
            "cover": self.cover,
            "distance": self.distance,
            "aim_rounds": self.aim,
            "gardien_only": self.gardien_only,
            "dodge": self.dodge,
        }
