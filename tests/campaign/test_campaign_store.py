"""The store: campaigns, characters and the roll log, on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import delete

from campaign_helpers import roll
from meneur.campaign.chain import GENESIS, commitment_of, verify_log
from meneur.campaign.errors import CampaignError, NoCampaignYet, StorageError
from meneur.campaign.hotlog import CURRENT_KEY
from meneur.campaign.models import Setting
from meneur.campaign.rolllog import log_roll
from meneur.campaign.store import NewCharacter, Store
from meneur.errors import MeneurError, SheetError


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with Store(db_url) as opened:
        yield opened


def test_first_campaign_becomes_current(store: Store) -> None:
    first = store.create_campaign("Les Tunnels")
    second = store.create_campaign("Obscur du jeudi")
    assert first.current and not second.current
    assert store.current_campaign().name == "Les Tunnels"
    assert [c.name for c in store.campaigns()] == ["Les Tunnels", "Obscur du jeudi"]


def test_current_campaign_is_stored_in_the_database(db_url: str) -> None:
    with Store(db_url) as store:
        store.create_campaign("A")
        store.create_campaign("B")
        store.use_campaign("b")
    with Store(db_url) as reopened:
        assert reopened.current_campaign().name == "B"


def test_campaign_names_are_unique_without_case_or_accents(store: Store) -> None:
    store.create_campaign("Légendes")
    with pytest.raises(CampaignError):
        store.create_campaign("  LEGENDES ")


def test_deleting_the_current_campaign_makes_the_oldest_other_current(store: Store) -> None:
    store.create_campaign("A")
    store.create_campaign("B")
    store.add_character("krasses", "Zed", {"name": "Zed", "skills": {}}, campaign="A")
    store.append_roll(roll("Zed"), campaign="A")
    deleted = store.delete_campaign("A")
    assert (deleted.characters, deleted.rolls) == (1, 1)
    assert store.current_campaign().name == "B"
    store.delete_campaign("B")
    with pytest.raises(CampaignError):
        store.current_campaign()


def test_unknown_campaign_is_a_clear_error(store: Store) -> None:
    with pytest.raises(CampaignError, match="Nowhere"):
        store.use_campaign("Nowhere")


def test_first_character_makes_a_default_campaign(store: Store) -> None:
    """Zero setup: no campaign yet, the first character creates one."""
    zed = store.add_character("krasses", "Zed", {"name": "Zed", "skills": {"Bagarre": 2}})
    assert zed.campaign == "default"
    assert store.current_campaign().name == "default"


def test_character_crud(store: Store) -> None:
    store.create_campaign("Table")
    made = store.add_character(
        "Krâsses", "Zoé", {"name": "Zoé", "skills": {"Bagarre": 2}}, {"hp": 10}
    )
    assert made.system == "krasses"  # the system's canonical name
    assert store.character("zoe").sheet == {"name": "Zoé", "skills": {"Bagarre": 2}}
    updated = store.update_character("Zoé", state={"hp": 7})
    assert updated.state == {"hp": 7}
    assert updated.updated_at >= made.updated_at
    assert [c.name for c in store.characters()] == ["Zoé"]
    with pytest.raises(CampaignError):
        store.add_character("krasses", "ZOE", {"name": "ZOE"})
    store.delete_character("Zoé")
    assert store.characters() == []
    with pytest.raises(CampaignError):
        store.character("Zoé")


def test_a_character_needs_a_known_system(store: Store) -> None:
    with pytest.raises(SheetError, match="monopoly"):
        store.add_character("monopoly", "Zed", {})


@pytest.mark.parametrize(
    "name",
    ["x" * 10_000, "", "   ", "Zed\nDrop", "Zed\x00", "Zed\u202e", "---"],
)
def test_bad_names_are_refused(store: Store, name: str) -> None:
    """Bad input: a name of 10,000 characters, empty, with control characters."""
    with pytest.raises(CampaignError):
        store.add_character("krasses", name, {"name": "Zed"})
    with pytest.raises(CampaignError):
        store.create_campaign(name)
    assert store.campaigns() == [] or all(c.characters == 0 for c in store.campaigns())


def test_markup_in_names_is_kept_as_text(store: Store) -> None:
    """Markup is stored as typed (the CLI shows it escaped, see the CLI tests). A sheet
    takes its character's stored name, and no system's sheet holds square brackets (its
    name is printed with styles on): such a name is refused for a named sheet."""
    made = store.add_character("krasses", "<b>Zed</b> <script>", {"name": "Zed"})
    assert store.character(made.name).name == "<b>Zed</b> <script>"
    assert store.character(made.name).sheet["name"] == "<b>Zed</b> <script>"
    with pytest.raises(SheetError, match=r"\(Nom : un nom ne peut pas contenir de crochets"):
        store.add_character("krasses", "[bold red]Zed[/]", {"name": "Zed"})


def test_append_roll_chains_entries(store: Store) -> None:
    store.create_campaign("Table")
    first = store.append_roll(roll(None))
    second = store.append_roll(roll(None, total=9))
    assert first["prev_hash"] == GENESIS and first["seq"] == 1
    assert second["prev_hash"] == first["hash"] and second["seq"] == 2
    assert [e["hash"] for e in store.rolls()] == [first["hash"], second["hash"]]
    assert verify_log(store.export_log()).entries == 2


def test_roll_and_state_change_are_one_transaction(store: Store) -> None:
    store.add_character("krasses", "Zed", {"name": "Zed"}, {"vecu": 3})
    entry = log_roll(
        store,
        "krasses",
        "test",
        {"score": 12},
        [[5]],
        {"success": True},
        "physical",
        character="zed",
        state={"vecu": 2},
    )
    assert entry["who"] == "Zed"
    assert store.character("Zed").state == {"vecu": 2}
    # A failing roll (unknown character) writes neither the entry nor any state.
    with pytest.raises(MeneurError):
        store.append_roll(roll("Nobody"), state={"vecu": 0})
    assert len(store.rolls()) == 1
    assert store.character("Zed").state == {"vecu": 2}


def test_log_filters_by_character_and_date(store: Store) -> None:
    store.add_character("krasses", "Zed", {"name": "Zed"})
    store.add_character("krasses", "Ana", {"name": "Ana"})
    store.append_roll(roll("Zed"))
    middle = store.append_roll(roll("Ana"))
    store.append_roll(roll("Zed"))
    assert [e["seq"] for e in store.rolls(character="zed")] == [1, 3]
    since = datetime.fromisoformat(middle["at"].replace("Z", "+00:00"))
    assert [e["seq"] for e in store.rolls(since=since)] == [2, 3]


def test_deleting_a_character_keeps_its_rolls(store: Store) -> None:
    store.add_character("krasses", "Zed", {"name": "Zed"})
    store.append_roll(roll("Zed"))
    store.delete_character("Zed")
    [entry] = store.rolls()
    assert entry["who"] == "Zed"
    assert verify_log(store.export_log()).entries == 1


def test_committed_session_rolls_verify(store: Store) -> None:
    store.create_campaign("Table")
    opened = store.start_session()
    dice = store.committed_dice()
    assert dice is not None and dice.commitment == opened.commitment
    for _ in range(3):
        faces = dice.roll(6, 2)
        log_roll(
            store, "generic", "roll", {}, [faces], {"total": sum(faces)}, "committed", dice=dice
        )
    with pytest.raises(CampaignError):
        store.start_session()
    closed = store.reveal_session()
    assert closed.rolls == 3 and closed.seed is not None
    assert store.committed_dice() is None
    report = verify_log(store.export_log())
    assert (report.entries, report.recomputed) == (3, 3)


def test_a_character_read_by_campaign_name_is_the_one_the_orm_reads(store: Store) -> None:
    """The one-statement read (the table's, at each roll) gives what the ORM gives."""
    store.create_campaign("Légendes du jeudi")
    store.add_character("krasses", "Zéd", {"name": "Zéd", "skills": {"Baston": 2}}, {"vecu": 1})
    fast = store.character("zed", campaign="legendes du JEUDI")
    assert fast == store.character("Zéd")  # the current campaign: the ORM's way
    assert fast.campaign == "Légendes du jeudi" and fast.sheet == {
        "name": "Zéd",
        "skills": {"Baston": 2},
    }
    assert fast.created_at.tzinfo is not None
    with pytest.raises(CampaignError, match="Nobody"):
        store.character("Nobody", campaign="Légendes du jeudi")


def test_a_stored_sheet_takes_the_stored_name_only_where_it_has_one() -> None:
    """The stored name is the character's identity: a sheet's own ``name`` becomes it, a
    sheet already so named is the same object, one without the field stays without."""
    from meneur.campaign.sheets import named

    assert named({"name": "Bob", "x": 1}, "Zed") == {"name": "Zed", "x": 1}
    same = {"name": "Zed"}
    assert named(same, "Zed") is same
    assert named({"x": 1}, "Zed") == {"x": 1}
    assert named([1], "Zed") == [1]


def test_a_stored_sheet_is_one_million_bytes_of_utf8_at_most(english: None) -> None:
    """Measured as UTF-8 (an « é » is 2 bytes, not the 6 of ``\\u00e9``): a sheet of
    exactly 1,000,000 bytes passes the size check (and is then judged by its system);
    one byte more is refused for its size."""
    from meneur.campaign.sheets import MAX_SHEET_BYTES, validate_sheet

    def sized(total: int, letter: str = "a") -> dict[str, object]:
        empty = len(b'{"name": "Zed", "notes": ""}')
        width = len(letter.encode())
        return {"name": "Zed", "notes": letter * ((total - empty) // width)}

    assert MAX_SHEET_BYTES == 1_000_000  # as for a sheet file (files.MAX_SHEET_BYTES)
    for sheet, too_large in (
        (sized(MAX_SHEET_BYTES), False),
        (sized(MAX_SHEET_BYTES + 1), True),
        (sized(900_000, "é"), False),  # 450,000 « é »: 2,700,000 bytes if escaped
    ):
        with pytest.raises(SheetError) as caught:
            validate_sheet("krasses", sheet, character="Zed")
        assert ("larger than" in str(caught.value)) is too_large, str(caught.value)


def test_committed_dice_go_only_with_the_rolls_drawn_from_them(store: Store) -> None:
    """``log_roll(..., dice=)``: the session's committed dice are the commitment of an
    entry whose faces they drew (``source_kind`` ``committed``); a roll typed at the table
    meanwhile (``physical``), logged with the same ``dice=``, names no commitment, so
    ``meneur verify`` recomputes the first and counts the second as physical."""
    store.create_campaign("Table")
    opened = store.start_session()
    dice = store.committed_dice()
    assert dice is not None
    faces = dice.roll(6, 2)
    drawn = log_roll(
        store, "generic", "roll", {}, [faces], {"total": sum(faces)}, "committed", dice=dice
    )
    typed = log_roll(store, "generic", "roll", {}, [[6, 6]], {"total": 12}, "physical", dice=dice)
    assert (drawn["commitment"], drawn["counter"]) == (opened.commitment, 0)
    assert (typed["commitment"], typed["counter"], typed["source"]) == (None, None, "physical")
    store.reveal_session()
    report = verify_log(store.export_log())
    assert (report.entries, report.recomputed, report.physical) == (2, 1, 1)


def test_deleting_a_campaign_keeps_every_other_campaigns_data(store: Store) -> None:
    """A campaign is deleted with its characters, log and game sessions: those of every
    other campaign stay, whole (its log still verifies, its session still deals dice)."""
    store.create_campaign("A")
    store.create_campaign("B")
    for name in ("A", "B"):
        store.add_character("krasses", "Zed", {"name": "Zed", "skills": {}}, campaign=name)
        store.append_roll(roll("Zed"), campaign=name)
        store.start_session(campaign=name)
    store.delete_campaign("A")
    [kept] = store.campaigns()
    assert (kept.name, kept.current, kept.characters, kept.rolls) == ("B", True, 1, 1)
    assert [c.name for c in store.characters(campaign="B")] == ["Zed"]
    assert len(store.game_sessions(campaign="B")) == 1
    assert store.committed_dice(campaign="B") is not None
    assert verify_log(store.export_log(campaign="B")).entries == 1


def test_after_the_last_campaign_is_deleted_the_next_one_made_is_current(store: Store) -> None:
    """No campaign left: none is current (« no campaign yet »), and the next campaign
    made becomes the current one, as the first one ever does."""
    store.create_campaign("A")
    store.delete_campaign("A")
    with pytest.raises(NoCampaignYet):
        store.current_campaign()
    made = store.create_campaign("C")
    assert made.current and store.current_campaign().name == "C"


def test_reading_a_database_with_no_campaign_makes_none(store: Store) -> None:
    """Only a write makes the ``default`` campaign: a read of an empty database (the
    characters, the log, the sessions) says there is no campaign yet and leaves it empty."""
    for read in (store.characters, store.rolls, store.game_sessions, store.export_log):
        with pytest.raises(NoCampaignYet):
            read()
    with pytest.raises(NoCampaignYet):
        store.character("Zed")
    assert store.campaigns() == []


def test_with_campaigns_but_none_current_a_write_goes_to_the_oldest(db_url: str) -> None:
    """A database whose current campaign was lost (its setting row gone): a write to
    « the current campaign » picks the oldest campaign and makes it current, rather than
    a new ``default`` one."""
    with Store(db_url) as store:
        store.create_campaign("A")
        store.create_campaign("B")
        with store.transaction() as session:
            session.execute(delete(Setting).where(Setting.key == CURRENT_KEY))
    with Store(db_url) as store:
        store.add_character("krasses", "Zed", {"name": "Zed"})
        assert [(c.name, c.current, c.characters) for c in store.campaigns()] == [
            ("A", True, 1),
            ("B", False, 0),
        ]


def test_a_new_campaign_and_a_new_session_count_nothing(store: Store) -> None:
    """The counts of a campaign (characters, rolls) and of a game session (rolls) start
    at zero."""
    made = store.create_campaign("A")
    assert (made.characters, made.rolls) == (0, 0)
    assert store.start_session().rolls == 0


def test_a_character_read_by_campaign_name_keeps_both_its_dates(store: Store) -> None:
    """The one-statement read gives the creation and the last change apart (an import
    keeps both dates as given)."""
    store.create_campaign("Table")
    made, changed = datetime(2020, 1, 2, 3, 4, 5, tzinfo=UTC), datetime(2021, 6, 7, tzinfo=UTC)
    store.add_characters([NewCharacter("krasses", "Zed", {"name": "Zed"}, {}, made, changed)])
    fast = store.character("Zed", campaign="Table")
    assert (fast.created_at, fast.updated_at) == (made, changed)
    assert fast == store.character("Zed")


def test_opening_a_session_with_no_campaign_makes_the_default_one(store: Store) -> None:
    """Zero setup, as for the first character: a session opened on an empty database
    opens in a new ``default`` campaign, which becomes current."""
    opened = store.start_session()
    assert (opened.rolls, opened.seed, opened.revealed_at) == (0, None, None)
    assert store.current_campaign().name == "default"
    assert store.game_sessions(campaign="default") == [opened]


def test_sessions_and_committed_dice_are_read_per_campaign(store: Store) -> None:
    """A game session belongs to its campaign: another campaign lists none and deals no
    committed dice. The one-query read of the dice (the live table's, by campaign name)
    gives what the ORM gives: the seed, the next counter once dice were drawn and logged,
    the commitment."""
    store.create_campaign("A")
    store.create_campaign("B")
    opened = store.start_session(campaign="A")
    assert store.game_sessions(campaign="B") == []
    assert store.committed_dice(campaign="B") is None
    dice = store.committed_dice(campaign="a")
    assert dice is not None
    assert (dice.counter, dice.commitment) == (0, opened.commitment)
    assert commitment_of(dice.seed) == opened.commitment
    faces = dice.roll(6, 2)
    log_roll(store, "generic", "roll", {}, [faces], {"total": sum(faces)}, "committed", dice=dice)
    fast, slow = store.committed_dice(campaign="A"), store.committed_dice()
    assert fast is not None and slow is not None
    assert dice.counter >= 2  # two faces drew a counter each at least
    assert (fast.seed, fast.counter, fast.commitment) == (
        slow.seed,
        dice.counter,
        opened.commitment,
    )
    assert [s.commitment for s in store.game_sessions(campaign="A")] == [opened.commitment]


def test_an_empty_log_is_exported_with_no_head(store: Store) -> None:
    """``head`` is the last entry when the document was made: an empty log has none
    (null), not an entry 1 chained to the genesis hash."""
    store.create_campaign("Table")
    log = store.export_log()
    assert (log["head"], log["entries"]) == (None, [])
    store.append_roll(roll(None))
    [entry] = store.export_log()["entries"]
    assert store.export_log()["head"] == {"seq": 1, "hash": entry["hash"]}


def test_a_first_roll_with_no_campaign_makes_the_default_one(store: Store) -> None:
    """Zero setup: the first roll logged on an empty database starts the log of a new
    ``default`` campaign, made current."""
    entry = store.append_roll(roll(None))
    assert (entry["seq"], entry["prev_hash"]) == (1, GENESIS)
    assert [(c.name, c.current, c.rolls) for c in store.campaigns()] == [("default", True, 1)]


def test_a_roll_for_a_campaign_that_does_not_exist_makes_no_campaign(store: Store) -> None:
    """A roll refused because its campaign does not exist writes nothing at all: not even
    the ``default`` campaign a roll with no campaign named would have made."""
    with pytest.raises(CampaignError, match="Nowhere"):
        store.append_roll(roll(None), campaign="Nowhere")
    assert store.campaigns() == []


def test_a_roll_after_the_last_campaign_was_deleted_makes_the_default_one(
    store: Store,
) -> None:
    """Zero setup holds for a Store open for long (a script, a server): once its
    campaigns are all deleted (here or by another process), the next roll with no
    campaign named makes ``default`` again, as it does in a Store just opened."""
    store.append_roll(roll(None))
    store.delete_campaign("default")
    assert store.append_roll(roll(None))["seq"] == 1
    assert [c.name for c in store.campaigns()] == ["default"]


@pytest.fixture
def new_york_time() -> Iterator[None]:
    """The process's local time is UTC-5 (a POSIX ``TZ``, no time zone database)."""
    if not hasattr(time, "tzset"):
        pytest.skip("time.tzset is POSIX only")
    before = os.environ.get("TZ")
    os.environ["TZ"] = "EST+5"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def test_moments_are_read_back_in_utc_whatever_the_local_time(
    store: Store, new_york_time: None
) -> None:
    """A moment is stored and read as UTC: on a machine whose local time is not UTC, a
    log entry reads back at the moment it was logged (its hash covers it: the export
    still verifies), and a character's dates read alike both ways."""
    assert time.timezone == 5 * 3600
    store.create_campaign("Table")
    entry = store.append_roll(roll(None))
    assert [e["at"] for e in store.rolls()] == [entry["at"]]
    assert verify_log(store.export_log()).entries == 1
    made = store.add_character("krasses", "Zed", {"name": "Zed"})
    fast = store.character("Zed", campaign="Table")
    assert (fast.created_at, fast.updated_at) == (made.created_at, made.updated_at)


def test_the_log_since_a_moment_given_in_any_time_zone(store: Store) -> None:
    """``since`` is a moment, whatever time zone it is written in: the same moment in
    UTC-5 selects the same entries as in UTC."""
    store.create_campaign("Table")
    store.append_roll(roll(None))
    middle = store.append_roll(roll(None))
    store.append_roll(roll(None))
    since = datetime.fromisoformat(middle["at"].replace("Z", "+00:00"))
    elsewhere = since.astimezone(timezone(timedelta(hours=-5)))
    assert [e["seq"] for e in store.rolls(since=elsewhere)] == [2, 3]


def test_the_log_limited_to_n_entries_gives_the_oldest_n(store: Store) -> None:
    store.create_campaign("Table")
    for total in (5, 6, 7):
        store.append_roll(roll(None, total=total))
    assert [e["outcome"]["total"] for e in store.rolls(limit=2)] == [5, 6]
    assert store.rolls(limit=0) == []


def test_what_the_store_hands_and_takes_cannot_be_changed_afterwards(store: Store) -> None:
    """Results are frozen values (no ORM object escapes a transaction), and so are the
    requests (a roll waits in the group appender's queue after its caller handed it)."""
    made = store.add_character("krasses", "Zed", {"name": "Zed"})
    values = (
        made,
        store.current_campaign(),
        store.start_session(),
        NewCharacter("krasses", "Ana", {"name": "Ana"}),
        roll(None),
    )
    for value in values:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)


def test_a_failed_statement_of_the_hot_path_is_said_in_words_and_the_store_goes_on(
    store: Store,
) -> None:
    """``read_one`` (the table's one-statement reads): the driver's error becomes the
    user's (« la base ... a échoué »), its connection is dropped, the next read works."""
    store.create_campaign("A")
    store.add_character("krasses", "Zed", {"name": "Zed"})
    with pytest.raises(StorageError, match=r"a échoué"):
        store.read_one("SELECT nothing FROM nowhere", {})
    assert store.character("Zed").name == "Zed"
    assert store.committed_dice() is None
