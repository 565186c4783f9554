"""Légendes' lab labels (opposition levels, L-3; domains, L-1) follow the language.

Their message ids were the French words (« Élite », « secondaire »), so an English run
(``MENEUR_LANG=en``) printed them in French; French prints the same words as before.
"""

from __future__ import annotations

import pytest

from cli_helpers import invoke

LEVELS = ("table", "legendes", "--rows", "3", "--panels", "0")
DOMAINS = ("table", "legendes", "--variant", "ordinary=1", "--panels", "0", "--cols", "elite")
WORDS = {
    "en": (
        ("Common", "Elite", "Heroic", "Legendary"),
        ("legendary (3d6)", "secondary (2d6)", "ordinary (1d6)"),
    ),
    "fr": (
        ("Commun", "Élite", "Héroïque", "Légendaire"),
        ("légendaire (3d6)", "secondaire (2d6)", "ordinaire (1d6)"),
    ),
}


def _header_and_rows(out: str) -> list[list[str]]:
    """The words of each line of a rich table (between its borders)."""
    return [
        [cell.strip() for cell in line.strip("┃│ ").split("┃" if "┃" in line else "│")]
        for line in out.splitlines()
        if line.startswith(("┃", "│"))
    ]


@pytest.mark.parametrize("language", sorted(WORDS))
def test_levels_and_domains_in_the_language_of_the_run(
    language: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MENEUR_LANG", language)
    levels, domains = WORDS[language]
    by_level = invoke(capsys, *LEVELS)
    assert by_level.status == 0, by_level.err
    assert tuple(_header_and_rows(by_level.out)[0][1:]) == levels
    by_domain = invoke(capsys, *DOMAINS)
    assert by_domain.status == 0, by_domain.err
    assert tuple(row[0] for row in _header_and_rows(by_domain.out)[1:]) == domains


def test_a_roll_names_the_level_in_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``test legendes`` names the opposition's level with the same words as the lab."""
    monkeypatch.setenv("MENEUR_LANG", "en")
    result = invoke(capsys, "test", "legendes", "--dice", "3", "--vs", "heroique", "--seed", "1")
    assert result.status == 0, result.err
    assert "Opposition (Heroic)" in result.out and "Héroïque" not in result.out
