"""The user guide's shell examples, parsed and run like doctests.

A guide (``docs/*.md``, README.md) shows commands in fenced blocks: a line ``$ meneur ...``
followed by what it prints. This module reads those blocks and runs them, so the guide
cannot drift from the tool without a test failing.

What runs
  * Only lines ``$ meneur ...`` run (an environment prefix such as
    ``$ MENEUR_DB_URL=... meneur ...`` is allowed), and ``$ echo $?``, which prints the
    previous command's exit status. ``meneur serve`` (it starts a server) and every other
    ``$`` line (``grep``, ``lint-imports``, ``python benchmarks/...``, ``curl``) are
    skipped, with the lines they print. A ``# comment`` after a command is not part of it.
  * The lines after a ``$`` line, up to the next ``$`` line or the end of the block, are
    its expected output (standard output and standard error, interleaved as printed).

Where it runs
  Each document gets a fresh temporary directory and database
  (``MENEUR_DB_URL=sqlite:///<tmp>/t.db``), French messages (``MENEUR_LANG=fr``; a
  command asks for English with ``--lang en``), no colour and a fixed width
  (``COLUMNS=100``). The directory holds the example sheets as the guides name them:
  ``examples/`` as in the repository, and every file of ``examples/*/`` copied beside it
  (``isaure.json``), as the guides tell readers to do. ``docs/img/`` exists and is empty,
  so a ``--plot docs/img/x.png`` writes there, never into the repository. The commands of
  one document run in order, in that directory: later commands see what earlier ones
  saved (campaigns, characters, sheets).

How output is compared (after removing trailing spaces and trailing blank lines)
  * Line for line, exactly, except:
  * a line ``...`` matches any run of lines (none included): for output that truly
    varies (a timing, the rows of a log of unseeded rolls), or to shorten a long output
    the text says is shortened (``# extrait`` after the command, a fight's middle rounds);
  * timestamps and hashes vary with the clock, so dates (``2026-12-02``), clock times
    (``20:53:40``, ``20:53:40.296077``) and hexadecimal strings of 16 digits or more are
    compared by their shape only.

Markers (an HTML comment on the line just before a fenced block, invisible in the guide)
  * ``<!-- docs: not compared -->``: the block's commands run, but their output is not
    compared (a roll without ``--seed``); each must exit 0, or non-zero if its expected
    output shows an error (``Erreur :``/``Error:``).
  * ``<!-- docs: not run -->``: the block is not run at all (it needs a server or a
    network); say why in the text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

COMPARE = "compare"
NOT_COMPARED = "not compared"
NOT_RUN = "not run"

_MARKER = re.compile(r"^<!--\s*docs:\s*(not compared|not run)\s*-->\s*$")
_FENCE = re.compile(r"^(```+|~~~+)")
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=")
_DATE = re.compile(r"\b\d{4}-\d\d-\d\d\b")
_TIME = re.compile(r"\b\d\d:\d\d:\d\d(\.\d+)?")
_HEX = re.compile(r"\b[0-9a-f]{16,}\b")
ELLIPSIS = "..."


@dataclass
class Example:
    """One ``$`` line of a guide and the lines it should print."""

    line: int  # 1-based line of the ``$`` in the document
    command: str  # the text after ``$ ``
    expected: list[str] = field(default_factory=list)
    mode: str = COMPARE

    @property
    def runs(self) -> bool:
        """Whether this line is run: a ``meneur`` command (not ``serve``) or ``echo $?``."""
        if self.mode == NOT_RUN:
            return False
        if self.is_status_echo:
            return True
        words = self.command.split()
        while words and _ENV.match(words[0]):
            words = words[1:]
        return len(words) >= 2 and words[0] == "meneur" and words[1] != "serve"

    @property
    def is_status_echo(self) -> bool:
        return self.command.strip() == "echo $?"

    @property
    def shows_error(self) -> bool:
        return any(line.startswith(("Erreur :", "Error:")) for line in self.expected)


def parse(text: str) -> list[Example]:
    """Every ``$`` line of the fenced blocks of ``text``, with its expected output."""
    examples: list[Example] = []
    lines = text.splitlines()
    fence: str | None = None
    mode = COMPARE
    previous = ""
    current: Example | None = None
    for number, line in enumerate(lines, start=1):
        opening = _FENCE.match(line)
        if fence is None:
            if opening:
                fence = opening.group(1)
                marker = _MARKER.match(previous)
                mode = marker.group(1) if marker else COMPARE
            if line.strip():
                previous = line.strip()
            continue
        if line.startswith(fence) and not line[len(fence) :].strip():
            fence, current = None, None
            previous = ""
            continue
        if line.startswith("$ "):
            current = Example(number, line[2:].strip(), mode=mode)
            examples.append(current)
        elif current is not None:
            current.expected.append(line)
    for example in examples:
        example.expected = _trimmed(example.expected)
    return examples


def _trimmed(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def _shape(line: str) -> str:
    line = _DATE.sub("YYYY-MM-DD", line)
    line = _TIME.sub(lambda m: "HH:MM:SS" + ("." if m.group(1) else ""), line)
    return _HEX.sub(lambda m: "#" * len(m.group(0)), line)


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``expected``, where a line ``...`` stands for any lines."""
    want = [line if line == ELLIPSIS else _shape(line) for line in expected]
    got = [_shape(line) for line in actual]
    return _match(want, 0, got, 0, {})


def _match(
    want: list[str], i: int, got: list[str], j: int, seen: dict[tuple[int, int], bool]
) -> bool:
    key = (i, j)
    if key in seen:
        return seen[key]
    if i == len(want):
        result = j == len(got)
    elif want[i] == ELLIPSIS:
        result = any(_match(want, i + 1, got, k, seen) for k in range(j, len(got) + 1))
    else:
        result = j < len(got) and want[i] == got[j] and _match(want, i + 1, got, j + 1, seen)
    seen[key] = result
    return result


def diff(example: Example, actual: list[str], path: str) -> str:
    """A unified diff of what the guide shows against what the command printed."""
    return "\n".join(
        difflib.unified_diff(
            example.expected,
            actual,
            fromfile=f"{path}:{example.line} (the guide)",
            tofile=f"$ {example.command}",
            lineterm="",
        )
    )


def documents(root: Path) -> Iterator[Path]:
    """The guides whose examples run: every ``docs/*.md`` and the README."""
    yield root / "README.md"
    yield from sorted((root / "docs").glob("*.md"))


def trimmed_output(text: str) -> list[str]:
    return _trimmed(text.splitlines())
