"""The live table through FastAPI's TestClient: tables, seats, rolls, odds, security."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from meneur.campaign.chain import verify_log
from meneur.campaign.store import Store
from meneur.campaign.summary import entry_summary
from meneur.systems.registry import find_system
from meneur.systems.tunnels.rules import TestParams
from meneur.web.state import WebSettings
from meneur.web.tables import Tables
from web.web_helpers import TUNNELS, Table, make_table


def test_first_serve_makes_a_campaign_and_a_table_with_long_tokens(tmp_path: Path) -> None:
    """Zero setup: an empty database gets a 'default' campaign and its table."""
    store = Store(f"sqlite:///{tmp_path / 'empty.db'}")
    table = Tables(store).default()
    assert table.campaign == "default"
    assert len(table.gm_token) >= 43 and len(table.invite_token) >= 43  # >= 256 bits
    assert Tables(store).default() == table  # the same links at the next start
    store.close()


def test_wrong_tokens_find_nothing(table: Table) -> None:
    assert table.client.get(table.gm).status_code == 200
    wrong = table.gm[:-4] + "AAAA"
    assert table.client.get(wrong).status_code == 404
    assert table.client.get(f"/t/{table.info.id + 1}/{table.info.gm_token}").status_code == 404
    assert table.client.get(table.invite[:-3] + "xyz").status_code == 404
    assert table.client.get(f"/t/{table.info.id}/{table.info.invite_token}").status_code == 404


def test_a_table_number_too_large_finds_nothing(table: Table) -> None:
    """``/t/99999999999999999999/...`` overflowed the database's integer: HTTP 500 and a
    traceback in the log on every route, where a table that does not exist is a 404."""
    huge = "9" * 20
    token = table.info.gm_token
    for path in (
        f"/t/{huge}/{token}",
        f"/t/{huge}/{token}/log.json",
        f"/api/t/{huge}/{token}/log",
        f"/t/{huge}/join/{table.info.invite_token}",
        f"/t/{2**31}/{token}",
    ):
        assert table.client.get(path).status_code == 404, path
    answer = table.client.post(f"/api/t/{huge}/{token}/roll", json={"character": "x"})
    assert answer.status_code == 404
    from starlette.websockets import WebSocketDisconnect

    url = f"/t/{huge}/{token}/ws"
    with pytest.raises(WebSocketDisconnect) as closed, table.client.websocket_connect(url) as ws:
        ws.receive_text()
    assert closed.value.code == 1008


def test_a_table_number_of_thousands_of_digits_is_refused_not_a_crash(table: Table) -> None:
    """A form posted to ``/t/<5,000 digits>/...``: the refusal's page read the table's
    number with int(), which Python refuses past 4,300 digits: HTTP 500 and a traceback
    where the number is refused like any other value (no page of a table to come back to)."""
    huge = "9" * 5000
    browser = {"accept": "text/html"}
    for path in (
        f"/t/{huge}/{table.info.gm_token}/roll",
        f"/t/{huge}/join/{table.info.invite_token}",
    ):
        answer = table.client.post(path, data={"name": "Zed"}, headers=browser)
        assert answer.status_code == 422, (path[-30:], answer.text[-300:])
        assert 'id="log"' not in answer.text  # the short error page: no table is there
        assert "un nombre entier est attendu" in answer.text  # not pydantic's English
        assert "pour le numéro de la table" in answer.text  # not its code name, table_id
    assert Tables(table.store).players(table.info.id) == []


def test_a_player_joins_creates_a_tunnels_character_and_rolls(table: Table) -> None:
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    page = table.client.get(player).text
    assert "Brindille" in page and "Dextérité" in page
    result = table.roll(player, "Brindille", "Dextérité", threshold=2)
    entry = result["entry"]
    assert isinstance(entry, dict)
    assert entry["who"] == "Brindille" and entry["system"] == "tunnels"
    assert entry["params"]["dice"] == 4 and entry["params"]["threshold"] == 2
    assert entry["decisions"] == [{"mode": "public"}]  # no seat id, no chain position
    assert not {"seq", "hash", "prev_hash", "counter", "draws"} & set(entry)
    [logged] = table.store.rolls()
    assert logged["faces"] == entry["faces"] and logged["decisions"][0]["seat"].startswith("p")


def test_the_odds_beside_the_button_are_the_checks_exact_odds(table: Table) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    odds = table.client.get(
        f"/api{table.gm}/odds",
        params={"character": "Brindille", "threshold": 3, "blessed": "true"},
    ).json()
    check = find_system("tunnels").checks()["test"]
    dist = check.odds(TestParams(dice=4, threshold=3, blessed=True))
    exact = dist.p_where(lambda key: key[0] >= 3 and not key[2])
    assert odds["traits"]["Dextérité"]["exact"] == f"{exact.numerator}/{exact.denominator}"
    page = table.client.get(table.gm, params={"threshold": 3, "blessed": "true"}).text
    assert f"{float(exact) * 100:.1f}".replace(".", ",") + " %" in page


def test_odds_asked_with_an_option_the_roll_refuses_are_refused_not_the_defaults(
    table: Table,
) -> None:
    """A script asking the chances at threshold 3 with a push of 4 (tiers go 0-3) is told
    which option is wrong (400), not given the chances of the default options (threshold
    2) as if it had asked for them; the page leaves the value out and says so. A
    threshold the rule refuses (T-3: at least 1) answers each chance ``null`` and why."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    url = f"/api{table.gm}/odds"
    asked = {"character": "Brindille", "threshold": "3"}
    refused = table.client.get(url, params={**asked, "push": "4"})
    assert refused.status_code == 400
    assert refused.json()["error"] == (
        "Valeur invalide pour Dépassement avant le jet : doit valoir au plus 3."
    )
    check = find_system("tunnels").checks()["test"]
    at_3 = check.odds(TestParams(dice=4, threshold=3)).p_where(lambda k: k[0] >= 3 and not k[2])
    answered = table.client.get(url, params=asked).json()["traits"]["Dextérité"]["exact"]
    assert answered == f"{at_3.numerator}/{at_3.denominator}"
    assert table.client.get(url, params=asked).json()["refused"] == ""
    assert table.client.get(table.gm, params={**asked, "push": "4"}).status_code == 200
    zero = table.client.get(url, params={**asked, "threshold": "0"}).json()
    assert set(map(str, zero["traits"].values())) == {"{'chance': None, 'exact': None}"}
    assert zero["refused"] == "Un seuil vaut au moins 1, pas 0."


def test_a_player_rolls_only_for_their_own_character(table: Table) -> None:
    alice, bob = table.join("Alice"), table.join("Bob")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.create(bob, "tunnels", "Gros Jean", **TUNNELS)
    refused = table.client.post(
        f"/api{bob}/roll", json={"character": "Brindille", "trait": "Force"}
    )
    assert refused.status_code == 400
    assert "Brindille" in refused.json()["error"]
    assert table.client.get(f"/api{bob}/odds", params={"character": "Brindille"}).status_code == 403
    assert "Brindille" not in table.client.get(bob).text.split("Roll log")[0].split("Journal")[0]
    # the GM acts for everyone
    assert table.roll(table.gm, "Brindille", "Force")["entry"]
    # a character played by another cannot be picked
    carol = table.join("Carol")
    data = {"csrf": table.csrf(carol), "action": "pick", "character": "Brindille"}
    assert table.client.post(f"{carol}/character", data=data).status_code == 400


def test_forms_need_the_csrf_token_and_the_same_origin(table: Table) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    form = {"character": "Brindille", "trait": "Force"}
    assert table.client.post(f"{table.gm}/roll", data=form).status_code == 403
    good = {**form, "csrf": table.csrf(table.gm)}
    foreign = table.client.post(
        f"{table.gm}/roll", data=good, headers={"Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403
    assert (
        table.client.post(f"{table.gm}/roll", data=good, follow_redirects=False).status_code == 303
    )
    # the JSON API takes JSON only (a cross-site form cannot send it)
    as_form = table.client.post(f"/api{table.gm}/roll", data=form)
    assert as_form.status_code == 415
    assert len(table.store.rolls()) == 1


def test_markup_in_names_is_shown_as_text(table: Table) -> None:
    player = table.join("<b>Zed</b>")
    table.create(player, "tunnels", "<script>alert(1)</script>", **TUNNELS)
    table.roll(player, "<script>alert(1)</script>", "Force")
    for page in (table.client.get(player).text, table.client.get(table.gm).text):
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;Zed&lt;/b&gt;" in table.client.get(table.gm).text
    headers = table.client.get(table.gm).headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin"  # never to another site


def test_a_name_with_terminal_markup_is_a_clear_400(table: Table) -> None:
    """Sheets refuse [ ] in names (the CLI would read them as styles): no 500, nothing made."""
    player = table.join("Bob")
    data = {"csrf": table.csrf(player), "action": "create", "system": "tunnels", "name": "a[/]b"}
    response = table.client.post(f"{player}/character", data={**data, **TUNNELS})
    assert response.status_code == 400, response.text
    assert "name" in response.text and "Traceback" not in response.text
    assert table.store.characters(campaign=table.info.campaign) == []


def test_limits_on_bodies_and_rate(tmp_path: Path) -> None:
    for table in make_table(tmp_path, WebSettings(roll_rate=0.01, roll_burst=2)):
        table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
        big = table.client.post(
            f"/api{table.gm}/roll",
            content=b"x" * 40_000,
            headers={"content-type": "application/json"},
        )
        assert big.status_code == 413
        codes = [
            table.client.post(
                f"/api{table.gm}/roll", json={"character": "Brindille", "trait": "Force"}
            ).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 429, 429]
        too_long = table.client.post(
            f"/api{table.gm}/roll", json={"character": "B" * 500, "trait": "Force"}
        )
        assert too_long.status_code == 400


def test_no_stack_trace_in_any_response(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    app_state = table.client.app.state.web  # type: ignore[attr-defined]

    def broken(*args: object) -> None:
        raise RuntimeError("secret internals /home/gm/.local")

    monkeypatch.setattr(app_state.roller, "roll", broken)
    for response in (
        table.client.post(
            f"/api{table.gm}/roll", json={"character": "Brindille", "trait": "Force"}
        ),
        table.client.post(
            f"{table.gm}/roll",
            data={"character": "Brindille", "trait": "Force", "csrf": table.csrf(table.gm)},
        ),
    ):
        assert response.status_code == 500
        assert "Traceback" not in response.text and "secret internals" not in response.text
    bad = table.client.post(
        f"/api{table.gm}/roll", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 400 and "Traceback" not in bad.text
    assert table.client.get(f"/t/abc/{table.info.gm_token}").status_code == 422


def test_pages_in_french_and_english(table: Table) -> None:
    assert "Journal des jets" in table.client.get(table.gm).text
    english = table.client.get(table.gm, params={"lang": "en"})
    assert "Roll log" in english.text
    assert "Roll log" in table.client.get(table.gm).text  # remembered in a cookie
    table.client.cookies.clear()
    accept = table.client.get(table.gm, headers={"accept-language": "en-GB,en;q=0.8"})
    assert "Roll log" in accept.text


def test_a_label_s_colon_as_each_language_writes_it(table: Table) -> None:
    """French sets a space before a colon, English none: the colon is part of the message,
    not of the page (« Players : » used to show in English)."""

    def words(page: str, lang: str) -> str:
        return re.sub(r"<[^>]*>", "", table.client.get(page, params={"lang": lang}).text)

    gm_fr, gm_en = words(table.gm, "fr"), words(table.gm, "en")
    join_fr, join_en = words(table.invite, "fr"), words(table.invite, "en")
    assert "Joueurs : personne pour le moment" in gm_fr and "Players: nobody yet" in gm_en
    assert "Campagne : " in join_fr and "Campaign: " in join_en
    assert " :" not in gm_en and " :" not in join_en


def test_chances_read_as_the_page_s_language_writes_them(table: Table) -> None:
    """« 50,0 % » in French, "50.0 %" in English (the page's filter used to put a comma in
    both): Force 3, the text's example, threshold 2 without explosion (T-3)."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    asked = f"{table.gm}?threshold=2&explode=never"
    french = table.client.get(asked).text
    english = table.client.get(f"{asked}&lang=en").text
    chance = re.compile(r'<span class="chance"[^>]*>([^<]*)</span>')
    assert "50,0 %" in chance.findall(french) and "50.0 %" not in french
    assert "50.0 %" in chance.findall(english)


def test_physical_dice_typed_by_the_player(table: Table) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    entry = table.roll(table.gm, "Brindille", "Force", faces="4 5 1", explode="never")["entry"]
    assert isinstance(entry, dict)
    assert entry["source"] == "physical" and entry["faces"] == [[4, 5, 1]]
    short = table.client.post(
        f"/api{table.gm}/roll",
        json={"character": "Brindille", "trait": "Force", "faces": "4", "explode": "never"},
    )
    assert short.status_code == 400 and "manque" in short.json()["error"]


def test_typed_faces_are_the_rollers_dice_only_in_a_two_stream_legendes_test(
    table: Table,
) -> None:
    """``web/rolls.py``: typed faces are the roller's own dice (the first stream); the
    other streams of a check (the opposition of a Légendes test) are still drawn, one
    stream each, by the machine: the entry logs exactly the check's two streams."""
    table.create(table.gm, "legendes", "Héros", legendary="Épée", secondary="Ruse")
    entry = table.roll(table.gm, "Héros", "Épée", level="elite", faces="6 5 4")["entry"]
    assert isinstance(entry, dict) and entry["source"] == "physical"
    assert entry["params"]["dice"] == 3 and entry["params"]["vs_dice"] == 1
    assert len(entry["faces"]) == 2 and entry["faces"][0] == [6, 5, 4]
    assert len(entry["faces"][1]) == 1 and 1 <= entry["faces"][1][0] <= 6


def test_committed_dice_shown_then_revealed_and_verifiable(table: Table) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    assert table.client.post(f"{table.gm}/session/start", data={"csrf": csrf}).status_code == 200
    [session] = table.store.game_sessions()
    player = table.join("Alice")
    assert session.commitment in table.client.get(player).text
    for _ in range(3):
        assert table.roll(table.gm, "Brindille", "Force")["entry"]["source"] == "committed"
    for name, health in (("Brindille", ""), ("Orque", "4")):  # a melee exchange too
        table.client.post(
            f"{table.gm}/combat",
            data={"csrf": csrf, "action": "add", "name": name, "health": health},
        )
    table.client.post(f"{table.gm}/combat", data={"csrf": csrf, "action": "exchange"})
    assert table.store.rolls()[-1]["source"] == "committed"
    # a player cannot reveal
    refused = table.client.post(f"{player}/session/reveal", data={"csrf": table.csrf(player)})
    assert refused.status_code == 403
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    [revealed] = table.store.game_sessions()
    assert revealed.seed and revealed.seed in table.client.get(player).text
    report = verify_log(table.store.export_log())  # raises on the first bad entry
    assert report.entries == 4 and report.recomputed == 4 and report.unrevealed == 0


SYSTEM_FORMS = {
    "obscur": ({}, "Agilité", {"difficulty": 1}),
    "krasses": (
        {"characteristics": "Force=2", "skills": "Bagarre=3"},
        "Bagarre",
        {"difficulty": 12},
    ),
    "legendes": ({"legendary": "Épée", "secondary": "Ruse"}, "Épée", {"level": "elite"}),
}


@pytest.mark.parametrize("system", sorted(SYSTEM_FORMS))
def test_the_other_systems_main_test(table: Table, system: str) -> None:
    fields, trait, options = SYSTEM_FORMS[system]
    table.create(table.gm, system, "Héros", **fields)
    odds = table.client.get(f"/api{table.gm}/odds", params={"character": "Héros", **options})
    assert odds.status_code == 200, odds.text
    chance = odds.json()["traits"][trait]["chance"]
    assert 0 < chance < 1
    entry = table.roll(table.gm, "Héros", trait, **options)["entry"]
    assert isinstance(entry, dict) and entry["system"] == system
    assert "passed" in entry["outcome"] or "winner" in entry["outcome"]
    assert "Héros" in table.client.get(table.gm).text


def test_legendes_motivation_moves_the_odds_as_the_check_says(table: Table) -> None:
    """L-12: acting toward the motivation adds its bonus; the odds shown are the check's."""
    from meneur.systems.legendes.rules import OpposedParams

    table.create(table.gm, "legendes", "Aube", legendary="Épée")

    def chance(**options: str) -> str:
        answer = table.client.get(
            f"/api{table.gm}/odds", params={"character": "Aube", "level": "heroique", **options}
        )
        return str(answer.json()["traits"]["Épée"]["exact"])

    check = find_system("legendes").checks()["test"]
    for motivation in (False, True):
        params = OpposedParams(dice=3, vs_dice=2, vs_level="heroique", motivation=motivation)
        exact = check.odds(params).p_where(lambda key: str(key).startswith("win:"))
        shown = chance(motivation="true") if motivation else chance()
        assert shown == f"{exact.numerator}/{exact.denominator}"
    entry = table.roll(table.gm, "Aube", "Épée", level="heroique", motivation=True)["entry"]
    assert isinstance(entry, dict) and entry["params"]["motivation"] is True


def test_combat_tracker_order_rounds_health_and_rolls(table: Table) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    post = lambda **data: table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})  # noqa: E731
    post(action="add", name="Gobelin", initiative="2", health="6")
    post(action="add", name="Brindille", initiative="5", health="5")
    combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
    assert [c["name"] for c in combat["combatants"]] == ["Brindille", "Gobelin"]
    post(action="next")
    post(action="next")
    post(action="adjust", index="1", delta="-2")
    table.roll(table.gm, "Brindille", "Force")
    combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
    assert combat["round"] == 2 and combat["turn"] == 0
    assert combat["combatants"][1]["health"] == 4
    assert combat["combatants"][0]["last"]  # the verdict of its roll
    player = table.join("Alice")
    assert (
        table.client.post(f"{player}/combat", data={"csrf": table.csrf(player)}).status_code == 403
    )


def test_a_tunnels_melee_exchange_updates_the_tracker(table: Table) -> None:
    """T-10: the loser loses the margin (MR for a monster, Endurance for a character)."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)

    def post(**data: str) -> int:
        answer = table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})
        return answer.status_code

    assert post(action="add", name="Brindille", initiative="3") == 200  # Endurance from sheet
    assert post(action="add", name="Orque", initiative="2", health="3") == 200  # MR 3
    for _ in range(3):
        before = Tables(table.store).get(table.info.id).combat["combatants"]  # type: ignore[union-attr]
        if any(c["health"] <= 0 or c["wounds"] for c in before):
            break
        assert post(action="exchange", index="0", other="1") == 200
        entry = table.store.rolls()[-1]
        after = Tables(table.store).get(table.info.id).combat["combatants"]  # type: ignore[union-attr]
        assert entry["kind"] == "oppose" and entry["system"] == "tunnels"
        outcome = entry["outcome"]
        assert outcome["names"] == ["Brindille", "Orque"]
        assert after[0]["dice"] == 3 and before[0]["health"] <= 5
        a, b = outcome["a"]["successes"], outcome["b"]["successes"]
        said = entry_summary(entry)  # meneur log: the sides by their names
        if outcome["winner"] in ("a", "b"):
            name = outcome["names"][0 if outcome["winner"] == "a" else 1]
            assert said == f"{name} l'emporte de {outcome['margin']} ({a} contre {b})"
        else:
            assert said == f"égalité ({a} contre {b})"
        if outcome["winner"] == "a":
            assert after[1]["health"] == max(0, before[1]["health"] - outcome["lost"])
        elif outcome["winner"] == "b":
            assert after[0]["health"] < before[0]["health"] or after[0]["wounded"]
        else:
            assert after == before or [c["health"] for c in after] == [c["health"] for c in before]
    assert '(<a class="rule-link" href="#rule-T-10">T-10</a>)' in table.client.get(table.gm).text
    assert post(action="exchange", index="0", other="0") == 400
    # Brindille's sheet follows the tracker (T-11), written with the log entries
    tracked = Tables(table.store).get(table.info.id).combat["combatants"][0]  # type: ignore[union-attr]
    sheet = table.store.character("Brindille").sheet
    assert sheet["endurance"]["current"] == tracked["health"]
    assert sheet["wounded"] == tracked["wounded"]


def test_T10_a_tracker_change_made_during_an_exchange_is_kept(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T-10 on SQLite (one process): a change of the tracker made while an exchange is
    played waits for it, then applies to the tracker the exchange left (1 2 3 against
    4 5 6: Brindille loses 3 Endurance)."""
    import threading
    import time

    import meneur.systems.tunnels.web.melee as melee
    from meneur.web import combat as fights

    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    for name, health in (("Brindille", ""), ("Orque", "3")):
        data = {"csrf": csrf, "action": "add", "name": name, "health": health}
        assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    play = melee.exchange
    started = threading.Event()

    def slow(*args: object) -> object:
        started.set()
        time.sleep(0.3)  # the change arrives meanwhile
        return play(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(melee, "exchange", slow)

    def add() -> None:
        started.wait(5)
        Tables(table.store).update_combat(
            table.info.id, lambda combat: fights.add(combat, "Gobelin", 10, 4)
        )

    adding = threading.Thread(target=add)
    adding.start()
    data = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
    answer = table.client.post(
        f"{table.gm}/combat", data={**data, "faces": "1 2 3", "vs_faces": "4 5 6"}
    )
    adding.join()
    assert answer.status_code == 200, answer.text
    combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
    assert {c["name"]: c["health"] for c in combat["combatants"]} == {
        "Brindille": 2,
        "Orque": 3,
        "Gobelin": 4,
    }


FETCH = {"x-requested-with": "fetch"}


def waiting_batch(table: Table, who: str, character: str) -> tuple[str, str, dict[str, str]]:
    """A player's Tunnels roll of ``4 4 2`` waiting for the choice of its next batch:
    (the player's link, its csrf, the roll's form)."""
    player = table.join(who)
    table.create(player, "tunnels", character, **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": character, "trait": "Force", "explode": "ask"}
    started = table.client.post(f"{player}/roll", data={**form, "faces": "4 4 2"}, headers=FETCH)
    assert started.json() == {"pending": True}
    return player, csrf, form


def test_tunnels_explosions_chosen_batch_by_batch(table: Table) -> None:
    """T-5/T-6: the roller sees each batch, then explodes its extra dice or stops."""
    player, csrf, form = waiting_batch(table, "Alice", "Brindille")
    fetch = FETCH
    assert table.store.rolls() == []  # nothing logged (nor shown) before the choice
    page = table.client.get(player).text
    assert "Faire exploser 1 dé<" in page and "2 succès pour 2 requis" in page
    # nobody else can answer for her
    other = table.join("Bob")
    refused = table.client.post(
        f"{other}/roll/next", data={"csrf": table.csrf(other), "choice": "explode"}
    )
    assert refused.status_code == 400
    done = table.client.post(
        f"{player}/roll/next", data={"csrf": csrf, "choice": "explode", "faces": "5"}, headers=fetch
    )
    [entry] = table.store.rolls()
    assert set(done.json()) == {"id"}
    assert entry["faces"] == [[4, 4, 2, 5]] and entry["outcome"]["successes"] == 3
    assert entry["decisions"][1:] == ["explode"]
    assert (entry["params"]["explode"], entry["params"]["chosen_batches"]) == ("always", 2)
    assert entry["source"] == "physical"
    # stopping: the batch counts as it is
    table.client.post(f"{player}/roll", data={**form, "faces": "1 1 3"})
    table.client.post(f"{player}/roll/next", data={"csrf": csrf, "choice": "stop"})
    last = table.store.rolls()[-1]
    assert last["faces"] == [[1, 1, 3]] and last["decisions"][1:] == ["stop"]
    assert last["outcome"]["passed"] is False
    # while the dice are committed, the choice is made before the roll
    table.client.post(f"{table.gm}/session/start", data={"csrf": table.csrf(table.gm)})
    refused = table.client.post(f"{player}/roll", data=form, headers=fetch)
    assert refused.status_code == 400 and "engagés" in refused.json()["error"]


def test_a_waiting_roll_ends_with_its_character_taken_away(table: Table) -> None:
    """A player's roll waiting for its next batch went on after the GM took the character
    (``assign`` to the GM): ``roll/next`` logged a roll for it from the player's seat.
    The choice checks again who may act for the character; the roll is dropped."""
    player, csrf, _form = waiting_batch(table, "Bob", "Bobine")
    seats = {"csrf": table.csrf(table.gm), "action": "assign", "character": "Bobine"}
    assert table.client.post(f"{table.gm}/seats", data={**seats, "holder": "gm"}).status_code in (
        200,
        303,
    )
    refused = table.client.post(
        f"{player}/roll/next", data={"csrf": csrf, "choice": "stop"}, headers=FETCH
    )
    assert refused.status_code == 400 and "Bobine" in refused.text, refused.text
    assert table.store.rolls() == []


def test_a_change_to_a_combatant_the_tracker_has_not_is_refused(table: Table) -> None:
    """``adjust`` or ``remove`` of combatant 51 in a tracker of one answered as done and
    changed nothing (a combatant removed in the meantime, or never there)."""
    csrf = table.csrf(table.gm)
    post = lambda **data: table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})  # noqa: E731
    assert post(action="add", name="Gobelin", health="6").status_code in (200, 303)
    for data in (
        {"action": "adjust", "index": "50", "delta": "-1"},
        {"action": "remove", "index": "7"},
    ):
        answer = post(**data)
        assert answer.status_code == 400 and "suivi" in answer.text, data
    assert post(action="adjust", index="0", delta="-2").status_code in (200, 303)
    combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
    assert [c["health"] for c in combat["combatants"]] == [4]


def test_a_change_from_a_page_drawn_before_a_removal_hurts_no_one_else(table: Table) -> None:
    """Two changes of the tracker at once (two tabs, two devices of the GM): the Ogre,
    first, is removed while a -1 is sent for the Gobelin, second, from the same page. The
    -1 said only « combatant 2 »: it hurt whoever was second once the Ogre had gone, the
    Orque. Each row's forms now say whom they show, and another found there is refused."""
    csrf = table.csrf(table.gm)
    post = lambda **data: table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})  # noqa: E731
    for name, initiative, health in (
        ("Ogre", "9", "10"),
        ("Gobelin", "5", "6"),
        ("Orque", "1", "8"),
    ):
        assert post(action="add", name=name, initiative=initiative, health=health).is_success
    page = table.client.get(table.gm).text
    row = '<input type="hidden" name="index" value="1"><input type="hidden" name="combatant"'
    row += ' value="Gobelin">'
    assert row in page  # what the -1 and the × of the Gobelin's row send
    assert post(action="remove", index="0", combatant="Ogre").is_success
    answer = post(action="adjust", index="1", combatant="Gobelin", delta="-1")
    assert answer.status_code == 400 and "Gobelin" in answer.text, answer.text
    assert post(action="remove", index="1", combatant="Gobelin").status_code == 400
    combat = Tables(table.store).get(table.info.id).combat  # type: ignore[union-attr]
    assert [(c["name"], c["health"]) for c in combat["combatants"]] == [
        ("Gobelin", 6),
        ("Orque", 8),
    ]


def test_T10_an_exchange_from_a_page_drawn_before_a_removal_plays_no_one_else(
    table: Table,
) -> None:
    """T-10 at the tracker: the exchange Brindille v Orque is sent from a page drawn
    before the GM, in another tab, removed the Gobelin who stood between them. It said
    only « places 0 and 2 »: it rolled Brindille against whoever was third by then,
    nobody, or against another monster. Its form now says whom each place showed, and
    another found there is refused, nothing rolled."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    post = lambda **data: table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})  # noqa: E731
    assert post(action="add", name="Brindille", initiative="9").is_success
    assert post(action="add", name="Gobelin", initiative="5", health="2").is_success
    assert post(action="add", name="Orque", initiative="3", health="3").is_success
    assert post(action="add", name="Ogre", initiative="1", health="6").is_success
    page = table.client.get(table.gm).text
    shown = {f"shown_{i}": name for i, name in enumerate(("Brindille", "Gobelin", "Orque", "Ogre"))}
    assert all(f'name="{key}" value="{name}"' in page for key, name in shown.items())
    assert post(action="remove", index="1", combatant="Gobelin").is_success
    answer = post(action="exchange", index="0", other="2", **shown)
    assert answer.status_code == 400 and "Orque" in answer.text, answer.text
    assert table.store.rolls() == []
    now = {f"shown_{i}": name for i, name in enumerate(("Brindille", "Orque", "Ogre"))}
    assert post(action="exchange", index="0", other="1", **now).is_success
    [entry] = table.store.rolls()
    assert entry["outcome"]["names"] == ["Brindille", "Orque"]


def test_web_rolls_are_judged_for_luck_like_the_clis(table: Table) -> None:
    """`meneur log --luck` judges each roll against its check's exact odds: web rolls too."""
    from meneur.campaign.luck import check_luck_table

    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    for _ in range(3):
        table.roll(table.gm, "Brindille", "Force", threshold=2)
    entries = table.store.rolls()
    assert all(0 <= e["outcome"]["luck"][0]["rank"] <= 1 for e in entries)
    [line] = check_luck_table(entries)
    assert line.who == "Brindille" and line.rolls == 3


def test_obscur_depassement_before_the_roll_is_paid_with_the_roll(table: Table) -> None:
    """O-10: extra dice bought before the roll, their exact odds shown, paid from the sheet
    in the log entry's transaction; never below 0."""
    from meneur.systems.obscur.depassement import PushPlan
    from meneur.systems.obscur.rules import TestParams

    table.create(table.gm, "obscur", "Isaure")
    answer = table.client.get(
        f"/api{table.gm}/odds",
        params={"character": "Isaure", "trait": "Agilité", "difficulty": 2},
    ).json()
    check = find_system("obscur").checks()["test"]  # Agilité: 2 dice (the form's default)
    chances = [option["chance"] for option in answer["push"]]
    assert chances == sorted(chances) and len(chances) == 4
    from meneur.systems.obscur.rules import verdict

    for tier, shown in enumerate(chances):
        params = TestParams(2, difficulty=2, push=PushPlan(dice=tier))
        exact = check.odds(params).p_where(lambda key, p=params: verdict(p, key[0])[0])
        assert shown == float(exact)
    page = table.client.get(table.gm, params={"difficulty": 2}).text
    assert "+2 dés, 3 points" in page

    def points() -> int:
        resources = table.store.character("Isaure").sheet["ressources"]
        return sum(
            r["current"] if isinstance(r, dict) else r
            for name, r in resources.items()
            if name in ("vecu", "volonte", "moral")
        )

    before = points()  # typed dice: a Maladresse (1 in 1,296) would earn 1 Vécu (O-3)
    entry = table.roll(table.gm, "Isaure", "Agilité", difficulty=2, push=2, faces="6 5 4 3")[
        "entry"
    ]
    assert isinstance(entry, dict)
    assert len(entry["faces"][0]) == 2 + 2 and entry["outcome"]["push"]["cost"] == 3
    assert points() == before - 3
    while points() >= 6:
        table.roll(table.gm, "Isaure", "Agilité", push=3)
    count = len(table.store.rolls())
    refused = table.client.post(
        f"/api{table.gm}/roll", json={"character": "Isaure", "trait": "Agilité", "push": 3}
    )
    # too few points, or (O-34) Volonté spent down to 0: no effort possible
    error = refused.json()["error"]
    assert refused.status_code == 400 and ("points" in error or "O-34" in error)
    assert len(table.store.rolls()) == count  # nothing rolled, nothing written


def test_legendes_motivation_points_buy_dice_and_leave_the_sheet(table: Table) -> None:
    """L-12: each point spent adds a die; the odds of each choice shown; paid with the roll."""
    from meneur.systems.legendes.rules import OpposedParams

    table.create(table.gm, "legendes", "Aube", secondary="Ruse", motivation_points="2")
    answer = table.client.get(
        f"/api{table.gm}/odds", params={"character": "Aube", "trait": "Ruse", "level": "elite"}
    ).json()
    check = find_system("legendes").checks()["test"]
    for option in answer["push"]:
        params = OpposedParams(dice=2, vs_dice=1, vs_level="elite", spend=option["tier"])
        exact = check.odds(params).p_where(lambda key: str(key).startswith("win:"))
        assert option["chance"] == float(exact)
    assert [o["tier"] for o in answer["push"]] == [0, 1, 2]
    assert "1 point : +1 dé ·" in table.client.get(table.gm).text
    entry = table.roll(table.gm, "Aube", "Ruse", spend=2)["entry"]
    assert isinstance(entry, dict) and entry["outcome"]["dice"] == 4
    assert table.store.character("Aube").sheet["motivation_points"] == 0
    refused = table.client.post(
        f"/api{table.gm}/roll", json={"character": "Aube", "trait": "Ruse", "spend": 1}
    )
    assert refused.status_code == 400 and len(table.store.rolls()) == 1


@pytest.mark.parametrize(("effect", "dice", "points"), [("plus_2", 0, 2), ("extra_die", 1, 0)])
def test_legendes_help_received_moves_the_odds_as_the_check_says(
    table: Table, effect: str, dice: int, points: int
) -> None:
    """L-11: a help's effect (+1, +2, an extra die) applies to the helped hero's roll."""
    from meneur.systems.legendes.rules import OpposedParams

    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    shown = table.client.get(
        f"/api{table.gm}/odds",
        params={"character": "Aube", "level": "legendaire", "help": effect},
    ).json()["traits"]["Épée"]["exact"]
    params = OpposedParams(dice=3, vs_dice=3, vs_level="legendaire", extra_dice=dice, bonus=points)
    exact = find_system("legendes").checks()["test"].odds(params)
    chance = exact.p_where(lambda key: str(key).startswith("win:"))
    assert shown == f"{chance.numerator}/{chance.denominator}"
    entry = table.roll(table.gm, "Aube", "Épée", level="legendaire", help=effect)["entry"]
    assert isinstance(entry, dict) and entry["outcome"]["dice"] == 3 + dice


def test_obscur_depassement_after_the_roll_with_the_advisors_odds(table: Table) -> None:
    """O-10 after the roll: the advisor's plans and exact odds for the faces shown; the
    chosen plan's rerolls resolved by the rule, its points paid with the log entry."""
    from meneur.systems.obscur.advisor import advise_after

    player = table.join("Alice")
    table.create(player, "obscur", "Isaure")
    form = {"csrf": table.csrf(player), "character": "Isaure", "trait": "Agilité"}
    fetch = {"x-requested-with": "fetch"}
    started = table.client.post(
        f"{player}/roll",
        data={**form, "after": "true", "difficulty": "2", "faces": "1 5"},
        headers=fetch,
    )
    assert started.json() == {"pending": True} and table.store.rolls() == []
    page = table.client.get(player).text
    advised = advise_after((1, 5), 2, 10)
    for option in advised:
        assert f"{float(option.p_success) * 100:.1f}".replace(".", ",") + " %" in page
    best = advised[0]  # raise the 5 to a 6 (two successes): certain, for 1 point
    assert best.plan.adjust_on == ((1, 1),) and best.p_success == 1
    assert "monter dé 2 +1" in page
    typed = {"csrf": form["csrf"], "plan": "0", "faces": "1 2 3"}  # a plan that rerolls none
    refused = table.client.post(f"{player}/roll/push", data=typed)
    assert refused.status_code == 400 and table.store.rolls() == []  # the faces were lost
    chosen = table.client.post(f"{player}/roll/push", data={"csrf": form["csrf"], "plan": "0"})
    assert chosen.status_code == 200
    [entry] = table.store.rolls()
    assert entry["faces"] == [[1, 5]] and entry["outcome"]["faces"] == [1, 6]
    assert entry["decisions"][1]["push"]["cost"] == best.cost
    assert entry["outcome"]["passed"] is True
    # a plan with rerolls: the rerolled dice come after the pool, as the rule reads them
    table.client.post(
        f"{player}/roll", data={**form, "after": "true", "difficulty": "3", "faces": "1 1"}
    )
    plans = advise_after((1, 1), 3, 10 - best.cost)
    index = next(i for i, o in enumerate(plans) if o.plan.reroll and not o.plan.adjust)
    table.client.post(
        f"{player}/roll/push", data={"csrf": form["csrf"], "plan": str(index), "faces": "6 6"}
    )
    last = table.store.rolls()[-1]
    assert last["faces"] == [[1, 1, 6, 6]] and last["outcome"]["faces"] == [6, 6]
    from meneur.campaign.replay import replay_entries

    report = replay_entries(table.store.rolls())  # O-10 after the roll replays (issue 14)
    assert report.problems == () and report.rolls == 2
    spent = best.cost + plans[index].cost
    resources = table.store.character("Isaure").sheet["ressources"]
    left = resources["vecu"] + resources["volonte"]["current"] + resources["moral"]["current"]
    assert left == 10 - spent
    # no plan is waiting any more; another seat never had one
    again = table.client.post(f"{player}/roll/push", data={"csrf": form["csrf"], "plan": "0"})
    assert again.status_code == 400


def _vecu(table: Table, name: str) -> int:
    vecu = table.store.character(name).sheet["ressources"]["vecu"]
    return int(vecu["current"] if isinstance(vecu, dict) else vecu)


def test_O3_a_maladresse_rolled_at_the_table_earns_its_vecu(table: Table) -> None:
    """O-3: every die on 1 is a Maladresse, which earns the character 1 Vécu, at the table
    as in the CLI; judged on the final faces, so also after a Dépassement's rerolls (O-10,
    its points paid in the same write)."""
    from meneur.systems.obscur.advisor import advise_after

    player = table.join("Alice")
    table.create(player, "obscur", "Isaure")
    before = _vecu(table, "Isaure")
    entry = table.roll(player, "Isaure", "Agilité", faces="1 1")["entry"]
    assert isinstance(entry, dict) and entry["outcome"]["fumble"] is True
    assert _vecu(table, "Isaure") == before + 1
    not_a_fumble = table.roll(player, "Isaure", "Agilité", faces="1 4")["entry"]
    assert isinstance(not_a_fumble, dict) and not_a_fumble["outcome"]["fumble"] is False
    assert _vecu(table, "Isaure") == before + 1
    form = {"csrf": table.csrf(player), "character": "Isaure", "trait": "Agilité"}
    table.client.post(
        f"{player}/roll", data={**form, "after": "true", "difficulty": "1", "faces": "1 1"}
    )
    resources = table.store.character("Isaure").sheet["ressources"]
    points = (
        _vecu(table, "Isaure") + resources["volonte"]["current"] + resources["moral"]["current"]
    )
    plans = advise_after((1, 1), 1, points)
    index = next(i for i, o in enumerate(plans) if o.plan.reroll and not o.plan.adjust)
    chosen = table.client.post(
        f"{player}/roll/push", data={"csrf": form["csrf"], "plan": str(index), "faces": "1 1"}
    )
    assert chosen.status_code == 200, chosen.text
    assert table.store.rolls()[-1]["outcome"]["fumble"] is True
    resources = table.store.character("Isaure").sheet["ressources"]
    left = _vecu(table, "Isaure") + resources["volonte"]["current"] + resources["moral"]["current"]
    assert left == points - plans[index].cost + 1


def test_T10_a_tunnels_exchange_with_physical_dice(table: Table) -> None:
    """T-10 on typed faces: Force 3 (4 5 6: 3 successes) against MR 3 (1 2 3: none);
    the monster loses the margin, 3, and is defeated at 0 (no die shown twice: no T-5)."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)

    def post(**data: str) -> int:
        answer = table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})
        return answer.status_code

    post(action="add", name="Brindille", initiative="3")
    post(action="add", name="Orque", initiative="2", health="3")
    assert post(action="exchange", index="0", other="1", faces="4 5 6", vs_faces="1 2 3") == 200
    entry = table.store.rolls()[-1]
    assert entry["source"] == "physical" and entry["outcome"]["winner"] == "a"
    assert entry["outcome"]["lost"] == 3
    orque = Tables(table.store).get(table.info.id).combat["combatants"][1]  # type: ignore[union-attr]
    assert orque["health"] == 0 and orque["wounds"] == "vaincu"
    assert post(action="exchange", index="0", other="1") == 400  # defeated: out of the fight


def _tunnels_fight(table: Table) -> str:
    """Brindille (a Tunnels sheet) and an Orque of MR 3 at the tracker; the GM's csrf."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    for name, health in (("Brindille", ""), ("Orque", "3")):
        data = {"csrf": csrf, "action": "add", "name": name, "health": health}
        assert table.client.post(f"{table.gm}/combat", data=data).status_code == 200
    return csrf


def test_an_exchange_with_a_place_past_the_last_combatant_is_refused(table: Table) -> None:
    """``web.exchange.combatants``: an exchange picks two of the tracker's combatants. With
    two at places 0 and 1, place 2 names no one, as either fighter: refused in one line
    (not a crash), nothing logged."""
    csrf = _tunnels_fight(table)
    for index, other in (("0", "2"), ("2", "0")):
        data = {"csrf": csrf, "action": "exchange", "index": index, "other": other}
        answer = table.client.post(f"{table.gm}/combat", data=data)
        assert answer.status_code == 400, (index, other, answer.status_code)
        assert "Choisissez deux combattants différents." in html.unescape(answer.text)
    assert table.store.rolls() == []


def test_T10_an_exchange_with_the_dice_of_one_fighter_only_is_refused(table: Table) -> None:
    """``web.exchange.exchange_sources``: dice typed for one side of an exchange and not
    the other are refused (the dice of both fighters, or none), nothing logged; neither
    side is rolled with the machine's dice instead."""
    csrf = _tunnels_fight(table)
    for typed in ({"faces": "4 5 6"}, {"vs_faces": "1 2 3"}, {"faces": "4 5 6", "vs_faces": " "}):
        data = {"csrf": csrf, "action": "exchange", "index": "0", "other": "1", **typed}
        answer = table.client.post(f"{table.gm}/combat", data=data)
        assert answer.status_code == 400, (typed, answer.status_code)
        assert "Tapez les dés des deux combattants, ou d'aucun." in html.unescape(answer.text)
    assert table.store.rolls() == []


def test_T3_O8_L3_options_left_out_take_the_rules_defaults(table: Table) -> None:
    """A form or a request that leaves an option out rolls with the rules' defaults:
    T-3 niveau 2 (« difficulté moyenne »), T-4 neither blessed nor cursed; O-8 difficulty
    1, no modifier (O-7), no dice bought (O-10); L-3 an Élite opposition (1d6), no
    motivation (L-12), no point spent, no help (L-11)."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "obscur", "Isaure")
    table.create(table.gm, "legendes", "Aube", secondary="Ruse", motivation_points="2")

    def exact(character: str, trait: str, **options: object) -> str:
        answer = table.client.get(
            f"/api{table.gm}/odds", params={"character": character, **options}
        )
        assert answer.status_code == 200, answer.text
        return str(answer.json()["traits"][trait]["exact"])

    tunnels = exact("Brindille", "Dextérité")
    assert tunnels == exact("Brindille", "Dextérité", threshold=2, blessed="false", cursed="false")
    others = [{"threshold": 3}, {"blessed": "true"}, {"cursed": "true"}]
    assert all(exact("Brindille", "Dextérité", **other) != tunnels for other in others)
    # Agilité, 2 dice (O-2: 4-5 one success, 6 two): at least 1 success = 1 - (1/2)² = 3/4
    assert exact("Isaure", "Agilité") == "3/4"
    assert exact("Isaure", "Agilité", difficulty=1, modifier=0, push=0) == "3/4"
    assert exact("Isaure", "Agilité", modifier=1) == "7/8" == exact("Isaure", "Agilité", push=1)
    # difficulty 2 with no die bought: 1 - P(0 successes) - P(1) = 1 - 1/4 - 2·(1/2)(1/3)
    assert exact("Isaure", "Agilité", difficulty=2, push=0) == "5/12"
    # Ruse, secondary (2d6), against Élite (1d6): P(2d6 > 1d6)
    # = (36 + 35 + 33 + 30 + 26 + 21) / 36 / 6 = 181/216
    assert exact("Aube", "Ruse") == "181/216"
    assert exact("Aube", "Ruse", level="elite", modifier=0, spend=0, help="none") == "181/216"
    assert exact("Aube", "Ruse", motivation="true") != "181/216"
    # against Héroïque (2d6) with no point spent: (1 - P(tie)) / 2, P(tie) = 146/1296
    assert exact("Aube", "Ruse", level="heroique", spend=0) == "575/1296"
    assert exact("Aube", "Ruse", spend=1) != "181/216"
