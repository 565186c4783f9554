"""Input models: what a form or a JSON body may hold (bounded strings, bounded numbers).

Separate from the storage models (``campaign.models``) and the output models
(``web.views``): a field added here never reaches the database by accident.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from meneur.systems.krasses.rules import TestParams as KrassesParams
from meneur.systems.legendes.rules import OpposedParams as LegendesParams
from meneur.web.systems import RollOptions

Small = Field(default=0, ge=-200, le=200)
WIDEST = KrassesParams.MAX_VALUE
"""A difficulty or a modifier is carried up to the widest bound a system declares; the
system's own params type then refuses what is out of its bound, with its message (the
one bound per parameter that the CLI uses too)."""


class OptionsIn(BaseModel):
    """The options of a roll (each system reads those it knows)."""

    model_config = ConfigDict(extra="ignore")

    threshold: int = Field(default=2, ge=1, le=50)
    difficulty: int = Field(default=1, ge=-WIDEST, le=WIDEST)
    modifier: int = Field(default=0, ge=-WIDEST, le=WIDEST)
    blessed: bool = False
    cursed: bool = False
    explode: Literal["needed", "always", "never", "ask"] = "needed"
    level: Literal["commun", "elite", "heroique", "legendaire"] = "elite"
    motivation: bool = False
    push: int = Field(default=0, ge=0, le=3)
    spend: int = Field(default=0, ge=0, le=LegendesParams.MAX_SPEND)
    help: Literal["none", "plus_1", "plus_2", "extra_die"] = "none"

    def options(self) -> RollOptions:
        return RollOptions(
            threshold=self.threshold,
            difficulty=self.difficulty,
            modifier=self.modifier,
            blessed=self.blessed,
            cursed=self.cursed,
            explode=self.explode,
            level=self.level,
            motivation=self.motivation,
            push=self.push,
            spend=self.spend,
            help=self.help,
        )


class RollIn(OptionsIn):
    after: bool = False
    """Obscur: choose the Dépassement after seeing the dice (O-10, with the advisor)."""
    character: str = Field(min_length=1, max_length=80)
    trait: str = Field(min_length=1, max_length=80)
    mode: Literal["public", "gmroll", "blindroll", "selfroll"] = "public"
    faces: str = Field(default="", max_length=400)


class RollForm(RollIn):
    csrf: str = Field(default="", max_length=80)


class NextForm(BaseModel):
    csrf: str = Field(default="", max_length=80)
    choice: Literal["explode", "stop"] = "stop"
    faces: str = Field(default="", max_length=400)


class PushForm(BaseModel):
    csrf: str = Field(default="", max_length=80)
    plan: int = Field(default=0, ge=0, le=200)
    faces: str = Field(default="", max_length=400)


class JoinForm(BaseModel):
    name: str = Field(min_length=1, max_length=80)


class CharacterForm(BaseModel):
    """Pick a character of the campaign, or create one (fields of the system's form)."""

    model_config = ConfigDict(extra="allow")

    csrf: str = Field(default="", max_length=80)
    action: Literal["pick", "create"] = "create"
    character: str = Field(default="", max_length=80)
    system: str = Field(default="tunnels", max_length=40)
    name: str = Field(default="", max_length=80)
    free: bool = False
    """The GM's new character is left free for a player to pick (else it is an NPC)."""


class SeatsForm(BaseModel):
    """The GM's management of the table's seats, invite and rules."""

    csrf: str = Field(default="", max_length=80)
    action: Literal[
        "kick", "renew", "assign", "invite", "lock", "unlock", "physical", "no_physical"
    ]
    player: int = Field(default=0, ge=0, le=2_000_000_000)
    character: str = Field(default="", max_length=80)
    holder: str = Field(default="gm", pattern=r"^(gm|free|[0-9]{1,10})$")
    """Who gets ``character``: a seat's number, ``gm`` (a non-player character) or ``free``."""


class CsrfForm(BaseModel):
    csrf: str = Field(default="", max_length=80)


class CombatForm(BaseModel):
    csrf: str = Field(default="", max_length=80)
    action: Literal["add", "remove", "next", "reset", "adjust", "exchange", "shot"] = "next"
    name: str = Field(default="", max_length=80)
    initiative: str = Field(default="", max_length=4)
    """Empty: an Obscur character's Rang d'Action (O-11), else 0."""
    health: str = Field(default="", max_length=6)
    """Endurance, Vie or MR; empty: a Tunnels character's current Endurance (else 10)."""
    index: int = Field(default=0, ge=0, le=100)
    other: int = Field(default=1, ge=0, le=100)
    delta: int = Field(default=0, ge=-1000, le=1000)
    wounds: str = Field(default="", max_length=120)
    level: Literal["", "commun", "elite", "heroique", "legendaire"] = ""
    """A Légendes opposition's level (L-3), for a combatant without a sheet."""
    trait: str = Field(default="", max_length=80)
    """The domain a Légendes hero fights with (empty: their first legendary domain)."""
    faces: str = Field(default="", max_length=400)
    """An exchange with physical dice: the first fighter's faces (then ``vs_faces``)."""
    vs_faces: str = Field(default="", max_length=400)
    speed: str = Field(default="immobile", max_length=40)
    """An Obscur shot (O-14): the target's speed, cover, the distance (checked by the rules)."""
    cover: str = Field(default="aucune", max_length=40)
    distance: str = Field(default="courte", max_length=40)
    aim: int = Field(default=0, ge=-1000, le=1000)
    """Rounds aimed (O-21): the shot's own params refuse what the CLI refuses."""
    gardien_only: bool = False
    dodge: bool = False
    third: int = Field(default=-1, ge=-1, le=100)
    """Légendes (L-10): a third combatant (-1: none), beside the first or each against each."""
    each_other: bool = False
    """Légendes (L-10): the three combatants fight one another."""
    partial: str = Field(default="", max_length=20)
    """Légendes (L-13): what a partial victory does, wound or doubt (empty: a wound)."""
    take: str = Field(default="", max_length=20)
    """Légendes (L-8): the lesser band the winner takes (empty: what the dice allow)."""
