"""A comma-separated list option refuses an empty item: ``--rows 1,,2`` read as ``1,2``
and ``--rows 1,2,`` as ``1,2`` unsaid, where a value may have been forgotten."""

from __future__ import annotations

import pytest

from cli_helpers import invoke
from meneur.errors import UsageError
from meneur.text import comma_items

CELL = ("--runs", "10", "--workers", "1")

LISTS = [
    (("table", "tunnels"), "--rows"),
    (("table", "tunnels"), "--cols"),
    (("table", "legendes"), "--cols"),
    (("table", "tunnels"), "--panels"),
    (("table", "tunnels"), "--variant"),
    (("compare", "tunnels", "--variant", "sixes=all"), "--variant"),
    (("compare", "tunnels", "--variant", "sixes=all", "--variant", "tie=reroll"), "--rows"),
    (("simulate", "test", "tunnels", "--col", "2"), "--row"),
    (("simulate", "test", "tunnels", "--row", "3"), "--col"),
    (("simulate", "test", "tunnels", "--row", "3", "--col", "2"), "--panel"),
    (("simulate", "test", "tunnels", "--row", "3", "--col", "2"), "--variant"),
    (("simulate", "sweep", "krasses", *CELL), "--rows"),
    (("simulate", "sweep", "krasses", *CELL), "--cols"),
    (("simulate", "sweep", "krasses", "--rows", "1", *CELL), "--panel"),
    (("simulate", "sweep", "krasses", "--rows", "1", *CELL), "--variant"),
    (("simulate", "sweep", "tunnels", *CELL), "--dice"),
    (("simulate", "sweep", "tunnels", *CELL), "--vs-mr"),
    (("simulate", "sweep", "legendes", *CELL), "--dice"),
    (("simulate", "sweep", "legendes", *CELL), "--vs-level"),
    (("simulate", "sweep", "obscur", *CELL), "--strategies-a"),
    (("simulate", "sweep", "obscur", *CELL), "--strategies-b"),
    (("simulate", "fight", "legendes", "--dice", "3", "--runs", "10"), "--vs-level"),
    (("simulate", "fight", "legendes", "--dice", "3", "--vs-level", "elite"), "--with-dice"),
]


@pytest.mark.parametrize(("args", "flag"), LISTS)
@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("2,,3", "« 2,,3 » n'a rien entre deux virgules, après « 2 »"),
        ("2,3,", "« 2,3, » finit par une virgule : rien après elle"),
        (",2", "« ,2 » commence par une virgule : rien avant elle"),
        ("2, ,3", "« 2, ,3 » n'a rien entre deux virgules, après « 2 »"),
    ],
)
def test_an_empty_item_of_a_list_option_is_refused_with_the_option_named(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], flag: str, typed: str, said: str
) -> None:
    result = invoke(capsys, *args, flag, typed)
    assert result.status == 2, result.out
    assert result.err.strip() == f"Erreur : Valeur invalide pour {flag} : {said}.", result.err


@pytest.mark.parametrize(
    ("text", "items"),
    [("2,4,6", ["2", "4", "6"]), (" 1..3 , 8 ", ["1..3", "8"]), ("elite", ["elite"]), (" ", [])],
)
def test_comma_items_reads_a_list_whole(text: str, items: list[str]) -> None:
    assert comma_items(text) == items


def test_the_lab_s_list_parsers_skip_no_empty_item() -> None:
    """The parsers themselves refuse one too (called from elsewhere than an option)."""
    from meneur.lab.grid import parse_int_list, parse_names, parse_variant

    for parse in (
        lambda: parse_int_list("1,,2", 1, 6, "Dés"),
        lambda: parse_names("a,", {"a": "a"}, "Niveau"),
        lambda: parse_variant(",explode=always", {"explode": ("always",)}),
    ):
        with pytest.raises(UsageError):
            parse()
