"""The log lines (issue 17): the reader's time, who rolled, batches, plurals, rule links,
and the JSON API's errors in the reader's language."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from meneur.locale import set_language
from meneur.systems.at_table import web_adapters
from meneur.web.rulesdoc import build, entry_html, link_rules, parse, rules
from meneur.web.systems import install
from meneur.web.views import Said, local_time, log_line, said
from meneur.web.words import dice_words, points_words
from web.test_web_live import receive
from web.web_helpers import Table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}
ROOT = Path(__file__).resolve().parents[2]


def entry_html_of(page: str) -> list[str]:
    return re.findall(r'<li class="entry.*?</li>', page, re.DOTALL)


def test_a_line_carries_its_utc_moment_and_a_server_time(table: Table) -> None:
    table.create(table.gm, "tunnels", "Pip", **TUNNELS)
    table.roll(table.gm, "Pip", "Force", faces="4 5 6")
    [entry] = table.store.rolls()
    [line] = entry_html_of(table.client.get(table.gm).text)
    stamp = re.search(r'<time datetime="([^"]+)">(\d\d:\d\d:\d\d)</time>', line)
    assert stamp and stamp.group(1) == entry["at"] and stamp.group(1).endswith("Z")
    assert stamp.group(2) == local_time(entry["at"])


def test_local_time_is_the_servers_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        assert local_time("2026-12-03T13:05:09.000001Z") == "14:05:09"  # winter: UTC+1
        assert local_time("2026-07-03T13:05:09.000001Z") == "15:05:09"  # summer: UTC+2
        assert local_time("garbage") == ""
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_gm_rolling_for_a_character_reads_gm_for_pip(table: Table) -> None:
    alice = table.join("Alice")
    table.create(alice, "tunnels", "Pip", **TUNNELS)
    with table.client.websocket_connect(f"{alice}/ws") as socket:
        receive(socket)
        table.roll(table.gm, "Pip", "Force", faces="4 5 6")
        pushed = receive(socket)["html"]
        table.roll(alice, "Pip", "Force", faces="1 2 3")
        own = receive(socket)["html"]
    assert '<span class="who">MJ pour Pip</span>' in pushed
    assert '<span class="who">Pip</span>' in own
    page = table.client.get(f"{alice}?lang=en").text
    assert '<span class="who">GM for Pip</span>' in page
    assert page.count('<span class="who">Pip</span>') == 1


def test_T5_explosion_batches_are_shown_apart(table: Table) -> None:
    """T-5: 4 4 2 grants one die (a pair): the 5 is a new batch, shown apart."""
    table.create(table.gm, "tunnels", "Pip", **TUNNELS)
    table.roll(table.gm, "Pip", "Force", faces="4 4 2 5", threshold=3)
    [entry] = table.store.rolls()
    assert entry["outcome"]["batches"] == [[4, 4, 2], [5]]
    [line] = entry_html_of(table.client.get(table.gm).text)
    assert line.count('class="batch-sep"') == 1
    cut = re.split(r'<span class="batch-sep"', line)
    assert [re.findall(r'class="die[^"]*">(\d)<', part) for part in cut] == [["4", "4", "2"], ["5"]]
    table.roll(table.gm, "Pip", "Force", faces="1 2 3")  # no explosion: one batch, no mark
    newest = entry_html_of(table.client.get(table.gm).text)[0]
    assert 'class="batch' not in newest and newest.count('class="die') == 3


def test_plurals_follow_the_count() -> None:
    set_language("fr")
    assert [dice_words(n) for n in (0, 1, 2)] == ["0 dé", "1 dé", "2 dés"]
    assert [points_words(n) for n in (1, 3)] == ["1 point", "3 points"]
    set_language("en")
    assert [dice_words(n) for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    set_language("fr")
    from meneur.systems.obscur.log_words import shot_words
    from meneur.systems.tunnels.web.adapter import TunnelsWeb

    outcome: dict[str, Any] = {
        "names": ["Ana", "Orque"],
        "shot": {"hit": True, "zone": "torse", "damage": 1, "attack": {"successes": 1}},
    }
    words, detail = shot_words(outcome)
    assert words == "Ana touche Orque (torse) : 1 dégât"
    assert detail.startswith("1 succès pour")
    outcome["shot"]["damage"] = 3
    assert shot_words(outcome)[0].endswith(": 3 dégâts")
    set_language("en")
    assert shot_words(outcome)[1].startswith("1 success for")
    assert [t.shown for t in TunnelsWeb().traits({"characteristics": {"Force": 1}})] == ["1 die"]
    set_language("fr")


def test_O31_the_trackers_round_and_shot_say_who_is_down() -> None:
    """O-31: a fighter the tracker leaves in a coma or dead is said after the blows, in
    the melee round's words and the shot's; a standing one is not."""
    from meneur.systems.obscur.log_words import melee_round_words, shot_words

    set_language("fr")
    strike = {"attacker": "a", "hit": True, "zone": "tête", "damage": 9}
    melee = {
        "names": ["Ana", "Orque"],
        "round": {"strikes": [strike]},
        "after": [{"vie": 5}, {"vie": -1, "status": "coma"}],
    }
    assert melee_round_words(melee)[0] == (
        "Ana touche Orque (tête) : 9 dégâts · Orque tombe dans le coma"
    )
    melee["after"] = [{"vie": 5, "status": "dead"}, {"vie": 2}]
    assert melee_round_words(melee)[0].endswith("9 dégâts · Ana est mort")
    shot = {"names": ["Ana", "Orque"], "shot": {"hit": True, "zone": "torse", "damage": 12}}
    shot["shot"]["target"] = {"status": "dead"}
    assert shot_words(shot)[0] == "Ana touche Orque (torse) : 12 dégâts · Orque est mort"
    shot["shot"]["target"] = {"status": "wounded"}
    assert shot_words(shot)[0] == "Ana touche Orque (torse) : 12 dégâts"


def test_the_tracker_says_tour_in_french(table: Table) -> None:
    """« tour 1 » in French (« round 1 » in English), once someone is in the fight: not
    above « Aucun combat en cours. », where nobody has a round to play."""

    def heading(lang: str) -> str:
        page = table.client.get(table.gm, params={"lang": lang}).text
        combat = page[page.index('id="combat"') :]
        return combat[: combat.index("</h2>")]

    assert "tour" not in heading("fr") and "round" not in heading("en")
    data = {"csrf": table.csrf(table.gm), "action": "add", "name": "Orque", "health": "4"}
    assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    assert '<span class="muted small">tour 1</span>' in heading("fr")
    assert '<span class="muted small">round 1</span>' in heading("en")


def test_rule_ids_link_to_the_rules_panel(table: Table) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    for name in ("Brindille", "Orque"):
        data = {"csrf": csrf, "action": "add", "name": name, "health": "5"}
        assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    data = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
    assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    page = table.client.get(table.gm).text
    assert '(<a class="rule-link" href="#rule-T-10">T-10</a>)' in page  # the log line
    panel = page[page.index('id="rules"') :]
    assert '<article class="rule" id="rule-T-10" tabindex="-1"><h3>T-10 · Melee</h3>' in panel
    assert 'id="rule-O-12"' not in panel  # only the systems played at this table


def test_the_shipped_rules_are_docs_rules_md() -> None:
    """``static/rules.json`` is made from ``docs/rules.md``: remake it when the docs change
    (``python -m meneur.web.rulesdoc``)."""
    source = ROOT / "docs" / "rules.md"
    shipped = ROOT / "src" / "meneur" / "web" / "static" / "rules.json"
    assert shipped.read_text(encoding="utf-8") == build(source)
    ids = [rule.id for rule in parse(source.read_text(encoding="utf-8"))]
    assert len(ids) == 76 and ids[0] == "T-1" and ids[-1] == "L-14"


def test_rules_markup_is_escaped() -> None:
    from meneur.web.rulesdoc import Rule

    unknown = "-".join(("T", "99"))  # an id no rule has (spelt apart: the reference check)
    hostile = Rule(unknown, "x", "a <script>alert(1)</script> `b<c` **d** *e* [f](g.md)")
    html = str(entry_html(hostile))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<code>b&lt;c</code>" in html and "<strong>d</strong>" in html
    assert "<em>e</em>" in html and "f" in html and "g.md" not in html
    linked = str(link_rules(f"<b>(T-5)</b> ISO-8601 {unknown} O-12-x"))
    assert linked == (
        f'&lt;b&gt;(<a class="rule-link" href="#rule-T-5">T-5</a>)&lt;/b&gt; ISO-8601 {unknown} '
        "O-12-x"
    )
    assert "T-5" in rules()


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Envoyez du JSON"), ("en", "Send JSON")],
)
def test_json_errors_speak_the_readers_language(table: Table, language: str, words: str) -> None:
    headers = {"accept-language": language}
    api = f"/api{table.gm}/roll"
    wrong_type = table.client.post(
        api, content="x", headers={**headers, "content-type": "text/plain"}
    )
    assert wrong_type.status_code == 415 and wrong_type.json()["error"].startswith(words)
    invalid = table.client.post(api, json={"character": 5}, headers=headers)
    expected = {
        "fr": "Valeur invalide pour Personnage : du texte est attendu.",  # its label
        "en": "Invalid value for Character: a text is expected.",
    }
    assert invalid.status_code == 400 and invalid.json() == {"error": expected[language]}
    big = table.client.post(
        api, content="x" * 40_000, headers={**headers, "content-type": "application/json"}
    )
    too_large = {"fr": "Requête trop grande.", "en": "Request too large."}
    assert big.status_code == 413 and json.loads(big.text) == {"error": too_large[language]}
    foreign = table.client.post(api, json={}, headers={**headers, "origin": "http://evil.example"})
    assert foreign.status_code == 403 and "error" in foreign.json()
    assert (foreign.json()["error"] == "Cross-site request refused.") == (language == "en")


def test_a_page_refusal_is_the_short_page(table: Table) -> None:
    """A form refused before the routes, by a client that accepts anything (``*/*``):
    the short page, not bare text (the browser's cases: ``test_web_refusals``)."""
    answer = table.client.post(
        f"{table.gm}/roll", data={"x": "y"}, headers={"origin": "http://evil.example"}
    )
    assert answer.status_code == 403
    assert answer.headers["content-type"].startswith("text/html")
    assert "Requête venue d&#39;un autre site refusée." in answer.text


def test_line_moment_round_trips() -> None:
    moment = datetime(2026, 12, 3, 13, 5, 9, tzinfo=UTC)
    assert local_time(moment.isoformat().replace("+00:00", "Z")) == moment.astimezone().strftime(
        "%H:%M:%S"
    )


def test_T5_one_extra_die_reads_in_the_singular(table: Table) -> None:
    """T-5: a pair grants one die: « Faire exploser 1 dé », never « 1 dés »."""
    table.create(table.gm, "tunnels", "Pip", **TUNNELS)
    form = {
        "csrf": table.csrf(table.gm),
        "character": "Pip",
        "trait": "Force",
        "explode": "ask",
        "threshold": "3",
        "faces": "4 4 2",
    }
    assert table.client.post(f"{table.gm}/roll", data=form).status_code == 200
    page = table.client.get(table.gm).text
    assert "Faire exploser 1 dé<" in page and "1 dé de plus (T-5)" in page
    assert "1 dés" not in page
    english = table.client.get(f"{table.gm}?lang=en").text
    assert "Explode 1 die<" in english


def test_a_line_said_to_the_table_reads_as_no_whisper() -> None:
    """A chat line said to every seat is not styled nor badged as a whisper."""
    entry = {
        "params": {"by": "Alice", "as": ["Brindille"], "gm": False},
        "outcome": {"text": "Bonsoir"},
        "decisions": [{"mode": "public", "seat": "p1"}],
    }
    assert said(entry, "p2") == Said("Alice (Brindille)", "Bonsoir", whisper=False)
    playing_none = {**entry, "params": {"by": "Carol", "as": [], "gm": False}}
    assert said(playing_none, "p2").head == "Carol"  # a seat with no character: its name


def test_T4_an_entry_logged_without_its_replayable_step_is_marked_by_its_system() -> None:
    """An entry logged before the replayable step was kept: its dice are still marked by
    its system (T-4 blessed: 3-6 succeed; a 1 is marked for T-8)."""
    install(web_adapters())
    entry = {
        "system": "tunnels",
        "kind": "test",
        "params": {"trait": "Force", "blessed": True, "cursed": False},
        "faces": [[3, 1, 6, 2]],
        "outcome": {},
    }
    line = log_line(entry, "public")
    assert [(mark.face, mark.css) for mark in line.streams[0]] == [
        (3, "hit"),
        (1, "fumble"),
        (6, "hit"),
        (2, ""),
    ]


def test_every_reader_of_a_whisper_reads_it_as_a_whisper() -> None:
    """A whisper is badged as one for each of its readers (its sender, its target, the
    GM), each in their own words: docs/web.md, « À qui chuchoter »."""

    def whisper(by: str, seat: str, to: str, key: str) -> dict[str, Any]:
        return {
            "params": {
                "by": "" if seat == "gm" else by,
                "gm": seat == "gm",
                "as": [] if seat == "gm" else ["Brindille"],
                "to": "" if key == "gm" else to,
                "to_gm": key == "gm",
                "to_as": [] if key == "gm" else ["Pip"],
            },
            "outcome": {"text": "psst"},
            "decisions": [{"mode": "whisper", "seat": seat, "to": key}],
        }

    to_bob, to_gm = whisper("Alice", "p1", "Bob", "p2"), whisper("Alice", "p1", "", "gm")
    from_gm = whisper("", "gm", "Bob", "p2")
    set_language("en")
    try:
        read = [
            said(to_bob, "p1"),
            said(to_bob, "p2"),
            said(to_bob, "gm"),
            said(to_gm, "p1"),
            said(to_gm, "gm"),
            said(from_gm, "p2"),
            said(from_gm, ""),  # a reader neither sending nor receiving it
            said(to_gm, ""),
        ]
    finally:
        set_language("fr")
    assert [(s.head, s.text, s.whisper) for s in read] == [
        ("You whisper to Bob (Pip)", "psst", True),
        ("Alice (Brindille) whispers to you", "psst", True),
        ("Alice (Brindille) whispers to Bob (Pip)", "psst", True),
        ("You whisper to the GM", "psst", True),
        ("Alice (Brindille) whispers to you", "psst", True),
        ("The GM whispers to you", "psst", True),
        ("The GM whispers to Bob (Pip)", "psst", True),
        ("Alice (Brindille) whispers to the GM", "psst", True),
    ]


def test_an_entry_logged_without_a_trait_is_titled_by_its_kind() -> None:
    """An entry the CLI recorded into the campaign (params: its options, no trait) is
    titled by its kind in the reader's words in the table's log, never « None »; a kind
    this version does not know (another version's entry) as it was logged."""
    install(web_adapters())
    entry = {
        "system": "generic",
        "kind": "roll",
        "params": {"expression": "2d6"},
        "faces": [[3, 4]],
        "outcome": {"total": 7},
    }
    set_language("fr")
    line = log_line(entry, "public")
    assert line.title == "jet de dés"
    assert [mark.face for mark in line.streams[0]] == [3, 4]
    assert log_line({**entry, "kind": "divination"}, "public").title == "divination"
    set_language("en")
    try:
        assert log_line(entry, "public").title == "dice roll"
    finally:
        set_language("fr")


def test_a_blind_rollers_own_line_is_a_hidden_line_without_dice() -> None:
    """A blind roll read by its roller: marked hidden (the page draws no dice box), no
    dice, no source, no verdict but the words saying the GM alone sees them."""
    install(web_adapters())
    set_language("en")
    try:
        entry = {
            "system": "tunnels",
            "kind": "test",
            "params": {"trait": "Force", "blessed": False, "cursed": False},
            "faces": [[4, 5, 6]],
            "outcome": {"successes": 3},
            "source": "committed",
            "decisions": [{"mode": "blindroll", "seat": "p1"}],
        }
        line = log_line(entry, "blindroll", hidden=True, key="k", viewer="p1")
    finally:
        set_language("fr")
    assert line.hidden is True
    assert (line.streams, line.source, line.batches) == ([], "", None)
    assert line.verdict.words == "Blind roll: only the GM sees the dice."
    assert line.verdict.passed is None and line.verdict.detail == ""
