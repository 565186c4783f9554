"""Start-up time of the CLI, side by side with the floor of any Typer CLI (``import typer``).

Targets: ``meneur --help`` at most 1.5x the floor (issues 2 and 18), ``meneur roll 3d6``
and ``meneur test tunnels`` at most 2x (issue 18), ``meneur test krasses`` 1.5x (issue 2).
The commands are the issues' own, with the dice a user gets (secure, no ``--seed``).
The runs are interleaved, one of each command per round, so that a shared machine's load
weighs on the floor and on each command alike; each ratio is a median over the rounds.
``--profile`` then prints, for the two commands of issue 18, the modules that
``python -X importtime`` shows costing most (cumulative, microseconds): what remains.
``--base SRC`` also times another checkout's ``src`` (say ``git worktree add /tmp/base
REV``) in the same rounds, both trees then run as ``python -m meneur``: a change's effect
measured side by side, under the same load.
The same rolls are also timed *logged* (``MENEUR_LOG=1``, a campaign database in a
temporary folder, as when a user's campaign exists): no target, the log's own cost shown.
Run: ``python benchmarks/startup.py [--runs N] [--profile] [--base SRC]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {"--help": 1.5, "roll 3d6": 2.0, "test tunnels": 2.0, "test krasses": 1.5}
LOGGED = ("roll 3d6", "test tunnels", "test krasses")
"""Timed again with the roll log on (no target: what the log adds)."""
PROFILED = ("roll 3d6", "test tunnels")
TOP_IMPORTS = 12


def meneur_command() -> list[str]:
    script = Path(sys.executable).with_name("meneur")
    return [str(script)] if script.exists() else [sys.executable, "-m", "meneur"]


def compiled_environment(source: Path | None = None) -> dict[str, str]:
    """An installed package's conditions: bytecode compiled, nothing logged.

    ``pip install`` compiles the package's bytecode; a development tree with
    ``PYTHONDONTWRITEBYTECODE`` set would recompile every edited module at each start
    and measure the compiler, not meneur. ``source``: import meneur from that ``src``.
    """
    import compileall

    import meneur

    package = source / "meneur" if source else Path(meneur.__file__).parent
    compileall.compile_dir(package, quiet=1)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    if source:
        env["PYTHONPATH"] = str(source)
    return {**env, "MENEUR_LANG": "fr", "MENEUR_LOG": "0"}


Command = tuple[list[str], dict[str, str]]


def interleaved_seconds(commands: dict[str, Command], runs: int) -> dict[str, list[float]]:
    """Seconds of each command per round, the commands run in turn within each round."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, env) in commands.items():
            start = time.perf_counter()
            subprocess.run(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
            )
            times[name].append(time.perf_counter() - start)
    return times


def import_profile(command: list[str]) -> list[tuple[int, int, str]]:
    """``python -X importtime``'s lines as (cumulative us, self us, module), costliest first."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command],
        capture_output=True,
        text=True,
        env=compiled_environment(),
        check=False,
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        rows.append((int(cumulative), int(own), name.rstrip()))
    return sorted(rows, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--profile", action="store_true", help="print the import profiles")
    parser.add_argument("--base", type=Path, help="another checkout's src, timed beside")
    args = parser.parse_args()
    runs = args.runs
    cases = {
        "--help": ["--help"],
        "roll 3d6": ["roll", "3d6"],
        "test tunnels": ["test", "tunnels", "--dice", "3", "--threshold", "2"],
        "test krasses": ["test", "krasses", "--bonus", "5", "--difficulty", "15"],
    }
    here = compiled_environment()
    trees: dict[str, Command] = {"": (meneur_command(), here)}
    if args.base:  # both trees as python -m meneur, each from its own src
        current = Path(__file__).resolve().parent.parent / "src"
        module = [sys.executable, "-m", "meneur"]
        trees = {"": (module, compiled_environment(current))}
        trees["base "] = (module, compiled_environment(args.base.resolve()))
    commands: dict[str, Command] = {"floor": ([sys.executable, "-c", "import typer"], here)}
    folder = tempfile.TemporaryDirectory()
    database = f"sqlite:///{Path(folder.name) / 'campaign.db'}"
    for tree, (prefix, env) in trees.items():
        commands.update({tree + name: (prefix + words, env) for name, words in cases.items()})
        logged = {**env, "MENEUR_LOG": "1", "MENEUR_DB_URL": database}
        for name in LOGGED:
            commands[f"{tree}{name}, logged"] = (prefix + cases[name], logged)
            subprocess.run(prefix + cases[name], capture_output=True, env=logged, check=False)
    times = interleaved_seconds(commands, runs)
    folder.cleanup()
    floor = statistics.median(times["floor"])
    print(f"{'command':<34}{'median ms':>10}{'ratio':>8}{'target':>8}  verdict")
    print(f"{'python -c import typer':<34}{floor * 1000:>10.1f}{1.0:>8.2f}{'':>8}  (floor)")
    for name in [*cases, *(f"{name}, logged" for name in LOGGED)]:
        for tree in trees:
            mine = times[tree + name]
            seconds = statistics.median(mine)
            ratio = statistics.median(t / f for t, f in zip(mine, times["floor"], strict=True))
            target = TARGETS.get(name)
            shown = f"{target:>8.1f}" if target else f"{'-':>8}"
            verdict = "(the log's cost)" if target is None else "ok"
            if target is not None and ratio > target:
                verdict = "SLOWER THAN TARGET"
            label = f"{tree}meneur {name}"
            print(f"{label:<34}{seconds * 1000:>10.1f}{ratio:>8.2f}{shown}  {verdict}")
    if not args.profile:
        return
    for name in PROFILED:
        print(f"\npython -X importtime meneur {name}: top {TOP_IMPORTS} by cumulative time")
        print(f"{'cumulative us':>14}{'self us':>10}  module")
        for cumulative, own, imported in import_profile(["-m", "meneur", *cases[name]])[
            :TOP_IMPORTS
        ]:
            print(f"{cumulative:>14,}{own:>10,}  {imported}")


if __name__ == "__main__":
    main()
