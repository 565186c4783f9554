"""The campaign commands as a user types them: clear output, one-line errors, exit 2."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.campaign.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run_meneur(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    merged = {**os.environ, "MENEUR_LANG": "en", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "meneur", *args],
        capture_output=True,
        text=True,
        check=False,
        env=merged,
    )


def test_campaign_new_list_use_delete(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    made = invoke(capsys, "--lang", "en", "campaign", "new", "Les Tunnels")
    assert made.status == 0
    assert "Les Tunnels" in made.out and "current" in made.out
    assert invoke(capsys, "campaign", "new", "Obscur").status == 0
    listed = invoke(capsys, "campaign", "list", "--json").json()
    assert [(c["name"], c["current"]) for c in listed] == [("Les Tunnels", True), ("Obscur", False)]
    assert invoke(capsys, "campaign", "use", "obscur").status == 0
    assert invoke(capsys, "campaign", "list", "--json").json()[1]["current"] is True
    table = invoke(capsys, "campaign", "list")
    assert "Les Tunnels" in table.out and "Obscur" in table.out
    assert invoke(capsys, "campaign", "delete", "Obscur").status == 0
    assert [c["name"] for c in invoke(capsys, "campaign", "list", "--json").json()] == [
        "Les Tunnels"
    ]


def test_a_name_taken_is_named_as_it_is_stored(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Names match without case or accents; the refusal echoed the new spelling
    (« 'legendes' already exists ») where the user must find « LÉGENDES »."""
    invoke(capsys, "campaign", "new", "LÉGENDES")
    taken = invoke(capsys, "--lang", "en", "campaign", "new", "legendes")
    assert taken.err == "Error: A campaign named 'LÉGENDES' already exists.\n"
    with Store(db_url) as store:
        store.add_character("krasses", "Zoé", {"name": "Zoé"})
    path = tmp_path / "zoe.json"
    invoke(capsys, "character", "export", "Zoé", "--out", str(path))
    document = json.loads(path.read_text())
    document["character"]["name"] = "ZOE"
    path.write_text(json.dumps(document))
    again = invoke(capsys, "--lang", "en", "character", "import", str(path))
    assert again.status == 2
    assert "A character named 'Zoé' already exists" in again.err


def test_deleting_a_campaign_with_data_needs_yes(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(db_url) as store:
        store.add_character("krasses", "Zed", {"name": "Zed"})
    refused = invoke(capsys, "--lang", "en", "campaign", "delete", "default")
    assert refused.status == 2 and "--yes" in refused.err
    assert "holds 1 character and 0 rolls" in refused.err  # each count with its noun
    french = invoke(capsys, "--lang", "fr", "campaign", "delete", "default")
    assert "contient 1 personnage et 0 jet :" in french.err
    assert invoke(capsys, "campaign", "delete", "default", "--yes").status == 0


def test_a_log_of_one_entry_verifies_in_the_singular(
    db_url: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """« 1 entrée », not « 1 entrées »; « 0 jet physique », not « 0 jet(s) »."""
    with Store(db_url) as store:
        store.add_character("krasses", "Zed", {"name": "Zed"})
    monkeypatch.setenv("MENEUR_LOG", "1")
    assert invoke(capsys, "--lang", "en", "roll", "1d6", "--seed", "1").status == 0
    exported = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(exported)).status == 0
    french = invoke(capsys, "--lang", "fr", "verify", str(exported))
    assert french.status == 0, french.err
    assert "Le journal est vérifié : 1 entrée, tous les liens intacts." in french.out
    assert "0 jet physique : saisi par les joueurs" in french.out
    english = invoke(capsys, "--lang", "en", "verify", str(exported))
    assert "The log verifies: 1 entry, every link intact." in english.out


def test_markup_in_a_name_is_shown_as_typed(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert invoke(capsys, "campaign", "new", "[bold red]Zed[/] <b>").status == 0
    nameless = json.loads((ROOT / "examples" / "obscur" / "isaure.json").read_text())
    del nameless["name"]  # a sheet with a name takes the stored one: no [ ] in it
    with Store(db_url) as store:
        store.add_character("obscur", "[link=http://x]Ana[/link]", nameless)
    assert "[bold red]Zed[/] <b>" in invoke(capsys, "campaign", "list").out
    assert "[link=http://x]Ana[/link]" in invoke(capsys, "character", "list").out
    shown = invoke(capsys, "character", "show", "[link=http://x]Ana[/link]")
    assert "[link=http://x]Ana[/link]" in shown.out


def test_a_name_of_ten_thousand_characters_is_one_short_line(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = invoke(capsys, "--lang", "en", "campaign", "new", "x" * 10_000)
    assert result.status == 2
    assert result.err.strip() == (
        "Error: A campaign name is at most 80 characters long, not 10000."
    )
    assert invoke(capsys, "campaign", "list", "--json").json() == []


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("nonsense", "is not a database URL"),
        ("foo://x/y", "Cannot use the database foo://x/y"),
        ("postgresql://meneur:s3cret@127.0.0.1:1/x", "Cannot open the database"),
        ("sqlite:////proc/no/such/folder/meneur.db", "Cannot create the folder"),
    ],
)
def test_a_wrong_database_url_is_one_clear_line(url: str, expected: str) -> None:
    """A command that writes (a list reads, and creates no missing SQLite file)."""
    done = run_meneur("campaign", "new", "Table", env={"MENEUR_DB_URL": url})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert expected in lines[0]
    assert "s3cret" not in done.stderr


def test_character_commands(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db_url) as store:
        store.add_character(
            "krasses", "Zoé", {"name": "Zoé", "skills": {"Bagarre": 2}}, {"vecu": 3}
        )
    listed = invoke(capsys, "character", "list", "--json").json()
    assert [(c["name"], c["system"]) for c in listed] == [("Zoé", "krasses")]
    shown = invoke(capsys, "character", "show", "zoe", "--json").json()
    assert shown["state"] == {"vecu": 3} and shown["campaign"] == "default"
    assert "Bagarre" in invoke(capsys, "character", "show", "Zoé").out
    assert invoke(capsys, "character", "delete", "Zoé").status == 0
    missing = invoke(capsys, "character", "show", "Zoé")
    assert missing.status == 2 and "Zoé" in missing.err


def test_roll_is_logged_with_meneur_log(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MENEUR_LOG", "1")
    assert invoke(capsys, "roll", "3d6+1", "--seed", "4").status == 0
    assert invoke(capsys, "roll", "1d6", "--faces", "5").status == 0
    entries = invoke(capsys, "log", "--json").json()
    assert [(e["system"], e["kind"], e["source"]) for e in entries] == [
        ("generic", "roll", "seeded"),
        ("generic", "roll", "physical"),
    ]
    assert entries[1]["faces"] == [[5]]
    table = invoke(capsys, "--lang", "fr", "log").out  # the command, the dice in words
    assert "│ roll │ graine │" in table and "│ roll │ tapés  │" in table
    assert "generic" not in table and "seeded" not in table
    first, second = (dict(e["params"]) for e in entries)
    (step,) = first.pop("rolls")  # the replayable record: canonical params and faces
    assert first == {"expression": "3d6+1", "seed": 4}
    assert (step["system"], step["check"], step["params"]) == (
        "generic",
        "roll",
        {"expression": "3d6+1"},
    )
    assert step["faces"] == entries[0]["faces"] and step["key"] == entries[0]["outcome"]["total"]
    second.pop("rolls")
    assert second == {"expression": "1d6", "faces": [5]}
    monkeypatch.setenv("MENEUR_LOG", "0")
    invoke(capsys, "roll", "1d6")
    assert len(invoke(capsys, "log", "--json").json()) == 2


def test_a_newcomer_roll_creates_and_imports_nothing(tmp_path: Path) -> None:
    """No campaign database and no MENEUR_LOG: nothing is written, SQLAlchemy stays out."""
    env = {k: v for k, v in os.environ.items() if k not in ("MENEUR_DB_URL", "MENEUR_LOG")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["HOME"] = str(tmp_path)
    code = (
        "import sys; from meneur.cli.main import run; run(['roll', '3d6']);"
        "print('HEAVY:' + str('sqlalchemy' in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "HEAVY:False"
    assert not (tmp_path / "data").exists()
    # with MENEUR_LOG=1 the default database is created: zero setup
    env["MENEUR_LOG"] = "1"
    subprocess.run(
        [sys.executable, "-m", "meneur", "roll", "2d6"], env=env, check=True, capture_output=True
    )
    assert (tmp_path / "data" / "meneur" / "meneur.db").is_file()


def test_session_verify_round_trip(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A committed session: untouched export verifies, one altered face names its entry."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    started = invoke(capsys, "session", "start", "--json").json()
    for expression in ("3d6", "1d20", "4d6kh3"):
        rolled = invoke(capsys, "roll", expression, "--json").json()
        assert rolled["dice_source"] == "committed"
    invoke(capsys, "roll", "2d6", "--faces", "6,6")
    assert invoke(capsys, "session", "start").status == 2  # one at a time
    revealed = invoke(capsys, "session", "reveal", "--json").json()
    assert revealed["commitment"] == started["commitment"] and revealed["rolls"] == 3
    path = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    ok = invoke(capsys, "verify", str(path), "--json").json()
    assert (ok["entries"], ok["recomputed"], ok["physical"]) == (4, 3, 1)
    human = invoke(capsys, "--lang", "en", "verify", str(path))
    assert human.status == 0 and "4 entries" in human.out
    document = json.loads(path.read_text())
    entry = document["entries"][1]
    entry["faces"][0][0] = entry["faces"][0][0] % 20 + 1
    path.write_text(json.dumps(document))
    bad = invoke(capsys, "--lang", "en", "verify", str(path))
    assert bad.status == 2
    assert bad.err.strip().splitlines() == [
        "Error: Entry 2 (-, roll): its content was changed after it was logged."
    ]
    assert invoke(capsys, "session", "reveal").status == 2  # nothing open
    assert invoke(capsys, "log", "--export", str(path), "--force").status == 0  # a clean copy
    document = json.loads(path.read_text())
    del document["head"]  # (rolls cut from the end after the session: unseen without it)
    path.write_text(json.dumps(document))
    cut = invoke(capsys, "--lang", "en", "verify", str(path), "--json")
    assert cut.status == 0 and cut.json()["complete"] is False
    assert cut.json()["end_known"] is False
    assert "ne dit pas où le journal s'arrêtait" in invoke(capsys, "verify", str(path)).out
    strict = invoke(capsys, "--lang", "en", "verify", str(path), "--strict")
    assert strict.status == 2 and "--strict refuses it" in strict.err


def _session_export(capsys: pytest.CaptureFixture[str], path: Path, rolls: int) -> dict:
    """A revealed session of ``rolls`` committed rolls, exported to ``path``."""
    invoke(capsys, "session", "start")
    for _ in range(rolls):
        assert invoke(capsys, "roll", "1d20").status == 0
    invoke(capsys, "session", "reveal")
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    return dict(json.loads(path.read_text()))


@pytest.mark.parametrize(
    ("keep", "missing"),
    [(lambda e: e[:1] + e[2:], 1), (lambda e: e[:2], 1), (lambda e: [], 3)],
    ids=["middle", "end", "all"],
)
def test_strict_refuses_a_log_with_rolls_removed(
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    keep: Any,
    missing: int,
) -> None:
    """``--strict`` asks for the whole log: a committed roll taken out of the middle or
    the end (the embarrassing roll), or every entry, was accepted with status 0."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    path = tmp_path / "log.json"
    document = _session_export(capsys, path, 3)
    assert invoke(capsys, "verify", str(path), "--strict").status == 0
    document["entries"] = keep(document["entries"])
    path.write_text(json.dumps(document))
    lenient = invoke(capsys, "verify", str(path), "--json").json()
    assert (lenient["complete"], lenient["missing"], lenient["ok"]) == (False, missing, True)
    strict = invoke(capsys, "--lang", "en", "verify", str(path), "--strict")
    assert strict.status == 2
    assert strict.err.strip().splitlines()[-1] == (
        f"Error: The file is not the whole log: {missing} entry(ies) are not in it; "
        "--strict refuses it."
    )
    as_json = invoke(capsys, "verify", str(path), "--strict", "--json")
    assert as_json.status == 2 and json.loads(as_json.out)["ok"] is False


def test_entries_out_of_order_are_refused_by_name(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reordered entries read as gaps: « 4 entries are not in this file » where none was
    missing. An export lists entries by number, so a file out of order is refused."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    path = tmp_path / "log.json"
    document = _session_export(capsys, path, 3)
    entries = document["entries"]
    document["entries"] = [entries[0], entries[2], entries[1]]
    path.write_text(json.dumps(document))
    result = invoke(capsys, "--lang", "en", "verify", str(path))
    assert result.status == 2 and result.out == ""
    assert result.err.strip() == (
        "Error: Entry 2 (-, roll) stands after entry 3: the file's entries are out of order "
        "(an export lists them by number)."
    )


def test_strict_names_the_dice_sources_in_the_reader_s_words(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal of a bypassed session said « (committed 2, physical 1) », the log's
    internal names, in a French line."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    invoke(capsys, "session", "start")
    invoke(capsys, "roll", "1d20")
    invoke(capsys, "roll", "2d6", "--faces", "6,6")
    invoke(capsys, "session", "reveal")
    path = tmp_path / "log.json"
    invoke(capsys, "log", "--export", str(path))
    result = invoke(capsys, "--lang", "fr", "verify", str(path), "--strict")
    assert result.status == 2
    assert "(engagés 1, tapés 1)" in result.err


@pytest.mark.parametrize(
    "command",
    [("character", "export", "--out"), ("log", "--export")],
    ids=["character-export", "log-export"],
)
def test_an_export_never_replaces_a_file_without_force(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """An export replaced any file in silence (a backup, a sheet): it now asks for
    ``--force``, as ``character new --out`` does, and leaves the file as it was."""
    invoke(capsys, "campaign", "new", "Saga")
    kept = tmp_path / "keep.json"
    kept.write_text("precious")
    refused = invoke(capsys, "--lang", "en", *command, str(kept))
    assert refused.status == 2
    assert refused.err.strip() == f"Error: {kept} exists: add --force to replace it."
    assert kept.read_text() == "precious"
    assert invoke(capsys, *command, str(kept), "--force").status == 0
    assert json.loads(kept.read_text())


def test_a_roll_whose_dice_another_process_drew_first_is_drawn_again(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players roll in a session at the same moment: the second to write found its
    committed dice drawn by the first and was refused (« roll again »), 7 times in 30 in
    a QA run of two shells. Nothing of it was shown (a result is logged before it is
    shown), so the command now draws again from the session as it is. Here another real
    process rolls between this roll's draw and its write."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    invoke(capsys, "session", "start")
    from meneur.campaign.hotlog import HotLog

    real = HotLog.append_roll  # the command's log, whichever way it reaches the database
    raced: list[subprocess.CompletedProcess[str]] = []

    def racing(self: HotLog, *args: Any, **kwargs: Any) -> Any:
        if not raced:
            raced.append(run_meneur("roll", "1d4", env={"MENEUR_LOG": "1"}))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(HotLog, "append_roll", racing)
    result = invoke(capsys, "roll", "1d20", "--json")
    assert raced[0].returncode == 0, raced[0].stderr
    assert result.status == 0, result.err
    assert result.json()["dice_source"] == "committed"
    monkeypatch.setattr(HotLog, "append_roll", real)
    invoke(capsys, "session", "reveal")
    path = tmp_path / "log.json"
    invoke(capsys, "log", "--export", str(path))
    document = json.loads(path.read_text())
    assert [e["counter"] for e in document["entries"]] == [0, 1]  # the d4 first, then ours
    assert [e["params"].get("expression") for e in document["entries"]] == ["1d4", "1d20"]
    assert invoke(capsys, "verify", str(path), "--strict").status == 0


def test_a_command_that_showed_a_result_is_never_played_again() -> None:
    """Playing a command again is fair only while nothing of it was seen: once a result
    is shown, a conflict ends the command as before."""
    from meneur.campaign import recording
    from meneur.campaign.errors import DiceConflict, SheetConflict

    recording.begin()
    recording.current()
    try:
        assert recording.may_play_again(DiceConflict("drawn"))
        assert recording.may_play_again(SheetConflict("changed"))
        assert not recording.may_play_again(ValueError("other"))
        assert recording.record({"system": "generic"}) is None  # nothing rolled: shown
        assert not recording.may_play_again(DiceConflict("drawn"))
    finally:
        recording.abandon()


def test_an_option_left_empty_is_logged_as_null_not_as_the_text_none(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Krâsses difficulty given as a number has no name: the log stored the name as the
    text « None », which a program reading the export takes for a name."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    invoke(capsys, "test", "krasses", "--bonus", "3", "--difficulty", "10", "--seed", "1")
    logged = invoke(capsys, "log", "--json").json()
    assert logged[-1]["params"]["difficulty"] == {"value": 10, "name": None}


def test_log_formats_and_filters(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(db_url) as store:
        store.add_character("krasses", "=cmd|calc", {"name": "Zed"})
        from meneur.campaign.rolllog import log_roll

        for total in (4, 9):
            log_roll(
                store,
                "krasses",
                "test",
                {"score": 10},
                [[total]],
                {"total": total},
                "physical",
                character="=cmd|calc",
            )
        log_roll(store, "generic", "roll", {}, [[1]], {"total": 1}, "secure")
    assert "total : 9" in invoke(capsys, "log").out  # the field in the reader's words
    assert len(invoke(capsys, "log", "--character", "=CMD|calc", "--json").json()) == 2
    rows = list(csv.reader(io.StringIO(invoke(capsys, "log", "--csv").out)))
    assert rows[0][:3] == ["seq", "at", "who"]
    assert rows[1][2] == "'=cmd|calc"  # a spreadsheet does not run it
    assert len(rows) == 4
    assert invoke(capsys, "log", "--since", "2999-01-01", "--json").json() == []
    bad = invoke(capsys, "log", "--since", "yesterday")
    assert bad.status == 2 and len(bad.err.strip().splitlines()) == 1
    both = invoke(capsys, "log", "--json", "--csv")
    assert both.status == 2


def test_log_of_a_name_that_nothing_goes_by_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``log --character NAME`` is a filter of the log (see the next test: a deleted
    character's rolls are found by its name); a name that neither a character nor any roll
    goes by is a typo, refused as every command refuses bad input (exit 2, one line), in
    every form of the answer, rather than shown as an empty log."""
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'fresh.db'}")
    nothing = "Error: No character named 'nosuch', and no roll under that name in the log.\n"
    for args in (("log", "--character", "nosuch"), ("log", "--character", "nosuch", "--luck")):
        fresh = invoke(capsys, "--lang", "en", *args)  # no campaign yet: an empty database
        assert (fresh.status, fresh.out, fresh.err) == (2, "", nothing), args
    with Store() as store:
        store.add_character("krasses", "Ana", {"name": "Ana"})
        store.add_character("krasses", "Zed", {"name": "Zed"})
        from meneur.campaign.rolllog import log_roll

        log_roll(store, "krasses", "test", {}, [[4]], {"total": 4}, "physical", character="Zed")
    export = tmp_path / "out.json"
    for extra in ((), ("--luck",), ("--since", "2026-01-01"), ("--json",), ("--csv",),
                  ("--export", str(export)), ("--export", "-")):  # fmt: skip
        unknown = invoke(capsys, "--lang", "en", "log", "--character", "nosuch", *extra)
        assert (unknown.status, unknown.out, unknown.err) == (2, "", nothing), extra
    assert not export.exists()
    french = invoke(capsys, "--lang", "fr", "log", "--character", "nosuch")
    assert french.err == (
        "Erreur : Aucun personnage nommé « nosuch », et aucun jet sous ce nom dans le journal.\n"
    )
    said = {
        ("en", "ana"): "No roll of Ana in the log yet.",  # named as stored
        ("fr", "ana"): "Aucun jet d'Ana dans le journal pour l'instant.",
        ("fr", "zed"): "Aucun jet de Zed dans le journal depuis le 2999-01-01 00:00:00 UTC.",
    }
    for (language, name), line in said.items():
        since = ("--since", "2999-01-01") if name == "zed" else ()
        for extra in ((), ("--luck",)):
            done = invoke(capsys, "--lang", language, "log", "--character", name, *since, *extra)
            assert (done.status, done.out) == (0, line + "\n"), (language, name, extra)
    later = invoke(capsys, "--lang", "en", "log", "--since", "2999-01-01")
    assert later.out == "No roll in the log since 2999-01-01 00:00:00 UTC.\n"
    assert invoke(capsys, "log", "--character", "ana", "--json").json() == []
    assert "Zed" in invoke(capsys, "log", "--character", "zed").out
    other = invoke(capsys, "log", "--character", "zed", "--campaign", "nowhere")
    assert other.status == 2 and "nowhere" in other.err  # an unknown campaign stays an error


def test_log_of_a_deleted_or_recreated_character_finds_its_rolls(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deleted character's rolls stay in the log under its name, but ``log --character``
    looked the name up among the characters (« no character named Ray », exit 2), and
    once Ray was created again it matched the new character's id only (« no roll of Ray
    yet »). The filter is now the log's own name of who rolled, compared as the store
    compares names (case, accents, spaces aside), with or without a character of that name
    now: every roll logged as Ray is found, the export and ``--luck`` included."""
    from meneur.campaign.rolllog import log_roll

    with Store(db_url) as store:
        store.add_character("krasses", "Ray", {"name": "Ray"})
        store.add_character("krasses", "Zoé", {"name": "Zoé"})
        log_roll(store, "krasses", "test", {}, [[4]], {"total": 4}, "physical", character="Ray")
        log_roll(store, "krasses", "test", {}, [[7]], {"total": 7}, "physical", character="Zoé")
        store.delete_character("Ray")
    for typed in ("Ray", "ray", " RAY "):
        found = invoke(capsys, "log", "--character", typed, "--json")
        assert found.status == 0, found.err
        assert [(e["seq"], e["who"]) for e in found.json()] == [(1, "Ray")], typed
    table = invoke(capsys, "--lang", "en", "log", "--character", "ray")
    assert table.status == 0 and "Ray" in table.out and "Zoé" not in table.out
    luck = invoke(capsys, "log", "--character", "Ray", "--luck", "--json")
    assert {row["who"] for row in luck.json()} == {"Ray"}
    assert invoke(capsys, "log", "--character", "zoe", "--json").json()[0]["who"] == "Zoé"
    with Store(db_url) as store:  # Ray again: a new character, the same name in the log
        store.add_character("krasses", "Ray", {"name": "Ray"})
        log_roll(store, "krasses", "test", {}, [[9]], {"total": 9}, "physical", character="RAY")
    again = invoke(capsys, "log", "--character", "Ray", "--json").json()
    assert [(e["seq"], e["who"]) for e in again] == [(1, "Ray"), (3, "Ray")]
    path = tmp_path / "ray.json"
    exported = invoke(capsys, "--lang", "en", "log", "--character", "ray", "--export", str(path))
    assert exported.status == 0 and "2 log entries exported" in exported.out
    assert [e["seq"] for e in json.loads(path.read_text())["entries"]] == [1, 3]


def test_verify_of_a_missing_or_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert invoke(capsys, "verify", str(tmp_path / "none.json")).status == 2
    other = tmp_path / "other.json"
    other.write_text('{"format": "x"}')
    result = invoke(capsys, "verify", str(other))
    assert result.status == 2 and len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "document",
    [
        {"format": "meneur-log", "version": 1},
        {"format": "meneur-log", "version": 1, "sessions": [], "head": None},
        {"format": "meneur-log", "version": True, "sessions": [], "head": None, "entries": []},
        {"format": "meneur-log", "version": 1.0, "sessions": [], "head": None, "entries": []},
    ],
    ids=["bare", "no-entries", "version-true", "version-1.0"],
)
def test_verify_refuses_a_log_without_entries_or_of_a_version_that_only_equals_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: dict[str, Any]
) -> None:
    """A log with no ``entries`` field verified as an empty one (exit 0, ``"ok": true``),
    and ``"version": true`` or ``1.0`` passed as version 1 (``True == 1.0 == 1``): each is
    one clear error and exit 2, as ``"entries": "x"`` is."""
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document))
    for extra in ((), ("--json",), ("--strict",), ("--replay",)):
        result = invoke(capsys, "--lang", "en", "verify", str(path), *extra)
        assert (result.status, result.out) == (2, ""), extra
        assert len(result.err.strip().splitlines()) == 1, result.err
    said = invoke(capsys, "--lang", "en", "verify", str(path)).err
    if "entries" in document:
        assert f"This log has version {json.dumps(document['version'])};" in said
    else:
        assert said == "Error: The log's 'entries' is not a list of entries.\n"
        french = invoke(capsys, "--lang", "fr", "verify", str(path)).err
        assert french == (
            "Erreur : Le champ « entries » du journal n'est pas une liste d'entrées.\n"
        )


def test_sqlite_durability_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """WAL always; synchronous NORMAL by default, FULL on request, anything else refused."""
    from sqlalchemy import text

    url = f"sqlite:///{tmp_path / 'sync.db'}"
    for wanted, code in (("", 1), ("full", 2)):
        monkeypatch.setenv("MENEUR_DB_SYNC", wanted)
        with Store(url) as store, store.engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA synchronous")).scalar() == code
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    done = run_meneur("log", env={"MENEUR_DB_SYNC": "sometimes", "MENEUR_DB_URL": url})
    assert done.returncode == 2
    assert done.stderr.strip() == ("Error: MENEUR_DB_SYNC is 'normal' or 'full', not 'sometimes'.")


def test_character_edit(db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db_url) as store:
        store.add_character("krasses", "Zoé", {"name": "Zoé", "skills": {}}, {"vecu": 3})
    assert invoke(capsys, "character", "edit", "zoé", "--state", '{"vecu": 1}').status == 0
    sheet = tmp_path / "zoe.json"
    sheet.write_text('{"name": "Zoé", "skills": {"Bagarre": 4}}')
    assert invoke(capsys, "character", "edit", "Zoé", "--sheet", str(sheet)).status == 0
    shown = invoke(capsys, "character", "show", "Zoé", "--json").json()
    assert shown["state"] == {"vecu": 1} and shown["sheet"]["skills"] == {"Bagarre": 4}
    for args in (
        ("--state", "[1]"),
        ("--state", "{"),
        ("--state", '{"vecu": NaN}'),  # an export other programs could not read
        ("--state", '{"vecu": Infinity}'),
        ("--state", '{"vecu": 1e400}'),  # read as Infinity, exported so: no import took it
        ("--state", '{"a": ' + "[" * 1000 + "]" * 1000 + "}"),  # too deep: a traceback
        ("--sheet", str(tmp_path / "no.json")),
        (),
    ):
        result = invoke(capsys, "character", "edit", "Zoé", *args)
        assert result.status == 2 and len(result.err.strip().splitlines()) == 1
    assert invoke(capsys, "character", "show", "Zoé", "--json").json()["state"] == {"vecu": 1}


def test_a_filtered_export_verifies_as_part_of_a_log(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meneur.campaign.rolllog import log_roll

    with Store(db_url) as store:
        store.add_character("krasses", "Zoé", {"name": "Zoé"})
        store.add_character("krasses", "Ana", {"name": "Ana"})
        store.add_character("krasses", "Léa", {"name": "Léa"})
        store.start_session()
        for who in ("Zoé", "Ana", "Zoé", "Ana", "Léa"):
            dice = store.committed_dice()
            assert dice is not None
            faces = dice.roll(20, 1)
            log_roll(
                store, "krasses", "test", {}, [faces], {}, "committed", character=who, dice=dice
            )
        store.reveal_session()
    path = tmp_path / "zoe.json"
    exported = invoke(capsys, "log", "--character", "Zoé", "--export", str(path))
    assert exported.status == 0 and "2 entrées du journal exportées" in exported.out
    lea = tmp_path / "lea.json"
    one = invoke(capsys, "log", "--character", "Léa", "--export", str(lea))
    assert one.status == 0 and "1 entrée du journal exportée" in one.out  # not « 1 entrées »
    report = invoke(capsys, "verify", str(path), "--json").json()
    assert (report["entries"], report["recomputed"], report["complete"]) == (2, 2, False)
    assert "(filtr" in invoke(capsys, "verify", str(path)).out


def test_a_command_that_only_reads_creates_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``campaign list``, ``log``, ``character list|show|export``, ``session list`` on a
    database not made yet created its file and folders, and with it turned on the logging
    of every later roll (MENEUR_LOG unset logs once a database exists): they answer as an
    empty database would, and create nothing. A list is empty; a character asked by name
    is not there."""
    db = tmp_path / "sub" / "meneur.db"
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{db}")
    assert invoke(capsys, "campaign", "list").status == 0
    listed = {
        "log": "Le journal est vide.",
        "character list": "Aucune campagne ni aucun personnage pour l'instant.",
        "session list": "Aucune séance de jeu pour l'instant",
    }
    for command, said in listed.items():
        done = invoke(capsys, "--lang", "fr", *command.split())
        assert done.status == 0 and said in done.out, (command, done.err)
        as_json = invoke(capsys, *command.split(), "--json")
        assert as_json.status == 0 and as_json.json() == [], command
    for args in (("character", "show", "Zed"), ("character", "export", "Zed")):
        done = invoke(capsys, *args)
        assert done.status == 2 and "campagne" in done.err, (args, done.err)
    assert not db.parent.exists()
    assert invoke(capsys, "campaign", "new", "Table").status == 0 and db.exists()


def test_the_log_keeps_the_options_typed_under_their_names_and_leaves_out_the_rest(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log entry's params are the command's options as given: each under its option's
    name (``--vs-faces`` as ``vs-faces``), typed faces as a list, a flag set as true; an
    option left out, a flag not set and ``--json`` itself are not there; the command's
    words give the system and the kind."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    done = invoke(
        capsys,
        *("oppose", "tunnels", "--dice", "2", "--vs", "2", "--explode", "never"),
        *("--faces", "5,6", "--vs-faces", "1,4", "--blessed", "--json"),
    )
    assert done.status == 0, done.err
    entry = invoke(capsys, "log", "--json").json()[-1]
    assert (entry["system"], entry["kind"]) == ("tunnels", "oppose")
    from meneur.campaign.replay import STEPS  # the rolls it is made of, for the replay

    params = {key: value for key, value in entry["params"].items() if key != STEPS}
    assert params == {
        "dice": 2,
        "vs": 2,
        "explode": "never",
        "faces": [5, 6],
        "vs-faces": [1, 4],
        "blessed": True,
    }
    sheet = ROOT / "examples" / "krasses" / "aurore-equipee.json"
    words = ("test", "krasses", "--sheet", str(sheet), "--skill", "Escalade", "--seed", "1")
    assert invoke(capsys, *words, "--difficulty", "10").status == 0
    logged = invoke(capsys, "log", "--json").json()[-1]["params"]
    assert logged["sheet"] == str(sheet) and logged["skill"] == "Escalade"  # a path as text


def test_dice_the_user_chose_are_kept_in_a_game_session(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In an open session, dice come from its committed seed, unless the user chose
    them: ``--seed`` or ``--faces`` are kept, and logged as what they are."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    invoke(capsys, "session", "start")
    assert invoke(capsys, "roll", "1d6", "--json").json()["dice_source"] == "committed"
    assert invoke(capsys, "roll", "1d6", "--seed", "3", "--json").json()["dice_source"] == "seeded"
    typed = invoke(capsys, "roll", "1d6", "--faces", "4", "--json").json()
    assert (typed["dice_source"], typed["total"]) == ("physical", 4)
