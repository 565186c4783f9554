"""The dice line and chat (issue 17): ``/r``, ``/gr``, ``/w``, chat, over HTTP and the WebSocket.

Secrecy is checked on the sockets themselves, as for secret sheet rolls: a seat that may
not read a line receives nothing for it, so the next message it gets is the next line
it may read.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.campaign.chain import verify_log
from meneur.campaign.replay import replay_entries
from meneur.campaign.summary import entry_summary
from meneur.web.chat import MAX_LINE, DiceLine, Help, Say, Whisper, parse_line
from meneur.web.live import audience
from meneur.web.state import WebSettings
from web.test_web_live import receive
from web.web_helpers import Table, make_table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}
FETCH = {"x-requested-with": "fetch"}


def say(table: Table, base: str, line: str, **extra: str) -> Any:
    """Send ``line`` as the page's script does; the JSON answer (and its status)."""
    data = {"csrf": table.csrf(base), "line": line, **extra}
    answer = table.client.post(f"{base}/say", data=data, headers=FETCH)
    return answer.status_code, answer.json()


def said(table: Table, base: str, line: str, **extra: str) -> str:
    status, body = say(table, base, line, **extra)
    assert status == 200, body
    return str(body["id"])


def seats(table: Table) -> tuple[str, str, str]:
    alice, bob, carol = table.join("Alice"), table.join("Bob"), table.join("Carol")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.create(bob, "tunnels", "Gros Jean", **TUNNELS)
    return alice, bob, carol


def test_a_line_is_read_as_foundrys_commands() -> None:
    assert parse_line("  Bonsoir\tà tous ") == Say("Bonsoir à tous")
    assert parse_line("/r 4d6kh3") == DiceLine("4d6kh3", "public")
    assert parse_line("/R 2d6+3", "selfroll") == DiceLine("2d6+3", "selfroll")
    assert parse_line("/gr d20", "selfroll") == DiceLine("d20", "gmroll")
    assert parse_line("/br 3d6") == DiceLine("3d6", "blindroll")
    assert parse_line("/sr 3d6") == DiceLine("3d6", "selfroll")
    assert parse_line("/w Pip on y va ?") == Whisper("Pip on y va ?")
    assert parse_line("/help") == Help() and parse_line("/x 3") == Help("/x")
    # dice rolled at the table, after « = »; a comparison's « = » stays the expression's
    assert parse_line("/r 2d6+3 = 4 5") == DiceLine("2d6+3", "public", "4 5")
    assert parse_line("/gr 4d6kh3=6,5,2,1") == DiceLine("4d6kh3", "gmroll", "6,5,2,1")
    assert parse_line("/r 6d10cs>=8") == DiceLine("6d10cs>=8", "public")
    assert parse_line("/r 3d10cs>=8 = 9 2 8") == DiceLine("3d10cs>=8", "public", "9 2 8")


def test_whisper_audience_sender_target_and_gm_only() -> None:
    def seen(viewer: str) -> str | None:
        return audience("whisper", "p1", viewer, viewer_is_gm=viewer == "gm", to="p2")

    assert [seen(v) for v in ("gm", "p1", "p2", "p3")] == ["full", "full", "full", None]
    # a mode the table does not know is read by nobody (never public by default)
    assert audience("secret", "p1", "p3", viewer_is_gm=False) is None
    assert audience("secret", "p1", "p1", viewer_is_gm=False) is None


def test_r_4d6kh3_lands_in_the_log_with_its_faces_and_total(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob, _carol = seats(table)
    with (
        table.client.websocket_connect(f"{table.gm}/ws") as gm,
        table.client.websocket_connect(f"{bob}/ws") as other,
    ):
        receive(gm), receive(other)
        key = said(table, alice, "/r 4d6kh3")
        shown, theirs = receive(gm), receive(other)
    [entry] = table.store.rolls()
    [faces] = entry["faces"]
    assert len(faces) == 4 and all(1 <= face <= 6 for face in faces)
    assert entry["outcome"]["total"] == sum(sorted(faces)[1:])
    assert (entry["system"], entry["kind"], entry["who"]) == ("generic", "roll", "Alice")
    assert entry["params"]["expression"] == "4d6kh3" and entry["source"] == "secure"
    assert shown["id"] == theirs["id"] == key
    html = shown["html"]
    assert "4d6kh3" in html and f"Total {entry['outcome']['total']}" in html
    assert html.count('class="die') == 4 and html.count('class="die dropped"') == 1
    page = table.client.get(alice).text
    assert f'data-id="{key}"' in page and 'class="die dropped"' in page
    # the entry replays as the CLI's own `meneur roll` does
    (tmp_path / "log.json").write_bytes(table.client.get(f"{table.gm}/log.json").content)
    replay = invoke(capsys, "verify", str(tmp_path / "log.json"), "--replay", "--lang", "en")
    assert replay.status == 0, replay.out + replay.err
    assert "1 of 1 entries replay" in replay.out


def test_r_draws_from_the_open_sessions_committed_dice(table: Table) -> None:
    """Issue 16: while a game session commits the dice, a /r roll draws from them too."""
    alice, _bob, _carol = seats(table)
    csrf = table.csrf(table.gm)
    assert table.client.post(f"{table.gm}/session/start", data={"csrf": csrf}).status_code == 200
    said(table, alice, "/r 3d6+2")
    said(table, table.gm, "/gr 2d10")
    said(table, alice, "Et hop")
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    rolls = [e for e in table.store.rolls() if e["kind"] == "roll"]
    assert [e["source"] for e in rolls] == ["committed", "committed"]
    report = verify_log(table.store.export_log())
    assert report.entries == 3 and report.recomputed == 2 and report.unrevealed == 0
    assert replay_entries(table.store.rolls()).problems == ()


def test_r_with_typed_faces_logs_the_dice_rolled_at_the_table(table: Table) -> None:
    """``/r EXPR = FACES``: physical dice, used in order, none missing or left over, as
    ``meneur roll --faces``; refused while the dice are committed if the GM takes none."""
    alice, _bob, _carol = seats(table)
    said(table, alice, "/r 4d6kh3 = 6 5 2 1")
    [entry] = table.store.rolls()
    assert entry["faces"] == [[6, 5, 2, 1]] and entry["outcome"]["total"] == 13
    assert entry["source"] == "physical" and entry["params"]["expression"] == "4d6kh3"
    for line, words in (
        ("/r 2d6 = 4", "Pas assez de dés saisis"),
        ("/r 2d6 = 4 5 6", "Trop de dés saisis"),
        ("/r 2d6 = 4 9", "impossible"),
    ):
        status, body = say(table, alice, line)
        assert status == 400 and words in body["error"], body
    assert len(table.store.rolls()) == 1  # nothing logged for a refused line
    csrf = table.csrf(table.gm)
    table.client.post(f"{table.gm}/seats", data={"csrf": csrf, "action": "no_physical"})
    said(table, alice, "/r 2d6 = 4 5")  # no session open: typed dice are still taken
    table.client.post(f"{table.gm}/session/start", data={"csrf": csrf})
    status, body = say(table, alice, "/r 2d6 = 4 5")
    assert status == 400 and "engagés" in body["error"], body
    said(table, alice, "/r 2d6")
    assert [e["source"] for e in table.store.rolls()] == ["physical", "physical", "committed"]
    assert replay_entries(table.store.rolls()).problems == ()


@pytest.mark.parametrize(
    ("line", "gm_sees", "roller_sees", "other_sees"),
    [
        ("/gr 2d6", "full", "full", None),
        ("/br 2d6", "full", "hidden", None),
        ("/sr 2d6", None, "full", None),
    ],
)
def test_secret_r_lines_never_reach_a_seat_that_may_not_see_them(
    table: Table, line: str, gm_sees: str | None, roller_sees: str, other_sees: None
) -> None:
    alice, bob, _carol = seats(table)
    with (
        table.client.websocket_connect(f"{table.gm}/ws") as gm,
        table.client.websocket_connect(f"{alice}/ws") as mine,
        table.client.websocket_connect(f"{bob}/ws") as other,
    ):
        for socket in (gm, mine, other):
            receive(socket)
        secret = said(table, alice, line)
        public = said(table, bob, "Je passe")
        for socket, sees in ((gm, gm_sees), (mine, roller_sees), (other, other_sees)):
            first = receive(socket)
            if sees is None:
                assert first["id"] == public  # the secret roll was never sent
                continue
            assert first["id"] == secret
            dice = first["html"].count('class="die')
            assert dice == (0 if sees == "hidden" else 2)
            assert receive(socket)["id"] == public
    entries = table.client.get(f"/api{bob}/log").json()["entries"]
    assert [e["id"] for e in entries] == [public]


def test_the_mode_beside_the_line_applies_to_r(table: Table) -> None:
    alice, bob, _carol = seats(table)
    said(table, alice, "/r d20", mode="gmroll")
    assert table.store.rolls()[-1]["decisions"] == [{"mode": "gmroll", "seat": "p1"}]
    assert table.client.get(f"/api{bob}/log").json()["entries"] == []
    status, body = say(table, alice, "/r d20", mode="everyone")
    assert status == 400 and "everyone" in body["error"]


def test_a_whisper_reaches_only_its_target_and_the_gm(table: Table) -> None:
    alice, bob, carol = seats(table)
    with (
        table.client.websocket_connect(f"{table.gm}/ws") as gm,
        table.client.websocket_connect(f"{alice}/ws") as sender,
        table.client.websocket_connect(f"{bob}/ws") as target,
        table.client.websocket_connect(f"{carol}/ws") as third,
    ):
        for socket in (gm, sender, target, third):
            receive(socket)
        whisper = said(table, alice, "/w Bob on passe par la cave")
        public = said(table, bob, "D'accord")
        mine, theirs, gms = receive(sender), receive(target), receive(gm)
        assert mine["id"] == theirs["id"] == gms["id"] == whisper
        assert "Vous chuchotez à Bob (Gros Jean)" in mine["html"]
        assert "Alice (Brindille) vous chuchote" in theirs["html"]
        assert "Alice (Brindille) chuchote à Bob (Gros Jean)" in gms["html"]
        assert all("on passe par la cave" in m["html"] for m in (mine, theirs, gms))
        # the third seat receives nothing for it: its next message is the public line
        assert receive(third)["id"] == public
        assert all(receive(s)["id"] == public for s in (gm, sender, target))
    entries = table.client.get(f"/api{carol}/log").json()["entries"]
    assert [e["id"] for e in entries] == [public]
    assert "cave" not in table.client.get(carol).text
    assert "Vous chuchotez à Bob" in table.client.get(alice).text
    assert "chuchote à Bob" in table.client.get(table.gm).text
    [entry] = [e for e in table.store.rolls() if e["decisions"][0]["mode"] == "whisper"]
    assert entry["decisions"] == [{"mode": "whisper", "seat": "p1", "to": "p2"}]
    assert entry["faces"] == [] and entry["outcome"] == {"text": "on passe par la cave"}


def test_whispers_name_a_seat_a_character_or_the_gm(table: Table) -> None:
    alice, bob, _carol = seats(table)
    said(table, alice, "/w gros jean salut")  # a character, several words, any case
    said(table, alice, '/w "Gros Jean" re')
    said(table, bob, "/w MJ une question")
    said(table, table.gm, "/w Brindille une réponse")
    targets = [e["decisions"][0]["to"] for e in table.store.rolls()]
    assert targets == ["p2", "p2", "gm", "p1"]
    assert "Vous chuchotez au MJ" in table.client.get(bob).text
    assert "Le MJ vous chuchote" in table.client.get(alice).text


def test_two_seats_of_one_name_are_told_apart_by_character_or_number(table: Table) -> None:
    first, second, caller = table.join("Bastien"), table.join("Bastien"), table.join("Léa")
    table.create(first, "tunnels", "Pip", **TUNNELS)
    table.create(second, "tunnels", "Zed", **TUNNELS)
    status, body = say(table, caller, "/w Bastien coucou")
    assert status == 400
    assert body["error"] == (
        "2 places répondent au nom de Bastien : écrivez /w Bastien#1 (Pip), /w Bastien#2 (Zed)."
    )
    said(table, caller, "/w Zed coucou")
    said(table, caller, "/w Bastien#1 coucou")
    assert [e["decisions"][0]["to"] for e in table.store.rolls()] == ["p2", "p1"]


def test_whispers_refused_in_one_clear_line(table: Table) -> None:
    alice, _bob, _carol = seats(table)
    for line, words in (
        ("/w Zorglub salut", "Personne à cette table ne s'appelle Zorglub"),
        ("/w Bob", "Écrivez le message après le nom"),
        ("/w", "Écrivez un nom et un message après /w"),
        ("/w Alice moi", "Vous ne pouvez pas vous chuchoter à vous-même."),
    ):
        status, body = say(table, alice, line)
        assert status == 400 and words in body["error"], body
    english = table.client.post(
        f"{alice}/say?lang=en",
        data={"csrf": table.csrf(alice), "line": "/w Zorglub hi"},
        headers=FETCH,
    )
    assert english.json()["error"] == (
        "Nobody at this table answers to Zorglub: write a player's or a character's name."
    )
    assert table.store.rolls() == []


def test_chat_is_shown_as_text_never_as_markup(table: Table) -> None:
    alice, bob, _carol = seats(table)
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> & co'
    with table.client.websocket_connect(f"{bob}/ws") as other:
        receive(other)
        said(table, alice, hostile)
        html = receive(other)["html"]
    for text in (html, table.client.get(bob).text):
        assert "<script>alert" not in text and "<img src=x" not in text
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img" in text
    [entry] = table.store.rolls()
    assert entry["outcome"]["text"] == hostile  # kept as typed
    # what `meneur log` shows, as plain text, its field named in the reader's language
    assert entry_summary(entry) in ("texte : " + hostile, "text: " + hostile)


def test_lines_are_bounded_and_refused_clearly(table: Table) -> None:
    alice, _bob, _carol = seats(table)
    longest = "é" * MAX_LINE
    said(table, alice, longest)
    for line, words in (
        (longest + "!", "Une ligne tient en 500 caractères au plus (501 tapés)."),
        ("ding\x07", "ni caractère de contrôle ni retour à la ligne"),
        ("une\nautre", "ni caractère de contrôle ni retour à la ligne"),
        ("abc\u202edcba", "ni caractère de contrôle"),
        ("   ", "Tapez un message"),
        ("/r", "Écrivez les dés après /r"),
        ("/r 2d", "2d"),
        ("/r 1001d6", "1000"),
    ):
        status, body = say(table, alice, line)
        assert status == 400 and words in body["error"], (line, body)
    assert len(table.store.rolls()) == 1
    huge = table.client.post(
        f"{alice}/say", data={"csrf": table.csrf(alice), "line": "x" * 40_000}, headers=FETCH
    )
    assert huge.status_code == 413


def test_help_and_unknown_commands_answer_with_the_help(table: Table) -> None:
    alice, _bob, _carol = seats(table)
    status, body = say(table, alice, "/help")
    assert status == 200 and body["help"].startswith("/r 2d6+3 lance les dés")
    assert "le MJ lit tous les chuchotements" in body["help"]
    status, body = say(table, alice, "/roulette 3")
    assert status == 200 and body["help"].startswith("/roulette n'est pas une commande.")
    assert table.store.rolls() == []


def test_without_javascript_the_help_is_shown_on_the_table_page(table: Table) -> None:
    """A plain form post of ``/help`` (no script to read the JSON): the table page
    again, the help where the script would show it; not a bare redirect that shows
    nothing. Nothing is logged."""
    alice, _bob, _carol = seats(table)
    answer_line = re.compile(r'<p class="small say-answer" id="say-answer"[^>]*>([^<]*)</p>')
    for line, start in [
        ("/help", "/r 2d6+3 lance les dés"),
        ("/roulette 3", "/roulette n'est pas une commande."),
    ]:
        data = {"csrf": table.csrf(alice), "line": line}
        page = table.client.post(f"{alice}/say", data=data, follow_redirects=False)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        shown = answer_line.search(page.text)
        assert shown and html.unescape(shown.group(1)).startswith(start), page.text[-2000:]
        assert 'id="log"' in page.text and f'href="{alice}?lang=en"' in page.text
    assert table.store.rolls() == []


def test_a_line_needs_the_seats_csrf_token(table: Table) -> None:
    alice, _bob, _carol = seats(table)
    answer = table.client.post(f"{alice}/say", data={"csrf": "0" * 40, "line": "hop"})
    assert answer.status_code == 403 and table.store.rolls() == []
    back = table.client.post(
        f"{alice}/say", data={"csrf": table.csrf(alice), "line": "hop"}, follow_redirects=False
    )
    assert back.status_code == 303 and back.headers["location"] == alice  # works without JS


@pytest.fixture
def slow_table(tmp_path: Path) -> Iterator[Table]:
    yield from make_table(tmp_path, WebSettings(chat_rate=0.001, chat_burst=3))


def test_lines_are_rate_limited_per_seat(slow_table: Table) -> None:
    table = slow_table
    alice, bob = table.join("Alice"), table.join("Bob")
    for number in range(3):
        said(table, alice, f"ligne {number}")
    status, body = say(table, alice, "une de trop")
    assert status == 429 and body["error"] == "Trop de lignes à la fois : patientez un instant."
    said(table, bob, "moi je peux")  # each seat its own bucket
    assert len(table.store.rolls()) == 4


def test_downloads_and_verify_with_whispers(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bob, carol = seats(table)
    said(table, alice, "Bonsoir")  # 1: everyone
    said(table, alice, "/w Bob psst")  # 2: Alice, Bob, the GM
    said(table, table.gm, "/w Carol un secret")  # 3: the GM, Carol
    said(table, bob, "/gr 3d6")  # 4: Bob, the GM
    said(table, carol, "/r 2d6")  # 5: everyone
    copies = {}
    for name, base in (("gm", table.gm), ("alice", alice), ("bob", bob), ("carol", carol)):
        answer = table.client.get(f"{base}/log.json")
        (tmp_path / f"{name}.json").write_bytes(answer.content)
        copies[name] = [entry["seq"] for entry in answer.json()["entries"]]
    assert copies == {
        "gm": [1, 2, 3, 4, 5],
        "alice": [1, 2, 5],
        "bob": [1, 2, 4, 5],
        "carol": [1, 3, 5],
    }
    assert "psst" not in (tmp_path / "carol.json").read_text()
    for name, missing in (("gm", 0), ("alice", 2), ("bob", 1), ("carol", 2)):
        checked = invoke(capsys, "verify", str(tmp_path / f"{name}.json"), "--json")
        assert checked.status == 0, checked.err
        assert checked.json()["missing"] == missing
        replay = invoke(capsys, "verify", str(tmp_path / f"{name}.json"), "--replay")
        assert replay.status == 0, replay.out + replay.err


def test_a_seat_is_reached_by_its_number_alone(table: Table) -> None:
    """``/w #N``: the seat's number (the one the GM sees beside each seat) reaches that
    seat, with no name before it; the GM has no number and is never among them."""
    alice, bob, _carol = seats(table)
    said(table, bob, "/w #1 par ici")
    said(table, alice, "/w #2 j'arrive")
    assert [e["decisions"][0]["to"] for e in table.store.rolls()] == ["p1", "p2"]


def test_a_whispered_message_may_quote_words(table: Table) -> None:
    """Only a line that starts with a quote names its addressee between quotes: quotes
    later in the message are its own."""
    alice, _bob, _carol = seats(table)
    said(table, alice, '/w Bob il a dit "non" deux fois')
    [entry] = table.store.rolls()
    assert entry["decisions"][0]["to"] == "p2"
    assert entry["outcome"] == {"text": 'il a dit "non" deux fois'}


def test_nobody_answering_is_named_by_the_first_word_alone(table: Table) -> None:
    """The refusal names what was looked for last, the first word alone, not the words
    of the message after it."""
    alice, _bob, _carol = seats(table)
    answer = table.client.post(
        f"{alice}/say?lang=en",
        data={"csrf": table.csrf(alice), "line": "/w Zorglub hi there friend"},
        headers=FETCH,
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "Nobody at this table answers to Zorglub: write a player's or a character's name."
    )
    assert table.store.rolls() == []


def test_an_unknown_command_is_named_in_its_first_30_characters() -> None:
    """The help after an unknown command echoes it, cut to 30 characters (a line may
    hold 500)."""
    assert parse_line("/" + "x" * 40 + " 3") == Help("/" + "x" * 30)
    assert parse_line("/" + "x" * 30) == Help("/" + "x" * 30)


@pytest.mark.parametrize("name", ["MJ", "le mj", "Le MJ", "GM", "Meneur", "Maître du jeu"])
def test_no_player_joins_under_the_gms_name(table: Table, name: str) -> None:
    """A player who joined as « Le MJ » whispered « Le MJ vous chuchote », the very words
    of the GM's own whisper: the GM's words are no player's name."""
    answer = table.client.post(table.invite, data={"name": name}, follow_redirects=False)
    assert answer.status_code == 400
    assert "ce que la table appelle son MJ" in html.unescape(answer.text)


def test_no_player_joins_under_a_name_with_brackets(table: Table) -> None:
    """« Bastien (Zed) » read as Bastien playing Zed: brackets say a seat's characters."""
    answer = table.client.post(table.invite, data={"name": "Bastien (Zed)"}, follow_redirects=False)
    assert answer.status_code == 400
    assert "Un nom de joueur n'a pas de parenthèses" in html.unescape(answer.text)


def test_the_gms_lines_carry_a_mark_no_player_can_write(table: Table) -> None:
    """The GM's line and whisper show the GM's mark; a player's line, whatever it says,
    does not."""
    alice, bob, _carol = seats(table)
    said(table, table.gm, "Bienvenue")
    said(table, table.gm, "/w Brindille psst")
    said(table, bob, "MJ : je suis le MJ")
    page = table.client.get(alice).text
    marked = r'<span class="badge gm"[^>]*>MJ</span>\s*<span class="who">([^<]*)</span>'
    marks = re.findall(marked, page)
    assert sorted(html.unescape(m) for m in marks) == ["Le MJ vous chuchote", "MJ"]
    assert "Bob (Gros Jean)" in page
