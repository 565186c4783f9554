"""One error tree for everything a user can get wrong.

Every error carries an English message id (marked for translation) and its parameters;
``str(error)`` renders it in the current language, so the CLI and the web table can show
one clear line to the user without knowing which module raised it.
"""

from __future__ import annotations

from typing import Any

from meneur.locale import fill, gettext


class MeneurError(Exception):
    """Base of every error meant for a user: bad input, a broken rule, a limit passed."""

    def __init__(self, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        text = gettext(self.message)
        return fill(text, **self.params) if self.params else text


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
