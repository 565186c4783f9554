"""Errors of the storage layer, in meneur's one error tree (one clear line, exit 2)."""

from __future__ import annotations

from typing import Any

from meneur.errors import MeneurError
from meneur.locale import N_


class StorageError(MeneurError):
    """The database cannot be opened, is from a newer meneur, or refuses a write."""


class CampaignError(MeneurError):
    """A campaign or a character is unknown, already exists, or is misnamed."""


class VerifyError(MeneurError):
    """An exported log does not verify: a broken link, an altered face, a wrong seed."""


class NoCampaignYet(CampaignError):
    """No campaign exists and none was named: a fresh database. A command that only
    lists reads it as empty; one that needs a campaign says how to make one."""

    def __init__(
        self,
        message: str = N_("No campaign yet: create one with 'meneur campaign new NAME'."),
        /,
        **params: Any,
    ) -> None:
        super().__init__(message, **params)


class DiceConflict(CampaignError):
    """The committed dice of a roll were drawn by another roll first, or the session closed:
    the roll is drawn again from the session as it now is."""


class SheetConflict(CampaignError):
    """A sheet changed between the moment a roll read it and the moment it pays from it
    (another process spent its points): the roll is made again on the sheet as it is."""
