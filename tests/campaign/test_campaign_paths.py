"""Where the campaign database is and when rolls are logged (campaign/paths.py), and what
a stored name may hold (campaign/names.py): read before SQLAlchemy is imported."""

from __future__ import annotations

from pathlib import Path

import pytest

from meneur.campaign import paths
from meneur.campaign.errors import CampaignError
from meneur.campaign.names import clean_name


def test_the_default_database_is_meneur_db_in_the_users_data_folder() -> None:
    from platformdirs import user_data_dir

    assert paths.default_path() == Path(user_data_dir("meneur")) / "meneur.db"
    assert paths.database_url({}) == f"sqlite:///{paths.default_path()}"
    assert paths.database_url({"MENEUR_DB_URL": " sqlite:///x.db "}) == "sqlite:///x.db"


@pytest.mark.parametrize(
    ("environ", "creating", "exists", "wanted"),
    [
        ({}, False, False, False),  # a newcomer who never made a campaign pays nothing
        ({}, False, True, True),  # the default database is there
        ({}, True, False, True),  # a command that creates it (a new character)
        ({"MENEUR_DB_URL": "sqlite:///x.db"}, False, False, True),
        ({"MENEUR_DB_URL": "  "}, False, False, False),  # blank is not set
        ({"MENEUR_LOG": "1"}, False, False, True),
        ({"MENEUR_LOG": " Yes "}, False, False, True),
        ({"MENEUR_LOG": "on"}, False, False, True),
        ({"MENEUR_LOG": "0"}, True, True, False),  # off wins over everything
        ({"MENEUR_LOG": "off", "MENEUR_DB_URL": "sqlite:///x.db"}, False, True, False),
        ({"MENEUR_LOG": "FALSE"}, True, False, False),
        ({"MENEUR_LOG": "maybe"}, False, False, False),  # not a switch: as if unset
    ],
)
def test_rolls_are_logged_when_asked_or_when_a_campaign_database_exists(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    environ: dict[str, str],
    creating: bool,
    exists: bool,
    wanted: bool,
) -> None:
    database = tmp_path / "meneur.db"
    if exists:
        database.write_bytes(b"")
    monkeypatch.setattr(paths, "default_path", lambda: database)
    assert paths.logging_wanted(environ, creating=creating) is wanted


def test_a_stored_name_is_80_characters_at_most_and_valid_utf8() -> None:
    assert paths.logging_wanted({"MENEUR_DB_URL": ""}) is paths.default_path().exists()
    assert clean_name("n" * 80, "character") == "n" * 80
    with pytest.raises(CampaignError):
        clean_name("n" * 81, "character")
    for lone in ("\udc80", "\udcff"):  # the ends of the bytes that are not UTF-8
        with pytest.raises(CampaignError, match="UTF-8"):
            clean_name(f"Zo{lone}", "character")
