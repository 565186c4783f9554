"""The example sheets, copied where a test may change them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "obscur"


@pytest.fixture
def sheets(tmp_path: Path) -> Path:
    """A folder holding a copy of every example Obscur sheet."""
    for path in EXAMPLES.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return tmp_path
