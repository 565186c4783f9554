"""Property tests generated from the grammar itself (hypothesis.extra.lark)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from meneur.dice import bounds, parse, roll_expression
from meneur.dice.parse import grammar_text
from meneur.errors import MeneurError
from meneur.rng import PhysicalDice, RecordingDice, SeededDice

# A grammar built afresh (the CLI's parser may come from lark's cache, which keeps no
# rules for hypothesis to generate from).
EXPRESSIONS = from_lark(Lark(grammar_text(), parser="lalr"), start="start")


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(EXPRESSIONS, st.integers(min_value=0, max_value=2**32))
def test_any_generated_expression_rolls_within_bounds_or_raises_a_meneur_error(
    text: str, seed: int
) -> None:
    try:
        node = parse(text)
        rolled = roll_expression(node, SeededDice(seed))
    except MeneurError:
        return
    low, high = bounds(node)
    assert low <= rolled.total <= high


@settings(max_examples=150, deadline=None)
@given(EXPRESSIONS, st.integers(min_value=0, max_value=2**32))
def test_seeded_rolls_are_reproducible(text: str, seed: int) -> None:
    try:
        node = parse(text)
        first = roll_expression(node, SeededDice(seed))
    except MeneurError:
        return
    assert roll_expression(node, SeededDice(seed)) == first


@settings(max_examples=150, deadline=None)
@given(EXPRESSIONS, st.integers(min_value=0, max_value=2**32))
def test_physical_faces_are_used_exactly(text: str, seed: int) -> None:
    """Replaying a seeded roll's faces as physical dice gives the same roll, using every face."""
    try:
        node = parse(text)
        recorder = RecordingDice(SeededDice(seed))
        first = roll_expression(node, recorder)
    except MeneurError:
        return
    replay = roll_expression(node, PhysicalDice(recorder.faces))
    assert replay.tree == first.tree
