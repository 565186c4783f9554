"""Secret means secret in every flow (issue 16, point 4): the interactive rolls too.

A blind roller never receives dice, counts, verdicts or odds drawn from the hidden
faces, over HTTP or the WebSocket. What a blind roller may still choose is what is
decided before the dice roll: Tunnels' batch-by-batch explosions follow « when needed »
(T-5), Obscur's Dépassement after the roll is refused, the dice bought before stay (O-10).
"""

from __future__ import annotations

from web.test_web_live import receive
from web.web_helpers import Table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}
FETCH = {"x-requested-with": "fetch"}


def test_T5_a_blind_batch_by_batch_roll_tells_the_roller_nothing(table: Table) -> None:
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    form = {
        "csrf": table.csrf(player),
        "character": "Brindille",
        "trait": "Force",
        "explode": "ask",
        "mode": "blindroll",
        "threshold": "3",
        "faces": "4 4 2 5",
    }
    with (
        table.client.websocket_connect(f"{player}/ws") as mine,
        table.client.websocket_connect(f"{table.gm}/ws") as gm,
    ):
        receive(mine), receive(gm)
        answer = table.client.post(f"{player}/roll", data=form, headers=FETCH)
        assert answer.status_code == 200 and set(answer.json()) == {"id"}  # no pending
        shown, full = receive(mine), receive(gm)
    # T-5 « when needed »: 4 4 2 is 2 successes for 3, the pair grants a die: the 5
    [entry] = table.store.rolls()
    assert entry["faces"] == [[4, 4, 2, 5]] and entry["params"]["explode"] == "needed"
    assert entry["outcome"]["successes"] == 3
    assert 'class="die' not in shown["html"] and "succès" not in shown["html"]
    assert full["html"].count('class="die') == 4
    page = table.client.get(player).text
    assert 'id="pending"' not in page and "succès pour" not in page
    log = table.client.get(f"/api{player}/log").json()["entries"]
    assert log == [
        {"id": answer.json()["id"], "who": "Brindille", "mode": "blindroll", "hidden": True}
    ]


def test_O10_a_blind_roll_offers_no_depassement_after_the_dice(table: Table) -> None:
    player = table.join("Alice")
    table.create(player, "obscur", "Isaure")
    form = {
        "csrf": table.csrf(player),
        "character": "Isaure",
        "trait": "Agilité",
        "after": "true",
        "mode": "blindroll",
        "faces": "1 5",
    }
    refused = table.client.post(f"{player}/roll", data=form, headers=FETCH)
    assert refused.status_code == 400 and "aveugle" in refused.json()["error"]
    assert table.store.rolls() == [] and 'id="pushing"' not in table.client.get(player).text
    # the dice bought before the roll stay the roller's choice (a GM-only roll: the
    # player and the GM see it; a blind one would show its Maladresse on her card, O-3)
    bought = {**form, "after": "", "push": "1", "faces": "1 5 6", "mode": "gmroll"}
    assert table.client.post(f"{player}/roll", data=bought, headers=FETCH).status_code == 200
    [entry] = table.store.rolls()
    assert entry["params"]["push"]["dice"] == 1


def test_O3_a_roll_more_secret_than_its_card_is_refused(table: Table) -> None:
    """O-3: a Maladresse earns Vécu, written on the sheet at once. Alice's blind roll put
    « Vécu 0 → 1 » on her own card: the fumble it hid. A roll whose result shows on a card
    must be seen in full by every seat that reads the card (the GM, the player who holds
    the character): a blind roll of her own character, the GM's GM-only roll of it, the
    player's roll for herself alone are refused, and nothing is written; the GM's
    GM-only roll of a character no player holds, and her GM-only roll, are not."""
    player = table.join("Alice")
    table.create(player, "obscur", "Isaure")
    table.create(table.gm, "obscur", "Garou")
    before = table.store.character("Isaure").state, table.store.character("Isaure").sheet

    def roll(seat: str, character: str, mode: str, after: str = "") -> object:
        form = {"csrf": table.csrf(seat), "character": character, "trait": "Agilité",
                "mode": mode, "faces": "1 1", "after": after}  # fmt: skip
        return table.client.post(f"{seat}/roll", data=form, headers=FETCH)

    for seat, mode, after in (
        (player, "blindroll", ""),
        (table.gm, "gmroll", ""),
        (player, "selfroll", ""),
        (player, "selfroll", "true"),  # the Dépassement after the roll too
    ):
        answer = roll(seat, "Isaure", mode, after)
        assert answer.status_code == 400, (seat, mode)
        assert "montrerait le résultat de ce jet" in answer.json()["error"]
    assert table.store.rolls() == []
    assert (table.store.character("Isaure").state, table.store.character("Isaure").sheet) == before
    assert roll(table.gm, "Garou", "blindroll").status_code == 200
    assert roll(player, "Isaure", "gmroll").status_code == 200
    assert [e["who"] for e in table.store.rolls()] == ["Garou", "Isaure"]


def test_gm_only_and_self_batches_stay_with_their_roller(table: Table) -> None:
    """A gmroll or selfroll waiting for its batch is the roller's alone until it ends."""
    alice, bob = table.join("Alice"), table.join("Bob")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    for mode in ("gmroll", "selfroll"):
        form = {
            "csrf": table.csrf(alice),
            "character": "Brindille",
            "trait": "Force",
            "explode": "ask",
            "mode": mode,
            "faces": "4 4 2",
        }
        assert table.client.post(f"{alice}/roll", data=form, headers=FETCH).json() == {
            "pending": True
        }
        assert 'id="pending"' in table.client.get(alice).text
        assert 'id="pending"' not in table.client.get(bob).text
        assert 'id="pending"' not in table.client.get(table.gm).text
        table.client.post(f"{alice}/roll/next", data={"csrf": form["csrf"], "choice": "stop"})
    assert table.client.get(f"/api{bob}/log").json()["entries"] == []
