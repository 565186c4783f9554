"""The hero sheet (pydantic) and the scene state that lives in it between commands.

A scene spans several invocations of ``meneur scene legendes ...``, so what lasts during
a scene (roll count per opposition for L-9, helpers already used for L-11, help waiting
for the next roll, who is out for L-14) is saved in the sheet, under ``scene``. The
hero's own lasting state (wound, motivation points, death) is saved beside it.

Reading validates everything; writing goes through :func:`meneur.files.write_sheet`
(atomic), and commands write only after every check passed, so a refused command leaves
the sheet exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from meneur.errors import SheetError, UsageError
from meneur.files import read_sheet, write_sheet
from meneur.locale import N_
from meneur.model_errors import first_problem, refusal
from meneur.systems.legendes.rules import (
    DOMAIN_LENGTH,
    Effect,
    Level,
    OpposedParams,
    SceneKind,
    Wound,
)
from meneur.text import NAME_LENGTH, bounded_name, one_line, plain_name

Name = Field(min_length=1, max_length=NAME_LENGTH)
PlainName = Annotated[str, AfterValidator(plain_name)]
"""A name shown in the terminal: no square brackets (see :mod:`meneur.text`)."""
OneLine = Annotated[str, AfterValidator(one_line)]
"""A sentence shown on one line (a regret, a motivation): no tab, line break or other
control character."""


WEAKNESS_LENGTH = 300
"""The longest weakness (L-1): as long as a regret or a motivation."""
DomainName = Annotated[
    str,
    AfterValidator(bounded_name(DOMAIN_LENGTH, N_("a domain name has 1 to {limit} characters"))),
]
"""A domain on a sheet (L-1), held to the rule of a typed one (``scene roll --domain``):
a domain on a sheet is rolled by typing its name, so an empty or endless one could
never be rolled."""
Weakness = Annotated[
    str, AfterValidator(bounded_name(WEAKNESS_LENGTH, N_("a weakness has 1 to {limit} characters")))
]
"""A weakness on a sheet (L-1): a short phrase on one line, not blank."""
MAX_OPPOSITIONS = 200
MAX_LOG = 500


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Opposition(_Model):
    """One participant of the scene besides the hero: an NPC or a group counted as one
    (L-3, L-4), or another character — a player character or a hero — who rolls the dice
    of its domain (L-1) and, being a hero, is neither swept (L-5) nor out after a wound
    (L-14): in a scene of several heroes every pair is compared (L-10)."""

    name: PlainName = Name
    level: Level | None = None
    """The opposition's level (L-3); None for a character."""
    character: bool = False
    dice: int = Field(ge=0, le=OpposedParams.MAX_DICE)
    group: bool = False
    rolls: int = Field(default=0, ge=0, le=10_000)
    wound: Wound = "none"
    keeps_fighting: bool | None = None
    """None: the L-14 default (non-heroic NPCs stop at their first wound)."""
    out: bool = False

    @model_validator(mode="after")
    def _level_or_character(self) -> Opposition:
        if (self.level is None) != self.character:
            raise refusal(N_("an opposition has a level, a character has none"))
        return self


class PendingHelp(_Model):
    """Help won by a helper, waiting for the hero's next roll in the scene (L-11)."""

    helper: PlainName = Name
    effect: Effect
    extra_dice: int = Field(ge=0, le=5)
    bonus: int = Field(ge=0, le=5)


class Scene(_Model):
    """What lasts during one scene."""

    title: OneLine = Field(default="", max_length=200)
    kind: SceneKind = "physical"
    """L-13: in a social scene a partial victory makes the other doubt instead of wounding."""
    oppositions: list[Opposition] = Field(default_factory=list, max_length=MAX_OPPOSITIONS)
    helpers_used: list[PlainName] = Field(default_factory=list, max_length=1000)
    pending_help: list[PendingHelp] = Field(default_factory=list, max_length=50)
    gave_help: list[PlainName] = Field(default_factory=list, max_length=50)
    """Whom this hero helped in this scene (L-11: once per helper per scene, whoever the
    helped one is; the web table keeps it on the helper's sheet)."""
    hero_defeated: bool = False
    log: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_LOG)


class Hero(_Model):
    """A Légendes hero (L-1, L-6, L-12, L-13, L-14)."""

    system: Literal["legendes"] = "legendes"
    name: PlainName = Name
    legendary: list[DomainName] = Field(default_factory=list, max_length=20)
    """Legendary domains (3 dice by default, L-1)."""
    secondary: list[DomainName] = Field(default_factory=list, max_length=20)
    """Secondary domains (2 dice by default, L-1)."""
    weaknesses: list[Weakness] = Field(default_factory=list, max_length=20)
    regret: OneLine | None = Field(default=None, max_length=300)
    blocage: OneLine | None = Field(default=None, max_length=300)
    motivation: OneLine = Field(default="", max_length=300)
    motivation_points: int = Field(default=0, ge=0, le=99)
    wound: Wound = "none"
    dead: bool = False
    scene: Scene | None = None


def load_hero(path: Path) -> Hero:
    """The hero in ``path``; a sheet that breaks the model is a SheetError naming the field."""
    return hero_from(read_sheet(path), str(path))


def hero_from(raw: dict[str, Any], where: str) -> Hero:
    """``raw`` as a hero, or one :class:`SheetError` naming ``where`` and the first fault."""
    try:
        return Hero.model_validate(raw, strict=True)
    except ValidationError as error:
        from meneur.systems.legendes.system import SYSTEM

        problem = first_problem(error)
        raise SheetError(
            N_("The sheet {path} is not a Légendes hero: {where}: {reason}."),
            path=where,
            where=SYSTEM.field_name(problem.where),
            reason=problem.reason,
        ) from None


@contextmanager
def typed_refusal() -> Iterator[None]:
    """What a scene step builds from what the user typed (an opposition's name, a
    scene's title) and a model refuses, as one :class:`UsageError` naming the field: a
    title with a line break ended in a traceback."""
    try:
        yield
    except ValidationError as error:
        problem = first_problem(error)
        raise UsageError(
            N_("{where}: {reason}."), where=problem.where, reason=problem.reason
        ) from None


def save_hero(path: Path, hero: Hero) -> None:
    """Write the hero back, atomically, as JSON (a TOML sheet cannot be rewritten).

    Read back through the model first: a step that changed the hero in place (a list
    appended to) is not validated, and a sheet written with a name the model refuses
    would load no more (a helper's name with a line break did)."""
    check_writable(path)
    data = hero.model_dump(mode="json", exclude_none=True)
    hero_from(data, str(path))
    write_sheet(path, data)


def check_writable(path: Path) -> None:
    """Refuse a TOML sheet before anything is rolled."""
    if path.suffix.lower() == ".toml":
        raise SheetError(N_("Scenes save to JSON sheets; {path} is TOML."), path=str(path))
