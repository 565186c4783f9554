"""An option that takes one value, given twice, is refused (cli/repeats.py): click kept
the last one in silence, so a roll could be logged with faces or dice the player did not
mean."""

from __future__ import annotations

import pytest

from cli_helpers import invoke
from meneur.cli.clickcompat import BadParameter
from meneur.cli.repeats import check_repeats


@pytest.mark.parametrize(
    ("args", "option"),
    [
        ("roll 1d6 --seed 1 --seed 2", "--seed"),
        ("test tunnels --dice 3 --threshold 2 --dice=5", "--dice"),
        ("test tunnels --dice 3 --threshold 2 --faces 6,6,6 --faces 1", "--faces"),
        ("test krasses --bonus 3 --difficulty 10 --bonus 4", "--bonus"),
        ("odds obscur --dice 3 --dice 4", "--dice"),
        ("roll 1d6 --seed=1 --seed 2", "--seed"),  # after --name=value, the next word is read
        ("roll 1d6 --json --seed 1 --seed 2", "--seed"),  # a flag takes no value to skip
    ],
)
def test_a_single_value_option_given_twice_is_refused(
    capsys: pytest.CaptureFixture[str], args: str, option: str
) -> None:
    result = invoke(capsys, "--lang", "en", *args.split())
    assert result.status == 2
    assert result.out == ""
    assert result.err.strip() == (
        f"Error: Invalid value for {option}: given more than once; give it once."
    )


def test_the_refusal_speaks_french(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "--lang", "fr", "roll", "1d6", "--seed", "1", "--seed=1")
    assert result.status == 2
    assert "--seed" in result.err and "plus d'une fois" in result.err


def test_repeatable_options_and_values_like_options_still_pass(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--modifier`` is repeatable; ``-2`` after it is its value, not an option."""
    words = "test krasses --bonus 3 --difficulty 10 --modifier -2 --modifier 1 --seed 3 --json"
    result = invoke(capsys, "--lang", "en", *words.split())
    assert result.status == 0, result.err
    assert result.json()["modifier"] == -1


def test_a_value_that_spells_an_option_is_a_value() -> None:
    """``--name --seed``: the word after an option that takes a value is that value, as
    click reads it, so ``--seed`` once more is its first occurrence."""

    class Option:
        param_type_name = "option"
        is_flag = False
        multiple = False
        count = False
        secondary_opts: tuple[str, ...] = ()

        def __init__(self, *opts: str) -> None:
            self.opts = list(opts)

    params = [Option("--name"), Option("--seed")]
    check_repeats(params, ["--name", "--seed", "--seed", "3"])  # no error
    check_repeats(params, ["--seed", "1", "--", "--seed"])  # after --: arguments
    with pytest.raises(BadParameter) as refused:
        check_repeats(params, ["--seed", "1", "--name", "x", "--seed=2"])
    assert refused.value.param_hint == "--seed"
