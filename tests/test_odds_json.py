"""Every system's ``odds --json`` carries its exact chances the same way: ``exact`` holds,
under the float's own key, the same number as a fraction (Krâsses gave a bare string,
so a program reading several systems needed a special case)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from cli_helpers import invoke

QUERIES = {
    "tunnels": ("--dice", "3", "--threshold", "2"),
    "tunnels oppose": ("--dice", "3", "--vs", "2"),
    "obscur": ("--dice", "4", "--difficulty", "3"),
    "krasses test": ("--bonus", "5", "--difficulty", "15"),
    "krasses oppose": ("--bonus", "3", "--vs-bonus", "2", "--a-kind", "pc", "--b-kind", "pc"),
    "krasses cooperate": ("--member", "3:2", "--member", "1:1", "--difficulty", "15"),
    "legendes": ("--dice", "3", "--vs", "heroique"),
}


def _pairs(floats: Mapping[str, Any], exact: Mapping[str, Any], path: str = "") -> list[str]:
    """The keys of ``exact`` whose fraction is not the float beside it (or has none)."""
    wrong = []
    for key, value in exact.items():
        here = floats.get(key)
        if isinstance(value, Mapping):
            wrong += _pairs(here, value, f"{path}{key}.") if isinstance(here, Mapping) else [key]
        elif not isinstance(here, float | int) or float(Fraction(value)) != pytest.approx(here):
            wrong.append(path + key)
    return wrong


@pytest.mark.parametrize("query", QUERIES)
def test_exact_mirrors_the_floats(capsys: pytest.CaptureFixture[str], query: str) -> None:
    system = query.split()[0]
    result = invoke(capsys, "odds", system, *QUERIES[query], "--json")
    assert result.status == 0, result.err
    data = result.json()
    assert isinstance(data["exact"], dict), data["exact"]
    assert data["exact"], "no exact chance at all"
    assert _pairs(data, data["exact"]) == []


def _exact_texts(data: Any) -> list[str]:
    """Every exact fraction of a JSON output: the values under ``exact`` (a mapping),
    ``*_exact``, ``exact_fraction`` or a distribution's ``exact`` (a string)."""
    found: list[str] = []
    if isinstance(data, Mapping):
        for key, value in data.items():
            exact = key == "exact" or key.endswith("_exact") or key == "exact_fraction"
            if exact and isinstance(value, str):
                found.append(value)
            elif key == "exact" and isinstance(value, Mapping):
                found += _leaves(value)
            else:
                found += _exact_texts(value)
    elif isinstance(data, list):
        for item in data:
            found += _exact_texts(item)
    return found


def _leaves(data: Mapping[str, Any]) -> list[str]:
    return [
        leaf
        for value in data.values()
        for leaf in (_leaves(value) if isinstance(value, Mapping) else [value])
    ]


ZERO_ODDS = {
    "odds": ("odds", "tunnels", "--dice", "1", "--threshold", "3", "--explode", "never"),
    "table": ("table", "tunnels", "--rows", "1", "--cols", "3", "--variant", "explode=never"),
    "simulate test": (
        *("simulate", "test", "tunnels", "--dice", "1", "--threshold", "3"),
        *("--explode", "never", "--runs", "100", "--seed", "1"),
    ),
}


@pytest.mark.parametrize("command", ZERO_ODDS)
def test_every_json_writes_a_fraction_one_way(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """An impossible success (one die, threshold 3, no explosion): ``odds --json`` wrote
    « 0 », ``table --json`` and ``simulate test --json`` « 0/1 ». Every exact chance is
    written as ``str(Fraction)`` does: « 0 », « 1 », « 3/8 »."""
    result = invoke(capsys, *ZERO_ODDS[command], "--json")
    assert result.status == 0, result.err
    texts = _exact_texts(result.json())
    assert "0" in texts, texts
    assert [t for t in texts if t != str(Fraction(t))] == []
