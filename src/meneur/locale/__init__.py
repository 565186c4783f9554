"""Message catalogue: English message ids, French translations, chosen per context.

Runtime uses only the standard library's ``gettext`` on the compiled ``.mo`` files
(start-up stays fast); Babel is a development tool that extracts the messages and
compiles the catalogues (``python -m meneur.locale.build``).

The language lives in a ``ContextVar`` so that the web table can serve two players in
two languages at once; the CLI sets it once from ``--lang``, ``MENEUR_LANG`` or the
system locale, falling back to French.
"""

from __future__ import annotations

import gettext as _gettext
import os
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
DOMAIN = "meneur"
LOCALE_DIR = Path(__file__).parent

_language: ContextVar[str] = ContextVar("meneur_language", default="")


def N_(message: str) -> str:
    """Mark a message for extraction without translating it now (it is translated later)."""
    return message


@cache
def _catalogue(language: str) -> _gettext.NullTranslations:
    if language == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language])


def detect_language(environ: dict[str, str] | None = None) -> str:
    """The language asked for by ``MENEUR_LANG``, else the system locale, else French."""
    env = os.environ if environ is None else environ
    explicit = env.get("MENEUR_LANG", "").strip().lower()
    if explicit:
        return explicit
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = env.get(name, "")[:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def current_language() -> str:
    return _language.get() or detect_language()


def set_language(language: str) -> None:
    """Set the language of this context; an unknown code raises ``ValueError``."""
    code = language.strip().lower()
    if code not in LANGUAGES:
        raise ValueError(code)
    _language.set(code)


def _active() -> _gettext.NullTranslations:
    """The catalogue of the current language (French when the environment names another)."""
    language = current_language()
    return _catalogue(language if language in LANGUAGES else DEFAULT_LANGUAGE)


def gettext(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _active().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """Translate with the plural form that fits ``count``."""
    return _active().ngettext(singular, plural, count)


_ = gettext
