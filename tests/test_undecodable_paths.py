"""File names of bytes that are not UTF-8 (``$'\\xff.json'``, which Linux allows): the
command reads and writes the file like any other, logs its roll and prints its result.

Python hands such a name to the command as text holding lone surrogates (``\\udcff``),
which neither the roll log (UTF-8 JSON) nor a strict UTF-8 terminal can encode. The
command used to fail there, after it had already written the sheet or stored the
character: exit 2, « type it again », no log entry, and typing it again rolled twice.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke

ROOT = Path(__file__).resolve().parents[1]
Capsys = pytest.CaptureFixture[str]
UNDECODABLE = os.fsdecode(b"\xff")
"""The text Python makes of a file name's byte 0xff: a lone surrogate."""


@pytest.fixture(autouse=True)
def _logged(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MENEUR_LOG", "1")
    monkeypatch.chdir(tmp_path)


def _log(capsys: Capsys) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = invoke(capsys, "log", "--json").json()
    return entries


def test_a_sheet_so_named_is_rolled_written_and_logged(capsys: Capsys, tmp_path: Path) -> None:
    sheet = tmp_path / f"{UNDECODABLE}.json"
    shutil.copy(ROOT / "examples/obscur/isaure.json", sheet)
    before = sheet.read_bytes()
    done = invoke(capsys, "hurt", "obscur", "--sheet", str(sheet), "--fall", "3", "--seed", "1")
    assert done.status == 0, done.err
    assert sheet.read_bytes() != before
    (entry,) = _log(capsys)
    assert "\\udcff" in str(entry["params"])  # the name as the error messages show it


def test_a_new_character_saved_so_is_stored_once_with_its_log_entry(capsys: Capsys) -> None:
    out = f"{UNDECODABLE}.json"
    done = invoke(capsys, "character", "new", "tunnels", "Zed", "--seed", "1", "--out", out)
    assert done.status == 0, done.err
    assert "Zed" in done.out and Path(out).exists()
    assert [entry["who"] for entry in _log(capsys)] == ["Zed"]
