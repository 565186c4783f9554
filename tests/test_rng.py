"""Dice sources: secure, seeded (reproducible, unbiased), physical (exact, with clear errors)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from meneur.errors import DiceSourceError, LimitError, UsageError
from meneur.rng import (
    HeldDice,
    PhysicalDice,
    RecordingDice,
    SecureDice,
    SeededDice,
    make_source,
    parse_faces,
    parse_seed,
)


def test_seeded_dice_are_pinned_across_runs_and_platforms() -> None:
    """The stream for seed 1 is fixed forever: replays and logs depend on it."""
    assert SeededDice(1).roll(6, 10) == (2, 5, 1, 3, 1, 4, 4, 4, 6, 4)
    assert SeededDice(2026).roll(20, 5) == SeededDice(2026).roll(20, 5)
    assert SeededDice(1).roll(1_000_000, 2) == (140892, 596854)


def test_seeded_dice_differ_between_seeds() -> None:
    assert SeededDice(1).roll(6, 20) != SeededDice(2).roll(6, 20)


def test_seeded_dice_are_uniform_without_modulo_bias() -> None:
    """On a d6 drawn from 3 bits, modulo would favour 1 and 2; rejection does not."""
    counts = Counter(SeededDice(7).roll(6, 60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert abs(counts[face] - 10_000) < 400, counts


def test_secure_dice_stay_in_range() -> None:
    faces = SecureDice().roll(20, 2000)
    assert min(faces) >= 1
    assert max(faces) <= 20
    assert len(set(faces)) == 20


def test_physical_dice_are_used_exactly_in_order() -> None:
    source = PhysicalDice([1, 1, 4, 6])
    assert source.roll(6, 3) == (1, 1, 4)
    assert source.roll(6, 1) == (6,)
    source.finish()


def test_physical_dice_running_short_say_how_many_are_missing() -> None:
    source = PhysicalDice([3])
    with pytest.raises(DiceSourceError, match="2 dés manquent"):
        source.roll(6, 3)


def test_physical_dice_left_over_say_which_were_not_used() -> None:
    source = PhysicalDice([3, 4, 5])
    source.roll(6, 1)
    with pytest.raises(DiceSourceError, match="4, 5"):
        source.finish()


def test_physical_face_impossible_on_the_die() -> None:
    with pytest.raises(DiceSourceError, match="7"):
        PhysicalDice([7]).roll(6, 1)


@pytest.mark.parametrize("text", ["-1", "abc", "1" * 1000, "18446744073709551616", ""])
def test_bad_seeds_are_refused(text: str) -> None:
    with pytest.raises(UsageError):
        parse_seed(text)


def test_seed_bounds() -> None:
    assert parse_seed("0") == 0
    assert parse_seed(str(2**64 - 1)) == 2**64 - 1


@pytest.mark.parametrize("text", ["a,b", "", "1,-2", "1.5", "9" * 8])
def test_bad_faces_are_refused(text: str) -> None:
    with pytest.raises(UsageError):
        parse_faces(text)


def test_faces_accept_commas_and_spaces() -> None:
    assert parse_faces("1,1, 4 6") == (1, 1, 4, 6)


@pytest.mark.parametrize("text", ["1,,2", "1,2,", ",1"])
def test_an_empty_face_between_commas_is_named(text: str) -> None:
    """``--faces 1,,2`` read as two faces and was refused as « 1 die missing »: the slip
    is the empty entry, and the message says so."""
    with pytest.raises(UsageError) as caught:
        parse_faces(text)
    assert "virgules" in str(caught.value) or "commas" in str(caught.value)


def test_faces_text_is_limited() -> None:
    with pytest.raises(LimitError):
        parse_faces("1," * 6000)


def test_make_source_refuses_seed_and_faces_together() -> None:
    with pytest.raises(UsageError):
        make_source(seed=1, faces=(1,))
    assert make_source().kind == "secure"
    assert make_source(seed=3).kind == "seeded"
    assert make_source(faces=(1,)).kind == "physical"


def test_impossible_dice_requests_are_errors() -> None:
    with pytest.raises(LimitError):
        SecureDice().roll(0, 1)
    with pytest.raises(UsageError):
        SeededDice(1).roll(6, -1)


# -- each source's promises at their edges (hand mutation testing of rng.py) --------------


@pytest.mark.parametrize(("sides", "bits"), [(2, 1), (4, 2), (7, 3), (8, 3), (9, 4), (100, 7)])
def test_seeded_faces_are_raw_bits_of_the_width_of_sides_minus_one_rejected_past_sides(
    sides: int, bits: int
) -> None:
    """The module doc's recipe, by hand: ``getrandbits`` of a Mersenne Twister seeded by
    the integer, as many bits as ``sides - 1`` needs, rejected when they pass it (never a
    modulo): a d8 reads 3 bits, a d9 four."""
    bits_of = random.Random(2026)
    expected: list[int] = []
    while len(expected) < 50:
        value = bits_of.getrandbits(bits)
        if value < sides:
            expected.append(value + 1)
    assert SeededDice(2026).roll(sides, 50) == tuple(expected)


SOURCES = {
    "secure": SecureDice,
    "seeded": lambda: SeededDice(3),
    "physical": lambda: PhysicalDice([1, 1, 1]),
    "recording": lambda: RecordingDice(SeededDice(3)),
    "held": lambda: HeldDice(SeededDice(3)),
}


@pytest.mark.parametrize("name", SOURCES)
def test_every_source_rolls_one_die_unless_told_and_zero_dice_when_asked(name: str) -> None:
    """The protocol: ``roll(sides)`` is one die; ``roll(sides, 0)`` none (only a negative
    count is refused); a one-sided die always shows 1."""
    assert len(SOURCES[name]().roll(6)) == 1
    assert SOURCES[name]().roll(6, 0) == ()
    assert SOURCES[name]().roll(1, 3) == (1, 1, 1)


def test_a_seeded_one_sided_die_uses_no_bits() -> None:
    source = SeededDice(4)
    assert source.roll(1, 2) == (1, 1)
    assert source.roll(20, 5) == SeededDice(4).roll(20, 5)


@pytest.mark.parametrize("source", [SecureDice(), SeededDice(1)])
def test_a_die_has_from_1_to_a_million_sides(source: SecureDice | SeededDice) -> None:
    assert len(source.roll(1_000_000, 1)) == 1
    for sides in (0, 1_000_001):
        with pytest.raises(LimitError) as caught:
            source.roll(sides, 1)
        assert caught.value.params == {"limit": 1_000_000, "sides": sides}


def test_a_typed_face_of_0_is_impossible() -> None:
    with pytest.raises(DiceSourceError) as caught:
        PhysicalDice([0]).roll(6, 1)
    assert caught.value.params == {"face": 0, "sides": 6}


def test_typed_dice_running_short_count_all_the_dice_needed_so_far() -> None:
    """Two faces used, three more asked for, one left: 2 missing of the 5 needed."""
    source = PhysicalDice([3, 4, 5])
    source.roll(6, 2)
    with pytest.raises(DiceSourceError) as caught:
        source.roll(6, 3)
    assert caught.value.params == {"missing": 2, "needed": 5}


def test_a_recording_source_remembers_every_face_in_order() -> None:
    source = RecordingDice(PhysicalDice([2, 6, 1, 4]))
    assert source.kind == "physical"
    assert source.roll(6, 3) == (2, 6, 1) and source.roll(6) == (4,)
    assert source.faces == [2, 6, 1, 4]
    source.finish()


def test_seeds_go_from_0_to_2_to_the_64_minus_1() -> None:
    assert SeededDice(0).roll(6, 5) == SeededDice(0).roll(6, 5)
    assert SeededDice(2**64 - 1).seed == 2**64 - 1
    for seed in (-1, 2**64):
        with pytest.raises(UsageError):
            SeededDice(seed)


def test_typed_faces_are_read_up_to_10000_characters_and_7_digits() -> None:
    assert parse_faces("1" * 7) == (1_111_111,)
    text = "6," * 4999 + "6"  # 9,999 characters
    assert parse_faces(text + "6") == (6,) * 4999 + (66,)  # exactly 10,000
    with pytest.raises(LimitError) as caught:
        parse_faces(text + "66")
    assert caught.value.params == {"limit": 10_000}
