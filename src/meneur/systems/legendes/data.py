"""The numbers of the Légendes rules, read from ``data/rules.toml`` and validated once.

They live in a data file (not in the logic) so that a table can change a reading of the
text (the inferred dice of a domain, the band cut-offs, help once per helper or per
scene) without touching code; pydantic refuses a malformed override with one clear line.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from meneur.errors import SheetError
from meneur.files import load_data
from meneur.locale import N_

Small = Field(ge=0, le=20)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Domains(_Strict):
    legendary: int = Small
    secondary: int = Small
    ordinary: int = Small


class Levels(_Strict):
    commun: int = Small
    elite: int = Small
    heroique: int = Small
    legendaire: int = Small


class Groups(_Strict):
    size: int = Field(ge=2, le=1000)


class Resolution(_Strict):
    definitive: int = Field(ge=1, le=100)
    partial: int = Field(ge=1, le=100)
    advantage: int = Field(ge=1, le=100)
    cosmetic: int = Field(ge=1, le=100)
    circumstances: tuple[int, ...]

    @model_validator(mode="after")
    def _ordered(self) -> Resolution:
        if not self.definitive > self.partial > self.advantage > self.cosmetic:
            raise ValueError("bands must be ordered: definitive > partial > advantage > cosmetic")
        if not self.circumstances or any(abs(c) > 20 for c in self.circumstances):
            raise ValueError("circumstances: a short list of small numbers")
        return self


class Help(_Strict):
    extra_die: int = Field(ge=0, le=100)
    plus_2: int = Field(ge=0, le=100)
    plus_1: int = Field(ge=0, le=100)
    cosmetic: int = Field(ge=0, le=100)
    once_per: Literal["helper", "scene"]

    @model_validator(mode="after")
    def _ordered(self) -> Help:
        if not self.extra_die > self.plus_2 > self.plus_1 > self.cosmetic:
            raise ValueError("help bands must be ordered: extra_die > plus_2 > plus_1 > cosmetic")
        return self


class Motivation(_Strict):
    bonus: int = Field(ge=0, le=20)
    dice_per_point: int = Field(ge=0, le=5)


class Wounds(_Strict):
    light_penalty: int = Field(ge=0, le=20)
    grave_dice: int = Field(ge=0, le=5)


class RulesData(_Strict):
    """Everything in ``rules.toml``."""

    domains: Domains
    levels: Levels
    groups: Groups
    resolution: Resolution
    help: Help
    motivation: Motivation
    wounds: Wounds


@cache
def rules_data() -> RulesData:
    """The rule numbers (the user's override if any), validated; a bad file is a SheetError."""
    raw = load_data("legendes", "rules")
    try:
        return RulesData.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise SheetError(
            N_("The Légendes rule data is invalid at {where}: {reason}."),
            where=where,
            reason=first["msg"],
        ) from None
