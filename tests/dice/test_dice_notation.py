"""Generic dice notation: grammar, limits, modifiers, JSON tree."""

from __future__ import annotations

import pytest

from meneur.dice import bounds, parse, roll_expression, to_json
from meneur.dice.ast import BinaryOperation, DiceRoll, Group, Modifier, Negation, Number
from meneur.dice.roll import (
    RolledDice,
    RolledGroup,
    RolledNegation,
    RolledNumber,
    RolledOperation,
)
from meneur.errors import DiceSyntaxError, LimitError, MeneurError
from meneur.rng import PhysicalDice, SeededDice


def roll_faces(text: str, faces: list[int]) -> dict[str, object]:
    return to_json(roll_expression(parse(text), PhysicalDice(faces)))


def test_notation_conventions() -> None:
    assert parse("d6") == DiceRoll(1, 6)
    assert parse("3D6") == DiceRoll(3, 6)
    assert parse("4d6kh3") == DiceRoll(4, 6, (Modifier("kh", 3),))
    assert parse("6d6!") == parse("6d6x")
    assert parse("2d6 + 3") == BinaryOperation("+", DiceRoll(2, 6), Number(3))
    assert str(parse("(2D6+1)*3")) == "(2d6 + 1) * 3"


def test_keep_highest_drops_the_lowest() -> None:
    data = roll_faces("4d6kh3", [2, 5, 1, 3])
    dice = data["tree"]["dice"]  # type: ignore[index]
    assert [d["kept"] for d in dice] == [True, True, False, True]
    assert data["total"] == 10


@pytest.mark.parametrize(
    ("text", "faces", "total"),
    [
        ("4d6kl1", [2, 5, 1, 3], 1),
        ("4d6dh1", [2, 5, 1, 3], 6),
        ("4d6dl1", [2, 5, 1, 3], 10),
        ("3d6+2", [1, 2, 3], 8),
        ("2d6-1d4", [6, 6, 3], 9),
        ("(1d6+1)*3", [4], 15),
        ("-1d6+10", [4], 6),
        ("3d6x", [6, 6, 2, 1, 3], 18),  # both sixes explode: the new dice show 1 and 3
        ("2d6r", [1, 4, 1], 5),  # reroll once: the new 1 stays
        ("2d6rr", [1, 1, 5, 2], 7),  # reroll recursively
        ("4d6r<3", [1, 2, 5, 6, 4, 4], 19),
        ("6d10cs>=8", [8, 7, 10, 1, 9, 3], 3),
        ("6d10cs>8", [8, 7, 10, 1, 9, 3], 2),
        ("3d6cs6", [6, 6, 1], 2),
        ("1d1cs>=0dh1", [1], 0),  # found by the grammar's property: the dropped die
        ("4d10cs>=8dh2", [9, 8, 10, 3], 1),  # dropped after counting: 8 is the one left
    ],
)
def test_modifiers(text: str, faces: list[int], total: int) -> None:
    assert roll_faces(text, faces)["total"] == total


def test_explosion_marks_the_dice() -> None:
    tree = roll_faces("2d6x", [6, 3, 4])["tree"]
    dice = tree["dice"]  # type: ignore[index]
    assert dice[0] == {"face": 6, "kept": True, "exploded": True}
    assert dice[1] == {"face": 4, "kept": True, "from_explosion": True}
    assert dice[2] == {"face": 3, "kept": True}
    assert tree["total"] == 13  # type: ignore[index]


def test_successes_are_marked() -> None:
    dice = roll_faces("3d10cs>=8", [8, 2, 10])["tree"]["dice"]  # type: ignore[index]
    assert [d["success"] for d in dice] == [True, False, True]


def test_json_has_the_total_at_the_top_and_the_source() -> None:
    data = to_json(roll_expression(parse("4d6kh3"), SeededDice(1)))
    assert 3 <= data["total"] <= 18
    assert data["dice_source"] == "seeded"
    assert len(data["tree"]["dice"]) == 4


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", DiceSyntaxError),
        ("   ", DiceSyntaxError),
        ("(((((", DiceSyntaxError),
        ("3d0", DiceSyntaxError),
        ("1d20rr<21", LimitError),
        ("1d1x", LimitError),
        ("6d6x>=1", LimitError),
        ("1000000d6", LimitError),
        ("1001d6", LimitError),
        ("600d6+600d6", LimitError),
        ("3d1000001", LimitError),
        ("1d6+" * 1249 + "1", LimitError),
        ("(" * 60 + "1" + ")" * 60, LimitError),
        ("1" + "0" * 1000, LimitError),
        ("d%", DiceSyntaxError),
        ("2d6kh3k", DiceSyntaxError),
        ("3d6 +", DiceSyntaxError),
        ("4dd6", DiceSyntaxError),
    ],
)
def test_bad_expressions(text: str, error: type[MeneurError]) -> None:
    with pytest.raises(error):
        parse(text)


def test_explosions_count_against_the_dice_limit() -> None:
    """500d6 exploding on 2+ would roll about 3000 dice: stopped at 1000 rolled."""
    with pytest.raises(LimitError):
        roll_expression(parse("500d6x>=2"), SeededDice(5))


def test_bounds_of_expressions() -> None:
    assert bounds(parse("4d6kh3")) == (3, 18)
    assert bounds(parse("2d6-1d4")) == (-2, 11)
    assert bounds(parse("6d10cs>=8")) == (0, 6)
    assert bounds(parse("(1d6)*-2")) == (-12, -2)
    assert bounds(parse("3d6x"))[1] == float("inf")


def test_marks_strike_the_dice_the_expression_does_not_count() -> None:
    """The table strikes 4d6kh3's lowest die and marks cs successes (DiceCheck.marks)."""
    from meneur.dice.check import DiceCheck, DiceParams

    check = DiceCheck()
    assert check.marks(DiceParams("4d6kh3"), ((2, 5, 1, 3),)) == (("", "", "dropped", ""),)
    assert check.marks(DiceParams("4d6dl1 + 1d4"), ((2, 5, 1, 3, 4),)) == (
        ("", "", "dropped", "", ""),
    )
    assert check.marks(DiceParams("3d10cs>=8"), ((8, 1, 10),)) == (("hit", "", "hit"),)
    # an explosion's die is drawn after the others but listed after its parent: rather
    # than strike the wrong face, nothing is marked
    assert check.marks(DiceParams("3d6!kh2"), ((6, 2, 1, 3),)) == (("", "", "", ""),)


@pytest.mark.parametrize(
    "text",
    [
        "+".join(["1"] * 400),
        "+".join(["d2"] * 330),
        "-" * 900 + "1",
        "-" * 985 + "1",
        "-" * 998 + "1",
        "(" * 40 + "-" * 910 + "1" + ")" * 40,
        "1" + "*1" * 300,
    ],
)
def test_a_long_chain_is_refused_before_any_die(text: str) -> None:
    """Within the 1,000 characters, 400 terms made a tree too deep to print or judge
    (a RecursionError traceback from ``roll``): refused as a limit, as d20's are. 985
    signs in a row were deeper still: the parse tree itself, built into ours by
    recursion, overflowed before that limit was read."""
    with pytest.raises(LimitError):
        parse(text)


def test_the_deepest_chain_accepted_rolls_and_prints() -> None:
    from meneur.dice.parse import MAX_DEPTH

    text = "+".join(["1"] * (MAX_DEPTH - 1))
    rolled = roll_expression(parse(text), SeededDice(1))
    assert rolled.total == MAX_DEPTH - 1
    assert str(parse(text)).count("+") == MAX_DEPTH - 2
    with pytest.raises(LimitError):
        parse(text + "+1+1")


@pytest.mark.parametrize(
    ("accepted", "refused"),
    [
        ("1d6" + " " * 997, "1d6" + " " * 998),  # 1,000 characters (MAX_EXPRESSION_LENGTH)
        ("123456789", "1234567890"),  # 9 digits (MAX_NUMBER_DIGITS)...
        ("0000123456789", "00001234567890"),  # ...leading zeros not counted
        ("1000d6", "1001d6"),  # 1,000 dice (MAX_DICE)
        ("500d6+500d6", "500d6+501d6"),  # across the expression
        ("1d1000000", "1d1000001"),  # 10**6 sides (MAX_SIDES)
        ("(" * 50 + "1" + ")" * 50, "(" * 51 + "1" + ")" * 51),  # 50 nested (MAX_NESTING)
        ("+".join(["1"] * 200), "+".join(["1"] * 201)),  # 200 terms chained (MAX_DEPTH)
        ("-" * 199 + "1", "-" * 200 + "1"),  # signs stacked count as deep as terms
        ("1+" + "-" * 198 + "1", "1+" + "-" * 199 + "1"),  # on either side of an operator
        # parentheses count too: 50 groups around 150 terms is 200 deep
        ("(" * 50 + "+".join(["1"] * 150) + ")" * 50, "(" * 50 + "+".join(["1"] * 151) + ")" * 50),
    ],
)
def test_each_documented_limit_is_accepted_at_the_limit_and_refused_past_it(
    accepted: str, refused: str
) -> None:
    """README: 1,000 dice, 1,000 characters, 10^6 sides, 50 nested parentheses (and the
    9 digits and 200 terms the parser also bounds): the limit itself is allowed."""
    parse(accepted)
    with pytest.raises(LimitError):
        parse(refused)


def test_the_thousandth_die_may_come_from_an_explosion_not_the_thousand_and_first() -> None:
    """The dice limit counts explosions: 999 dice and one explosion roll exactly 1,000."""
    one_six = [6] + [2] * 998 + [3]  # the 6 explodes into a 3
    assert roll_faces("999d6x", one_six)["total"] == 6 + 2 * 998 + 3
    with pytest.raises(LimitError):
        roll_faces("999d6x", [6, 6] + [2] * 997 + [3, 3])


@pytest.mark.parametrize(
    ("text", "faces", "total"),
    [
        ("4d6cs<=2", [1, 2, 3, 6], 2),  # <= counts the value itself
        ("4d6cs<2", [1, 2, 3, 6], 1),  # < does not
        ("3d6cs>=5", [4, 5, 6], 2),
        ("3d6cs>5", [4, 5, 6], 1),
        ("2d6kh5", [3, 4], 7),  # keeping more dice than rolled keeps them all
        ("2d6kl5", [3, 4], 7),
        ("2d6dh5", [3, 4], 0),  # dropping more drops them all
        ("2d6dl5", [3, 4], 0),
        ("d6kh", [5], 5),  # d6 is one die, a keep without a number keeps one
        ("3d6kh", [2, 5, 4], 5),
        ("3d6kl", [2, 5, 4], 2),
    ],
)
def test_comparisons_and_keeps_at_their_edges(text: str, faces: list[int], total: int) -> None:
    assert roll_faces(text, faces)["total"] == total


@pytest.mark.parametrize(
    ("finite", "endless"),
    [("1d6x>1", "1d6x>0"), ("1d6x>=2", "1d6x>=1"), ("1d6x<=5", "1d6x<=6"), ("1d6x<6", "1d6x<7")],
)
def test_an_explosion_is_refused_only_when_every_face_explodes(finite: str, endless: str) -> None:
    parse(finite)
    with pytest.raises(LimitError):
        parse(endless)
    with pytest.raises(LimitError):
        parse(endless.replace("x", "rr"))
    parse(finite.replace("x", "rr"))
    with pytest.raises(LimitError):
        parse("1d1rr")  # rr rerolls 1s by default: on a d1, forever
    assert roll_faces("2d2rr", [1, 2, 2])["total"] == 4


def test_the_trees_are_immutable_values() -> None:
    """A parsed or rolled tree is shared (the roll log, the renderers): no one changes it."""
    from dataclasses import FrozenInstanceError

    from meneur.dice.check import DiceParams

    tree = parse("(2d6kh1x>=5 + 1) * -3")
    assert isinstance(tree, BinaryOperation) and isinstance(tree.left, Group)
    inner = tree.left.inner
    assert isinstance(inner, BinaryOperation) and isinstance(inner.left, DiceRoll)
    assert isinstance(tree.right, Negation)
    modifier = inner.left.modifiers[1]
    rolled = roll_expression(tree, PhysicalDice([3, 4]))
    assert isinstance(rolled.tree, RolledOperation) and isinstance(rolled.tree.left, RolledGroup)
    dice = rolled.tree.left.inner
    assert isinstance(dice, RolledOperation) and isinstance(dice.left, RolledDice)
    assert isinstance(rolled.tree.right, RolledNegation)
    assert isinstance(dice.right, RolledNumber)
    for value, field in [
        (tree, "operator"),
        (tree.left, "inner"),
        (tree.right, "operand"),
        (inner.left, "count"),
        (inner.right, "value"),
        (modifier, "kind"),
        (modifier.comparison, "value"),
        (rolled, "expression"),
        (rolled.tree, "total"),
        (rolled.tree.left, "total"),
        (rolled.tree.right, "total"),
        (dice.left, "total"),
        (dice.left.dice[0], "face"),
        (dice.right, "total"),
        (DiceParams("1d6"), "expression"),
    ]:
        with pytest.raises(FrozenInstanceError):
            setattr(value, field, 0)


def test_the_canonical_spelling_keeps_every_modifier() -> None:
    """The roll log stores ``str(parse(text))`` and replays it: it must read back the same."""
    for text, canonical in [
        ("d6kh", "1d6kh1"),
        ("4D6kl2", "4d6kl2"),
        ("2d6r", "2d6r"),
        ("2d6r<3", "2d6r<3"),
        ("3d6cs=6", "3d6cs6"),
        ("3d6!>=5", "3d6x>=5"),
        ("6d10cs>8dh1", "6d10cs>8dh1"),
    ]:
        assert str(parse(text)) == canonical
        assert parse(canonical) == parse(text)


def test_a_rerolled_die_is_marked_and_no_longer_counts() -> None:
    dice = roll_faces("2d6r", [1, 4, 1])["tree"]["dice"]  # type: ignore[index]
    assert dice[0] == {"face": 1, "kept": False, "rerolled": True}
    assert dice[1] == {"face": 1, "kept": True}


def test_bounds_of_keeps_drops_and_products() -> None:
    assert bounds(parse("2d6+1d4")) == (3, 16)
    assert bounds(parse("4d6dh1")) == (3, 18)
    assert bounds(parse("4d6dl5")) == (0, 0)
    assert bounds(parse("2d6kh5")) == (2, 12)
    assert bounds(parse("0*3d6x")) == (0, 0)  # zero times an endless explosion is zero
    assert bounds(parse("(-3d6x)*0")) == (0, 0)  # even from below (-inf times 0 is no NaN)
    assert bounds(parse("1*2d6")) == (2, 12)
    assert bounds(parse("3d6x>=5cs>=5")) == (0, float("inf"))
    # exact past a float's 53 bits: a zero product added stays an integer (hypothesis
    # found 100000001*300001*3000+0*0 rolled one more than its rounded float bound)
    total = 100000001 * 300001 * 3000
    assert bounds(parse("100000001*300001*3000+0*0")) == (total, total)
    assert all(type(end) is int for end in bounds(parse("0*3d6x+100000001*300001*3000")))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("3d6 +", "ends too early"),
        ("(3d6", "ends too early"),
        ("3d6 $", "Unexpected '$'"),
        ("3d6 + * 2", "Unexpected '*'"),
    ],
)
def test_a_syntax_error_says_where(english: None, text: str, words: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert words in str(caught.value)


def test_a_typed_face_off_the_die_is_refused_and_a_roll_draws_one_stream() -> None:
    from meneur.dice.check import DiceCheck, DiceParams
    from meneur.errors import RuleError

    check = DiceCheck()
    assert check.streams(DiceParams("2d6")) == 1
    with pytest.raises(RuleError):
        check.resolve(DiceParams("1d6"), ((0,),))
    with pytest.raises(RuleError):
        check.resolve(DiceParams("1d6"), ((7,),))
    assert check.resolve(DiceParams("1d6"), ((6,),)).total == 6

    seen: list[object] = []

    class Watched(SeededDice):
        def observe(self, _check: object, rolled: object) -> None:
            seen.append(rolled)

    rolled = check.roll(DiceParams("2d6+1"), [Watched(3)])
    assert len(rolled.faces) == 1 and len(rolled.faces[0]) == 2
    assert rolled.outcome.total == sum(rolled.faces[0]) + 1
    assert seen == [rolled]  # the roll log is told what the dice made
