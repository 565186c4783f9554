"""The table plays the systems' own rules: its batch-by-batch ending and its marks (issue 14).

A deliberate break of the table's rules used to survive the suite: the batch-by-batch
ending that forgot the critical failure (T-8), the marks that counted 5+ as hits. Both
now come from the Tunnels test itself, and these tests pin them.
"""

from __future__ import annotations

from meneur.campaign.replay import replay_entries
from meneur.web.views import log_line
from web.web_helpers import Table

TUNNELS = {
    "Force": "3",
    "Dextérité": "4",
    "Constitution": "2",
    "Volonté": "3",
    "Intelligence": "2",
    "Charisme": "3",
}


def test_T8_a_batch_by_batch_roll_with_three_ones_fails_whatever_its_successes(
    table: Table,
) -> None:
    """T-8 at the table: 1-1-4 then the extra die shows 1: three 1s, the test fails."""
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    fetch = {"x-requested-with": "fetch"}
    started = table.client.post(
        f"{player}/roll", data={**form, "threshold": "1", "faces": "1 1 4"}, headers=fetch
    )
    assert started.json() == {"pending": True}
    table.client.post(
        f"{player}/roll/next", data={"csrf": csrf, "choice": "explode", "faces": "1"}, headers=fetch
    )
    [entry] = table.store.rolls()
    assert entry["faces"] == [[1, 1, 4, 1]]
    outcome = entry["outcome"]
    assert outcome["successes"] >= 1 and outcome["critical"] and outcome["passed"] is False
    assert replay_entries([entry]).problems == ()  # the entry replays through the rule


def test_T3_T8_the_table_marks_the_faces_the_rule_counts(table: Table) -> None:
    """T-3: 4, 5 and 6 are successes (4 included); a lone 1 is no critical failure (T-8)."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    answer = table.client.post(
        f"/api{table.gm}/roll",
        json={"character": "Brindille", "trait": "Force", "faces": "4 1 5", "explode": "never"},
    )
    assert answer.status_code == 200, answer.text
    [entry] = table.store.rolls()
    marks = [(mark.face, mark.css) for mark in log_line(entry, "public").streams[0]]
    assert marks == [(4, "hit"), (1, ""), (5, "hit")]


def test_a_krasses_exchange_is_refused_never_played_as_tunnels(table: Table) -> None:
    """Krâsses has no wounds nor exchange in its text: the tracker refuses, nothing is logged."""
    for name in ("Aurore", "Bastien"):
        table.create(table.gm, "krasses", name, characteristics="Force=2", skills="Bagarre=3")
    csrf = table.csrf(table.gm)
    for name in ("Aurore", "Bastien"):
        table.client.post(f"{table.gm}/combat", data={"csrf": csrf, "action": "add", "name": name})
    answer = table.client.post(
        f"{table.gm}/combat",
        data={"csrf": csrf, "action": "exchange", "index": "0", "other": "1"},
        headers={"x-requested-with": "fetch"},
    )
    assert answer.status_code == 400
    assert "Krâsses" in answer.json()["error"]
    assert table.store.rolls() == []
