"""The lab guide's examples (``docs/lab.md``), apart: its seeded simulations of a million
runs take most of the guide's time, and a file of its own runs on the other worker."""

from __future__ import annotations

from pathlib import Path

from docs.test_docs_examples import LAB, check_document


def test_lab_guide_examples(tmp_path: Path) -> None:
    check_document(LAB, tmp_path)
