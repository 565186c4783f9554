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
def test_any_generated_expression_rolls_within_bounds_reproducibly_and_replays_exactly(
    text: str, seed: int
) -> None:
    """Three properties of one generated expression (generating from the grammar is most
    of the cost, so each expression serves all three): a roll lies within the
    expression's bounds or raises a meneur error; the same seed rolls the same tree; and
    replaying a seeded roll's faces as physical dice gives the same roll, using every face."""
    try:
        node = parse(text)
        recorder = RecordingDice(SeededDice(seed))
        rolled = roll_expression(node, recorder)
    except MeneurError:
        return
    low, high = bounds(node)
    assert low <= rolled.total <= high
    assert roll_expression(node, SeededDice(seed)) == rolled
    replay = roll_expression(node, PhysicalDice(recorder.faces))
    assert replay.tree == rolled.tree


plain_expressions = st.builds(
    lambda count, d, sides, tail, pad: pad.join(
        part for part in (count, d, sides, *tail) if part is not None
    ),
    st.one_of(st.none(), st.integers(0, 120).map(str), st.just("007")),
    st.sampled_from(("d", "D")),
    st.integers(0, 1000).map(str),
    st.one_of(st.just(()), st.tuples(st.sampled_from("+-"), st.integers(0, 10**6).map(str))),
    st.sampled_from(("", " ", "\t")),
)


@settings(max_examples=300, deadline=None)
@given(text=plain_expressions)
def test_plain_expressions_read_without_lark_as_lark_reads_them(text: str) -> None:
    """``NdX±K`` skips lark at start-up: the same tree (or the same error) either way."""
    import importlib

    module = importlib.import_module("meneur.dice.parse")

    def read(function: object) -> object:
        try:
            node = function(text)  # type: ignore[operator]
        except MeneurError as error:
            return type(error), str(error)
        return node

    assert module._plain(text) is not None
    by_lark = read(lambda t: module._build(module.parser().parse(t)))
    fast = read(module._plain)
    assert fast == by_lark


def test_plain_reading_of_hostile_whitespace_is_immediate() -> None:
    """Hundreds of spaces around the tokens: the pattern never backtracks (a bounded test
    would hang for hours on a backtracking pattern)."""
    import importlib

    module = importlib.import_module("meneur.dice.parse")
    assert module._plain(" " * 400 + "d" + " " * 400) is None
    assert module._plain(" " * 300 + "3d6" + " " * 300 + "+" + " " * 300) is None
    assert str(module._plain(" " * 300 + "3 d 6" + " " * 300)) == "3d6"
