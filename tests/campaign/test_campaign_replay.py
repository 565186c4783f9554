"""``meneur verify --replay``: every logged roll re-resolved through the registry (issue 14).

A log made of CLI rolls of the four systems, stored sheets included, replays entry by
entry; an entry whose rules changed, whose params no longer validate, or that cannot
be replayed is reported with its sequence number, and the exit status is 2.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.campaign.replay import STEPS, replay_entries, rolled_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OBSCUR = shlex.quote(str(EXAMPLES / "obscur"))
Capsys = pytest.CaptureFixture[str]

ROLLS = [
    "roll 4d6kh3 --seed 1",
    "roll 2d20kl1+5 --faces 8,19",
    "test tunnels --dice 4 --threshold 2 --seed 7",
    "test tunnels --dice 3 --threshold 2 --faces 1,1,4,1 --explode always",
    # T-12: the test, then each reroll Chance pays for, replay as one procedure
    "test tunnels --dice 3 --threshold 3 --chance 1 --faces 1,5,4,2",
    "test tunnels --dice 4 --threshold 4 --chance 3 --chance-all --seed 5",
    "oppose tunnels --dice 4 --vs 3 --faces 1,1,4,6 --vs-faces 2,3,5",
    "fight tunnels --dice 4 --endurance 8 --vs-mr 3 --seed 2",
    "test tunnels --character Zed --trait Force --threshold 2 --seed 3",
    "test krasses --bonus 5 --difficulty moyen --seed 9",
    "oppose krasses --bonus 2 --vs-bonus 2 --b-kind pj --seed 26",
    "cooperate krasses --member 6:2 --member 2:0 --difficulty 15 --seed 4",
    "test krasses --character Zoé --skill Bagarre --difficulty 12 --seed 1",
    "test obscur --dice 3 --faces 6,4,2",
    "test obscur --character Isaure --trait Bagarre --seed 4",
    "oppose obscur --character Isaure --trait Esquive --vs 4 --seed 6",
    "test legendes --domain legendary --vs heroique --seed 7",
    "aid legendes --helper-dice 2 --helped-dice 3 --seed 11",
    # issue 14: what spans several rolls replays too, through the system's procedures
    f"fight obscur --a {OBSCUR}/garance.toml --b {OBSCUR}/corbeau.toml --rounds 3 --seed 3",
    f"fight obscur --shoot --a {OBSCUR}/mireille.toml --b {OBSCUR}/corbeau.toml --seed 3",
    f"hurt obscur --sheet {OBSCUR}/garance.toml --fall 6 --dry-run --seed 2",
    "hurt obscur --character Isaure --blow 3 --seed 2",
    f"hurt obscur --sheet {OBSCUR}/garance.toml --fire 2 --steps 2 --dry-run --seed 5",
    f"survive obscur --milieu 'Forêt tempérée' --party {OBSCUR}/garance.toml"
    f" --party {OBSCUR}/corbeau.toml --days 2 --seed 1",
    "scene legendes aid --character Lyssia --helper Tomas --helper-dice 2 --seed 3",
    "scene legendes roll --character Lyssia --vs Orsk --with Tomas --dice 3 --seed 5",
]


def _store_characters(capsys: Capsys) -> None:
    made = [
        ["character", "new", "tunnels", "Zed", "--seed", "3"],
        ["character", "new", "krasses", "--name", "Zoé",
         "--characteristic", "Force=12", "--skill", "Bagarre=3"],
        ["character", "new", "obscur", "Isaure",
         "--from", str(EXAMPLES / "obscur" / "isaure.json")],
        ["character", "new", "legendes", "Lyssia",
         "--from", str(EXAMPLES / "legendes" / "lyssia.json")],
        ["scene", "legendes", "start", "--character", "Lyssia", "--title", "Le gué"],
        ["scene", "legendes", "add", "Orsk", "--character", "Lyssia", "--level", "heroique"],
        ["scene", "legendes", "add", "Tomas", "--character", "Lyssia", "--pc", "--dice", "3"],
    ]  # fmt: skip
    for args in made:
        result = invoke(capsys, *args)
        assert result.status == 0, (args, result.err)


def _logged(capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MENEUR_LOG", "1")
    _store_characters(capsys)
    for line in ROLLS:
        args = shlex.split(line)
        result = invoke(capsys, *args)
        assert result.status == 0, (args, result.err)
    path = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    return path


def test_a_log_of_the_four_systems_replays(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _logged(capsys, tmp_path, monkeypatch)
    entries = json.loads(path.read_text())["entries"]
    rolls = [e for e in entries if e["kind"] != "character new" and any(e["faces"])]
    assert len(rolls) == len(ROLLS)
    result = invoke(capsys, "verify", str(path), "--replay", "--json")
    report = result.json()
    assert report["problems"] == [] and result.status == 0, report
    assert report["replayed"] == report["entries"] == len(entries)
    # the stored sheet's dice count is in the canonical params, not only the sheet's name
    zed = next(e for e in rolls if e["params"].get("character") == "Zed")
    (step,) = zed["params"][STEPS]
    assert step["system"] == "tunnels" and step["check"] == "test"
    assert step["params"]["dice"] == len(step["faces"][0]) or step["params"]["explode"] != "never"
    # an Obscur fight's params are the fighters' plain data, never a sheet's path
    steps = [one for e in rolls if e["system"] == "obscur" for one in e["params"][STEPS]]
    assert {one["check"] for one in steps} >= {"fight", "shot", "care", "survive"}
    step = next(one for one in steps if one["check"] == "fight")
    assert step["params"]["a"]["name"] == "Garance l'Épéiste" and "sheet" not in step["params"]
    # a scene step's params hold the hero's sheet as it stood, and the request
    scene = [one for e in rolls if e["system"] == "legendes" for one in e["params"][STEPS]]
    assert {one["check"] for one in scene} >= {"scene-roll", "scene-aid"}
    hero = next(one for one in scene if one["check"] == "scene-roll")["params"]["hero"]
    assert hero["name"] == "Lyssia" and hero["scene"]["pending_help"]


def test_an_entry_the_rules_now_resolve_otherwise_is_named(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T-8 changed under the log (two 1s make a critical failure): that entry is reported."""
    path = _logged(capsys, tmp_path, monkeypatch)
    entries = json.loads(path.read_text())["entries"]
    monkeypatch.setattr("meneur.systems.tunnels.rules.CRITICAL_ONES", 2)
    result = invoke(capsys, "--lang", "en", "verify", str(path), "--replay")
    assert result.status == 2
    named = {int(line.split()[1].rstrip(":")) for line in result.out.splitlines()[1:]}
    twos = {
        e["seq"]
        for e in entries
        if e["system"] == "tunnels"
        and any(sum(f == 1 for f in s) == 2 for st in e["params"][STEPS] for s in st["faces"])
    }
    assert twos and twos <= named


def test_old_tampered_or_unknown_entries_are_reported_never_skipped() -> None:
    good_step = {
        "system": "tunnels",
        "check": "test",
        "params": {"dice": 2, "threshold": 1, "explode": "never"},
        "faces": [[4, 2]],
        "key": [1, False, False],
    }

    def entry(seq: int, steps: Any, faces: Any = ([4, 2],)) -> dict[str, Any]:
        params = {} if steps is None else {STEPS: steps}
        return {"seq": seq, "params": params, "faces": list(faces), "outcome": printed(steps)}

    report = replay_entries(
        [
            entry(1, [good_step]),
            entry(2, None),  # an older log: no canonical params
            entry(3, [{**good_step, "key": [2, False, False]}]),  # outcome differs
            entry(4, [{**good_step, "params": {"dice": -2, "threshold": 1}}]),  # invalid now
            entry(5, [{**good_step, "params": {"dice": 2, "threshold": 1, "explode": "ask"}}]),
            entry(6, [good_step], faces=([4, 2, 6],)),  # a face no check read
            entry(7, [{**good_step, "check": "nothing"}]),
            entry(8, [{**good_step, "faces": [[4]]}], faces=([4],)),  # too few faces
        ]
    )
    assert report.entries == 8 and report.rolls == 1
    assert [p.seq for p in report.problems] == [2, 3, 4, 5, 6, 7, 8]


def test_the_replay_report_counts_in_french_as_french_does(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One roll reads « 1 entrée sur 1 se rejoue (1 jet) », never « (1 jets) »."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    assert invoke(capsys, "roll", "3d6").status == 0
    path = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    french = invoke(capsys, "--lang", "fr", "verify", str(path), "--replay")
    assert "1 entrée sur 1 se rejoue (1 jet)." in french.out, french.out
    english = invoke(capsys, "--lang", "en", "verify", str(path), "--replay")
    assert "1 of 1 entries replays (1 roll)." in english.out, english.out


def test_each_check_and_procedure_is_recorded_where_the_registry_names_it() -> None:
    """A step names its check as the registry does (system, name), found in its own
    system only; a check outside the registry is recorded without a place."""
    from meneur.campaign.replay import _place
    from meneur.dice.check import DiceCheck
    from meneur.systems.registry import SYSTEMS

    assert _place(DiceCheck) == ("generic", DiceCheck.name)
    for system in SYSTEMS:
        for name, check in {**system.checks(), **system.procedures()}.items():
            assert _place(type(check)) == (system.name, name)
    assert _place(dict) is None


# -- what the replay promises, case by case (hand mutation testing of replay.py) -----------

# T-3: two d6 at threshold 1, no explosion (T-6 ``never``); key (successes, T-7, T-8).
TWO_DICE = {"system": "tunnels", "check": "test", "params": {"dice": 2, "threshold": 1,
            "explode": "never"}}  # fmt: skip


def tunnels_step(faces: list[int], key: list[Any]) -> dict[str, Any]:
    return {**TWO_DICE, "faces": [faces], "key": key}


def printed(steps: Any) -> dict[str, Any]:
    """The outcome a command printed and logged for ``steps``: its one roll's, as the
    rules give it (``{}`` for several rolls, or one that does not read)."""
    from meneur.campaign.replay import jsonable

    if not isinstance(steps, list) or len(steps) != 1 or (found := rolled_of(steps[0])) is None:
        return {}
    check, params = found
    try:
        outcome = check.resolve(params, tuple(tuple(stream) for stream in steps[0]["faces"]))
    except Exception:  # a step made not to replay: its own problem comes first
        return {}
    (view,) = jsonable(check.logged_views(params, outcome))
    return {**view, "luck": []}


def logged(seq: Any, steps: list[Any], faces: Any = None) -> dict[str, Any]:
    """An entry whose faces are those its steps read, unless told otherwise."""
    if faces is None:
        faces = [f for one in steps for stream in one["faces"] for f in stream]
        faces = [faces]
    return {"seq": seq, "params": {STEPS: steps}, "faces": faces, "outcome": printed(steps)}


def test_every_entry_and_every_roll_replayed_is_counted() -> None:
    """T-3: a 4 succeeds, a 2 or a 3 does not; two 6s are two successes, not T-7's three."""
    report = replay_entries(
        [
            logged(1, [tunnels_step([4, 2], [1, False, False])]),
            logged(2, [tunnels_step([6, 6], [2, False, False]),
                       tunnels_step([3, 2], [0, False, False])]),
        ]
    )  # fmt: skip
    assert (report.entries, report.rolls, report.problems) == (2, 3, ())


@pytest.mark.parametrize("seq", [None, "3", True, 0.5])
def test_an_entry_without_a_whole_sequence_number_is_named_by_its_place(seq: Any) -> None:
    good = logged(1, [tunnels_step([4, 2], [1, False, False])])
    bad = logged(seq, [tunnels_step([4, 2], [2, False, False])])
    report = replay_entries([good, good, bad])
    assert [problem.seq for problem in report.problems] == [3]


@pytest.mark.parametrize("faces", ["x", [4, 2], [["4", 2]], [[True, 2]], [[4.0, 2]], [[4, None]]])
def test_a_roll_whose_faces_are_not_streams_of_whole_numbers_is_malformed(faces: Any) -> None:
    good = tunnels_step([4, 2], [1, False, False])
    entry = logged(7, [good, {**good, "faces": faces}], faces=[[4, 2, 4, 2]])
    (problem,) = replay_entries([entry]).problems
    assert (problem.seq, problem.message, dict(problem.values)) == (
        7,
        "roll {step} is malformed",
        {"step": 2},
    )


def test_a_roll_that_is_not_an_object_is_malformed() -> None:
    good = tunnels_step([4, 2], [1, False, False])
    (problem,) = replay_entries([logged(1, [good, None], faces=[[4, 2]])]).problems
    assert (problem.message, dict(problem.values)) == ("roll {step} is malformed", {"step": 2})


@pytest.mark.parametrize("faces", ["x", [4, 2], [["4", 2]], [[True, 2]]])
def test_an_entry_whose_faces_are_not_streams_of_whole_numbers_is_refused(faces: Any) -> None:
    entry = logged(1, [tunnels_step([4, 2], [1, False, False])], faces=faces)
    (problem,) = replay_entries([entry]).problems
    assert problem.message == "its faces are malformed"


def test_faces_logged_that_no_roll_read_are_counted() -> None:
    entry = logged(1, [tunnels_step([4, 2], [1, False, False])], faces=[[4, 2], [6]])
    (problem,) = replay_entries([entry]).problems
    assert dict(problem.values) == {"shown": 3, "used": 2}


def test_the_roll_that_does_not_replay_is_named_by_its_place_in_the_entry() -> None:
    """The second roll's stored outcome is wrong: a 3 is no success (T-3)."""
    steps = [tunnels_step([4, 2], [1, False, False]), tunnels_step([3, 2], [1, False, False])]
    (problem,) = replay_entries([logged(5, steps)]).problems
    assert problem.message == "roll {step}: stored outcome {stored}, the rules now give {now}"
    assert dict(problem.values) == {"step": 2, "stored": "[1, false, false]",
                                    "now": "[0, false, false]"}  # fmt: skip


def test_rolls_outside_the_registry_are_named_in_80_characters() -> None:
    outside = {"check": None, "what": "W" * 100, "faces": [[4, 2]]}
    unknown = {**tunnels_step([4, 2], [1, False, False]), "system": "s" * 100,
               "check": "c" * 100}  # fmt: skip
    first, second = replay_entries([logged(1, [outside]), logged(2, [unknown])]).problems
    assert dict(first.values) == {"step": 1, "what": "W" * 80}
    assert dict(second.values) == {"step": 1, "check": "c" * 80, "system": "s" * 80}


@pytest.mark.parametrize("face", [0, 7])
def test_a_face_off_the_die_is_named_and_both_ends_of_a_d6_replay(face: int) -> None:
    assert replay_entries([logged(1, [tunnels_step([1, 6], [1, False, False])])]).problems == ()
    (problem,) = replay_entries([logged(1, [tunnels_step([face, 4], [1, False, False])])]).problems
    assert problem.message == "roll {step}: a d{sides} has no face {face}"
    assert dict(problem.values) == {"step": 1, "sides": 6, "face": face}


def test_a_logged_roll_reads_back_as_its_check_and_params_or_not_at_all() -> None:
    found = rolled_of(tunnels_step([4, 2], [1, False, False]))
    assert found is not None
    check, params = found
    assert (check.name, check.die_sides, params.dice, params.threshold) == ("test", 6, 2, 1)
    assert rolled_of({**TWO_DICE, "check": "nothing"}) is None
    assert rolled_of({**TWO_DICE, "params": {"dice": -2, "threshold": 1}}) is None


def test_an_outcome_edited_in_the_log_is_named_though_its_roll_replays() -> None:
    """T-3: a 4 and a 2 at threshold 1 pass. The entry's outcome (what ``meneur log``
    shows) must hold what its roll gives: turned to a failure, or its verdict removed,
    it is named with the field; what the command added beside it (the luck) is free."""
    good = logged(1, [tunnels_step([4, 2], [1, False, False])])
    assert good["outcome"]["passed"] is True
    assert replay_entries([good]).problems == ()
    failed = {**good, "outcome": {**good["outcome"], "passed": False, "luck": ["x"]}}
    (problem,) = replay_entries([failed]).problems
    assert problem.message == (
        "its outcome differs from its roll at {field}: logged {stored}, the dice give {now}"
    )
    assert dict(problem.values) == {"field": "outcome.passed", "stored": "false", "now": "true"}
    gone = {**good, "outcome": {k: v for k, v in good["outcome"].items() if k != "passed"}}
    (problem,) = replay_entries([gone]).problems
    assert dict(problem.values) == {"field": "outcome.passed", "stored": "-", "now": "true"}
    one = {**good, "outcome": {**good["outcome"], "successes": True}}  # True is not 1
    (problem,) = replay_entries([one]).problems
    assert dict(problem.values)["field"] == "outcome.successes"


def test_a_result_forged_before_the_reveal_is_caught_by_the_replay(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """K-1: a d20 showing 4 + 0 against 40 fails. The GM turns it into a success in the
    log and hashes the chain again: the chain verifies (its hashes agree), the replay
    does not (``verify --strict --replay``: status 2, the entry and the field named)."""
    from meneur.campaign.chain import entry_hash

    monkeypatch.setenv("MENEUR_LOG", "1")
    rolled = invoke(capsys, "test", "krasses", "--bonus", "0", "--difficulty", "40",
                    "--faces", "4", "--json")  # fmt: skip
    assert rolled.status == 0 and rolled.json()["passed"] is False
    path = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(path)).status == 0
    document = json.loads(path.read_text())
    (entry,) = document["entries"]
    entry["outcome"]["passed"] = True
    entry["hash"] = entry_hash(entry["prev_hash"], entry)
    document["head"]["hash"] = entry["hash"]
    path.write_text(json.dumps(document))
    assert invoke(capsys, "verify", str(path), "--strict").status == 0
    result = invoke(capsys, "--lang", "en", "verify", str(path), "--strict", "--replay")
    assert result.status == 2
    assert "outcome.passed: logged true, the dice give false" in result.out
