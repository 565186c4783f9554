"""The French ``--help`` reads French to the placeholders: ``--campaign NOM``, not ``NAME``."""

from __future__ import annotations

import re

import pytest
from tests.cli_helpers import invoke

from meneur.cli.helpformat import PLACEHOLDERS

ENGLISH = re.compile(
    r"(?<![A-Za-z-])(?:" + "|".join(p for p in PLACEHOLDERS if p != "OPTIONS") + r")(?![A-Za-z])"
)


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (("serve",), ("--host HÔTE", "--campaign NOM"), ("--host HOST", "--campaign NAME")),
        (("verify",), ("FICHIER",), ("FILE",)),
        (("log",), ("--export FICHIER",), ("--export FILE",)),
    ],
)
def test_help_placeholders_follow_the_language(
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    french: tuple[str, ...],
    english: tuple[str, ...],
) -> None:
    fr = invoke(capsys, *args, "--help", "--lang", "fr")
    en = invoke(capsys, *args, "--help", "--lang", "en")
    assert fr.status == en.status == 0
    for text in french:
        assert text in fr.out
    for text in english:
        assert text in en.out
    assert not ENGLISH.findall(fr.out), fr.out


def test_every_placeholder_has_a_french_word() -> None:
    from meneur.locale import gettext, set_language

    set_language("fr")
    assert gettext(PLACEHOLDERS["HOST"]) == "HÔTE"
    assert all(gettext(word) for word in PLACEHOLDERS.values())
