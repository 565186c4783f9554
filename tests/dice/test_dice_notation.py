"""Generic dice notation: grammar, limits, modifiers, JSON tree."""

from __future__ import annotations

import pytest

from meneur.dice import bounds, parse, roll_expression, to_json
from meneur.dice.ast import BinaryOperation, DiceRoll, Modifier, Number
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
    ["+".join(["1"] * 400), "+".join(["d2"] * 330), "-" * 900 + "1", "1" + "*1" * 300],
)
def test_a_long_chain_is_refused_before_any_die(text: str) -> None:
    """Within the 1,000 characters, 400 terms made a tree too deep to print or judge
    (a RecursionError traceback from ``roll``): refused as a limit, as d20's are."""
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
