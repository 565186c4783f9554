"""Every example of the user guide runs and prints what the guide shows.

The conventions (what runs, where, how output is compared, the markers) are in
``tests/docs/examples.py``. One test per document; a failure lists every command whose
output differs, each with a unified diff, so the guide is fixed in one pass
(``python tests/docs/update.py FILE`` writes what meneur prints into the guide, to review).
The lab's guide, whose simulations take most of the time, has its own test file
(``test_docs_lab.py``): the suite runs a file per worker, so it runs beside the others.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docs.examples import NOT_COMPARED, diff, documents, matches, parse
from docs.runner import ROOT, Runner

LAB = ROOT / "docs" / "lab.md"


def check_document(document: Path, tmp_path: Path) -> None:
    """Run the document's examples in order; fail with every difference at once."""
    name = document.relative_to(ROOT).as_posix()
    examples = [example for example in parse(document.read_text("utf-8")) if example.runs]
    runner = Runner(tmp_path)
    failures: list[str] = []
    try:
        for example in examples:
            status, output = runner.run(example)
            if example.mode == NOT_COMPARED:
                if (status != 0) != example.shows_error:
                    failures.append(
                        f"{name}:{example.line}: $ {example.command}\n"
                        f"exit status {status} (not compared; expected "
                        f"{'an error' if example.shows_error else '0'}):\n" + "\n".join(output)
                    )
            elif not matches(example.expected, output):
                failures.append(diff(example, output, name))
    finally:
        runner.close()
    assert not failures, (
        f"{len(failures)} example(s) of {name} differ from what meneur prints "
        f"(conventions: tests/docs/examples.py):\n\n" + "\n\n".join(failures)
    )


@pytest.mark.parametrize(
    "document",
    [path for path in documents(ROOT) if path != LAB],
    ids=lambda path: path.relative_to(ROOT).as_posix(),
)
def test_guide_examples(document: Path, tmp_path: Path) -> None:
    check_document(document, tmp_path)
