"""The small text rules every interface shares (:mod:`meneur.text`): how much of a typed
value a message echoes, how a list of values is split, how long a sheet's name may be."""

from __future__ import annotations

import pytest

from meneur.errors import UsageError
from meneur.text import ECHO_LENGTH, bounded_name, comma_items, cut, cut_start


def test_a_message_echoes_40_characters_of_a_typed_value_then_an_ellipsis() -> None:
    assert ECHO_LENGTH == 40
    assert cut("x" * 40) == "x" * 40
    assert cut("x" * 41) == "x" * 40 + "…"
    assert cut("abc", 2) == "ab…"


def test_a_path_is_cut_from_its_start_keeping_the_file_name() -> None:
    assert cut_start("abcdef", 6) == "abcdef"
    assert cut_start("abcdefg", 6) == "…bcdefg"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (",1", "starts with a comma"),
        ("1,2,", "ends with a comma"),
        ("1,,2", "nothing between two commas, after '1'"),
        ("1,2, ,3", "nothing between two commas, after '2'"),
    ],
)
def test_a_list_with_an_empty_item_says_where(english: None, text: str, words: str) -> None:
    with pytest.raises(UsageError) as caught:
        comma_items(text)
    assert words in str(caught.value)


def test_a_list_is_split_on_commas_and_spaces_hold_no_item() -> None:
    assert comma_items(" 2, 4,6 ") == ["2", "4", "6"]
    assert comma_items("   ") == []
    assert comma_items("7") == ["7"]


def test_a_sheets_short_text_is_one_to_limit_characters_never_blank() -> None:
    check = bounded_name(5, "at most {limit}")
    assert check("abcde") == "abcde"
    for refused in ("abcdef", "", "   ", "a[b]"):
        with pytest.raises(ValueError):
            check(refused)
