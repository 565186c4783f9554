"""Verifiable sessions that cannot be bypassed (issue 16, point 5).

A session opened with ``meneur session start`` while the table served left the web rolls
on secure dice; ``meneur verify`` still said ``ok``. Now the open session is read from
the database at each roll, ``verify`` counts each session's entries by source, and
``--strict`` fails when a session holds a roll not drawn from its commitment.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from meneur.campaign.store import Store
from web.web_helpers import Table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


def export(table: Table, tmp_path: Path) -> Path:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(table.store.export_log()))
    return path


def test_a_session_opened_elsewhere_commits_the_next_web_roll(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    assert table.roll(table.gm, "Brindille", "Force")["entry"]["source"] == "secure"
    with Store(table.store.url) as cli:  # as `meneur session start` would, meanwhile
        cli.start_session(campaign=table.info.campaign)
    for _ in range(3):
        assert table.roll(table.gm, "Brindille", "Force")["entry"]["source"] == "committed"
    with Store(table.store.url) as cli:
        cli.reveal_session(campaign=table.info.campaign)
    assert table.roll(table.gm, "Brindille", "Force")["entry"]["source"] == "secure"
    result = invoke(capsys, "verify", str(export(table, tmp_path)), "--strict", "--json")
    assert result.status == 0, result.err
    report = json.loads(result.out)
    assert report["ok"] is True and report["recomputed"] == 3
    assert [s["sources"] for s in report["sessions"]] == [{"committed": 3}]


def test_strict_verify_fails_on_a_session_roll_not_drawn_from_its_commitment(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    table.client.post(f"{table.gm}/session/start", data={"csrf": csrf})
    table.roll(table.gm, "Brindille", "Force")
    typed = table.roll(table.gm, "Brindille", "Force", faces="6 6 6", explode="never")
    assert typed["entry"]["source"] == "physical"
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    path = export(table, tmp_path)
    loose = invoke(capsys, "--lang", "en", "verify", str(path))
    assert loose.status == 0
    assert "1 committed, 0 secure, 1 physical, 0 other" in loose.out
    strict = invoke(capsys, "--lang", "en", "verify", str(path), "--strict")
    assert strict.status == 2
    assert (
        strict.err.strip()
        .splitlines()[-1]
        .endswith(
            "1 roll(s) not drawn from its committed dice (committed 1, typed 1); "
            "--strict refuses them."
        )
    )


def test_the_gm_refuses_typed_dice_while_the_dice_are_committed(table: Table) -> None:
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    form = {"csrf": csrf, "action": "no_physical"}
    assert (
        table.client.post(f"{table.gm}/seats", data=form, follow_redirects=False).status_code == 303
    )
    typed = {"character": "Brindille", "trait": "Force", "faces": "6 6 6", "explode": "never"}
    assert table.client.post(f"/api{player}/roll", json=typed).status_code == 200  # no session
    table.client.post(f"{table.gm}/session/start", data={"csrf": csrf})
    refused = table.client.post(f"/api{player}/roll", json=typed)
    assert refused.status_code == 400 and "engagés" in refused.json()["error"]
    assert table.roll(player, "Brindille", "Force")["entry"]["source"] == "committed"


def test_a_roll_whose_committed_dice_another_writer_drew_first_is_drawn_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer (another process, the CLI) draws from the session between this
    roll's draw and its write: the roll is refused by the log and drawn again from the
    session as it now is; both entries are committed and every counter follows on."""
    from meneur.campaign.chain import verify_log
    from meneur.campaign.records import NewRoll

    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(table.gm)
    assert table.client.post(f"{table.gm}/session/start", data={"csrf": csrf}).status_code == 200
    append = table.store.append_roll
    raced: list[int] = []

    def racing(roll: NewRoll, **changes: object) -> dict[str, object]:
        if not raced:  # the first time only: the other writer gets in first
            other = table.store.committed_dice()
            assert other is not None
            faces = other.roll(6, 2)
            raced.append(other.counter)
            append(
                NewRoll(
                    system="generic",
                    kind="roll",
                    params={"expression": "2d6"},
                    faces=[list(faces)],
                    outcome={"total": sum(faces)},
                    source="committed",
                    dice=other,
                )
            )
        return append(roll, **changes)  # type: ignore[arg-type]

    monkeypatch.setattr(table.store, "append_roll", racing)
    entry = table.roll(player, "Brindille", "Force")["entry"]
    assert isinstance(entry, dict) and entry["source"] == "committed"
    first, second = table.store.rolls()
    assert (first["kind"], second["who"]) == ("roll", "Brindille")
    assert second["counter"] == raced[0]  # drawn after the other writer's dice
    table.client.post(f"{table.gm}/session/reveal", data={"csrf": csrf})
    report = verify_log(table.store.export_log())
    assert report.complete and report.recomputed == 2


def test_a_roll_made_as_a_session_opens_is_drawn_again_from_the_session(
    table: Table,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`meneur session start` runs between a roll's read of the session (none open) and
    its write: the log refuses the machine's dice under the campaign's lock, and the roll
    is drawn again from the session. No roll of the session bypasses its commitment, so
    ``verify --strict`` passes."""
    from meneur.campaign.records import NewRoll

    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    append = table.store.append_roll
    opened: list[bool] = []

    def racing(roll: NewRoll, **changes: object) -> dict[str, object]:
        if not opened:  # the first write only: the session opens just before it
            with Store(table.store.url) as cli:
                cli.start_session(campaign=table.info.campaign)
            opened.append(True)
        return append(roll, **changes)  # type: ignore[arg-type]

    monkeypatch.setattr(table.store, "append_roll", racing)
    assert table.roll(table.gm, "Brindille", "Force")["entry"]["source"] == "committed"
    with Store(table.store.url) as cli:
        cli.reveal_session(campaign=table.info.campaign)
    result = invoke(capsys, "verify", str(export(table, tmp_path)), "--strict", "--json")
    assert result.status == 0, result.err
    assert [s["sources"] for s in json.loads(result.out)["sessions"]] == [{"committed": 1}]
