"""Write into a guide what its examples print now, for a writer to review.

Usage: ``PYTHONPATH=src python tests/docs/update.py docs/lab.md [more.md ...]``

Every compared example whose output differs gets the command's real output in place of
the old one (the lines between its ``$`` line and the next, trailing blank lines kept).
An example with a ``...`` line is left alone and named: it was shortened by hand, so it
is fixed by hand. Review the result with ``git diff``: a changed figure may be a bug, and
the prose around it may comment on the old figure.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docs.examples import COMPARE, ELLIPSIS, matches, parse
from docs.runner import Runner


def update(document: Path) -> None:
    lines = document.read_text("utf-8").splitlines()
    examples = [example for example in parse("\n".join(lines)) if example.runs]
    replacements: list[tuple[int, int, list[str]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(Path(tmp))
        try:
            for example in examples:
                status, output = runner.run(example)
                if example.mode != COMPARE or matches(example.expected, output):
                    continue
                if ELLIPSIS in example.expected:
                    print(f"{document}:{example.line}: shortened with '...': fix by hand")
                    continue
                start = example.line  # 0-based index of the first output line
                replacements.append((start, start + len(example.expected), output))
                print(f"{document}:{example.line}: updated (exit status {status})")
        finally:
            runner.close()
    for start, end, output in reversed(replacements):
        lines[start:end] = output
    document.write_text("\n".join(lines) + "\n", "utf-8")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        update(Path(name))
