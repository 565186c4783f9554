"""Each system's part at the table is its own (issue 14): the web code names no system.

The tracker shows the fields of the systems the campaign plays, a waiting roll shows the
faces its rule counts, and what a system does not offer is refused in words, never
played by another system's rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import meneur.web
from meneur.systems.registry import SYSTEMS
from meneur.web.systems import adapters
from web.test_web_rules_at_table import TUNNELS
from web.web_helpers import Table

FETCH = {"x-requested-with": "fetch"}


def _add(table: Table, *names: str) -> str:
    csrf = table.csrf(table.gm)
    for name in names:
        table.client.post(f"{table.gm}/combat", data={"csrf": csrf, "action": "add", "name": name})
    return csrf


def test_the_web_package_names_no_system() -> None:
    """No module, template or script of ``meneur.web`` names one of the systems."""
    names = {system.name for system in SYSTEMS} | {system.title for system in SYSTEMS}
    pattern = re.compile("|".join(map(re.escape, sorted(names))), re.IGNORECASE)
    root = Path(meneur.web.__file__).parent
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*"))
        if path.suffix in (".py", ".html", ".js", ".css")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_every_registered_system_has_its_part_at_the_table(table: Table) -> None:
    """The app installs one adapter per registered system, from the systems' own list."""
    assert list(adapters()) == [system.name for system in SYSTEMS]


def test_the_tracker_shows_only_the_fields_of_the_systems_played(table: Table) -> None:
    """A Tunnels campaign's tracker asks no Légendes level and offers no Obscur shot."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "tunnels", "Gros Jean", **TUNNELS)
    _add(table, "Brindille", "Gros Jean")
    page = table.client.get(table.gm).text
    assert 'name="level"' not in page and 'value="shot"' not in page
    assert 'name="third"' not in page
    assert 'placeholder="Endurance / MR"' in page


def test_a_legendes_campaign_tracker_asks_the_level_and_the_third(table: Table) -> None:
    table.create(table.gm, "legendes", "Ysolde", legendary="Épée", secondary="Chant")
    _add(table, "Ysolde", "Le Loup")
    page = table.client.get(table.gm).text
    assert 'name="level"' in page and 'name="third"' in page and 'value="shot"' not in page


def test_a_shot_between_tunnels_characters_is_refused_in_words(table: Table) -> None:
    """A shot is Obscur's (O-14): asked of two Tunnels characters, it is refused, not played."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "tunnels", "Gros Jean", **TUNNELS)
    csrf = _add(table, "Brindille", "Gros Jean")
    answer = table.client.post(
        f"{table.gm}/combat",
        data={"csrf": csrf, "action": "shot", "index": "0", "other": "1"},
        headers=FETCH,
    )
    assert answer.status_code == 400
    assert "Tunnels" in answer.json()["error"] and table.store.rolls() == []


def test_T3_a_waiting_batch_marks_the_faces_the_test_counts(table: Table) -> None:
    """T-3, T-4: a blessed roll counts 3+ as successes; the waiting batch marks them so."""
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    started = table.client.post(
        f"{player}/roll", data={**form, "blessed": "true", "faces": "3 3 2"}, headers=FETCH
    )
    assert started.json() == {"pending": True}
    page = table.client.get(player).text
    dice = re.findall(r'<span class="die ?([a-z]*)">(\d)</span>', page.split('id="pending"')[1])
    assert dice[:3] == [("hit", "3"), ("hit", "3"), ("", "2")]


def test_an_unknown_waiting_roll_is_404(table: Table) -> None:
    player = table.join("Alice")
    answer = table.client.post(f"{player}/roll/nothing", data={"csrf": table.csrf(player)})
    assert answer.status_code == 404
