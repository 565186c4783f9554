"""The design lab's odds tables: each cell is the system's own exact odds."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke, started_bars
from meneur.errors import LimitError, UsageError
from meneur.lab.adapter import adapter_for
from meneur.lab.compare import compare_grids
from meneur.lab.grid import Axis, check_size, jsonable, parse_int_list, parse_variant
from meneur.systems.krasses.lab_adapter import KrassesAdapter
from meneur.systems.registry import find_system as system_named

SYSTEMS = ("tunnels", "obscur", "krasses", "legendes")


def adapter(name: str):  # type: ignore[no-untyped-def]
    return adapter_for(system_named(name))


def test_T3_seed_example_in_the_grid() -> None:
    """T-3: Dextérité 3, niveau 2, no explosion: P = 1/2, as a cell of the table."""
    grid = adapter("tunnels").grid("test", {"explode": "never"}, "3", "2", "normal")
    assert grid.headline(0, 0, 0) == Fraction(1, 2)


def test_tunnels_panels_are_modes_times_policies() -> None:
    grid = adapter("tunnels").grid("test", {}, "1..2", "1..2")
    assert len(grid.panels.values) == 9
    assert ("blessed", "always") in grid.panels.values


def test_obscur_cell_is_the_systems_summary() -> None:
    from meneur.systems.obscur.odds import summary
    from meneur.systems.obscur.rules import TestParams

    grid = adapter("obscur").grid("test", {}, "4", "2")
    assert grid.headline(0, 0, 0) == summary(TestParams(4, difficulty=2))[1]["p_success"]


@pytest.mark.parametrize(
    ("points", "flag"), [("1", "--reroll"), ("3", "--reroll"), ("6", "--adjust")]
)
def test_O10_lab_variant_spends_points_as_odds_does(
    capsys: pytest.CaptureFixture[str], points: str, flag: str
) -> None:
    """O-10: ``reroll=3`` in the lab is the spend of ``odds obscur --reroll 3`` (points,
    not the third tier, which is 6 points): the same exact chance."""
    kind = flag.lstrip("-")
    grid = adapter("obscur").grid("test", {kind: points}, "4", "3")
    result = invoke(
        capsys, "odds", "obscur", "--dice", "4", "--difficulty", "3", flag, points, "--json"
    )
    assert result.status == 0, result.err
    assert grid.headline(0, 0, 0) == Fraction(result.json()["exact"]["p_success"])


def test_O10_lab_variant_refuses_points_that_buy_no_tier(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """O-10: 2 points buy nothing more than 1, so the lab offers 0, 1, 3 and 6 only."""
    result = invoke(capsys, "table", "obscur", "--variant", "reroll=2", "--rows", "2")
    assert result.status == 2
    assert "0, 1, 3" in result.err and "6" in result.err


def test_K1_krasses_ladder_columns() -> None:
    """K-1/K-3: bonus 0 against Moyen (15) passes on 15-20: 6/20."""
    grid = adapter("krasses").grid("test", {}, "0")
    assert 15 in grid.columns.values
    assert grid.headline(0, 0, grid.columns.values.index(15)) == Fraction(6, 20)


def test_K4_naturals_option_changes_oppositions() -> None:
    """K-4 option: ignoring naturals lets a +10 PC win more often against +0."""
    result = compare_grids(adapter("krasses"), "naturals=on", "naturals=off", "oppose", "10", "0")
    a, b = result.a.headline(0, 0, 0), result.b.headline(0, 0, 0)
    assert a is not None and b is not None and b > a


def test_L1_domain_dice_variant() -> None:
    """L-1 read as data: an ordinary domain rolling 1 die beats an élite more than 0 dice."""
    result = compare_grids(adapter("legendes"), "", "ordinary=1", "test", None, "elite", "0")
    rows = result.a.rows.values
    assert rows == ("legendary", "secondary", "ordinary")
    row = rows.index("ordinary")
    assert result.a.headline(0, row, 0) == 0
    assert result.b.headline(0, row, 0) == Fraction(15, 36)


def test_L1_a_negative_number_of_dice_is_refused_not_made_positive() -> None:
    """L-1: ``legendary=-1`` read as 1 (folding a name drops its hyphens); a number keeps
    its sign and is refused, "+2" and "02" read as 2."""
    from meneur.errors import UsageError

    legendes = adapter("legendes")
    for typed in ("-1", "--2", "-0x"):
        with pytest.raises(UsageError):
            legendes.parse_variant(f"legendary={typed}")
    assert legendes.parse_variant("legendary=+2,secondary=02") == {
        "legendary": "2",
        "secondary": "2",
    }
    assert legendes.parse_variant("motivation=YES") == {"motivation": "yes"}  # names fold


def test_O10_an_option_named_with_an_underscore_is_found_as_typed() -> None:
    """``margin_counts=yes`` was « unknown » (the typed name folded to margin-counts, the
    option's did not), while the message listed margin_counts among the options."""
    obscur = adapter("obscur")
    expected = {"margin_counts": "yes", "margin": "6"}
    assert obscur.parse_variant("margin_counts=yes,margin=6") == expected
    assert obscur.parse_variant("Margin-Counts=YES,margin=6") == expected
    grid = obscur.grid("test", expected, "2", "3")  # O-8: 1-1 never passes, +3 or not
    assert grid.headline(0, 0, 0) == Fraction(35, 36)


def test_T6_compare_policies_aligns_panels() -> None:
    """T-6: never against always; the default variant takes the same panels."""
    result = compare_grids(adapter("tunnels"), "", "explode=always", "test", "1..3", "1..3")
    assert len(result.a.panels.values) == len(result.b.panels.values) == 3
    data = result.to_json()
    assert data["a"] == {"explode": "needed"}
    assert all("difference" in cell["success"] for cell in data["cells"])


@pytest.mark.parametrize("system", SYSTEMS)
def test_table_json_for_every_system(capsys: pytest.CaptureFixture[str], system: str) -> None:
    result = invoke(capsys, "table", system, "--rows", "1..3", "--json")
    assert result.status == 0, result.err
    data = result.json()
    assert data["system"] == system
    assert data["cells"]
    assert 0 <= data["cells"][0][data["measures"][0]] <= 1


@pytest.mark.parametrize("system", SYSTEMS)
def test_table_rich_and_csv(capsys: pytest.CaptureFixture[str], system: str) -> None:
    result = invoke(capsys, "table", system, "--rows", "1..2")
    assert result.status == 0, result.err
    assert "%" in result.out
    result = invoke(capsys, "table", system, "--rows", "1..2", "--csv")
    rows = list(csv.reader(io.StringIO(result.out)))
    assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows)


def test_table_plot_png_and_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png, svg = tmp_path / "t.png", tmp_path / "t.svg"
    assert invoke(capsys, "table", "krasses", "--plot", str(png)).status == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        invoke(
            capsys, "table", "obscur", "--rows", "1..5", "--kind", "heatmap", "--plot", str(svg)
        ).status
        == 0
    )
    assert b"<svg" in svg.read_bytes()[:500]


def test_compare_cli_json_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "c.png"
    result = invoke(
        capsys,
        "compare",
        "tunnels",
        "--variant",
        "explode=never",
        "--variant",
        "explode=always",
        "--rows",
        "1..4",
        "--cols",
        "1..3",
        "--json",
        "--plot",
        str(png),
    )
    assert result.status == 0, result.err
    assert result.json()["b"] == {"explode": "always"}
    assert png.exists()


@pytest.mark.parametrize(
    "args",
    [
        ("table", "tunnels", "--rows", "0..99"),
        ("table", "tunnels", "--variant", "explode=sometimes"),
        ("table", "tunnels", "--variant", "nonsense"),
        ("table", "obscur", "--rows", "a..b"),
        ("table", "krasses", "--check", "cooperate"),
        ("table", "legendes", "--cols", "dragon"),
        ("table", "krasses", "--plot", "out.txt"),
        ("table", "krasses", "--plot", "/no/such/dir/x.png"),
        ("table", "krasses", "--csv", "--json"),
        ("table", "nosystem"),
        ("table", "obscur", "--rows", "1..200", "--cols", "1..200"),
        ("compare", "krasses", "--variant", "naturals=off"),
        ("table", "tunnels", "--panels", "sideways"),
        # these were read as something else: a default axis, or ±0 for 1 and -1
        ("table", "krasses", "--rows", ""),
        ("table", "krasses", "--panels", "x"),
        ("table", "krasses", "--kind", "distribution", "--panels", "x"),
        ("table", "tunnels", "--kind", "distribution", "--cols", " "),
        ("table", "legendes", "--panels", "1,-1"),
        ("compare", "tunnels", "--variant", "sixes=all", "--variant", "tie=reroll", "--cols", ""),
    ],
)
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    result = invoke(capsys, *args)
    assert result.status == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "Traceback" not in result.err


def test_start_up_imports_no_numpy_or_matplotlib() -> None:
    code = (
        "import sys; from meneur.cli.main import build_app; build_app(('table',)); "
        "build_app(('simulate',)); "
        "print('numpy' in sys.modules, 'matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(
    ("system", "variant"),
    [
        ("tunnels", {"explode": "always"}),
        ("tunnels", {"explode": "never", "sixes": "all"}),
        ("obscur", {}),
        ("obscur", {"reroll": "1", "adjust": "3"}),
        ("obscur", {"margin": "1", "margin_counts": "yes"}),
    ],
)
def test_whole_rows_equal_cell_by_cell(system: str, variant: dict[str, str]) -> None:
    """The fast path (one law per row, cut per column) gives every cell's own odds."""
    lab = adapter(system)
    grid = lab.grid("test", variant, "1..6", "1..7")
    for (p, r, c), values in grid.cells.items():
        panel, row, column = grid.panels.values[p], grid.rows.values[r], grid.columns.values[c]
        assert values == lab.cell("test", variant, panel, row, column)


@pytest.mark.parametrize(
    "args",
    [
        ("tunnels", "--rows", "5", "--cols", "3", "--panels", "normal/always"),
        ("tunnels", "--check", "oppose", "--rows", "3", "--cols", "2", "--panels", "never"),
        ("obscur", "--rows", "4", "--cols", "2"),
        ("obscur", "--check", "oppose", "--rows", "4", "--cols", "3"),
        ("krasses", "--rows", "5", "--cols", "15"),
        ("krasses", "--check", "oppose", "--rows", "5", "--cols", "3"),
        ("legendes", "--rows", "3", "--cols", "heroique"),
    ],
)
def test_exact_distribution_of_one_cell(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """--kind distribution: the cell's whole exact law, summing to 1."""
    result = invoke(capsys, "table", *args, "--kind", "distribution", "--json")
    assert result.status == 0, result.err
    law = result.json()["distribution"]
    assert sum(Fraction(entry["exact"]) for entry in law) == 1
    assert len({entry["outcome"] for entry in law}) == len(law)


def test_T3_distribution_of_the_seed_example(capsys: pytest.CaptureFixture[str]) -> None:
    """T-3: 3d6 without explosion, at least two successes half the time (critical apart)."""
    result = invoke(
        capsys,
        "table",
        "tunnels",
        "--rows",
        "3",
        "--cols",
        "2",
        "--panels",
        "normal/never",
        "--kind",
        "distribution",
        "--json",
    )
    law = {entry["outcome"]: Fraction(entry["exact"]) for entry in result.json()["distribution"]}
    assert law["2"] + law["3"] == Fraction(1, 2)


def test_T9_tie_reroll_variant_changes_the_opposition_odds() -> None:
    """T-9 option (``tie=reroll``): only decisive rolls count, as ``odds --reroll-ties``."""
    from fractions import Fraction

    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.odds import winner_odds
    from meneur.systems.tunnels.rules import OpposedParams, Side

    law = winner_odds(OpposedParams(Side(3), Side(2)))
    p_a = law.p_where(lambda k: k[0] == "a")
    p_tie = law.p_where(lambda k: k[0] is None)
    plain = ADAPTER.grid("oppose", {"tie": "none"}, "3", "2", "needed")
    again = ADAPTER.grid("oppose", {"tie": "reroll"}, "3", "2", "needed")
    assert plain.cells[(0, 0, 0)]["win"] == p_a and plain.cells[(0, 0, 0)]["tie"] == p_tie
    cell = again.cells[(0, 0, 0)]
    assert cell["win"] == p_a / (1 - p_tie) and cell["tie"] == Fraction(0)
    assert cell["win"] + cell["loss"] == 1


def test_T10_compare_fights_under_two_loss_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-10 option: losing one point instead of the margin, fights compared (same seed)."""
    target = tmp_path / "fights.png"
    args = ("compare", "tunnels", "--check", "fight", "--variant", "loss=margin")
    args += ("--variant", "loss=one", "--rows", "2", "--cols", "5", "--runs", "4000")
    result = invoke(capsys, *args, "--seed", "3", "--json", "--plot", str(target))
    assert result.status == 0, result.err
    data = result.json()
    win = data["cells"][0]["win"]
    assert data["check"] == "fight" and data["b"] == {"loss": "one"}
    assert win["b"] > win["a"] and win["difference"] == pytest.approx(win["b"] - win["a"])
    assert target.exists()
    bad = invoke(capsys, "compare", "obscur", "--check", "fight", "--variant", "", "--variant", "")
    assert bad.status == 2 and len(bad.err.strip().splitlines()) == 1


def test_ctrl_c_keeps_the_cells_done(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a grid is computed: the rows done are kept, marked interrupted."""
    from meneur.lab.progress import LazyBar
    from meneur.systems.obscur import lab_grid
    from meneur.systems.obscur.lab_adapter import ADAPTER

    real = lab_grid.obscur_row
    calls: list[int] = []

    def row(values: tuple[int, ...], pool: int, difficulties: object) -> object:
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(pool)
        return real(values, pool, difficulties)  # type: ignore[arg-type]

    monkeypatch.setattr(lab_grid, "obscur_row", row)
    bar = LazyBar(0, "test")
    grid = ADAPTER.grid("test", {}, "1..5", "1..3", progress=bar)
    bar.stop()
    assert grid.interrupted and grid.to_json()["interrupted"] is True
    assert sorted({r for _p, r, _c in grid.cells}) == [0, 1]
    assert bar.done == 6 and bar.total == 15


def test_T9_opposition_grids_reach_the_params_bound_where_exact_odds_exist() -> None:
    """T-9: sides that play ``never`` or ``always`` are independent, so their exact odds
    exist for every pool a side accepts (60): the lab's opposition grid takes them past
    the joint-state bound of ``needed`` (it stopped every policy at 14), each cell equal
    to the opposition's own exact odds."""
    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.odds import MAX_OPPOSED_ODDS_DICE, winner_odds
    from meneur.systems.tunnels.rules import OpposedParams, Side, TestParams

    dice = MAX_OPPOSED_ODDS_DICE + 6
    for policy in ("never", "always"):
        grid = ADAPTER.grid("oppose", {}, str(dice), "3", policy)
        law = winner_odds(OpposedParams(Side(dice, explode=policy), Side(3, explode=policy)))
        assert grid.cells[(0, 0, 0)]["win"] == law.p_where(lambda k: k[0] == "a")
        assert grid.cells[(0, 0, 0)]["loss"] == law.p_where(lambda k: k[0] == "b")
    rows = ADAPTER.axes("oppose", {}, f"{TestParams.MAX_DICE}", "1", "never")[1]
    assert rows.values == (TestParams.MAX_DICE,)


def test_T9_a_needed_opposition_grid_goes_past_the_joint_walk(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-9: a ``needed`` side looks at the other, and the joint walk of the lead stops at
    ``MAX_OPPOSED_ODDS_DICE`` a side; who wins, all a grid shows, is read from each
    side's trajectory at every pool a side accepts: each cell past the walk equals
    ``who_wins``, and the command prints the grid."""
    from meneur.systems.tunnels.lab_adapter import ADAPTER
    from meneur.systems.tunnels.odds import MAX_OPPOSED_ODDS_DICE, who_wins
    from meneur.systems.tunnels.rules import OpposedParams, Side

    over = MAX_OPPOSED_ODDS_DICE + 6
    grid = ADAPTER.grid("oppose", {}, f"2,{over}", f"3,{over + 1}", "needed")
    assert len(grid.cells) == 4
    for (_panel, row, column), cell in grid.cells.items():
        sides = Side((2, over)[row]), Side((3, over + 1)[column])
        assert (cell["win"], cell["loss"], cell["tie"]) == who_wins(OpposedParams(*sides))
    result = invoke(
        capsys, "--lang", "en", "table", "tunnels", "--check", "oppose", "--rows", str(over)
    )
    assert result.status == 0, result.err


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_unknown_panel_is_refused_in_every_system(
    capsys: pytest.CaptureFixture[str], system: str
) -> None:
    """``--panels zzz`` was ignored by Obscur's table (one panel, the variant's), where
    Tunnels and Krâsses refused it: every system refuses a panel it does not have (a
    system of one panel, any ``--panels``)."""
    done = invoke(capsys, "table", system, "--rows", "2", "--cols", "2", "--panels", "zzz")
    assert done.status == 2 and ("zzz" in done.err or "un panneau" in done.err), done.err


@pytest.mark.parametrize(
    ("args", "named", "known"),
    [
        (
            "table tunnels --variant explode=never --panels normal/always",
            "normal/always",
            "normal/never, blessed/never, cursed/never",
        ),
        (
            "table tunnels --check oppose --panels blessed/needed",
            "blessed/needed",
            "needed, always, never",
        ),
        (
            "compare tunnels --variant explode=never --variant explode=always "
            "--panels normal/needed",
            "normal/needed",
            "normal/never, blessed/never, cursed/never",
        ),
        (
            "table tunnels --check oppose --panels blessed/needed --kind distribution",
            "blessed/needed",
            "needed, always, never",
        ),
        (
            "simulate test tunnels --check oppose --panel blessed/needed --row 2 --col 2 --runs 10",
            "blessed/needed",
            "needed, always, never",
        ),
    ],
)
@pytest.mark.parametrize("plot", [False, True])
def test_T3_panels_that_select_nothing_are_refused_with_the_panels_there_are(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    args: str,
    named: str,
    known: str,
    plot: bool,
) -> None:
    """T-3, T-6: a mode of an opposition (it has none) or a policy the variant rules out
    gave an empty table with exit 0, and with --plot a ZeroDivisionError; one line now
    names the panel and those this check and variant have."""
    target = tmp_path / "x.png"
    small = "" if args.startswith("simulate") else " --rows 2 --cols 2"
    done = invoke(capsys, *(args + small).split(), *(("--plot", str(target)) if plot else ()))
    assert done.status == 2, done.out
    assert len(done.err.strip().splitlines()) == 1 and "Traceback" not in done.err
    assert f"« {named} »" in done.err and known in done.err, done.err
    assert not target.exists()


def test_a_plot_of_no_panel_is_refused(tmp_path: Path) -> None:
    """The plots refuse a grid of no panel rather than divide by zero laying it out."""
    from meneur.errors import UsageError
    from meneur.lab.grid import Axis, Grid, Measure
    from meneur.lab.plot import plot_compare, plot_grid

    axis = Axis("dice", "Dice", (1,))
    empty = Grid("tunnels", "test", {}, Axis("panel", "", ()), axis, axis, (Measure("s", "S"),))
    with pytest.raises(UsageError):
        plot_grid(empty, tmp_path / "g.png", "t")
    with pytest.raises(UsageError):
        plot_compare(empty, empty, ("a", "b"), tmp_path / "c.png", "t")
    assert not list(tmp_path.glob("*.png"))


KRASSES_OPPOSE = "krasses --check oppose --rows 3 --cols 3"
LEGENDES_ELITE = "legendes --rows 2 --cols elite"


@pytest.mark.parametrize(
    ("args", "language", "shown", "raw"),
    [
        (KRASSES_OPPOSE, "fr", "a l'emporte, par un 20 ou un 1 naturel", "a (natural)"),
        (KRASSES_OPPOSE, "fr", "a l'emporte, égalité au PJ", "a (tie)"),
        (KRASSES_OPPOSE, "en", "b wins, by the higher total", "b (total)"),
        (LEGENDES_ELITE, "fr", "héros : victoire définitive", "win:definitive"),
        (LEGENDES_ELITE, "en", "opposition: victoire partielle", "loss:partial"),
    ],
)
def test_K4_L8_a_distribution_shows_outcomes_in_the_systems_words(
    capsys: pytest.CaptureFixture[str], args: str, language: str, shown: str, raw: str
) -> None:
    """K-4, L-8: the outcomes of a distribution read as the system's other commands word
    them (the log's « a l'emporte, par un 20 ou un 1 naturel », odds legendes' bands), where
    the table showed its keys (« a (natural) », « win:definitive »); JSON keeps the keys."""
    command = ("--lang", language, "table", *args.split())
    done = invoke(capsys, *command, "--kind", "distribution")
    assert done.status == 0, done.err
    assert shown in done.out and raw not in done.out, done.out
    data = invoke(capsys, *command, "--kind", "distribution", "--json").json()
    assert raw in {entry["outcome"] for entry in data["distribution"]}


@pytest.mark.parametrize("system", SYSTEMS)
def test_compare_fight_suggests_only_a_command_that_exists(
    capsys: pytest.CaptureFixture[str], system: str
) -> None:
    """``compare krasses --check fight`` suggested « meneur simulate fight krasses », an
    unknown command: a system without fights to compare suggests a command only where
    its lab registers one, else the checks it has."""
    done = invoke(capsys, "compare", system, "--check", "fight", "--variant", "", "--variant", "")
    if done.status == 0:  # this system compares fights
        return
    assert done.status == 2 and len(done.err.strip().splitlines()) == 1, done.err
    words = done.err.split()
    if "meneur" not in words:
        assert "test" in done.err, done.err  # the checks it does have
        return
    suggested = words[words.index("meneur") + 1 :]
    assert suggested[:2] == ["simulate", "fight"], done.err
    helped = invoke(capsys, *suggested[:2], suggested[2].rstrip("."), "--help")
    assert helped.status == 0, helped.err


@pytest.mark.parametrize("typed", ["3", "1", "-3", "0,5", "-2..2"])
def test_L7_a_circumstance_out_of_the_rule_is_told_what_the_rule_takes(
    capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    """L-7: ``--panels 3`` said « donnez des nombres de -2 à 2 », then 1 was refused: each
    number outside -2, 0, +2 gets the rule's own three values."""
    done = invoke(capsys, "table", "legendes", f"--panels={typed}")
    assert done.status == 2, done.out
    assert "-2, 0 ou +2 (L-7)" in done.err and " à 2" not in done.err, done.err


@pytest.mark.parametrize(
    ("language", "shown", "foreign"),
    [
        ("en", ("blessed · needed", "cursed · needed"), "béni"),
        ("fr", ("béni", "maudit"), "blessed"),
    ],
)
def test_T3_tunnels_panel_titles_are_in_the_users_language(
    capsys: pytest.CaptureFixture[str], language: str, shown: tuple[str, ...], foreign: str
) -> None:
    """T-3: the modes in a panel's title (tables and plots read the same labels) stayed
    French in English (« béni · needed »); each language now names them its own way."""
    done = invoke(capsys, "--lang", language, "table", "tunnels", "--rows", "2", "--cols", "2")
    assert done.status == 0, done.err
    assert all(words in done.out for words in shown) and foreign not in done.out, done.out
    from meneur.locale import set_language

    set_language(language)  # a plot titles its panels with the same labels
    grid = adapter("tunnels").grid("test", {}, "2", "2", "blessed/needed")
    assert grid.panels.label_of(0) == ("béni · needed" if language == "fr" else "blessed · needed")


@pytest.mark.parametrize(
    "args",
    [
        "table tunnels --variant explode=always,explode=never",
        "table obscur --variant margin_counts=yes,margin-counts=no",
        "compare tunnels --variant explode=always,EXPLODE=never --variant sixes=all",
        "compare tunnels --variant sixes=all --variant explode=always,explode=never",
        "simulate test tunnels --row 2 --col 2 --variant explode=always,explode=never",
        "simulate test tunnels --row 2 --col 2 --variant explode=always --explode never",
        "simulate test tunnels --row 2 --col 2 --variant sixes=all --sixes batch",
    ],
)
def test_T6_a_rule_option_given_twice_is_refused(
    capsys: pytest.CaptureFixture[str], args: str
) -> None:
    """T-6, T-7: ``--variant explode=always,explode=never`` (or the option beside its own
    flag, --explode) kept the last in silence, so the odds were another rule's than the
    one read first: refused, naming the option."""
    small = " --runs 10" if args.startswith("simulate") else " --rows 2 --cols 2"
    done = invoke(capsys, *(args + small).split())
    assert done.status == 2, done.out
    assert len(done.err.strip().splitlines()) == 1, done.err
    assert "plus d'une fois" in done.err or "désignent la même chose" in done.err, done.err


def test_compare_json_names_both_sides_panels(capsys: pytest.CaptureFixture[str]) -> None:
    """Panels are matched by position and change with the variant: each cell named side
    A's alone (« normal/never »), never B's (« normal/always »)."""
    result = invoke(
        capsys,
        *("compare", "tunnels", "--variant", "explode=never", "--variant", "explode=always"),
        *("--rows", "2", "--cols", "3", "--json"),
    )
    assert result.status == 0, result.err
    panels = [cell["panel"] for cell in result.json()["cells"]]
    assert panels == [
        {"a": "normal/never", "b": "normal/always"},
        {"a": "blessed/never", "b": "blessed/always"},
        {"a": "cursed/never", "b": "cursed/always"},
    ]


def test_compare_csv_names_both_sides_variant_and_panel(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The CSV named side A's panel alone (« normal/never ») and neither variant: B's
    panel and what each side was were lost, where the JSON gives both."""
    result = invoke(
        capsys,
        *("compare", "tunnels", "--variant", "explode=never", "--variant", "explode=always"),
        *("--rows", "2", "--cols", "3", "--csv"),
    )
    assert result.status == 0, result.err
    lines = list(csv.DictReader(io.StringIO(result.out)))
    assert [(line["variant_a"], line["variant_b"]) for line in lines] == [
        ("explode=never", "explode=always")
    ] * 3
    assert [(line["panel_a"], line["panel_b"]) for line in lines] == [
        ("normal/never", "normal/always"),
        ("blessed/never", "blessed/always"),
        ("cursed/never", "cursed/always"),
    ]
    assert float(lines[0]["success_b"]) > float(lines[0]["success_a"])


@pytest.mark.parametrize(
    ("system", "check", "english", "french"),
    [
        (
            "legendes",
            "test",
            ["Win", "Definitive victory (victoire définitive)", "Nobody wins", "Loss"],
            ["Victoire", "Victoire définitive", "Personne ne gagne", "Défaite"],
        ),
        ("obscur", "test", ["Success", "Fumble (Maladresse)"], ["Réussite", "Maladresse"]),
    ],
)
def test_measures_are_worded_in_the_message_language(
    system: str, check: str, english: list[str], french: list[str]
) -> None:
    """Légendes' « Victoire définitive » and Obscur's « Maladresse » were French msgids:
    an English run read them in French alone beside « Win » and « Success ». English
    now glosses them and keeps the game term (DESIGN: French game terms kept), as the
    web's « Fumble (Maladresse) » does."""
    from meneur.locale import gettext as _
    from meneur.locale import set_language

    measures = adapter(system).measures(check)
    set_language("en")
    assert [_(m.label) for m in measures] == english
    set_language("fr")
    assert [_(m.label) for m in measures] == french


def test_obscur_distribution_names_the_fumble_in_english(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An English distribution of Obscur's test named its fumble « Maladresse » alone;
    it glosses it now, the game term kept."""
    args = ("table", "obscur", "--rows", "2", "--cols", "1", "--kind", "distribution")
    english = invoke(capsys, "--lang", "en", *args)
    assert english.status == 0, english.err
    assert "Fumble (Maladresse)" in english.out, english.out
    french = invoke(capsys, *args)
    assert "Maladresse" in french.out, french.out


def test_T9_a_distribution_past_the_walk_names_the_lead_and_where_who_wins_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Tunnels opposition cell's distribution (the lead) past the joint walk's bound was
    refused in the words of a fight's damage; it names the lead now, and the lab's curves
    and heatmaps (who wins, exact up to the params' bound) as where to go on."""
    args = ("table", "tunnels", "--check", "oppose", "--rows", "21", "--cols", "21")
    french = invoke(capsys, *args, "--kind", "distribution")
    assert french.status == 2, french.err
    assert "La loi exacte de l'écart" in french.err and "dégâts" not in french.err
    assert "les courbes et cartes de chaleur du labo" in french.err, french.err
    english = invoke(capsys, "--lang", "en", *args, "--kind", "distribution")
    assert "The exact law of the lead" in english.err, english.err
    curves = invoke(capsys, *args, "--kind", "heatmap", "--panels", "normal/needed")
    assert curves.status == 0, curves.err


class _StoppedAt:
    """An adapter whose ``stop``-th grid is cut by Ctrl-C (marked interrupted)."""

    def __init__(self, real, stop: int) -> None:  # type: ignore[no-untyped-def]
        self.real, self.stop, self.calls = real, stop, 0
        self.options, self.parse_variant = real.options, real.parse_variant

    def grid(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.calls += 1
        grid = self.real.grid(*args, **kwargs)
        if self.calls == self.stop:
            object.__setattr__(grid, "interrupted", True)
        return grid


@pytest.mark.parametrize("stop", [1, 2])
def test_a_comparison_cut_by_ctrl_c_says_so(stop: int) -> None:
    """Ctrl-C during either grid: the comparison is interrupted; during the first, the
    second grid is not computed and is marked interrupted itself."""
    cut = _StoppedAt(adapter("krasses"), stop)
    result = compare_grids(cut, "naturals=on", "naturals=off", "oppose", "10", "0")
    assert cut.calls == stop and result.b.interrupted
    assert result.a.interrupted is (stop == 1)
    assert result.to_json()["interrupted"] is True
    if stop == 1:
        assert result.b.cells == {} and result.b.variant == {"naturals": "off"}


def test_an_option_given_on_one_side_takes_its_default_on_the_other() -> None:
    """docs/lab.md: an option given by one variant alone takes its default value (the
    first listed: T-6 ``explode=needed``) on the other side, whichever side it is."""
    result = compare_grids(adapter("tunnels"), "explode=always", "", "test", "1", "1")
    assert dict(result.a.variant) == {"explode": "always"}
    assert dict(result.b.variant) == {"explode": "needed"}


def test_a_comparison_is_a_frozen_value() -> None:
    from dataclasses import FrozenInstanceError

    result = compare_grids(adapter("krasses"), "naturals=on", "naturals=off", "oppose", "0", "0")
    with pytest.raises(FrozenInstanceError):
        result.b = result.a  # type: ignore[misc]


def test_compare_csv_line_of_the_guide(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/lab.md's CSV line: T-3's 3 dice at threshold 2 pass 1/2 of the time without
    explosion; each difference is B - A (0.5647... - 0.5 = 0.0647...; B's exceptional
    success is rarer: a negative difference)."""
    result = invoke(
        capsys,
        *("compare", "tunnels", "--variant", "explode=never", "--variant", "explode=always"),
        *("--rows", "3", "--cols", "2", "--panels", "normal", "--csv"),
    )
    assert result.status == 0, result.err
    assert result.out.splitlines()[1] == (
        "explode=never,explode=always,normal/never,normal/always,3,2,0.5,0.564750514403,"
        "0.0647505144033,0.00462962962963,0.00460819615912,-2.14334705075e-05,"
        "0.00462962962963,0.0163108710562,0.0116812414266"
    )


def test_compared_fights_show_a_bar_over_their_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare --check fight`` simulates each variant's points under a bar (off a
    terminal it shows nothing): one bar per variant, over its 2 points."""
    from meneur.lab.compare import compare_fights

    record = started_bars(monkeypatch)
    tunnels = adapter("tunnels")
    result = compare_fights(
        tunnels, "loss=margin", "loss=one", "2", "4,5", endurance=3, runs=200, seed=1
    )
    started = [tuple(bar[:3]) for bar in record]
    assert [total for _, total, _ in started] == [2, 2]
    assert len(result.rows()) == 2


# --- lab/grid.py on its own: the size guard, the list and variant parsers, the forms ---


def _axis(size: int) -> Axis:
    return Axis("n", "N", tuple(range(size)))


def test_a_table_holds_at_most_40000_cells() -> None:
    """docs/lab.md: « Une table tient au plus 40 000 cases »: 1 × 200 × 200 is accepted,
    13 × 17 × 181 = 40 001 refused, the count of cells said (each axis counts, multiplied)."""
    check_size(_axis(1), _axis(200), _axis(200))
    with pytest.raises(LimitError) as refused:
        check_size(_axis(13), _axis(17), _axis(181))
    assert refused.value.params == {"limit": 40_000, "cells": 13 * 17 * 181}


def test_an_axis_holds_at_most_200_values() -> None:
    """``1..200`` is an axis of 200 values; ``1..201`` one too many."""
    assert parse_int_list("1..200", 1, 1000, "Difficulty") == tuple(range(1, 201))
    with pytest.raises(LimitError) as refused:
        parse_int_list("1..201", 1, 1000, "Difficulty")
    assert refused.value.params == {"limit": 200}


def test_a_value_repeated_in_an_axis_counts_once_against_the_limit() -> None:
    """``1..200,7`` is 200 values (7 twice): accepted, in order, each once; one value
    more is refused, however the list is written."""
    assert parse_int_list("1..200,7", 1, 1000, "Difficulty") == tuple(range(1, 201))
    assert parse_int_list("5,1..200", 1, 1000, "Difficulty")[:3] == (5, 1, 2)
    with pytest.raises(LimitError):
        parse_int_list("1..200,7,201", 1, 1000, "Difficulty")


@pytest.mark.parametrize("typed", ["x", "1..x", "x..3"])
def test_a_list_that_is_not_whole_numbers_is_told_the_list_form(typed: str) -> None:
    """``1..x`` is refused as a list (« such as 1..10 or 2,4,6 »), the whole text named,
    not as a lone number."""
    with pytest.raises(UsageError) as refused:
        parse_int_list(typed, 1, 10, "Dice")
    assert refused.value.params == {"text": typed}
    assert "1..10" in refused.value.message


def test_a_variant_names_its_option_and_value() -> None:
    """An unknown option (with or without a value) is refused naming the options there
    are (``-``: none); a known option without ``=VALUE`` is the same mistake."""
    options = {"explode": ("needed", "always"), "sixes": ("batch", "all")}
    for typed in ("nonsense=1", "nonsense", "explode"):
        with pytest.raises(UsageError) as refused:
            parse_variant(typed, options)
        assert refused.value.params == {"text": typed, "known": "explode, sixes"}, typed
    with pytest.raises(UsageError) as refused:
        parse_variant("explode=always", {})
    assert refused.value.params["known"] == "-"


def test_L1_a_negative_number_of_six_digits_keeps_its_sign_when_refused() -> None:
    """L-1: a number keeps its sign (folding a name drops a leading minus), up to six
    digits: ``legendary=-100000`` is refused as -100000, not as 100000."""
    with pytest.raises(UsageError) as refused:
        parse_variant("legendary=-100000", {"legendary": ("0", "1", "2")})
    assert refused.value.params["value"] == "-100000"


def test_the_grid_values_of_json_keep_their_type() -> None:
    """A number stays a number in the JSON (``"bonus": 0``, not ``"0"``), nothing stays
    null, a tuple panel is written ``blessed/always``."""
    assert jsonable(0) == 0 and isinstance(jsonable(0), int)
    assert jsonable(None) is None
    assert jsonable("variant") == "variant"
    assert jsonable(("blessed", "always")) == "blessed/always"


def test_K1_krasses_table_json_of_the_guide() -> None:
    """K-1/K-3: bonus 0 against difficulty 5 passes on a d20 from 5: 16/20 = 4/5; the
    JSON's axis values are numbers."""
    grid = adapter("krasses").grid("test", {}, "0", "5")
    assert grid.to_json()["cells"] == [
        {"panel": "variant", "bonus": 0, "difficulty": 5, "success": 0.8, "success_exact": "4/5"}
    ]


def test_a_grid_and_its_axes_are_frozen_values() -> None:
    """A grid, its axes and measures are values: a plot or a comparison reading one
    cannot change it under another (Ctrl-C's mark is set once, by the lab)."""
    from dataclasses import FrozenInstanceError

    grid = adapter("krasses").grid("test", {}, "0", "5")
    for value, name in ((grid, "check"), (grid.rows, "values"), (grid.measures[0], "name")):
        with pytest.raises(FrozenInstanceError):
            setattr(value, name, None)
    assert grid.workers == 0  # computed here


# --- lab/adapter.py: a cell's exact law, its bar, the tails of a law ---


def test_O2_O3_a_cells_law_is_in_the_outcomes_order() -> None:
    """O-2, O-3: two dice (1-3: 0, 4-5: 1, 6: 2 successes; all 1s a Maladresse), counted
    over the 36 faces here: the law reads the fumble first, then 0 to 4 successes, in
    that order (not by label, not by weight)."""
    from itertools import product

    from meneur.locale import gettext

    counts: dict[str, int] = {}
    for faces in product(range(1, 7), repeat=2):
        fumble = all(face == 1 for face in faces)
        label = "Fumble" if fumble else str(sum((face >= 4) + (face == 6) for face in faces))
        counts[label] = counts.get(label, 0) + 1
    expected = [
        (gettext("Fumble (Maladresse)") if label == "Fumble" else label, Fraction(n, 36))
        for label, n in [(k, counts[k]) for k in ("Fumble", "0", "1", "2", "3", "4")]
    ]
    assert expected[2] == ("1", Fraction(12, 36))  # 4-5 with 1-3, either way round
    _params, law = adapter("obscur").distribution("test", {}, "2", "1", None)
    assert law == expected


class _Worked(KrassesAdapter):
    """Krâsses' adapter whose cells say 3 units of work for their odds, 7 for their whole
    law, and record what was built."""

    def __init__(self) -> None:
        super().__init__(system_named("krasses"))
        self.built: list[bool] = []

    def cell_work(self, check: str, params: object, *, whole_law: bool = False) -> int:
        return 7 if whole_law else 3

    def prepare_cell(
        self,
        check: str,
        params: object,
        progress: Callable[[int], None],
        *,
        whole_law: bool = False,
    ) -> None:
        self.built.append(whole_law)
        progress(7 if whole_law else 3)


def test_a_cells_bar_is_told_the_work_of_what_it_reads() -> None:
    """A cell's odds (``prepared`` as ``table``'s one cell and ``simulate`` call it) tell
    the bar the work of the odds alone; a distribution that of the whole law; a cell of
    no work a bar of 1 (not 0)."""
    from meneur.lab.progress import LazyBar

    worked = _Worked()
    params = worked.params_at("test", {}, "variant", 0, 15)
    bar = LazyBar(0, enabled=False)
    worked.prepared("test", params, bar)
    assert (bar.total, bar.done, worked.built) == (3, 3, [False])
    bar = LazyBar(0, enabled=False)
    worked.distribution("test", {}, "0", "15", None, progress=bar)
    assert (bar.total, bar.done, worked.built) == (7, 7, [False, True])
    bar = LazyBar(0, enabled=False)
    bar.total = 5
    adapter("krasses").prepared("test", params, bar)
    assert bar.total == 1


def test_tails_are_the_chances_of_at_least_each_threshold() -> None:
    """P(value >= t) from integer weights: values 0, 1 and 3 weighing 1, 2, 1 of 4 (no 2:
    weight 0); a threshold of 0 or less is every value, past the top none."""
    from meneur.lab.adapter import tails

    weights = {0: 1, 1: 2, 3: 1}
    expected = [Fraction(4, 4), Fraction(4, 4), Fraction(3, 4), Fraction(1, 4)]
    assert tails(weights, [-1, 0, 1, 2, 3, 4], 4) == [*expected, Fraction(1, 4), Fraction(0)]


def test_percent_colours_change_at_a_quarter_a_half_and_three_quarters() -> None:
    """The lab's cells: bold green from 75 %, green from 50 %, yellow from 25 %, red for
    any chance above nothing, dim for none (each bound belongs to the colour above it)."""
    from meneur.lab.render import style_of

    cases = [(1.0, "bold green"), (0.75, "bold green"), (0.7499, "green"), (0.5, "green")]
    cases += [(0.4999, "yellow"), (0.25, "yellow"), (0.2499, "red"), (0.001, "red")]
    cases += [(0.0, "dim")]
    assert [(p, style_of(p)) for p in (p for p, _ in cases)] == cases


def test_a_change_under_half_a_tenth_of_a_point_is_dim() -> None:
    """B − A: green when B is better, red when worse; under 0.05 point (shown 0,0) dim,
    from 0.05 point on coloured."""
    from meneur.lab.render import diff_style

    assert [diff_style(d) for d in (0.0, 0.0004, -0.0004, 0.0005, -0.0005, 0.01, -0.01)] == [
        *("dim", "dim", "dim"),
        *("green", "red", "green", "red"),
    ]


def test_the_corner_says_both_axes_up_to_fourteen_characters() -> None:
    """``Rows \\ Columns`` in the corner while it fits 14 characters, else the rows alone."""
    from types import SimpleNamespace

    from meneur.lab.render import corner

    def grid(rows: str, columns: str) -> Any:
        return SimpleNamespace(
            rows=SimpleNamespace(label=rows), columns=SimpleNamespace(label=columns)
        )

    assert corner(grid("abcdefghij", "k")) == "abcdefghij \\ k"  # 14 characters
    assert corner(grid("abcdefghij", "kl")) == "abcdefghij"  # 15


def test_print_ending_warns_of_a_cut_run_then_names_the_plot(tmp_path: Path) -> None:
    from rich.console import Console

    from meneur.lab.render import print_ending
    from meneur.locale import set_language

    set_language("en")
    try:
        console = Console(record=True, width=200)
        print_ending(console, False, None)
        assert console.export_text() == ""
        print_ending(console, True, tmp_path / "p.png")
        assert console.export_text() == (
            f"Interrupted: partial result.\nPlot written to {tmp_path / 'p.png'}.\n"
        )
    finally:
        set_language("fr")


def test_compare_shows_a_then_b_then_b_minus_a_in_points() -> None:
    """``meneur compare``: each cell « A → B » over B − A (signed, one decimal); a cell
    missing on either side stays empty; panels named differently read « A / B »."""
    from rich.console import Console

    from meneur.lab.grid import Grid, Measure
    from meneur.lab.render import render_compare
    from meneur.locale.numbers import percent

    def grid(panel: str, cells: dict[tuple[int, int, int], Any]) -> Grid:
        return Grid(
            "tunnels",
            "test",
            {},
            Axis("panel", "Panel", (panel,)),
            Axis("dice", "Dice", (1,)),
            Axis("threshold", "Threshold", (1, 2, 3)),
            (Measure("success", "Success"),),
            cells,
        )

    a = grid("x", {(0, 0, 0): {"success": 0.5}, (0, 0, 1): {"success": 0.25}})
    b = grid("y", {(0, 0, 0): {"success": 0.75}, (0, 0, 2): {"success": 0.5}})
    console = Console(record=True, width=200)
    render_compare(console, a, b, "T")
    text = console.export_text()
    assert "x / y" in text
    assert "50 → 75" in text  # in percent, as the caption says: no « % » in a cell
    assert percent(0.25, 1, signed=True, symbol=False) in text and "%" not in text.split("(%)")[0]
    # a cell on one side only is left empty, on either side
    assert "25 →" not in text and "→ 50" not in text


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_default_grid_fits_an_80_column_terminal_one_line_per_row(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """``meneur table tunnels``, the first grid a designer asks (10 pools x 10 thresholds):
    at 80 columns its cells wrapped « 50,0 » and « % » over two lines (« < 0,1 » over
    three). The caption says « (%) », a cell holds the number alone, without a space."""
    monkeypatch.setenv("COLUMNS", "80")
    done = invoke(capsys, "--lang", language, "table", "tunnels", "--panels", "normal/needed")
    assert done.status == 0, done.err
    lines = done.out.splitlines()
    assert max(map(len, lines)) <= 80
    rows = [line for line in lines if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == [str(n) for n in range(1, 11)]
    assert "<0,1" in done.out if language == "fr" else "<0.1" in done.out
    assert "%" not in "".join(rows)
    assert (
        "Réussite (%) ; colonnes : Seuil" if language == "fr" else "Success (%); columns: Threshold"
    ) in done.out
