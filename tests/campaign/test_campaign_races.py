"""Two processes changing one stored character at the same moment: both changes count.

Each test makes another real ``meneur`` process change the character between the
moment this command read the sheet and the moment it writes it (the write is the
store's, patched to let the other process go first): the command must find the sheet
changed and be played again on the sheet as it now is, not write its own over it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.campaign.hotlog import HotLog
from meneur.campaign.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run_meneur(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meneur", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "MENEUR_LANG": "en"},
    )


def _isaure(store: Store, *, vecu: int = 8) -> None:
    sheet = json.loads((ROOT / "examples" / "obscur" / "isaure.json").read_text())
    sheet["name"] = "Isaure"
    sheet["ressources"]["vecu"] = vecu
    store.add_character("obscur", "Isaure", sheet)


def _racing(monkeypatch: pytest.MonkeyPatch, method: str, *other: str) -> list[Any]:
    """Patch ``method`` so that, before its first write, ``meneur *other`` runs: on
    :class:`HotLog` for a roll's append (the command's SQLite log and the store share
    it), on :class:`Store` otherwise (the SQLite log hands the rest to a store)."""
    owner: type[Any] = HotLog if method in vars(HotLog) else Store
    real = getattr(owner, method)
    raced: list[subprocess.CompletedProcess[str]] = []

    def racing(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not raced:
            raced.append(run_meneur(*other))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(owner, method, racing)
    return raced


def test_two_spends_of_vecu_at_once_both_count(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """O-13's spend without a roll: the sheet used to be written whole at the end of the
    command over whatever another process wrote meanwhile (in a QA run of two shells
    hurting one character 20 times each, 19 of 40 wounds were lost this way)."""
    with Store(db_url) as store:
        _isaure(store, vecu=100)
    raced = _racing(
        monkeypatch,
        "update_sheets",
        *("xp", "obscur", "--character", "Isaure", "--trait", "Sang-froid", "--to", "2"),
        "--apply",
    )
    result = invoke(
        capsys, "xp", "obscur", "--character", "Isaure", "--trait", "Bagarre", "--to", "3",
        "--apply",
    )  # fmt: skip
    assert raced[0].returncode == 0, raced[0].stderr
    assert result.status == 0, result.err
    with Store(db_url) as store:
        sheet = store.character("Isaure").sheet
    assert sheet["capacites"]["Bagarre"] == 3
    assert sheet["capacites"]["Sang-froid"] == 2  # the other process's raise is kept
    assert sheet["ressources"]["vecu"] == 100 - 15 - 10  # and both were paid


def test_two_blows_at_once_both_wound(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """O-28 with a shock test: the roll's log entry wrote the new sheet without checking
    that the sheet it was computed from was still the stored one."""
    with Store(db_url) as store:
        _isaure(store)
    blow = ("hurt", "obscur", "--character", "Isaure", "--blow", "1", "--faces", "1,1")
    raced = _racing(monkeypatch, "append_roll", *blow)
    result = invoke(capsys, *blow, "--json")
    assert raced[0].returncode == 0, raced[0].stderr
    assert result.status == 0, result.err
    assert result.json()["before"]["vie"] == 11  # played again after the other blow
    with Store(db_url) as store:
        sheet = store.character("Isaure").sheet
    assert sheet["ressources"]["vie"]["current"] == 10
    assert len(sheet["etat"]["blessures"]) == 2
    path = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    assert len(json.loads(path.read_text())["entries"]) == 2
    assert invoke(capsys, "verify", str(path), "--strict").status == 0
