"""Every message exists in French and English; the compiled catalogue is up to date."""

from __future__ import annotations

import pytest

from meneur.errors import RuleError
from meneur.locale import N_, detect_language, gettext, set_language
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
