"""« Télécharger le journal »: the file ``meneur verify`` accepts, cut to what a seat may see.

The GM's copy is the whole log. A player's copy leaves out, whole, every roll secret from
them (another seat's GM-only or self roll, every blind roll); ``meneur verify`` checks each
entry kept and the links between neighbours, and says how many entries are not in the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from web.web_helpers import Table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


def download(table: Table, base: str, path: Path) -> Any:
    answer = table.client.get(f"{base}/log.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["content-disposition"] == (
        'attachment; filename="meneur-log-default.json"'
    )
    path.write_bytes(answer.content)
    return answer.json()


def test_each_seat_downloads_a_log_that_verify_accepts(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice, bruno = table.join("Alice"), table.join("Bruno")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.create(bruno, "tunnels", "Pip", **TUNNELS)
    gm_page = table.client.get(table.gm).text
    assert f'href="{table.gm}/log.json"' in gm_page and "Télécharger le journal" in gm_page
    table.roll(alice, "Brindille", "Force", faces="4 5 6")  # public
    table.roll(bruno, "Pip", "Force", mode="gmroll", faces="1 2 3")  # Bruno and the GM
    table.roll(alice, "Brindille", "Force", mode="blindroll", faces="6 6 6")  # the GM only
    table.roll(bruno, "Pip", "Force", mode="selfroll", faces="2 3 5")  # Bruno only
    table.roll(alice, "Brindille", "Dextérité", faces="5 5 5 5")  # public

    gm = download(table, table.gm, tmp_path / "gm.json")
    mine = download(table, alice, tmp_path / "alice.json")
    theirs = download(table, bruno, tmp_path / "bruno.json")
    assert [e["seq"] for e in gm["entries"]] == [1, 2, 3, 4, 5]
    assert [e["seq"] for e in mine["entries"]] == [1, 5]
    assert [e["seq"] for e in theirs["entries"]] == [1, 2, 4, 5]
    assert "6 6 6" not in json.dumps(mine) and [6, 6, 6] not in [
        e["faces"][0] for e in mine["entries"]
    ]

    whole = invoke(capsys, "verify", str(tmp_path / "gm.json"), "--json")
    assert whole.status == 0, whole.err
    assert whole.json()["entries"] == 5 and whole.json()["missing"] == 0
    assert whole.json()["complete"] is True

    cut = invoke(capsys, "verify", str(tmp_path / "alice.json"), "--lang", "fr")
    assert cut.status == 0, cut.err
    assert "2 entrées" in cut.out and "3 entrées ne sont pas dans ce fichier" in cut.out
    cut = invoke(capsys, "verify", str(tmp_path / "bruno.json"), "--json")
    assert cut.json()["missing"] == 1 and cut.json()["entries"] == 4
    replay = invoke(capsys, "verify", str(tmp_path / "bruno.json"), "--replay", "--lang", "en")
    assert replay.status == 0, replay.out + replay.err
    assert "4 of 4 entries replay" in replay.out


def test_a_player_copy_changed_by_hand_fails_verify(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = table.join("Alice")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.roll(alice, "Brindille", "Force", faces="1 2 3")
    document = download(table, alice, tmp_path / "alice.json")
    document["entries"][0]["faces"] = [[6, 6, 6]]
    (tmp_path / "alice.json").write_text(json.dumps(document))
    result = invoke(capsys, "verify", str(tmp_path / "alice.json"))
    assert result.status != 0 and "Traceback" not in result.err


def test_no_download_without_a_seat(table: Table) -> None:
    assert table.client.get(f"/t/{table.info.id}/{'x' * 43}/log.json").status_code == 404


def test_rolls_hidden_after_a_players_last_visible_one_are_counted(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy carries the log's head at export: the secret rolls after the last entry a
    player may read are counted as left out too, and a head that is not the file's last
    entry (or a later one) is refused."""
    alice, bruno = table.join("Alice"), table.join("Bruno")
    table.create(alice, "tunnels", "Brindille", **TUNNELS)
    table.create(bruno, "tunnels", "Pip", **TUNNELS)
    table.roll(alice, "Brindille", "Force", faces="4 5 6")  # public
    table.roll(bruno, "Pip", "Force", mode="gmroll", faces="1 2 3")  # Bruno and the GM
    table.roll(bruno, "Pip", "Force", mode="selfroll", faces="2 3 5")  # Bruno only
    mine = download(table, alice, tmp_path / "alice.json")
    assert [e["seq"] for e in mine["entries"]] == [1] and mine["head"]["seq"] == 3
    cut = invoke(capsys, "verify", str(tmp_path / "alice.json"), "--json")
    assert cut.status == 0, cut.err
    assert cut.json()["missing"] == 2 and cut.json()["complete"] is False
    whole = download(table, table.gm, tmp_path / "gm.json")
    assert whole["head"] == {"seq": 3, "hash": whole["entries"][-1]["hash"]}
    assert invoke(capsys, "verify", str(tmp_path / "gm.json"), "--json").json()["complete"]
    for head in ({"seq": 3, "hash": "0" * 64}, {"seq": 0, "hash": ""}, {"seq": "3"}):
        (tmp_path / "bad.json").write_text(json.dumps({**whole, "head": head}))
        refused = invoke(capsys, "verify", str(tmp_path / "bad.json"), "--lang", "en")
        assert refused.status != 0 and "head is not an entry of this log" in refused.err
