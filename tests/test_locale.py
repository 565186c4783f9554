"""Every message exists in French and English; the compiled catalogue is up to date."""

from __future__ import annotations

import gettext as gettext_module
import io
from pathlib import Path

import pytest

from meneur.errors import RuleError
from meneur.locale import (
    CACHE_NAME,
    LOCALE_DIR,
    N_,
    MarshalledTranslations,
    _catalogue,
    cache_record,
    detect_language,
    fill,
    gettext,
    pgettext,
    read_cache,
    set_language,
)
from meneur.locale.build import problems


def test_every_message_is_translated_and_compiled() -> None:
    """Fails on a message without a French translation or a stale .mo (English is the source)."""
    found = problems()
    assert found == [], "\n".join(found)


def test_language_detection_order() -> None:
    assert detect_language({"MENEUR_LANG": "EN", "LANG": "fr_FR.UTF-8"}) == "en"
    assert detect_language({"LANG": "en_GB.UTF-8"}) == "en"
    assert detect_language({"LANG": "de_DE.UTF-8"}) == "fr"
    assert detect_language({}) == "fr"


def test_errors_render_in_the_current_language() -> None:
    error = RuleError(N_("A die has at most {limit} sides."), limit=6)
    set_language("en")
    assert str(error) == "A die has at most 6 sides."
    set_language("fr")
    assert str(error) == "Un dé a au plus 6 faces."
    assert gettext("Interrupted.") == "Interrompu."


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        set_language("xx")


def _shipped() -> tuple[bytes, bytes]:
    folder = LOCALE_DIR / "fr" / "LC_MESSAGES"
    return (folder / "meneur.mo").read_bytes(), (folder / CACHE_NAME).read_bytes()


def test_the_marshalled_catalogue_says_what_the_mo_says() -> None:
    """Issue 18 (start-up): every message and plural form read from the marshalled cache
    equals what ``gettext`` parses from the ``.mo``; the shipped catalogue uses it."""
    mo, record = _shipped()
    parsed = gettext_module.GNUTranslations(io.BytesIO(mo))
    cached = read_cache(mo, record)
    assert cached is not None
    assert isinstance(_catalogue("fr"), MarshalledTranslations)
    keys = list(parsed._catalog)  # type: ignore[attr-defined]
    assert len(keys) > 1000
    for key in keys:
        if isinstance(key, tuple):
            for count in (0, 1, 2, 5, 1_000_000):
                assert cached.ngettext(key[0], "?", count) == parsed.ngettext(key[0], "?", count)
        else:
            assert cached.gettext(key) == parsed.gettext(key)
    assert cached.gettext("no such message") == "no such message"
    assert cached.ngettext("one {n}", "many {n}", 3) == "many {n}"


def test_a_stale_or_damaged_marshalled_catalogue_is_not_used() -> None:
    """A cache made from another ``.mo`` (same size or not), cut short, or not a record:
    ``None``, and the ``.mo`` is parsed instead."""
    mo, record = _shipped()
    changed = bytes([mo[0] ^ 1]) + mo[1:]
    assert read_cache(changed, record) is None
    assert read_cache(mo + b"\0", record) is None
    assert read_cache(mo, record[: len(record) // 2]) is None
    assert read_cache(mo, b"not marshal") is None
    assert read_cache(mo, cache_record(mo, {}, "n != 1")) is not None


@pytest.mark.parametrize(
    ("template", "params", "french"),
    [
        (
            "Test de {trait} ({dice})",
            {"trait": "Esquive", "dice": "5 dés"},
            "Test d'Esquive (5 dés)",
        ),
        ("(+{bonus} de {names})", {"bonus": 2, "names": "Aldo"}, "(+2 d'Aldo)"),
        ("Les fiches de {system}", {"system": "Obscur"}, "Les fiches d'Obscur"),
        ("La carte de {name}", {"name": "Ysolde"}, "La carte d'Ysolde"),
        ("La carte de {name}", {"name": "Éloi"}, "La carte d'Éloi"),
        # no elision before a consonant, an h (aspiré in « Hargne »), a number or nothing
        ("Test de {trait}", {"trait": "Bagarre"}, "Test de Bagarre"),
        ("Test de {trait}", {"trait": "Hargne"}, "Test de Hargne"),
        ("un seuil de {n}", {"n": 8}, "un seuil de 8"),
        ("Test de {trait}", {"trait": ""}, "Test de "),
        # the value's own text is never touched: only the template's « de » before a field
        ("La fiche de {name}", {"name": "Jean de Arc"}, "La fiche de Jean de Arc"),
        ("Code {name}", {"name": "Aldo"}, "Code Aldo"),
    ],
)
def test_french_elides_de_before_a_value_that_begins_with_a_vowel(
    template: str, params: dict[str, object], french: str
) -> None:
    set_language("fr")
    assert fill(template, **params) == french
    set_language("en")
    assert fill(template, **params) == template.format(**params)
    set_language("fr")


def test_an_error_elides_de_in_french() -> None:
    set_language("fr")
    error = RuleError(N_("{system} sheets cannot be edited at the table."), system="Obscur")
    assert str(error) == "Les fiches d'Obscur ne se modifient pas à la table."


def test_one_message_with_two_translations_is_a_conflict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The areas compile into one catalogue: a message two areas translate differently
    kept one of them in silence (Krâsses' « Passe » read « Round »). The check names it;
    a context (pgettext) keeps both."""
    from meneur.locale import build

    def po(area: str, entries: str) -> None:
        (tmp_path / "fr" / f"{area}.po").write_text(
            'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + entries,
            encoding="utf-8",
        )

    (tmp_path / "fr").mkdir()
    po("core", 'msgid "Round"\nmsgstr "Round"\n\nmsgid "Dice"\nmsgstr "Dés"\n')
    po("krasses", 'msgid "Round"\nmsgstr "Passe"\n\nmsgid "Dice"\nmsgstr "Dés"\n')
    monkeypatch.setattr(build, "LOCALE_DIR", tmp_path)
    found = build.conflicts("fr")
    assert len(found) == 1 and "'Round'" in found[0] and "Passe" in found[0]
    po("krasses", 'msgctxt "krasses"\nmsgid "Round"\nmsgstr "Passe"\n')
    assert build.conflicts("fr") == []
    merged = build.merged_catalogue("fr")
    assert merged.get("Round").string == "Round"
    assert merged.get("Round", context="krasses").string == "Passe"


def test_a_message_in_context_reads_its_own_words() -> None:
    """pgettext: Krâsses' exchange is a « passe », another system's a « round »; Obscur
    counts « Succès » (its text's word), Tunnels « Réussites »; the fast catalogue agrees
    with the .mo."""
    mo, record = _shipped()
    parsed = gettext_module.GNUTranslations(io.BytesIO(mo))
    cached = read_cache(mo, record)
    assert cached is not None
    for context, message, french in (
        ("krasses", "Round", "Passe"),
        ("obscur", "Successes", "Succès"),
        (None, "Successes", "Réussites"),
        (None, "Round", "Round"),
    ):
        if context is None:
            assert cached.gettext(message) == parsed.gettext(message) == french
        else:
            assert cached.pgettext(context, message) == parsed.pgettext(context, message)
            assert cached.pgettext(context, message) == french
    set_language("fr")
    assert pgettext("krasses", "Round") == "Passe"
    set_language("en")
    assert pgettext("krasses", "Round") == "Round"
    assert cached.pgettext("nowhere", "no such message") == "no such message"
    set_language("fr")
