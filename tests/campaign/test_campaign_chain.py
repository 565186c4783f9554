"""Verifiable dice: committed faces without bias, a hash chain, and ``verify``."""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections import Counter
from typing import Any

import pytest

from meneur.campaign.chain import (
    GENESIS,
    CommittedDice,
    commitment_of,
    committed_face,
    entry_hash,
    verify_log,
)
from meneur.campaign.errors import VerifyError
from meneur.rng import DiceSource

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
