"""Issue 14: a fifth system needs nothing in the lab; the lab is handed what it runs.

The system below is registered nowhere and its name appears nowhere in ``meneur.lab``:
its table, the exact law of a cell, a sweep of its cells and its odds plot all work
through its ``lab_adapter()`` hook and the checks it hands over. (Its rules are borrowed
from Krâsses, K-1 to K-3, so that the figures can be checked against known odds.)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from meneur.lab.adapter import Adapter, adapter_for
from meneur.systems.base import Check, CommandGroups, System


class FifthSystem(System):
    name = "cinquieme"
    title = "Cinquième"
    rule_prefix = "X"
    die_sides = 20

    def checks(self) -> Mapping[str, Check[Any, Any]]:
        from meneur.systems.krasses.system import SYSTEM

        return SYSTEM.checks()

    def lab_adapter(self) -> object:
        from meneur.systems.krasses.lab_adapter import KrassesAdapter

        return KrassesAdapter(self)

    def register_cli(self, groups: CommandGroups) -> None:
        """No commands: the lab is reached directly."""


class NoTableSystem(FifthSystem):
    def lab_adapter(self) -> object:
        return None


def test_K1_a_fifth_system_is_tabulated_through_its_hook() -> None:
    """K-1: d20 + bonus >= difficulty; the table and a cell's law come from the checks the
    system hands over, labelled with its own name and title."""
    adapter = adapter_for(FifthSystem())
    grid = adapter.grid("test", {}, "0", "11")
    assert grid.system == "cinquieme" and adapter.owner.title == "Cinquième"
    params, law = adapter.distribution("test", {}, "0", "11", None)
    assert grid.cells[(0, 0, 0)]["success"] == Fraction(1, 2)
    assert sum(p for _label, p in law) == 1 and params.difficulty == 11


def test_a_sweep_point_carries_the_check_not_a_name() -> None:
    """A cell point pickles its Check and params to a worker; no lookup by name."""
    import pickle

    from meneur.lab.sweep import Point, cell_point, one_point

    adapter = adapter_for(FifthSystem())
    params = adapter.params_at("test", {}, "variant", 0, 11)

    point = Point(cell_point, (adapter.check("test"), params), runs=4000, seed=5)
    report = one_point(pickle.loads(pickle.dumps(point)))
    assert report["runs"] == 4000 and abs(report["win_rate"] - 0.5) < 0.05


def test_a_system_without_a_table_is_refused_in_one_line() -> None:
    from meneur.errors import UsageError

    with pytest.raises(UsageError):
        adapter_for(NoTableSystem())


def test_odds_plot_reads_the_adapter_hooks() -> None:
    """Without an adapter the figure reads the JSON alone; a system's adapter supplies its
    words (Légendes' bands, L-5) and its threshold (Tunnels' option, T-5)."""
    from meneur.lab.odds_plot import odds_figure
    from meneur.systems.legendes.lab_adapter import ADAPTER as LEGENDES
    from meneur.systems.tunnels.lab_adapter import ADAPTER as TUNNELS

    outcomes = {"outcomes": {"win:definitive": 0.25, "loss:partial": 0.75}}
    assert [b[0] for b in odds_figure(outcomes, {})["bars"]] == ["win:definitive", "loss:partial"]
    from meneur.locale import gettext as _
    from meneur.systems.legendes.render import KEY_LABELS

    words = [b[0] for b in odds_figure(outcomes, {}, LEGENDES)["bars"]]
    assert words == [_(KEY_LABELS["win:definitive"]), _(KEY_LABELS["loss:partial"])]
    assert "victoire" in words[0] and words[1] != "loss:partial"
    successes = {"successes": {"0": 0.5, "1": 0.25, "2": 0.25}}
    colours = [b[2] for b in odds_figure(successes, {"threshold": 2, "dice": 2}, TUNNELS)["bars"]]
    assert colours[2] != colours[1] == colours[0]
    assert odds_figure(successes, {"threshold": 2})["curve"] is None
    assert isinstance(adapter_for(FifthSystem()), Adapter)
