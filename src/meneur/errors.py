"""One error tree for everything a user can get wrong.

Every error carries an English message id (marked for translation) and its parameters;
``str(error)`` renders it in the current language, so the CLI and the web table can show
one clear line to the user without knowing which module raised it.
"""

from __future__ import annotations

from typing import Any

from meneur.locale import fill, gettext

OWN_WORDS = frozenset(
    {"reason", "detail", "known", "allowed", "expected", "formats", "sources", "traits"}
    | {"message", "problem", "what", "flags"}
)
"""Parameters that carry meneur's own words (a translated reason, the list of known
names), not a value the user typed: never cut to :data:`meneur.text.ECHO_LENGTH`, only
bounded by :data:`OWN_LENGTH` (a reason may itself quote a library's text)."""
OWN_LENGTH = 400
PLACES = frozenset({"path", "url", "source"})
"""A path, a URL, a sheet's source: shown longer, cut at the start (the end names the
file)."""
PLACE_LENGTH = 120
FIELDS = frozenset({"where", "field"})
"""A field's path in a sheet (``ressources.endurance.current``): shown longer."""
FIELD_LENGTH = 80


def echoed(name: str, value: Any) -> Any:
    """``value`` as the message quotes it: a typed value cut to its first 40 characters
    and « … », wherever it is quoted, so that no call site can forget it (a 10,000-
    character name, a number of 300 digits were echoed whole)."""
    from meneur.text import ECHO_LENGTH, cut, cut_start

    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not -(10**ECHO_LENGTH) < value < 10**ECHO_LENGTH:
        value = str(value)  # only a number past 40 digits is cut
    if not isinstance(value, str):
        return value
    if name in PLACES:
        return cut_start(value, PLACE_LENGTH)
    if name in FIELDS:
        return cut(value, FIELD_LENGTH)
    return cut(value, OWN_LENGTH if name in OWN_WORDS else ECHO_LENGTH)


class MeneurError(Exception):
    """Base of every error meant for a user: bad input, a broken rule, a limit passed.

    The parameters are kept as given (``params``) and bounded when the message is
    rendered (:func:`echoed`)."""

    def __init__(self, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        text = gettext(self.message)
        if not self.params:
            return text
        return fill(text, **{name: echoed(name, value) for name, value in self.params.items()})


class UsageError(MeneurError):
    """A command-line argument or option is malformed (bad number, unknown name...)."""


class RuleError(MeneurError):
    """The request breaks a rule of the game (a negative pool, an overdrawn resource...)."""


class DiceSyntaxError(MeneurError):
    """A dice expression cannot be parsed."""


class LimitError(MeneurError):
    """A request passes one of meneur's hard limits (dice per roll, expression size...)."""


class DiceSourceError(MeneurError):
    """The dice source cannot serve the faces asked for (physical dice running short...)."""


class SheetError(MeneurError):
    """A character sheet or a rule data file is malformed or inconsistent."""


class UnknownSystemError(MeneurError):
    """No registered system answers to that name."""
