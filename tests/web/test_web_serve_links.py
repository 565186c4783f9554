"""``meneur serve`` (issue 17): ``--data-dir``, the links of the table it serves at every
start, LAN links with ``--host 0.0.0.0``, the favicon, the verifiable-dice card."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cli_helpers import invoke
from web.test_web_serve import served as served  # the fixture: uvicorn's run kept, not run
from web.web_helpers import Table

GM = re.compile(r"http://([0-9.]+):(\d+)(/t/(\d+)/[A-Za-z0-9_-]{43})\s")


def test_data_dir_holds_the_database(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]], tmp_path: Path
) -> None:
    folder = tmp_path / "table data"
    first = invoke(capsys, "serve", "--data-dir", str(folder))
    assert first.status == 0, first.err
    assert (folder / "meneur.db").is_file()
    again = invoke(capsys, "serve", "--data-dir", str(folder))
    link = GM.search(first.out)
    assert link and link.group(3) in again.out  # the same table in that folder
    elsewhere = invoke(capsys, "serve", "--data-dir", str(tmp_path / "other"))
    assert link.group(3) not in elsewhere.out
    assert "--data-dir" in invoke(capsys, "serve", "--help").out


def test_data_dir_on_a_file_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]], tmp_path: Path
) -> None:
    (tmp_path / "plain").write_text("x")
    result = invoke(capsys, "serve", "--data-dir", str(tmp_path / "plain"), "--lang", "en")
    assert result.status == 2 and served == []
    [line] = result.err.strip().splitlines()
    assert "--data-dir" in line and "is a file, not a folder" in line  # not « it exists »


def test_a_restart_after_campaign_use_prints_the_same_table(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    """The README's promise: the next start gives the same links, even after
    ``meneur campaign use``; a line says how to serve the current campaign instead."""
    first = GM.search(invoke(capsys, "serve").out)
    assert first
    assert invoke(capsys, "campaign", "new", "Autre").status == 0
    assert invoke(capsys, "campaign", "use", "Autre").status == 0
    restart = invoke(capsys, "serve", "--lang", "en")
    assert first.group(3) in restart.out
    assert "The table of the campaign 'default'" in restart.out
    assert "meneur serve --campaign 'Autre'" in restart.out
    other = GM.search(invoke(capsys, "serve", "--campaign", "Autre").out)
    assert other and other.group(3) != first.group(3)
    again = invoke(capsys, "serve", "--lang", "en")  # the one chosen last, remembered
    assert other.group(3) in again.out and "The current campaign" not in again.out


def test_listening_everywhere_prints_and_accepts_the_lan_address(
    capsys: pytest.CaptureFixture[str],
    served: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from meneur.cli import serve

    monkeypatch.setattr(serve, "lan_addresses", lambda: ["192.168.1.23", "10.0.0.7"])
    result = invoke(capsys, "serve", "--host", "0.0.0.0", "--port", "8123", "--lang", "en")
    link = GM.search(result.out)
    assert link and link.group(1) == "192.168.1.23" and link.group(2) == "8123"
    assert "127.0.0.1" not in result.out
    assert "also reachable at: http://10.0.0.7:8123" in result.out
    with TestClient(served[0]["app"], base_url="http://192.168.1.23:8123") as client:
        assert client.get(link.group(3)).status_code == 200
        other = client.get(link.group(3), headers={"host": "10.0.0.7:8123"})
        assert other.status_code == 200
        assert client.get(link.group(3), headers={"host": "evil.example"}).status_code == 400


def test_lan_addresses_are_never_loopback() -> None:
    from meneur.cli.serve import lan_addresses

    found = lan_addresses()
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in found)


def test_the_favicon_is_a_die(table: Table) -> None:
    icon = table.client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg") and "circle" in icon.text
    assert '<link rel="icon" href="/static/favicon.svg"' in table.client.get(table.gm).text
    assert table.client.get("/static/favicon.svg").status_code == 200


def test_the_verifiable_dice_card_shows_when_it_has_something_to_say(table: Table) -> None:
    player = table.join("Alice")
    assert "Dés vérifiables" not in table.client.get(player).text  # nothing to say
    gm = table.client.get(table.gm).text
    assert '<section class="card session compact">' in gm  # one line: the GM may start one
    table.store.start_session(campaign=table.info.campaign)
    page = table.client.get(player).text
    assert "Dés vérifiables" in page and 'id="commitment"' in page
    table.store.reveal_session(campaign=table.info.campaign)
    page = table.client.get(player).text
    assert "Dés vérifiables" in page and 'id="seed"' in page


def test_the_default_campaign_may_be_named_at_the_first_start(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]], tmp_path: Path
) -> None:
    """Zero setup holds when the README's ``--campaign default`` is given on a new
    database: the campaign is made, as a plain ``serve`` makes it; another name that
    does not exist is still refused."""
    folder = str(tmp_path / "new")
    named = invoke(capsys, "serve", "--data-dir", folder, "--campaign", "default", "--lang", "en")
    assert named.status == 0, named.err
    assert "The table of the campaign 'default' is ready." in named.out
    unknown = invoke(capsys, "serve", "--data-dir", folder, "--campaign", "Autre", "--lang", "en")
    assert unknown.status == 2 and "Autre" in unknown.err


@pytest.mark.parametrize("host", ["", "\u202eevil", "x y", "tab\there"])
def test_a_host_that_is_no_address_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]], host: str
) -> None:
    """An empty --host listened on every interface and printed links without a host; a
    host with control or non-ASCII characters crashed the socket's encoding (a traceback)."""
    result = invoke(capsys, "serve", "--host", host, "--lang", "en")
    assert result.status == 2 and served == []
    [line] = result.err.strip().splitlines()
    assert "is not an address" in line


def test_an_ipv6_host_is_bracketed_in_the_links(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    """``--host ::1`` printed ``http://::1:8000/...``, which leads nowhere; a link writes an
    IPv6 address in brackets, and the table answers to that Host."""
    from meneur.cli.serve import allowed_hosts

    result = invoke(capsys, "serve", "--host", "::1", "--port", "8123")
    if result.status == 2 and "::1" in result.err:  # no IPv6 on this machine
        pytest.skip("IPv6 is not available here")
    assert result.status == 0, result.err
    assert "http://[::1]:8123/t/" in result.out and "http://::1" not in result.out
    assert "[fe80::1]:8000" in allowed_hosts("fe80::1", 8000, None)


def test_a_data_dir_name_too_long_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], served: list[dict[str, Any]]
) -> None:
    result = invoke(capsys, "serve", "--data-dir", "d" * 300, "--lang", "en")
    assert result.status == 2 and served == []
    [line] = result.err.strip().splitlines()
    assert "the name is too long" in line


def test_an_empty_data_dir_is_refused_not_read_as_the_current_folder(
    capsys: pytest.CaptureFixture[str],
    served: list[dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--data-dir ''`` served from the current folder unsaid (a database made where the
    command ran); it names no folder: refused in one line, nothing made, nothing served."""
    monkeypatch.chdir(tmp_path)
    result = invoke(capsys, "serve", "--data-dir", "", "--lang", "en")
    assert result.status == 2 and served == []
    [line] = result.err.strip().splitlines()
    assert "--data-dir" in line and "empty path" in line, line
    assert list(tmp_path.iterdir()) == []
