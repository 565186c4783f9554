"""Seats are identities: claims and rolls follow the seat's id, never its display name.

Issue 16, point 1: Eve joined under the name « Bastien » and took over Pip, Bastien's
character, because the claim compared names. Point 3: a player could switch to any
unclaimed character at any time, the GM's non-player characters included.
"""

from __future__ import annotations

import pytest

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


def test_every_link_holds_a_256_bit_token(table: Table) -> None:
    """Tokens are ``secrets.token_urlsafe(32)``: 32 random bytes, 43 URL-safe characters."""
    import base64

    from meneur.web.tables import Tables

    player = Tables(table.store).join(table.info, "Alice")
    for token in (table.info.gm_token, table.info.invite_token, player.token):
        assert len(token) == 43
        assert len(base64.urlsafe_b64decode(token + "=")) == 32


def test_a_table_seats_fifty_players_and_refuses_the_fifty_first(table: Table) -> None:
    from meneur.campaign.errors import CampaignError
    from meneur.web.tables import Tables

    tables = Tables(table.store)
    for number in range(50):
        tables.join(table.info, f"P{number}")
    with pytest.raises(CampaignError) as full:
        tables.join(table.info, "P50")
    assert "50" in str(full.value)
    assert len(tables.players(table.info.id)) == 50


def test_a_seat_once_found_cannot_be_changed(table: Table) -> None:
    """A seat is kept in memory and shared by requests: its role, its characters and
    its table's tokens are frozen values, never rewritten in place."""
    from dataclasses import FrozenInstanceError

    from meneur.web.tables import Tables

    alice = table.join("Alice")
    seat = Tables(table.store).seat(table.info.id, alice.split("/")[-1])
    assert seat is not None and seat.player is not None
    with pytest.raises(FrozenInstanceError):
        seat.role = "gm"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        seat.player.characters = ("Pip",)  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        seat.table.gm_token = seat.player.token  # type: ignore[misc]


def test_a_table_id_is_a_positive_postgresql_integer() -> None:
    """``/t/<id>/...`` beyond an ``INTEGER`` (2**31 - 1) or below 1 names no table."""
    from meneur.web.tables import is_key

    assert [is_key(n) for n in (-1, 0, 1, 2**31 - 1, 2**31)] == [
        False,
        False,
        True,
        True,
        False,
    ]


def test_a_seat_read_once_is_answered_from_memory_on_sqlite_only(table: Table) -> None:
    """SQLite (one process): the seat is kept after its first read, until a change
    here. PostgreSQL, while this process hears no change: nothing is kept."""
    from meneur.web.tables import Tables

    token = table.join("Alice").split("/")[-1]
    tables = Tables(table.store)
    assert tables.known_seat(table.info.id, token) is False
    seat = tables.seat(table.info.id, token)
    assert seat is not None and seat.name == "Alice"
    sqlite = table.store.engine.dialect.name == "sqlite"
    assert tables.known_seat(table.info.id, token) == (seat if sqlite else False)
    assert tables.known_seat(table.info.id, "A" * 43) is (None if sqlite else False)


@pytest.mark.parametrize("change", ["forget", "keep"])
def test_a_seat_read_overtaken_by_a_change_is_read_again(
    table: Table, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """A seat removed (or the process's listening restored) while its read was under
    way: that read is not kept, the next request reads the seat again."""
    from meneur.web.tables import Tables

    token = table.join("Alice").split("/")[-1]
    tables = Tables(table.store, cached=True)
    players = tables._players

    def overtaken(session: object, table_id: int) -> object:
        found = players(session, table_id)
        tables.forget(table_id) if change == "forget" else tables.keep(True)
        return found

    monkeypatch.setattr(tables, "_players", overtaken)
    assert tables.seat(table.info.id, token) is not None
    assert tables.known_seat(table.info.id, token) is False


def test_a_free_character_is_picked_while_another_seat_holds_another(table: Table) -> None:
    table.create(table.gm, "tunnels", "Ombre", free="true", **TUNNELS)
    table.create(table.gm, "tunnels", "Lune", free="true", **TUNNELS)
    alice, bob = table.join("Alice"), table.join("Bob")
    assert pick(table, alice, "Ombre") == 303
    assert pick(table, bob, "Lune") == 303
    assert table.roll(bob, "Lune", "Force")["entry"]


def test_a_second_pick_names_the_character_the_seat_already_plays(table: Table) -> None:
    from meneur.campaign.errors import CampaignError
    from meneur.web.tables import Tables

    table.create(table.gm, "tunnels", "Ombre", free="true", **TUNNELS)
    table.create(table.gm, "tunnels", "Lune", free="true", **TUNNELS)
    tables = Tables(table.store)
    seat = tables.seat(table.info.id, table.join("Alice").split("/")[-1])
    assert seat is not None
    tables.claim(seat, "Ombre")
    with pytest.raises(CampaignError) as refused:
        tables.claim(seat, "Lune")
    assert "Ombre" in str(refused.value) and "Lune" not in str(refused.value)
