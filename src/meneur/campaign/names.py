"""Names of campaigns and characters: checked once, matched like players type them.

A name is a short label: at most :data:`NAME_LENGTH` characters, no control characters.
Markup (``[bold]``, ``<script>``) is allowed as text and always shown escaped (the CLI
prints names with markup off). Two names that fold alike (case, accents, spaces) are
the same name.
"""

from __future__ import annotations

import unicodedata

from meneur.campaign.errors import CampaignError
from meneur.locale import N_, gettext
from meneur.text import NAME_LENGTH, fold, has_control


def normalised(name: str) -> str:
    """A name as it is stored and compared: NFC, trimmed."""
    return unicodedata.normalize("NFC", name).strip()


def clean_name(name: object, what: str) -> str:
    """``name`` normalised (NFC, trimmed), or :class:`CampaignError` saying what is wrong.

    ``what`` is a message id naming the thing (``N_("character")``): it is translated
    when the error is shown.
    """
    what = gettext(what)
    if not isinstance(name, str):
        raise CampaignError(N_("A {what} name must be text."), what=what)
    text = normalised(name)
    if not text:
        raise CampaignError(N_("A {what} name cannot be empty."), what=what)
    if len(text) > NAME_LENGTH:
        raise CampaignError(
            N_("A {what} name is at most {limit} characters long, not {length}."),
            what=what,
            limit=NAME_LENGTH,
            length=len(text),
        )
    if any("\udc80" <= c <= "\udcff" for c in text):  # bytes typed that are not UTF-8
        raise CampaignError(N_("A {what} name is not valid UTF-8: type it again."), what=what)
    if has_control(text):
        raise CampaignError(
            N_("A {what} name cannot hold control characters or line breaks."), what=what
        )
    if not fold(text):
        raise CampaignError(N_("A {what} name needs at least one letter or digit."), what=what)
    return text


def name_key(name: str) -> str:
    return fold(name)
