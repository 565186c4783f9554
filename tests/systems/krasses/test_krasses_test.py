"""The Krâsses test: K-1 (d20 + bonus >= difficulty), K-2 (naturals), K-3 (ladder),
K-5 (modifiers and krâsses), K-6 (zero level)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from meneur.errors import LimitError, RuleError, UsageError
from meneur.odds import brute_force
from meneur.rng import PhysicalDice
from meneur.systems.krasses.ladder import parse_difficulty, parse_krasse
from meneur.systems.krasses.odds import success_count
from meneur.systems.krasses.odds import test_p_success as p_success
from meneur.systems.krasses.rules import Krasse, KrassesTest, TestParams

CHECK = KrassesTest()


def resolve(params: TestParams, face: int) -> object:
    return CHECK.resolve(params, ((face,),))


def test_K1_total_at_least_difficulty_succeeds() -> None:
    """K-1: 10 + 5 = 15 reaches Moyen 15; 9 + 5 = 14 does not."""
    params = TestParams(bonus=5, difficulty=15)
    hit = CHECK.resolve(params, ((10,),))
    miss = CHECK.resolve(params, ((9,),))
    assert (hit.total, hit.passed, hit.margin) == (15, True, 0)
    assert (miss.total, miss.passed, miss.margin) == (14, False, -1)


def test_K1_odds_bonus_5_against_moyen() -> None:
    """K-1, K-3: bonus 5 against Moyen (15) succeeds on faces 10..20: 11/20."""
    params = TestParams(bonus=5, difficulty=parse_difficulty("moyen").value)
    assert p_success(params) == Fraction(11, 20)
    assert CHECK.odds(params).p_where(lambda key: key[0]) == Fraction(11, 20)


def test_K2_natural_1_fails_even_when_the_total_suffices() -> None:
    """K-2: bonus 15 against 15 would always pass, but a natural 1 fails: 19/20."""
    params = TestParams(bonus=15, difficulty=15)
    assert p_success(params) == Fraction(19, 20)
    assert CHECK.resolve(TestParams(bonus=30, difficulty=5), ((1,),)).passed is False


def test_K2_natural_20_succeeds_even_when_the_total_falls_short() -> None:
    """K-2: bonus 0 against 40 only passes on a natural 20: 1/20."""
    params = TestParams(bonus=0, difficulty=40)
    assert p_success(params) == Fraction(1, 20)
    outcome = CHECK.resolve(params, ((20,),))
    assert outcome.passed is True
    assert outcome.margin == -20
    assert outcome.by_natural


def test_K2_by_natural_says_when_the_natural_overruled_the_total() -> None:
    """K-2: a natural 1 on a total exactly at the difficulty (margin 0) fails by the
    natural; a natural 20 one short (margin −1) passes by it; a 20 or a 1 that agrees with
    the total, a plain roll and an automatic action are not decided by a natural."""
    at = CHECK.resolve(TestParams(bonus=14, difficulty=15), ((1,),))
    assert at.margin == 0 and not at.passed and at.by_natural
    short = CHECK.resolve(TestParams(bonus=0, difficulty=21), ((20,),))
    assert short.margin == -1 and short.passed and short.by_natural
    assert not CHECK.resolve(TestParams(bonus=0, difficulty=20), ((20,),)).by_natural
    assert not CHECK.resolve(TestParams(bonus=0, difficulty=5), ((1,),)).by_natural
    plain = CHECK.resolve(TestParams(bonus=3, difficulty=15), ((12,),))
    assert plain.margin == 0 and plain.passed and not plain.by_natural
    automatic = CHECK.resolve(TestParams(bonus=3, difficulty=None), ((),))
    assert automatic.margin is None and automatic.passed and not automatic.by_natural


def test_K2_the_naturals_are_the_marked_faces() -> None:
    """K-2: a natural 20 (always succeeds) and a natural 1 (always fails) are the faces
    shown apart; 2 and 19 are plain faces."""
    params = TestParams(bonus=0, difficulty=10)
    marks = [CHECK.marks(params, ((face,),)) for face in (20, 1, 19, 2)]
    assert marks == [(("hit",),), (("fumble",),), (("",),), (("",),)]


def test_K2_naturals_bound_every_chance() -> None:
    """K-2: whatever the bonus and difficulty, the chance lies in [1/20, 19/20]."""
    for bonus in range(-30, 60, 7):
        for difficulty in range(-10, 70, 9):
            assert 1 <= success_count(bonus, difficulty) <= 19


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("tres-facile", 5),
        ("Très facile", 5),
        ("very-easy", 5),
        ("facile", 10),
        ("easy", 10),
        ("moyen", 15),
        ("average", 15),
        ("ardu", 20),
        ("hard", 20),
        ("difficile", 25),
        ("difficult", 25),
        ("impensable", 30),
        ("unthinkable", 30),
        ("presque-impossible", 35),
        ("PRESQUE IMPOSSIBLE", 35),
        ("almost-impossible", 35),
        ("heroique", 40),
        ("Héroïque", 40),
        ("heroic", 40),
        ("55", 55),
        ("-3", -3),
        ("0", 0),
    ],
)
def test_K3_named_difficulties_in_french_and_english(name: str, value: int) -> None:
    """K-3: the ladder in French (accents optional) and English, and any integer."""
    assert parse_difficulty(name).value == value


@pytest.mark.parametrize("name", ["automatique", "Automatic", "auto"])
def test_K3_automatique_needs_no_roll(name: str) -> None:
    """K-3: Automatique reads no die at all and succeeds."""
    params = TestParams(bonus=0, difficulty=parse_difficulty(name).value)
    outcome = CHECK.resolve(params, ((),))  # no face given, none asked for
    assert outcome.passed and outcome.automatic and outcome.natural is None
    assert p_success(params) == 1
    assert CHECK.roll(params, [PhysicalDice(())]).faces == ((),)  # typed no die: fine


def test_K3_automatique_odds_are_a_certain_success_with_no_margin() -> None:
    """K-3: Automatique rolls nothing, so its odds are one outcome: passed, no margin."""
    params = TestParams(bonus=4, difficulty=None)
    assert CHECK.odds(params).probabilities() == {(True, None): Fraction(1)}


def test_K3_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match="impossible-ish"):
        parse_difficulty("impossible-ish")


def test_K5_modifiers_add_to_the_total() -> None:
    """K-5: a +3 from equipment and a −1 malus move the total, not the difficulty."""
    params = TestParams(bonus=5, difficulty=15, modifier=2)
    outcome = CHECK.resolve(params, ((8,),))
    assert (outcome.total, outcome.difficulty, outcome.passed) == (15, 15, True)
    assert p_success(params) == Fraction(13, 20)


def test_K5_krasses_move_the_difficulty() -> None:
    """K-5: a krâsse is a named modifier of the difficulty given by the conteur."""
    params = TestParams(bonus=5, difficulty=15, krasses=(Krasse("pluie", 5), Krasse("nuit", 2)))
    assert params.target == 22
    outcome = CHECK.resolve(params, ((16,),))
    assert (outcome.total, outcome.difficulty, outcome.passed) == (21, 22, False)
    assert p_success(params) == Fraction(4, 20)  # faces 17, 18, 19, 20


def test_K5_no_krasse_is_invented() -> None:
    """K-5: the shipped table defines no krâsse; named ones come from the conteur."""
    with pytest.raises(UsageError, match="pluie"):
        parse_krasse("pluie")
    assert parse_krasse("pluie battante:+5") == ("pluie battante", 5)
    assert parse_krasse("-3") == ("krâsse", -3)
    with pytest.raises(UsageError):
        parse_krasse("pluie:beaucoup")


def test_K5_krasses_from_the_conteurs_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """K-5: a user krasses.toml names the conteur's krâsses."""
    from meneur.systems.krasses import data

    folder = tmp_path / "krasses"
    folder.mkdir()
    (folder / "krasses.toml").write_text(
        'provisional = false\n[[krasse]]\nname = "Pluie battante"\nvalue = 5\n'
        'aliases = ["pluie"]\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    data.krasse_table.cache_clear()
    try:
        assert parse_krasse("PLUIE") == ("Pluie battante", 5)
        assert parse_krasse("pluie battante") == ("Pluie battante", 5)
        with pytest.raises(UsageError) as unknown:
            parse_krasse("brouillard")
        assert unknown.value.params == {"name": "brouillard", "known": "Pluie battante"}
        (folder / "krasses.toml").write_text("provisional = false\n", encoding="utf-8")
        data.krasse_table.cache_clear()
        with pytest.raises(UsageError) as none:  # a table that names no krâsse
            parse_krasse("brouillard")
        assert none.value.params == {"name": "brouillard", "known": "-"}
    finally:
        data.krasse_table.cache_clear()


def test_K5_automatique_takes_no_krasse() -> None:
    with pytest.raises(RuleError):
        TestParams(bonus=0, difficulty=None, krasses=(Krasse("pluie", 5),))


def test_K6_zero_level_rolls_with_no_bonus() -> None:
    """K-6: with no level, the roll is a bare d20: 6/20 against Moyen."""
    params = TestParams(bonus=0, difficulty=15)
    assert p_success(params) == Fraction(6, 20)
    assert CHECK.resolve(params, ((14,),)).total == 14


def test_faces_20_and_1_at_the_extremes() -> None:
    """K-2 (issue checks): faces 20, bonus 0 vs 40 succeeds; faces 1, bonus 30 vs 5 fails."""
    assert CHECK.resolve(TestParams(bonus=0, difficulty=40), ((20,),)).passed
    assert not CHECK.resolve(TestParams(bonus=30, difficulty=5), ((1,),)).passed


@pytest.mark.parametrize("bonus", [-25, -3, 0, 4, 13, 19, 45])
@pytest.mark.parametrize("difficulty", [-5, 5, 15, 22, 40, 61])
def test_K1_K2_odds_equal_brute_force(bonus: int, difficulty: int) -> None:
    """K-1, K-2: the exact odds equal enumeration of the 20 faces through resolve."""
    params = TestParams(bonus=bonus, difficulty=difficulty)
    assert CHECK.odds(params) == brute_force(CHECK, params)
    assert p_success(params) == brute_force(CHECK, params).p_where(lambda key: key[0])


@pytest.mark.parametrize("bonus", [-10, 0, 5, 15, 30])
@pytest.mark.parametrize("difficulty", [5, 15, 25, 40])
def test_K1_K2_odds_equal_icepool(bonus: int, difficulty: int) -> None:
    """K-1, K-2 against icepool, an independent exact engine."""
    import icepool

    die = icepool.d20.map(lambda f: f == 20 or (f != 1 and f + bonus >= difficulty))
    assert p_success(TestParams(bonus=bonus, difficulty=difficulty)) == die.probability(True)


def test_params_are_bounded() -> None:
    with pytest.raises(LimitError):
        TestParams(bonus=10**9, difficulty=15)
    with pytest.raises(RuleError):
        TestParams(bonus="3", difficulty=15)  # type: ignore[arg-type]


def test_the_bounds_of_a_test_are_inclusive() -> None:
    """The limits (K-3: « any integer », a bounded one): a bonus, a modifier, a difficulty
    and a krâsse of exactly ±MAX_VALUE are taken, one more is refused; 20 krâsses on one
    roll are taken, 21 refused."""
    bound = TestParams.MAX_VALUE
    for value in (bound, -bound):
        params = TestParams(
            bonus=value, difficulty=value, modifier=value, krasses=(Krasse("k", value),)
        )
        assert params.target == 2 * value
    for value in (bound + 1, -bound - 1):
        for field in ("bonus", "difficulty", "modifier"):
            with pytest.raises(LimitError):
                TestParams(**{"bonus": 0, "difficulty": 10, field: value})
        with pytest.raises(LimitError):
            Krasse("k", value)
    twenty = tuple(Krasse(f"k{i}", 1) for i in range(20))
    assert TestParams(bonus=0, difficulty=10, krasses=twenty).target == 30
    with pytest.raises(LimitError):
        TestParams(bonus=0, difficulty=10, krasses=(*twenty, Krasse("k20", 1)))


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"automatic": 5, "level": [{"name": "x", "value": 1}]}, "une liste de noms"),
        ({"level": [{"name": "x", "value": 10**7}]}, "un nombre entier de -"),
        ({"level": [{"name": "a", "value": 1}, {"name": "A", "value": 2}]}, "deux fois"),
        ({"level": [{"name": "a", "value": 1, "oops": 2}]}, "champ inconnu oops"),
    ],
)
def test_K3_a_ladder_file_s_problem_is_said_in_the_reader_s_language(
    raw: dict[str, object], said: str
) -> None:
    """K-3: a conteur's difficulties.toml that the engine refuses says why in French
    (« a list of names », « a name given twice » reached French users in English)."""
    from meneur.errors import SheetError
    from meneur.locale import set_language
    from meneur.systems.krasses.ladder import validate_ladder

    set_language("fr")
    with pytest.raises(SheetError) as caught:
        validate_ladder(raw)
    assert said in str(caught.value), str(caught.value)


def _ladder(**changes: object) -> dict[str, object]:
    """A ladder file's document: one level, changed by ``changes``."""
    return {"level": [{"name": "Moyen", "value": 15}], **changes}


@pytest.mark.parametrize(
    "raw",
    [
        _ladder(level=[{"name": "n" * 60, "value": 1, "aliases": ["a" * 60, "b"]}]),
        _ladder(level=[{"name": "x", "value": 1_000_000}]),
        _ladder(level=[{"name": "x", "value": -1_000_000}]),
        _ladder(automatic=["z" * 60, "y"]),
    ],
)
def test_K3_a_ladder_file_at_its_bounds_loads(raw: dict[str, object]) -> None:
    """K-3: a conteur's ladder may name a level or an alias in 1 to 60 characters and give
    it any value of ±1,000,000 (the bound of every Krâsses value): the bounds load."""
    from meneur.systems.krasses.ladder import validate_ladder

    table = validate_ladder(raw)
    assert table.levels and table.provisional is False


@pytest.mark.parametrize(
    "raw",
    [
        _ladder(level=[{"name": "n" * 61, "value": 1}]),
        _ladder(level=[{"name": "  ", "value": 1}]),
        _ladder(level=[{"name": 5, "value": 1}]),
        _ladder(level=[{"name": "x", "value": 1, "aliases": ["a" * 61]}]),
        _ladder(level=[{"name": "x", "value": 1, "aliases": [" "]}]),
        _ladder(level=[{"name": "x", "value": 1, "aliases": [3]}]),
        _ladder(automatic=["z" * 61]),
        _ladder(level=[{"name": "x", "value": 1_000_001}]),
        _ladder(level=[{"name": "x", "value": "15"}]),
        _ladder(level=[{"name": "x", "value": True}]),
        _ladder(level=[]),
        _ladder(provisional="yes"),
    ],
)
def test_K3_a_ladder_file_past_its_bounds_is_refused(raw: dict[str, object]) -> None:
    """K-3: a name or alias of 61 characters, blank or not text, a value past ±1,000,000
    or not a whole number, no level at all, a provisional flag that is not true/false:
    one SheetError, never a crash or a ladder without rungs."""
    from meneur.errors import SheetError
    from meneur.systems.krasses.ladder import validate_ladder

    with pytest.raises(SheetError):
        validate_ladder(raw)


def test_K3_automatique_is_named_as_the_ladder_s_first_word() -> None:
    """K-3: « auto » and « automatic » are Automatique, shown by the ladder's first name;
    an unknown name lists that first name, then the levels."""
    from meneur.systems.krasses.ladder import name_of

    for typed in ("auto", "AUTOMATIC", "automatique"):
        assert parse_difficulty(typed).name == "Automatique"
    with pytest.raises(UsageError) as refused:
        parse_difficulty("impossible-ish")
    assert refused.value.params["known"].startswith("automatique, tres-facile, facile, ")
    assert (name_of(15), name_of(16), name_of(40)) == ("Moyen", None, "Héroïque")


@pytest.mark.parametrize(
    ("typed", "value"),
    [("5", 5), ("+5", 5), ("-5", -5), ("1000000", 1_000_000), ("-1000000", -1_000_000)],
)
def test_K3_a_difficulty_number_signed_or_not_up_to_its_bound(typed: str, value: int) -> None:
    """K-3: any whole number is a difficulty, one digit or seven, with or without a sign."""
    assert parse_difficulty(typed).value == value


@pytest.mark.parametrize("typed", ["1000001", "-1000001", "00000015", "+00000015"])
def test_K3_a_difficulty_past_its_bound_is_refused(typed: str) -> None:
    """K-3: past ±1,000,000, or more than seven digits (even zeros: the number is never
    read), a difficulty is refused."""
    with pytest.raises(UsageError) as refused:
        parse_difficulty(typed)
    assert refused.value.params == {"limit": 1_000_000}


@pytest.mark.parametrize(
    ("typed", "krasse"),
    [
        ("5", ("krâsse", 5)),
        ("+5", ("krâsse", 5)),
        ("pluie:-5", ("pluie", -5)),
        ("pluie:1000000", ("pluie", 1_000_000)),
        ("-1000000", ("krâsse", -1_000_000)),
        (f"{'p' * 60}:+2", ("p" * 60, 2)),
        (f"{'p' * 60}q:+2", ("p" * 60, 2)),
    ],
)
def test_K5_an_inline_krasse_signed_or_not_up_to_its_bound(
    typed: str, krasse: tuple[str, int]
) -> None:
    """K-5: a krâsse given inline is VALUE or NAME:VALUE, one digit or seven, signed or not;
    its name is kept to 60 characters."""
    assert parse_krasse(typed) == krasse


@pytest.mark.parametrize("typed", ["1000001", "pluie:-1000001", "00000005", "pluie:+00000005"])
def test_K5_an_inline_krasse_past_its_bound_is_refused(typed: str) -> None:
    """K-5: past ±1,000,000, or more than seven digits, a krâsse is refused."""
    with pytest.raises(UsageError) as refused:
        parse_krasse(typed)
    assert refused.value.params == {"limit": 1_000_000}


def test_K1_K2_the_sampled_d20_has_twenty_faces_and_its_successes_agree() -> None:
    """K-1, K-2, vectorised: bonus 0 against 10 samples margins −9 (face 1) to +10
    (face 20), no more, and passes on faces 10..20 (11/20)."""
    import numpy as np

    from meneur.odds.montecarlo import agrees
    from meneur.systems.krasses.vector import KrassesTestVector

    runs = 4000
    params = TestParams(bonus=0, difficulty=10)
    vector = KrassesTestVector(params)
    result = vector.sample(np.random.default_rng(3), runs)
    assert set(result[1].tolist()) == set(range(-9, 11))
    won = vector.success(result)
    assert won.dtype == np.bool_
    assert agrees(Fraction(11, 20), int(won.sum()), runs)
