"""``meneur verify`` on a crafted log: a malformed value is refused, never a traceback.

A log is handed to other people to check, so the file is untrusted input. Each value
an export writes may come back as another type (a number for a list, a list for a hash,
``null`` for a sequence number) or as a face no die has; once the hashes are chained
again (anyone can do it), only the checks of the values themselves stand between the
file and the rules. Every such file gives exit status 0 or 2 with one clear line.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Result, invoke
from meneur.campaign.chain import HASHED_FIELDS

Capsys = pytest.CaptureFixture[str]

ROLLS = [
    "test obscur --dice 3 --seed 1",
    "test tunnels --dice 3 --threshold 2 --seed 1",
    "test krasses --bonus 5 --difficulty moyen --seed 9",
    "aid legendes --helper-dice 2 --helped-dice 3 --seed 11",
    "roll 4d6kh3 --seed 1",
]


def rechain(document: dict[str, Any]) -> None:
    """Chain the entries' hashes again after an edit, as a forger would (and the head)."""
    previous = "0" * 64
    for entry in document["entries"]:
        if not isinstance(entry, dict):
            continue
        entry["prev_hash"] = previous
        body = json.dumps(
            {name: entry.get(name) for name in HASHED_FIELDS},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        entry["hash"] = previous = hashlib.sha256(previous.encode() + body.encode()).hexdigest()
    last = document["entries"][-1] if document["entries"] else None
    if isinstance(last, dict):
        document["head"] = {"seq": last.get("seq"), "hash": previous}


def exported(capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A real log: a revealed game session with committed rolls, then rolls outside it."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    assert invoke(capsys, "session", "start").status == 0
    for line in ROLLS[:3]:
        assert invoke(capsys, *line.split(" --seed")[0].split()).status == 0  # committed dice
    assert invoke(capsys, "session", "reveal").status == 0
    for line in ROLLS:
        assert invoke(capsys, *line.split()).status == 0, line
    path = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    document: dict[str, Any] = json.loads(path.read_text())
    return document


def verify(capsys: Capsys, tmp_path: Path, document: Any, *flags: str) -> Result:
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(document))
    return invoke(capsys, "verify", str(path), *flags)


def edited(document: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(document))
    edit(copy)
    rechain(copy)
    return copy


@pytest.fixture
def log(capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    document = exported(capsys, tmp_path, monkeypatch)
    assert document["sessions"] and document["sessions"][0]["seed"]
    assert {e["source"] for e in document["entries"]} >= {"committed", "seeded"}
    return document


def refused(result: Result) -> str:
    """The one error line of a refused file (status 2, no traceback)."""
    assert result.status == 2, (result.out, result.err)
    assert "Traceback" not in result.err + result.out
    return result.err.strip()


# -- the cases QA reproduced ---------------------------------------------------------------


def test_faces_not_a_list_name_the_entry(log: dict[str, Any], capsys: Capsys, tmp_path: Path):
    document = edited(log, lambda d: d["entries"][0].__setitem__("faces", 5))
    assert refused(verify(capsys, tmp_path, document)) == (
        "Erreur : Entrée 1 : son champ « faces » est mal formé."
    )


@pytest.mark.parametrize("seq", ["x", None, 0, True, 1.5, [1]])
def test_a_sequence_number_not_whole_is_refused(
    log: dict[str, Any], capsys: Capsys, tmp_path: Path, seq: Any
) -> None:
    """« Entrée None (…) » printed Python's value: the position in the file names it."""
    document = edited(log, lambda d: d["entries"][0].__setitem__("seq", seq))
    message = refused(verify(capsys, tmp_path, document))
    assert message == "Erreur : L'entrée n° 1 du fichier n'a pas de numéro de séquence valide."
    english = refused(verify(capsys, tmp_path, document, "--lang", "en"))
    assert english == "Error: Entry number 1 of the file has no valid sequence number."


def test_a_step_not_an_object_does_not_replay(
    log: dict[str, Any], capsys: Capsys, tmp_path: Path
) -> None:
    document = edited(log, lambda d: d["entries"][3]["params"]["rolls"].__setitem__(0, None))
    result = verify(capsys, tmp_path, document, "--replay")
    assert result.status == 2 and "Traceback" not in result.err
    assert "entrée 4 : le jet 1 est mal formé" in result.out


@pytest.mark.parametrize("face", [7, 0, -1])
@pytest.mark.parametrize("entry", [3, 4])  # obscur, tunnels (a d6 each)
def test_a_face_no_d6_has_is_named_on_replay(
    log: dict[str, Any], capsys: Capsys, tmp_path: Path, face: int, entry: int
) -> None:
    """A 7 raised IndexError in Obscur, a 0 read as a 6 there and replayed fine in Tunnels."""

    def edit(d: dict[str, Any]) -> None:
        d["entries"][entry]["params"]["rolls"][0]["faces"][0][0] = face

    result = verify(capsys, tmp_path, edited(log, edit), "--replay", "--strict")
    assert result.status == 2 and "Traceback" not in result.err, result.err
    assert f"entrée {entry + 1} : jet 1 : un d6 n'a pas de face {face}" in result.out


@pytest.mark.parametrize("face", [0, -3, 10**9])
def test_a_logged_face_no_die_has_is_refused(
    log: dict[str, Any], capsys: Capsys, tmp_path: Path, face: int
) -> None:
    document = edited(log, lambda d: d["entries"][4]["faces"][0].__setitem__(0, face))
    assert refused(verify(capsys, tmp_path, document)).endswith(
        "Entrée 5 : son champ « faces » est mal formé."
    )


@pytest.mark.parametrize("field", ["closing_hash", "commitment", "seed", "revealed_at"])
def test_a_session_value_not_text_is_refused(
    log: dict[str, Any], capsys: Capsys, tmp_path: Path, field: str
) -> None:
    """No re-hash needed: sessions are outside the chain (``[]`` crashed, or printed)."""
    document = json.loads(json.dumps(log))
    document["sessions"][0][field] = []
    message = refused(verify(capsys, tmp_path, document, "--lang", "en"))
    assert message == f"Error: Game session number 1 of the file: its '{field}' is malformed."


# -- any mutation -----------------------------------------------------------------------------


def _values(rng: random.Random) -> Any:
    return rng.choice(
        [
            rng.randint(-(2**70), 2**70),
            rng.randint(-2, 30),
            "x",
            "",
            "0" * 64,
            None,
            True,
            1.5,
            [],
            [rng.randint(-1, 8)],
            [[rng.randint(-1, 8)]],
            {},
            {"seq": 1},
            [None],
        ]
    )


def _mutate(document: Any, rng: random.Random) -> None:
    """Replace one value at a random depth (or a face by one no die shows)."""
    if rng.random() < 0.25:
        try:  # (an earlier mutation may have changed what it walks through)
            entry = rng.choice(document["entries"])
            streams = entry["faces"]
            if rng.random() < 0.5 and entry["params"].get("rolls"):
                streams = rng.choice(entry["params"]["rolls"])["faces"]
            face = rng.choice([0, -1, 7, 21, 101, 10**9])
            streams[0][rng.randrange(len(streams[0]))] = face
            return
        except (TypeError, KeyError, AttributeError, IndexError, ValueError):
            pass
    node = document
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = rng.choice(keys)
        child = node[key]
        if isinstance(child, dict | list) and child and rng.random() < 0.75:
            node = child
            continue
        node[key] = _values(rng)
        return


def test_random_mutations_never_crash(log: dict[str, Any], capsys: Capsys, tmp_path: Path):
    """Seeded: a failure names the mutation number to reproduce it."""
    rng = random.Random(20261206)
    for number in range(250):
        document = json.loads(json.dumps(log))
        for _ in range(rng.randint(1, 3)):
            _mutate(document, rng)
        if rng.random() < 0.9 and isinstance(document.get("entries"), list):
            rechain(document)
        for flags in ((), ("--replay",), ("--replay", "--strict", "--json")):
            result = verify(capsys, tmp_path, document, *flags)
            assert result.status in (0, 2), (number, flags, result.err[-2000:])
            assert "Traceback" not in result.err + result.out, (number, result.err[-2000:])


def test_faces_shown_that_no_roll_read_do_not_replay(
    log: dict[str, Any], capsys: Capsys, tmp_path: Path
) -> None:
    """A 7 in the faces the log shows, the steps kept right: the replay passed it."""
    document = edited(log, lambda d: d["entries"][3]["faces"][0].__setitem__(0, 7))
    result = verify(capsys, tmp_path, document, "--lang", "en", "--replay", "--strict")
    assert result.status == 2 and "Traceback" not in result.err, result.err
    assert "entry 4: not replayable: the faces logged are not the faces its rolls read" in (
        result.out
    )
