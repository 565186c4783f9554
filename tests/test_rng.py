"""Dice sources: secure, seeded (reproducible, unbiased), physical (exact, with clear errors)."""

from __future__ import annotations

from collections import Counter

import pytest

from meneur.errors import DiceSourceError, LimitError, UsageError
from meneur.rng import (
    PhysicalDice,
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
