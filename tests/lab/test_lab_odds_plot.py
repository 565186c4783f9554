"""``meneur odds SYSTEM ... --plot FILE`` for every system (the option added by the lab)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import invoke

ODDS = {
    "tunnels": ("--dice", "5", "--threshold", "3"),
    "obscur": ("--dice", "8", "--difficulty", "4"),
    "krasses": ("--bonus", "3", "--difficulty", "12"),
    "legendes": ("--dice", "3", "--vs", "elite"),
}


@pytest.mark.parametrize("system", sorted(ODDS))
def test_odds_plot_of_every_system(
    system: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / f"{system}.png"
    result = invoke(capsys, "odds", system, *ODDS[system], "--plot", str(target), "--json")
    assert result.status == 0, result.err
    assert result.json()["plot"] == str(target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_odds_plot_svg_and_human_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "vs.svg"
    result = invoke(capsys, "odds", "tunnels", "--dice", "4", "--vs", "3", "--plot", str(target))
    assert result.status == 0, result.err
    assert "<svg" in target.read_text()
    assert str(target) in result.out


def test_odds_without_plot_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "odds", "tunnels", "--dice", "5", "--threshold", "3", "--json")
    assert result.status == 0 and "plot" not in result.json()


def test_odds_plot_bad_suffix_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "odds.txt"
    result = invoke(capsys, "odds", "obscur", *ODDS["obscur"], "--plot", str(target))
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
    assert not target.exists()


def test_odds_help_shows_plot(capsys: pytest.CaptureFixture[str]) -> None:
    result = invoke(capsys, "--lang", "en", "odds", "legendes", "--help")
    assert result.status == 0 and "--plot" in result.out


@pytest.mark.parametrize("explode", ["needed", "always", "never"])
def test_tunnels_odds_curve_passes_through_the_printed_odds(explode: str) -> None:
    """The success curve at the threshold asked for is the command's own p_success."""
    from meneur.lab.odds_plot import odds_figure
    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.odds import test_odds
    from meneur.systems.tunnels.rules import TestParams

    params = TestParams(dice=4, threshold=3, explode=explode)  # type: ignore[arg-type]
    law = test_odds(params)
    data = {
        "p_success": float(law.p_where(lambda k: k[0] >= 3 and not k[2])),
        "successes": {str(k[0]): 0.1 for k in law.probabilities()},
    }
    options = {"dice": 4, "threshold": 3, "explode": explode, "sixes": "batch"}
    xs, ys, _label, marked, _title = odds_figure(data, options, ADAPTER)["curve"]
    assert marked == 3 and ys[xs.index(3)] == pytest.approx(data["p_success"], abs=1e-15)


def test_obscur_odds_curve_is_the_exact_tail() -> None:
    from meneur.lab.odds_plot import odds_figure
    from meneur.systems.obscur.lab_adapter import ADAPTER as OBSCUR

    data = {
        "difficulty": 2,
        "successes": {"0": 0.25, "1": 0.5, "2": 0.25},
        "exact": {"successes": {"0": "1/4", "1": "1/2", "2": "1/4"}},
    }
    xs, ys, _label, marked, _title = odds_figure(data, {}, OBSCUR)["curve"]
    assert (xs, ys, marked) == ([1, 2], [0.75, 0.25], 2)
