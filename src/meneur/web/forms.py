"""Input models: what a form or a JSON body may hold (bounded strings, bounded numbers).

Separate from the storage models (``campaign.models``) and the output models
(``web.views``): a field added here never reaches the database by accident.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from meneur.errors import UsageError
from meneur.model_errors import refusal
from meneur.text import one_line
from meneur.web.systems import RollOptions
from meneur.whole import MAX_DIGITS, is_whole, parse_whole


def _carried(value: Any) -> Any:
    """A number the form only carries, read by meneur's one rule for a typed number
    (:func:`meneur.whole.parse_whole`): one of thousands of digits is refused by its
    length, as every form and option says it (« 5000 chiffres, c'est trop long pour un
    nombre ici »), never as no number at all. Its bounds are the system's, declared once
    on its params type, which refuses what is past them with its own message, the CLI's
    too (« Un seuil vaut au plus 1000, pas 5000 »): never a bound of the form's own.
    Anything else (``x``, ``3.5``) is left to pydantic's refusal of a number."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -(10**MAX_DIGITS) < value < 10**MAX_DIGITS:
            return value
        value = str(value)  # a JSON number longer than a typed one: refused by its length
    if isinstance(value, str) and is_whole(value):
        try:
            return parse_whole(value)
        except UsageError as error:
            raise refusal(error.message, **error.params) from None
    return value


Carried = Annotated[int, BeforeValidator(_carried)]
"""A roll's number as the form carries it to the system's params (:func:`_carried`)."""


class OptionsIn(BaseModel):
    """The options of a roll (each system reads those it knows)."""

    model_config = ConfigDict(extra="ignore")

    threshold: Carried = 2
    difficulty: Carried = 1
    modifier: Carried = 0
    blessed: bool = False
    cursed: bool = False
    explode: Literal["needed", "always", "never", "ask"] = "needed"
    level: Literal["commun", "elite", "heroique", "legendaire"] = "elite"
    motivation: bool = False
    push: int = Field(default=0, ge=0, le=3)
    spend: Carried = 0
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
            given=frozenset(self.model_fields_set),
        )


class RollIn(OptionsIn):
    after: bool = False
    """Choose what to buy after seeing the dice (a waiting roll, where the system has one)."""
    character: str = Field(min_length=1, max_length=80)
    trait: str = Field(min_length=1, max_length=80)
    mode: Literal["public", "gmroll", "blindroll", "selfroll"] = "public"
    faces: str = Field(default="", max_length=400)


class RollForm(RollIn):
    csrf: str = Field(default="", max_length=80)


class JoinForm(BaseModel):
    name: str = Field(min_length=1, max_length=80)


class CharacterForm(BaseModel):
    """Pick a character of the campaign, or create one (fields of the system's form)."""

    model_config = ConfigDict(extra="allow")

    csrf: str = Field(default="", max_length=80)
    action: Literal["pick", "create"] = "create"
    character: str = Field(default="", max_length=80)
    system: str = Field(default="", max_length=40)
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
    """The tracker's form; a roll between combatants also carries its system's own fields,
    which that system's adapter validates."""

    csrf: str = Field(default="", max_length=80)
    action: str = Field(default="next", pattern=r"^[a-z_]{1,20}$")
    name: Annotated[str, AfterValidator(one_line)] = Field(default="", max_length=80)
    initiative: str = Field(default="", max_length=4)
    """Empty: what the character's sheet gives (its system says), else 0."""
    health: str = Field(default="", max_length=6)
    """Health or rating; empty: what the character's sheet gives (else 10)."""
    index: int = Field(default=0, ge=0, le=100)
    other: int = Field(default=1, ge=0, le=100)
    delta: int = Field(default=0, ge=-1000, le=1000)
    wounds: Annotated[str, AfterValidator(one_line)] = Field(default="", max_length=120)
    level: str = Field(default="", pattern=r"^[a-z]{0,20}$")
    """A level shown instead of health, for an opposition without a sheet."""
    combatant: str = Field(default="", max_length=80)
    """The name of the combatant a row's -1/+1 or × showed (``combat._present``)."""
