"""Seats are identities: claims and rolls follow the seat's id, never its display name.

Issue 16, point 1: Eve joined under the name « Bastien » and took over Pip, Bastien's
character, because the claim compared names. Point 3: a player could switch to any
unclaimed character at any time, the GM's non-player characters included.
"""

from __future__ import annotations

from web.web_helpers import Table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


def pick(table: Table, base: str, character: str) -> int:
    data = {"csrf": table.csrf(base), "action": "pick", "character": character}
    return table.client.post(f"{base}/character", data=data, follow_redirects=False).status_code


def test_a_namesake_takes_over_nothing(table: Table) -> None:
    bastien = table.join("Bastien")
    table.create(bastien, "tunnels", "Pip", **TUNNELS)
    eve = table.join("Bastien")  # the same display name, another seat
    assert pick(table, eve, "Pip") == 400
    refused = table.client.post(f"/api{eve}/roll", json={"character": "Pip", "trait": "Force"})
    assert refused.status_code == 400
    assert table.roll(bastien, "Pip", "Force")["entry"]
    # the GM sees two seats, told apart by their number
    from meneur.web.tables import Tables

    gm_page = table.client.get(table.gm).text
    first, second = (p.id for p in Tables(table.store).players(table.info.id))
    assert f"Bastien #{first} · Pip" in gm_page and f"Bastien #{second}</span>" in gm_page


def test_a_player_holds_one_character_unless_the_gm_gives_more(table: Table) -> None:
    from meneur.web.tables import Tables

    alice = table.join("Alice")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "tunnels", "Gros Jean", free="true", **TUNNELS)
    assert "Gros Jean" in table.client.get(table.join("Carol")).text  # free: listed
    assert pick(table, alice, "Gros Jean") == 400  # a second character: refused
    tables = Tables(table.store)
    [seat] = [p for p in tables.players(table.info.id) if p.name == "Alice"]
    tables.assign(table.info, "Gros Jean", seat.id)
    assert table.roll(alice, "Gros Jean", "Force")["entry"]


def test_npcs_are_the_gms_neither_listed_nor_claimable(table: Table) -> None:
    table.create(table.gm, "tunnels", "Garde du pont", **TUNNELS)
    player = table.join("Zoé")
    page = table.client.get(player).text
    assert "Garde du pont" not in page
    assert pick(table, player, "Garde du pont") == 400
    refused = table.client.post(
        f"/api{player}/roll", json={"character": "Garde du pont", "trait": "Force"}
    )
    assert refused.status_code == 400
    assert table.roll(table.gm, "Garde du pont", "Force")["entry"]
    assert "non-player character" in table.client.get(table.gm + "?lang=en").text


def test_two_claims_of_one_character_keep_one(table: Table) -> None:
    """The holds' unique key: the second claim of a free character is refused."""
    from meneur.campaign.errors import CampaignError
    from meneur.web.tables import Tables

    table.create(table.gm, "tunnels", "Ombre", free="true", **TUNNELS)
    tables = Tables(table.store)
    a = tables.seat(table.info.id, table.join("A").split("/")[-1])
    b = tables.seat(table.info.id, table.join("B").split("/")[-1])
    assert a is not None and b is not None
    tables.claim(a, "Ombre")
    try:
        tables.claim(b, "Ombre")
    except CampaignError as error:
        assert "Ombre" in str(error)
    else:
        raise AssertionError("the second claim was accepted")
    assert tables.holds(table.info.id) == {"ombre": a.player.id if a.player else None}
