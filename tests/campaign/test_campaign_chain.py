"""Verifiable dice: committed faces without bias, a hash chain, and ``verify``."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import hmac
import json
from collections import Counter
from typing import Any

import pytest

from meneur.campaign.chain import (
    GENESIS,
    HASHED_FIELDS,
    CommittedDice,
    SessionSources,
    command_of,
    commitment_of,
    committed_face,
    entry_hash,
    new_seed,
    session_sources,
    verify_log,
)
from meneur.campaign.errors import VerifyError
from meneur.rng import MAX_SIDES, DiceSource

SEED = bytes(range(32))


def test_committed_dice_are_a_dice_source() -> None:
    dice = CommittedDice(SEED)
    assert isinstance(dice, DiceSource)
    assert dice.kind == "committed"
    assert dice.commitment == hashlib.sha256(SEED).hexdigest()


def test_faces_come_from_hmac_sha256_of_the_counter() -> None:
    """The documented recipe, recomputed by hand: top bits of HMAC(seed, counter)."""
    dice = CommittedDice(SEED)
    faces = dice.roll(20, 5)
    expected = []
    counter = 0
    while len(expected) < 5:
        digest = hmac.new(SEED, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        value = int.from_bytes(digest, "big") >> (256 - 5)  # 19 needs 5 bits
        if value < 20:
            expected.append(value + 1)
    assert faces == tuple(expected)
    assert dice.counter == counter
    assert dice.draws == [[20, face] for face in faces]


def test_same_seed_same_faces_and_another_seed_other_faces() -> None:
    assert CommittedDice(SEED).roll(6, 30) == CommittedDice(SEED).roll(6, 30)
    assert CommittedDice(SEED).roll(6, 30) != CommittedDice(bytes(32)).roll(6, 30)


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 12, 20, 100])
def test_faces_are_unbiased(sides: int) -> None:
    """Every face appears; a chi-square over 600 draws per face stays far from bias."""
    dice = CommittedDice(SEED)
    draws = 600 * sides
    counts = Counter(dice.roll(sides, draws))
    assert set(counts) == set(range(1, sides + 1))
    expected = draws / sides
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))
    # 99.99th percentile of chi-square with 99 degrees of freedom is about 157.
    assert chi2 < max(30.0, 1.6 * sides)


def test_one_sided_die_uses_no_counter() -> None:
    assert committed_face(SEED, 7, 1) == (1, 7)


def log_of(entries: int = 5) -> dict[str, Any]:
    """A revealed session's log: committed rolls and one physical roll, chained."""
    dice = CommittedDice(SEED)
    log: list[dict[str, Any]] = []
    previous = GENESIS
    for seq in range(1, entries + 1):
        dice.begin_entry()
        physical = seq == 3
        faces = [[2, 5]] if physical else [list(dice.roll(6, 3))]
        entry: dict[str, Any] = {
            "seq": seq,
            "at": f"2026-12-02T20:00:0{seq}.000000Z",
            "who": "Zed",
            "system": "generic",
            "kind": "roll",
            "params": {"expression": "3d6"},
            "faces": faces,
            "decisions": [],
            "outcome": {"total": sum(faces[0])},
            "source": "physical" if physical else "committed",
            "commitment": None if physical else dice.commitment,
            "counter": None if physical else dice.start,
            "draws": [] if physical else [list(d) for d in dice.draws],
            "prev_hash": previous,
        }
        entry["hash"] = previous = entry_hash(entry["prev_hash"], entry)
        log.append(entry)
    return {
        "format": "meneur-log",
        "version": 1,
        "sessions": [{"commitment": commitment_of(SEED), "seed": SEED.hex()}],
        "head": {"seq": entries, "hash": previous} if entries else None,
        "entries": log,
    }


def rehash(document: dict[str, Any], start: int = 0) -> None:
    """What a forger would do: recompute every hash after a change."""
    entries = document["entries"]
    previous = entries[start - 1]["hash"] if start else GENESIS
    for entry in entries[start:]:
        entry["prev_hash"] = previous
        entry["hash"] = previous = entry_hash(previous, entry)
    if entries and document.get("head"):  # a forger rewrites the recorded head too
        document["head"] = {"seq": entries[-1]["seq"], "hash": previous}


def test_an_untouched_log_verifies() -> None:
    report = verify_log(log_of())
    assert (report.entries, report.recomputed, report.physical) == (5, 4, 1)
    assert report.complete


def test_a_file_without_its_head_is_not_called_complete() -> None:
    """The export records the log's head; a file without it could have lost entries at
    its end unseen (the last rolls cut and ``head`` deleted with them): it still
    verifies, but is not called complete, and the report says why."""
    document = log_of()
    del document["head"]
    del document["entries"][-1]
    report = verify_log(document)
    assert report.entries == 4 and not report.end_known and not report.complete


@pytest.mark.parametrize("head", [None, "abc", ["x"], 3])
def test_a_head_that_is_no_entry_is_refused(head: Any) -> None:
    """A null ``head`` (what an export of an empty log writes) beside entries passed as
    « the end is known »: the last entries cut and the head nulled verified under
    ``--strict``. A head must be an entry, or null for a log with none."""
    document = log_of()
    del document["entries"][-1]
    document["head"] = head
    with pytest.raises(VerifyError, match="tête"):  # French by default
        verify_log(document)
    empty = {**log_of(), "entries": [], "head": None}
    assert verify_log(empty).end_known


@pytest.mark.parametrize(
    ("field", "value"),
    [("entries", None), ("entries", {"a": 1}), ("sessions", "abc"), ("sessions", [1])],
)
def test_a_log_of_the_wrong_shape_is_one_error(field: str, value: Any) -> None:
    """``"entries": null`` or ``"sessions": "abc"`` crashed ``verify`` (TypeError,
    AttributeError): one clear error instead."""
    document = {**log_of(), field: value}
    with pytest.raises(VerifyError, match=field):
        verify_log(document)


def test_a_log_without_entries_is_of_the_wrong_shape_not_an_empty_log() -> None:
    """``{"format": "meneur-log", "version": 1}`` verified as an empty log (« ok »): no
    export leaves ``entries`` out, so a file without it is refused as one whose
    ``entries`` is no list."""
    document = log_of()
    del document["entries"]
    document["head"] = None
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.message == "The log's 'entries' is not a list of entries."
    with pytest.raises(VerifyError, match="entries"):
        verify_log({"format": "meneur-log", "version": 1})


def test_an_altered_face_names_its_entry() -> None:
    document = log_of()
    entry = document["entries"][3]
    entry["faces"][0][1] = 7 - entry["faces"][0][1]
    with pytest.raises(VerifyError, match=r"4 .Zed, roll.") as caught:
        verify_log(document)
    assert "changed" in str(caught.value) or "modifié" in str(caught.value)


def test_an_altered_face_with_forged_hashes_fails_the_recomputation() -> None:
    document = log_of()
    entry = document["entries"][1]
    entry["faces"][0][0] = entry["draws"][0][1] = 7 - entry["draws"][0][1]
    rehash(document)
    with pytest.raises(VerifyError, match=r"2 .Zed, roll.*1") as caught:
        verify_log(document)
    assert caught.value.params["seq"] == 2
    assert caught.value.params["number"] == 1


def test_a_removed_entry_breaks_the_link() -> None:
    document = log_of()
    del document["entries"][2]
    document["entries"][2]["seq"] = 3
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params["seq"] == 3


def test_a_hidden_reroll_is_detected() -> None:
    """Dice drawn from the seed but not logged (a discarded roll) leave a counter gap."""
    document = log_of()
    del document["entries"][1]
    for seq, entry in enumerate(document["entries"], start=1):
        entry["seq"] = seq
    rehash(document)
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    # entry 2 is now the physical roll; entry 3 is the first committed roll after the gap
    assert caught.value.params["seq"] == 3
    assert caught.value.params["counter"] > caught.value.params["expected"]


def test_a_wrong_revealed_seed_is_refused() -> None:
    document = log_of()
    document["sessions"][0]["seed"] = bytes(32).hex()
    with pytest.raises(VerifyError):
        verify_log(document)


def test_physical_entries_are_chain_checked_only() -> None:
    document = log_of()
    physical = document["entries"][2]
    physical["faces"] = [[6, 6]]
    rehash(document, 2)
    report = verify_log(document)  # nobody can recompute dice typed by a player
    assert report.physical == 1


def test_an_unrevealed_session_is_reported_not_recomputed() -> None:
    document = log_of()
    document["sessions"][0]["seed"] = None
    report = verify_log(document)
    assert (report.recomputed, report.unrevealed) == (0, 4)


def test_not_a_log_is_refused() -> None:
    with pytest.raises(VerifyError):
        verify_log({"format": "something"})
    broken = copy.deepcopy(log_of())
    broken["entries"][0] = "nope"
    with pytest.raises(VerifyError):
        verify_log(broken)


def test_a_rewritten_log_misses_the_published_head() -> None:
    """The head published at reveal pins the log: rewriting all hashes is caught."""
    document = log_of()
    document["sessions"][0]["closing_hash"] = document["entries"][-1]["hash"]
    assert verify_log(document).entries == 5
    document["entries"][2]["faces"] = [[1, 1]]  # a physical roll, forged with new hashes
    rehash(document, 2)
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params["commitment"] == commitment_of(SEED)[:16]


@pytest.mark.parametrize("version", [2, "1", None, 1.5, [1]])
def test_a_log_of_another_version_is_refused_as_such(version: object) -> None:
    """``version`` was never read: a log of a later layout (or of none) verified as if it
    were this one, where a character export of another version is refused."""
    document = log_of()
    document["version"] = version
    with pytest.raises(VerifyError, match="version"):
        verify_log(document)
    del document["version"]
    with pytest.raises(VerifyError, match="version"):
        verify_log(document)


@pytest.mark.parametrize("version", [True, 1.0])
def test_a_version_equal_to_1_but_not_the_integer_1_is_refused(version: object) -> None:
    """In Python ``True == 1`` and ``1.0 == 1``: a log of ``"version": true`` or ``1.0``
    verified as version 1. Only the integer 1 is version 1; the value is quoted as
    written."""
    document = {**log_of(), "version": version}
    with pytest.raises(VerifyError, match="version") as caught:
        verify_log(document)
    assert caught.value.params["found"] == json.dumps(version)


# -- what the chain promises, pinned value by value (hand mutation testing of chain.py) ----


def test_a_session_seed_is_32_secret_bytes_committed_by_their_sha256() -> None:
    """Step 1 of the module doc: a secret 32-byte seed, published as ``sha256(seed)``."""
    seed = new_seed()
    assert len(seed) == 32 and seed != new_seed()
    assert commitment_of(seed) == hashlib.sha256(seed).hexdigest()


def test_an_entry_hash_is_sha256_of_the_previous_hash_and_its_canonical_json() -> None:
    """Step 3: ``sha256(previous hash + canonical JSON)``, the JSON written here by hand
    from docs/campaign.md (the hashed fields only, keys sorted at every depth, no spaces,
    UTF-8 and not ``\\u`` escapes); the first entry links to 64 zeros."""
    entry: dict[str, Any] = {
        "seq": 1,
        "at": "2026-12-02T20:00:01.000000Z",
        "who": "Zoé",
        "system": "generic",
        "kind": "roll",
        "params": {"expression": "2d6", "b": 1, "a": "é"},
        "faces": [[6, 2]],
        "decisions": [],
        "outcome": {"total": 8},
        "source": "physical",
        "commitment": None,
        "counter": None,
        "draws": [],
        "id": 41,  # a local database id: not hashed
        "prev_hash": "0" * 64,
    }
    body = (
        '{"at":"2026-12-02T20:00:01.000000Z","commitment":null,"counter":null,'
        '"decisions":[],"draws":[],"faces":[[6,2]],"kind":"roll","outcome":{"total":8},'
        '"params":{"a":"é","b":1,"expression":"2d6"},"seq":1,"source":"physical",'
        '"system":"generic","who":"Zoé"}'
    )
    expected = hashlib.sha256(("0" * 64 + body).encode("utf-8")).hexdigest()
    assert entry_hash("0" * 64, entry) == expected
    entry["hash"] = expected
    document = {
        "format": "meneur-log",
        "version": 1,
        "sessions": [],
        "head": {"seq": 1, "hash": expected},
        "entries": [entry],
    }
    report = verify_log(document)
    assert (report.entries, report.physical, report.head) == (1, 1, expected)
    assert report.rooted and report.complete and report.missing == 0


def test_a_value_json_cannot_write_is_never_hashed() -> None:
    """Canonical JSON (RFC 8785) has no NaN: an entry carrying one, its hash computed by a
    lenient encoder, is refused as changed instead of verifying."""
    document = log_of()
    entry = document["entries"][4]
    entry["outcome"] = {"total": float("nan")}
    body = json.dumps(
        {name: entry.get(name) for name in HASHED_FIELDS},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )  # NaN written as ``NaN``: no JSON
    entry["hash"] = hashlib.sha256((entry["prev_hash"] + body).encode()).hexdigest()
    document["head"]["hash"] = entry["hash"]
    with pytest.raises(ValueError):
        entry_hash(entry["prev_hash"], entry)
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.message.endswith("its content was changed after it was logged.")
    assert caught.value.params["seq"] == 5


@pytest.mark.parametrize(
    ("sides", "bits"), [(2, 1), (3, 2), (4, 2), (7, 3), (8, 3), (9, 4), (16, 4), (100, 7)]
)
def test_committed_faces_take_the_width_of_sides_minus_one_for_every_die(
    sides: int, bits: int
) -> None:
    """Step 2: ``bits`` is the width of ``sides - 1`` (a d8 reads 3 bits, a d9 four),
    recomputed by hand for dice whose width differs from that of ``sides`` or ``sides + 1``."""
    faces = CommittedDice(SEED).roll(sides, 40)
    expected: list[int] = []
    counter = 0
    while len(expected) < 40:
        digest = hmac.new(SEED, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        value = int.from_bytes(digest, "big") >> (256 - bits)
        if value < sides:
            expected.append(value + 1)
    assert faces == tuple(expected)


def test_committed_dice_roll_one_die_unless_told_otherwise() -> None:
    """Like every :class:`DiceSource`: ``roll(sides)`` is one die."""
    assert CommittedDice(SEED).roll(20) == CommittedDice(SEED).roll(20, 5)[:1]


def test_each_session_counts_its_entries_by_the_source_of_their_dice() -> None:
    """docs/campaign.md: ``verify`` counts each session's entries by source; the physical
    roll typed during the session is the one that bypassed its committed dice."""
    (session,) = verify_log(log_of()).sessions
    assert session == SessionSources(commitment_of(SEED), {"committed": 4, "physical": 1})
    assert session.bypassed == 1


def test_an_entry_that_drew_no_die_counts_in_no_session() -> None:
    sessions = [{"commitment": "c"}]
    entries = [
        {"faces": [], "source": "physical", "at": "2026"},
        {"faces": [[]], "source": "secure", "at": "2026"},
        {"faces": None, "source": "secure", "at": "2026"},
        {"faces": [[4]], "source": None, "at": "2026"},
    ]
    assert session_sources(sessions, entries) == (SessionSources("c", {"?": 1}),)


SESSIONS = [
    {"commitment": "a", "started_at": "2026-12-02T20:00", "revealed_at": "2026-12-02T22:00"},
    {"commitment": "b", "started_at": "2026-12-03T20:00", "revealed_at": None},
]


def test_a_committed_entry_belongs_to_the_session_it_names_whatever_its_time() -> None:
    """An entry belongs to the session whose commitment it names (its time, here inside
    the second session, does not move it)."""
    entries = [{"faces": [[3]], "source": "committed", "commitment": "a", "at": "2026-12-03T21"}]
    assert session_sources(SESSIONS, entries) == (
        SessionSources("a", {"committed": 1}),
        SessionSources("b", {}),
    )


def test_an_entry_of_other_dice_belongs_to_the_session_open_at_its_time() -> None:
    """Between ``started_at`` and ``revealed_at``, both ends in; before, between or
    after no session, nowhere."""
    at = [
        "2026-12-02T19:59",  # before the first session: none
        "2026-12-02T20:00",  # at its start
        "2026-12-02T22:00",  # at its reveal
        "2026-12-02T22:01",  # between the sessions: none
        "2026-12-04T01:00",  # in the open second session
    ]
    entries = [{"faces": [[3]], "source": "physical", "at": moment} for moment in at]
    assert session_sources(SESSIONS, entries) == (
        SessionSources("a", {"physical": 2}),
        SessionSources("b", {"physical": 1}),
    )


def test_an_entry_is_named_by_the_command_that_made_it() -> None:
    assert command_of({"system": "generic", "kind": "roll"}) == "roll"
    assert command_of({"system": "tunnels", "kind": "test"}) == "test tunnels"
    document = log_of()
    document["entries"][3]["faces"][0][0] += 1
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params == {"seq": 4, "who": "Zed", "kind": "roll"}


def test_a_refused_entry_names_its_roller_and_roll_in_80_characters() -> None:
    document = log_of()
    entry = document["entries"][1]
    entry["who"], entry["kind"] = "Z" * 100, "k" * 100  # (no re-hash: refused as changed)
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params == {"seq": 2, "who": "Z" * 80, "kind": "k" * 80}


def test_another_version_is_quoted_as_written_in_20_characters() -> None:
    document = {**log_of(), "version": "é" * 30}
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params["found"] == '"' + "é" * 19


def test_a_wrong_revealed_seed_names_its_session_by_16_hex_digits() -> None:
    document = log_of()
    document["sessions"][0]["seed"] = bytes(32).hex()
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params == {"commitment": commitment_of(SEED)[:16]}


def test_a_wrong_revealed_seed_is_said_not_to_match_its_commitment(english: None) -> None:
    """The English line said the seed « does not match it » (match what?); the French
    one said « son engagement »: both name the commitment now."""
    document = log_of()
    document["sessions"][0]["seed"] = bytes(32).hex()
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    short = commitment_of(SEED)[:16]
    assert str(caught.value) == (
        f"The revealed seed of the game session {short} does not match its commitment."
    )
    from meneur.locale import set_language

    set_language("fr")
    assert str(caught.value) == (
        f"La graine révélée de la séance de jeu {short} ne correspond pas à son engagement."
    )


def test_an_untouched_log_misses_nothing_and_a_file_without_head_is_not_short() -> None:
    report = verify_log(log_of())
    assert (report.missing, report.rooted, report.end_known) == (0, True, True)
    document = log_of()
    del document["head"]
    report = verify_log(document)
    assert (report.missing, report.rooted, report.end_known, report.complete) == (
        0,
        True,
        False,
        False,
    )


def test_a_file_starting_past_entry_1_counts_the_entries_before_it() -> None:
    """A player's copy without its first rolls: their links cannot be checked (not
    rooted, not complete) and the gap is counted."""
    document = log_of()
    del document["entries"][:2]
    report = verify_log(document)
    assert (report.entries, report.missing, report.rooted, report.complete) == (
        3,
        2,
        False,
        False,
    )


def test_a_first_entry_1_not_linked_to_the_start_of_the_log_is_not_rooted() -> None:
    """Entry 1 must link to 64 zeros: one that links elsewhere, hashes chained again from
    there, is the start of some other log (or of none) and the file is not complete."""
    document = log_of()
    previous = "f" * 64
    for entry in document["entries"]:
        entry["prev_hash"] = previous
        entry["hash"] = previous = entry_hash(previous, entry)
    document["head"] = {"seq": 5, "hash": previous}
    report = verify_log(document)
    assert (report.rooted, report.complete, report.missing) == (False, False, 0)


@pytest.mark.parametrize("twice", [1, 2])
def test_a_duplicated_entry_is_refused_as_out_of_order(twice: int) -> None:
    """The same entry twice (or two entries of one number) is no export: refused."""
    document = log_of()
    entries = document["entries"]
    entries.insert(twice, copy.deepcopy(entries[twice - 1]))
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.params["seq"] == caught.value.params["before"] == twice
    assert "out of order" in caught.value.message


@pytest.mark.parametrize(("cut", "missing"), [([2], 1), ([1, 2], 2), ([1, 3], 2)])
def test_entries_cut_from_the_middle_are_counted_and_the_rest_still_verifies(
    cut: list[int], missing: int
) -> None:
    """A filtered copy verifies its links present and counts its gaps; it is not complete
    (so a committed counter after a gap, rightly off, is not held against it)."""
    document = log_of()
    for index in sorted(cut, reverse=True):
        del document["entries"][index]
    report = verify_log(document)
    assert (report.entries, report.missing) == (5 - len(cut), missing)
    assert report.rooted and report.end_known and not report.complete


@pytest.mark.parametrize("cut", [1, 2])
def test_entries_cut_from_the_end_are_counted_from_the_head(cut: int) -> None:
    """The embarrassing last roll removed, the head kept: the file is not complete."""
    document = log_of()
    del document["entries"][-cut:]
    report = verify_log(document)
    assert (report.entries, report.missing, report.complete, report.end_known) == (
        5 - cut,
        cut,
        False,
        True,
    )
    assert report.head == document["entries"][-1]["hash"]


def test_a_file_with_a_head_and_no_entry_misses_them_all() -> None:
    document = {**log_of(), "entries": [], "head": {"seq": 3, "hash": "ab" * 32}}
    report = verify_log(document)
    assert (report.entries, report.missing, report.complete) == (0, 3, False)


@pytest.mark.parametrize(
    "head",
    [
        {"seq": 5, "hash": "ab" * 32},  # the last entry's number, another hash
        {"seq": 5},  # no hash
        {"seq": 4, "hash": "entry 4"},  # an entry, but not the last one
        {"seq": "5", "hash": "x"},
        {"hash": "x"},
    ],
)
def test_a_head_that_is_not_the_last_entry_is_refused(head: dict[str, Any]) -> None:
    document = log_of()
    if head.get("hash") == "entry 4":
        head = {"seq": 4, "hash": document["entries"][3]["hash"]}
    document["head"] = head
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.message == "The log's head is not an entry of this log."


def test_a_committed_entry_without_its_counter_is_refused() -> None:
    """A ``null`` counter passes the shape check (older exports): the committed dice
    cannot be recomputed without it, so the entry is refused, not crashed on."""
    document = log_of()
    document["entries"][0]["counter"] = None
    rehash(document)
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.message.endswith("no dice counter.")
    assert caught.value.params["seq"] == 1


def committed_log(rolls: list[tuple[int, int]]) -> dict[str, Any]:
    """A revealed session whose one entry rolled ``(sides, count)`` for each of ``rolls``."""
    dice = CommittedDice(SEED)
    faces = [face for sides, count in rolls for face in dice.roll(sides, count)]
    entry: dict[str, Any] = {
        "seq": 1,
        "at": "2026-12-02T20:00:01.000000Z",
        "who": "Zed",
        "system": "generic",
        "kind": "roll",
        "params": {},
        "faces": [faces],
        "decisions": [],
        "outcome": {"total": sum(faces)},
        "source": "committed",
        "commitment": dice.commitment,
        "counter": 0,
        "draws": dice.draws,
        "prev_hash": GENESIS,
    }
    entry["hash"] = entry_hash(GENESIS, entry)
    return {
        "format": "meneur-log",
        "version": 1,
        "sessions": [{"commitment": dice.commitment, "seed": SEED.hex()}],
        "head": {"seq": 1, "hash": entry["hash"]},
        "entries": [entry],
    }


def test_committed_draws_of_a_one_sided_and_of_the_largest_die_verify() -> None:
    report = verify_log(committed_log([(1, 2), (MAX_SIDES, 1), (6, 2)]))
    assert (report.recomputed, report.complete) == (1, True)


@pytest.mark.parametrize("draw", [[0, 1], [MAX_SIDES + 1, 1], [6], [6, 1, 1], [6, "1"], "6"])
def test_a_draw_of_no_die_is_refused_as_malformed(draw: Any) -> None:
    """A draw is ``[sides, face]``, sides from 1 to the largest die (a d0 would never
    give a face: the recomputation would not end)."""
    document = committed_log([(6, 1), (6, 1)])
    document["entries"][0]["draws"][1] = draw
    rehash(document)
    with pytest.raises(VerifyError) as caught:
        verify_log(document)
    assert caught.value.message.endswith("die {number} is malformed.")
    assert caught.value.params["number"] == 2


def test_a_verify_report_cannot_be_altered_once_made() -> None:
    report = verify_log(log_of())
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.complete = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.sessions[0].commitment = "x"  # type: ignore[misc]
