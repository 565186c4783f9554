"""Extract, check and compile the message catalogues (a development tool; needs Babel).

The French translations live in one ``.po`` file per area, so that each system's
messages sit beside each other: ``locale/fr/core.po`` for the shared code and
``locale/fr/<system>.po`` for ``systems/<system>/``. They compile into one
``fr/LC_MESSAGES/meneur.mo`` that the runtime reads with the standard library, and the
same messages as parsed by ``gettext``, marshalled (``meneur.marshal``: read at each
start in a tenth of the time, see :mod:`meneur.locale`).

Usage::

    python -m meneur.locale.build           # extract new messages, then compile
    python -m meneur.locale.build --check   # fail on a missing translation or a stale .mo
"""

from __future__ import annotations

import argparse
import gettext
import io
import marshal
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from meneur.locale import CACHE_NAME, cache_record

PACKAGE_DIR = Path(__file__).resolve().parent.parent
LOCALE_DIR = PACKAGE_DIR / "locale"
TRANSLATED = ("fr",)
_FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
METHOD_MAP = [("**.py", "python"), ("**/templates/**.html", "jinja2")]


def area_of(relative_path: str) -> str:
    """The ``.po`` file a source file's messages belong to: its system, ``web``, or ``core``."""
    parts = Path(relative_path).parts
    if len(parts) >= 2 and parts[0] == "systems" and (PACKAGE_DIR / "systems" / parts[1]).is_dir():
        return parts[1]
    if parts and (parts[0] == "web" or parts == ("cli", "serve.py")):
        return "web"
    return "core"


MessageId = str | tuple[str, str]
"""A message's English text, or its singular and plural."""
Key = tuple[MessageId, str | None]
"""A message and its context (``pgettext``), ``None`` for most."""


def extract() -> dict[str, dict[Key, list[tuple[str, int]]]]:
    """Every message in the sources, grouped by area, with where it appears."""
    found: dict[str, dict[Key, list[tuple[str, int]]]] = {}
    method_map = [m for m in METHOD_MAP if m[1] == "python" or _has_jinja()]
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(PACKAGE_DIR), method_map=method_map
    ):
        if isinstance(message, tuple):
            message = (message[0], message[1])
        key = (message, context)
        found.setdefault(area_of(filename), {}).setdefault(key, []).append((filename, lineno))
    return found


def _has_jinja() -> bool:
    try:
        import jinja2  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def po_path(language: str, area: str) -> Path:
    return LOCALE_DIR / language / f"{area}.po"


def mo_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "meneur.mo"


def cache_path(language: str) -> Path:
    return mo_path(language).with_name(CACHE_NAME)


def marshalled(mo: bytes) -> bytes:
    """The messages of ``mo`` exactly as ``gettext`` parses them, for the fast start."""
    parsed = gettext.GNUTranslations(io.BytesIO(mo))
    forms = parsed.info().get("plural-forms", "nplurals=2; plural=n != 1;")
    plural = forms.split(";")[1].split("plural=")[1]  # as GNUTranslations reads it
    messages = dict(parsed._catalog)  # type: ignore[attr-defined]
    return cache_record(mo, messages, plural)


def _read(path: Path, language: str) -> Catalog:
    if not path.exists():
        return Catalog(locale=language, domain="meneur")
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def _empty_catalogue(language: str) -> Catalog:
    """A catalogue with fixed dates, so that building twice gives the same bytes."""
    return Catalog(
        locale=language,
        domain="meneur",
        project="meneur",
        creation_date=_FIXED_DATE,
        revision_date=_FIXED_DATE,
        fuzzy=False,
    )


def update_po(language: str) -> None:
    """Add new messages (untranslated) to each area's ``.po`` and drop obsolete ones."""
    for area, messages in extract().items():
        path = po_path(language, area)
        old = _read(path, language)
        new = _empty_catalogue(language)
        for (msgid, context), locations in sorted(messages.items(), key=lambda item: str(item[0])):
            previous = old.get(msgid, context=context)
            string = previous.string if previous else None
            new.add(msgid, string, locations=locations, context=context)
        buffer = io.BytesIO()
        write_po(buffer, new, width=100, omit_header=False, sort_output=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(buffer.getvalue())


def merged_catalogue(language: str) -> Catalog:
    """All areas' translations in one catalogue; an empty entry never hides a filled one
    (two filled ones that differ are a conflict, :func:`conflicts`)."""
    merged = _empty_catalogue(language)
    for _area, message in _entries(language):
        already = merged.get(message.id, context=message.context)
        if not (already is not None and already.string and not message.string):
            merged.add(message.id, message.string, context=message.context)
    return merged


def _entries(language: str) -> Iterator[tuple[str, Message]]:
    """Each area's messages (not the headers), area by area in name order."""
    for path in sorted((LOCALE_DIR / language).glob("*.po")):
        for message in _read(path, language):
            if message.id:
                yield path.stem, message


def conflicts(language: str) -> list[str]:
    """Messages that two areas translate differently, one line each.

    Every area compiles into one catalogue, where a message holds one translation: the
    last area read would win in silence (a Krâsses « Passe » became « Round »). Such a
    message needs a context in one of them (``pgettext``)."""
    seen: dict[tuple[object, str | None], dict[tuple[str, ...], str]] = {}
    for area, message in _entries(language):
        strings = message.string
        filled = tuple(strings) if isinstance(strings, tuple | list) else (str(strings),)
        if any(filled):
            key = (_hashable(message.id), message.context)
            seen.setdefault(key, {}).setdefault(filled, area)
    return [
        f"[{language}] {msgid!r} is translated differently in "
        + ", ".join(f"{area}.po ({' / '.join(string)!r})" for string, area in strings.items())
        + ": give one of them a context (pgettext)"
        for (msgid, _context), strings in seen.items()
        if len(strings) > 1
    ]


def _hashable(msgid: str | tuple[str, ...] | list[str]) -> object:
    return tuple(msgid) if isinstance(msgid, list) else msgid


def compiled(language: str) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, merged_catalogue(language))
    return buffer.getvalue()


def problems() -> list[str]:
    """Missing translations and stale compiled catalogues, one line each."""
    issues: list[str] = []
    extracted = extract()
    for language in TRANSLATED:
        catalogue = merged_catalogue(language)
        issues += conflicts(language)
        for area, messages in extracted.items():
            for (msgid, context), locations in messages.items():
                entry = catalogue.get(msgid, context=context)
                string = entry.string if entry else None
                empty = not string or (isinstance(string, tuple) and not all(string))
                if empty:
                    where = ", ".join(f"{f}:{n}" for f, n in locations[:2])
                    issues.append(f"[{language}] {area}: no translation for {msgid!r} ({where})")
        mo = compiled(language)
        checks = (
            (mo_path(language), mo, bytes.__eq__),
            (cache_path(language), marshalled(mo), _same_value),
        )
        for path, fresh, same in checks:
            if not path.exists() or not same(path.read_bytes(), fresh):
                stale = path.relative_to(PACKAGE_DIR)
                issues.append(f"[{language}] {stale} is stale: run the build")
    return issues


def _same_value(old: bytes, fresh: bytes) -> bool:
    """Two marshalled records hold the same value: ``marshal`` may write equal values as
    different bytes (its back-references), so they are compared read back."""
    try:
        return bool(marshal.loads(old) == marshal.loads(fresh))
    except (EOFError, ValueError, TypeError):
        return False


def build() -> None:
    for language in TRANSLATED:
        update_po(language)
        path = mo_path(language)
        path.parent.mkdir(parents=True, exist_ok=True)
        mo = compiled(language)
        path.write_bytes(mo)
        cache_path(language).write_bytes(marshalled(mo))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    if not args.check:
        build()
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
