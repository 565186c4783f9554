"""Message catalogue: English message ids, French translations, chosen per context.

Runtime uses only the standard library's ``gettext`` on the compiled ``.mo`` files
(start-up stays fast); Babel is a development tool that extracts the messages and
compiles the catalogues (``python -m meneur.locale.build``). The build also writes the
``.mo``'s messages as a marshalled dict (``meneur.marshal``), which loads in ~1 ms where
parsing the ``.mo`` takes ~10 ms of every command's start; it is used only while it
matches the ``.mo`` beside it (size and CRC-32), else the ``.mo`` is parsed.

The language lives in a ``ContextVar`` so that the web table can serve two players in
two languages at once; the CLI sets it once from ``--lang``, ``MENEUR_LANG`` or the
system locale, falling back to French.
"""

from __future__ import annotations

import gettext as _gettext
import marshal
import os
import zlib
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
DOMAIN = "meneur"
LOCALE_DIR = Path(__file__).parent
CACHE_NAME = f"{DOMAIN}.marshal"

_language: ContextVar[str] = ContextVar("meneur_language", default="")


def N_(message: str) -> str:
    """Mark a message for extraction without translating it now (it is translated later)."""
    return message


class MarshalledTranslations(_gettext.NullTranslations):
    """The messages of a ``.mo`` as ``GNUTranslations`` reads them (``msgid`` or
    ``(msgid, plural index)`` to text), with its plural rule, already parsed."""

    def __init__(self, messages: dict[object, str], plural: Callable[[int], int]) -> None:
        super().__init__()
        self._messages = messages
        self._plural = plural

    def gettext(self, message: str) -> str:
        return self._messages.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        found = self._messages.get((msgid1, self._plural(n)))
        return found if found is not None else super().ngettext(msgid1, msgid2, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._messages.get(f"{context}\x04{message}", message)


def cache_record(mo: bytes, messages: dict[object, str], plural: str) -> bytes:
    """What the build writes beside a ``.mo``: its size and CRC-32, its plural rule
    (the C expression of its header) and its messages."""
    return marshal.dumps((len(mo), zlib.crc32(mo), plural, messages))


def read_cache(mo: bytes, record: bytes) -> MarshalledTranslations | None:
    """The catalogue in ``record`` if it was made from ``mo``; ``None`` if it is stale,
    damaged or written by a Python whose ``marshal`` cannot be read here."""
    try:
        size, crc, plural, messages = marshal.loads(record)
    except (EOFError, ValueError, TypeError):
        return None
    if (size, crc) != (len(mo), zlib.crc32(mo)) or not isinstance(messages, dict):
        return None
    return MarshalledTranslations(messages, _gettext.c2py(plural))


@cache
def _catalogue(language: str) -> _gettext.NullTranslations:
    if language == "en":
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    try:
        mo, record = (folder / f"{DOMAIN}.mo").read_bytes(), (folder / CACHE_NAME).read_bytes()
        fast = read_cache(mo, record)
    except OSError:
        fast = None
    if fast is not None:
        return fast
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


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` as ``context`` words it: one English message may need two
    French ones (a Krâsses « passe » is another system's « round »), and the areas' ``.po``
    compile into one catalogue, where the same message id can hold one translation only
    (``python -m meneur.locale.build --check`` refuses two)."""
    return _active().pgettext(context, message)


_ = gettext


def plural_count(value: Any) -> int:
    """The number a plural agrees with (a count a log entry lacks reads as plural)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 2


def labelled(label: str, text: str = "") -> str:
    """``label: text`` as the reader's language writes it: « Camp A : 3 succès » in
    French (a space before the colon), "Side A: 3 successes" in English. Labels built
    in code (``f"{name}: ..."``) skipped the translation and with it the space."""
    return gettext("{label}: {text}").format(label=label, text=text)


ELIDED_BEFORE = "AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆaeiouyàâäéèêëîïôöùûüœæ"
"""The letters before which French elides « de » into « d' ». An initial h is left out:
names of the games often begin with an h aspiré (« de Hargne »), which does not elide."""


def fill(template: str, /, **params: Any) -> str:
    """``template.format(**params)``, with French « de » elided before a value that begins
    with a vowel: « Test d'Esquive », « +2 d'Aldo », « les fiches d'Obscur », not « de
    Esquive ». A translation cannot write it, for it does not know the value. Only the
    template's own « de » right before a field changes, never the text of a value (a name
    typed « Jean de Arc » stays as typed); other languages are filled as they are."""
    if current_language() == "fr" and "e {" in template:
        import re

        def elide(match: re.Match[str]) -> str:
            value = str(params.get(match[2], ""))
            return f"{match[1]}'{{{match[2]}}}" if value and value[0] in ELIDED_BEFORE else match[0]

        template = re.sub(r"\b([Dd])e \{(\w+)\}", elide, template)
    return template.format(**params)


def quoted(text: str) -> str:
    """``text`` in the reader's quotation marks: « Zed » in French (spaced, as French
    typography writes them), 'Zed' in English."""
    return gettext("'{text}'").format(text=text)
