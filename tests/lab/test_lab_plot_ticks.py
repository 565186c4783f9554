"""Axes of whole quantities (dice, thresholds, rounds) carry whole ticks only.

Read from the figure's own tick values (never pixels): each plot's figure is caught as
it is saved, before it is closed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.locale import set_language


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every figure the lab saves from now on (still written to its file)."""
    from meneur.lab import plot

    saved: list[Any] = []
    save = plot._save

    def keep(figure: Any, path: Path) -> Path:
        saved.append([(ax.get_xlabel(), list(ax.get_xticks())) for ax in figure.axes])
        return save(figure, path)

    monkeypatch.setattr(plot, "_save", keep)
    return saved


def _whole(ticks: list[float]) -> bool:
    return bool(ticks) and all(float(t).is_integer() for t in ticks)


@pytest.mark.parametrize(
    "args",
    [
        ("table", "tunnels", "--rows", "3"),
        ("compare", "tunnels", "--variant", "", "--variant", "explode=always", "--rows", "3"),
    ],
    ids=["table", "compare"],
)
def test_a_single_pool_of_dice_has_whole_ticks(
    args: tuple[str, ...],
    figures: list[Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One row (3 dice) had ticks 2.8, 2.84... 3.2 on the axis of dice."""
    result = invoke(capsys, "--lang", "en", *args, "--plot", str(tmp_path / "p.png"))
    assert result.status == 0, result.err
    (axes,) = figures
    dice = [ticks for label, ticks in axes if label == "Dice"]
    assert dice and all(_whole(ticks) and 3 in ticks for ticks in dice), dice


def test_a_fight_of_one_round_has_whole_ticks(figures: list[Any], tmp_path: Path) -> None:
    """Every fight over after one round: the rounds' axes are whole too."""
    from meneur.lab.plot import plot_fight

    set_language("en")
    plot_fight({"a": [1.0, 0.0]}, {1: 1.0}, tmp_path / "f.png", "fight")
    (axes,) = figures
    rounds = dict(axes)
    assert _whole(rounds["Round"]) and _whole(rounds["Rounds to the end"]), rounds


def test_an_odds_curve_of_one_difficulty_has_whole_ticks(
    figures: list[Any], tmp_path: Path
) -> None:
    """A law of at most one success: the success curve has the one difficulty 1."""
    from meneur.lab.odds_plot import plot_odds
    from meneur.systems.registry import find_system

    set_language("en")
    data = {"difficulty": 1, "successes": {"0": 0.5, "1": 0.5}}
    plot_odds(find_system("obscur"), data, {}, tmp_path / "o.png")
    (axes,) = figures
    curve = dict(axes)["Difficulty"]
    assert _whole(curve) and 1 in curve, curve
