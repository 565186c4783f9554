"""Playing from stored characters: ``--character NAME``, every system roll logged, luck.

Issue 9: a test from a stored character uses its traits and writes its consequences in
the same transaction as the roll's log entry; every roll made through meneur is logged;
luck is judged against each check's exact odds.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.campaign import recording
from meneur.campaign.luck import check_luck_table
from meneur.campaign.store import Store
from meneur.odds import brute_force
from meneur.systems.registry import find_system

ROOT = Path(__file__).resolve().parents[2]
Capsys = pytest.CaptureFixture[str]


def log(capsys: Capsys) -> list[dict[str, Any]]:
    result = invoke(capsys, "log", "--json")
    assert result.status == 0, result.err
    entries: list[dict[str, Any]] = result.json()
    return entries


def sheet_of(name: str) -> dict[str, Any]:
    with Store() as store:
        return store.character(name).sheet


def new_zed(capsys: Capsys) -> dict[str, Any]:
    made = invoke(capsys, "character", "new", "tunnels", "Zed", "--seed", "3", "--json")
    assert made.status == 0, made.err
    sheet: dict[str, Any] = made.json()
    return sheet


def test_a_newcomers_first_character_creates_the_database(tmp_path: Path, capsys: Capsys) -> None:
    """Zero setup: no database, no campaign; `character new` makes both and logs the rolls."""
    db = tmp_path / "private.db"
    assert not db.exists()
    sheet = new_zed(capsys)
    assert db.exists()
    listed = invoke(capsys, "character", "list", "--json").json()
    assert [(c["name"], c["campaign"]) for c in listed] == [("Zed", "default")]
    assert sheet_of("Zed") == sheet
    (entry,) = log(capsys)
    assert (entry["who"], entry["system"], entry["kind"]) == ("Zed", "tunnels", "character new")
    params = dict(entry["params"])
    (step,) = params.pop("rolls")  # T-1 as a replayable procedure
    assert params == {"name": "Zed", "seed": 3}
    assert (step["system"], step["check"], step["faces"]) == ("tunnels", "create", entry["faces"])
    # 3d6 per characteristic... every face of the creation is in the entry
    assert len(entry["faces"][0]) >= 6


def test_stored_character_rolls_and_spends_chance_in_one_entry(db_url: str, capsys: Capsys) -> None:
    """T-12 through --character: the Chance spent is saved with the roll's log entry."""
    new_zed(capsys)
    before = sheet_of("Zed")
    assert before["characteristics"]["Dextérité"] == 4 and before["chance"]["current"] == 4
    rolled = invoke(
        capsys, "test", "tunnels", "--character", "zed", "--trait", "Dextérité",
        "--threshold", "2", "--chance", "1", "--faces", "1,2,5,3,5", "--json",
    )  # fmt: skip
    assert rolled.status == 0, rolled.err
    data = rolled.json()
    assert data["passed"] and data["chance_spent"] == 1
    assert sheet_of("Zed")["chance"]["current"] == 3
    entry = log(capsys)[-1]
    assert (entry["who"], entry["kind"], entry["source"]) == ("Zed", "test", "physical")
    assert entry["faces"] == [[1, 2, 5, 3, 5]]
    assert entry["params"]["character"] == "zed" and entry["params"]["trait"] == "Dextérité"


def test_roll_and_consequence_are_one_transaction(
    db_url: str, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the log entry cannot be written, the Chance spent is not written either: the
    database refuses the entry's INSERT after the sheet's UPDATE, in one transaction."""
    new_zed(capsys)
    entries = len(log(capsys))
    from meneur.campaign import appending

    made = appending.statements

    def broken(sqlite: bool) -> dict[str, str]:
        sql = made(sqlite)
        return {**sql, "insert": sql["insert"].replace("INSERT INTO rolls", "INSERT INTO nowhere")}

    monkeypatch.setattr(appending, "statements", broken)
    refused = invoke(
        capsys, "test", "tunnels", "--character", "Zed", "--trait", "Dextérité",
        "--threshold", "2", "--chance", "1", "--faces", "1,2,5,3,5",
    )  # fmt: skip
    assert refused.status == 2 and "nowhere" in refused.err
    monkeypatch.undo()
    monkeypatch.setenv("MENEUR_DB_URL", db_url)
    assert sheet_of("Zed")["chance"]["current"] == 4
    assert len(log(capsys)) == entries


def test_a_fight_saves_endurance_of_a_stored_character(db_url: str, capsys: Capsys) -> None:
    new_zed(capsys)
    fought = invoke(
        capsys, "fight", "tunnels", "--character", "Zed", "--vs-mr", "6", "--seed", "2", "--json"
    )
    assert fought.status == 0, fought.err
    after = sheet_of("Zed")
    end = fought.json()["a"]
    assert after["endurance"] == {"current": end["endurance"], "max": 6}
    assert (after["wounded"], after["dead"]) == (end["wounded"], end["dead"])
    assert end["endurance"] < 6  # MR 6 against Force 2 always hurts
    entry = log(capsys)[-1]
    assert (entry["who"], entry["kind"]) == ("Zed", "fight")
    assert entry["outcome"]["a"] == end and entry["faces"][0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["test", "krasses", "--character", "Zed", "--skill", "x", "--difficulty", "12"],
         "personnage du jeu Tunnels, pas du jeu Krâsses"),
        (["test", "tunnels", "--character", "Nobody", "--trait", "Force", "--threshold", "1"],
         "Nobody"),
        (["test", "tunnels", "--character", "Zed", "--sheet", "zed.json", "--trait", "Force",
          "--threshold", "1"], "--sheet/--character"),
    ],
)  # fmt: skip
def test_bad_character_is_one_line_and_writes_nothing(
    capsys: Capsys, args: list[str], message: str
) -> None:
    new_zed(capsys)
    entries = len(log(capsys))
    result = invoke(capsys, *args)
    assert result.status == 2 and message in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert len(log(capsys)) == entries and sheet_of("Zed")["chance"]["current"] == 4


def test_krasses_stored_character(db_url: str, capsys: Capsys) -> None:
    made = invoke(
        capsys, "character", "new", "krasses", "--name", "Zoé", "--characteristic", "Force=12",
        "--skill", "Bagarre=3",
    )  # fmt: skip
    assert made.status == 0, made.err
    rolled = invoke(
        capsys, "test", "krasses", "--character", "Zoé", "--skill", "Bagarre",
        "--difficulty", "12", "--faces", "9", "--json",
    )  # fmt: skip
    assert rolled.status == 0, rolled.err
    entry = log(capsys)[-1]
    assert (entry["who"], entry["system"], entry["faces"]) == ("Zoé", "krasses", [[9]])
    assert entry["outcome"]["trait"]["name"] == "Bagarre"


def test_obscur_stored_character_takes_a_fall(db_url: str, capsys: Capsys) -> None:
    """Obscur sheets are stored from their file; `hurt` writes the wound to the database."""
    stored = invoke(
        capsys, "character", "new", "obscur", "Isaure", "--from",
        str(ROOT / "examples" / "obscur" / "isaure.json"),
    )  # fmt: skip
    assert stored.status == 0, stored.err
    before = sheet_of("Isaure")
    hurt = invoke(
        capsys, "hurt", "obscur", "--character", "Isaure", "--fall", "4", "--seed", "1", "--json"
    )
    assert hurt.status == 0, hurt.err
    after = sheet_of("Isaure")
    assert after != before and after.get("etat") != before.get("etat")
    entry = log(capsys)[-1]
    assert (entry["who"], entry["kind"]) == ("Isaure", "hurt")


def test_a_sheet_stored_under_a_name_takes_that_name(
    db_url: str, tmp_path: Path, capsys: Capsys
) -> None:
    """The stored name is the character's identity: a sheet named Bob stored as Zed (by
    ``character edit --sheet`` or an import) rolled as « Bob : Force 2 » while the log
    said Zed. The sheet's ``name`` becomes the stored name, and a line says so."""
    bob = json.loads((ROOT / "examples" / "obscur" / "isaure.json").read_text())
    bob["name"] = "Bob"
    bob_file = tmp_path / "bob.json"
    bob_file.write_text(json.dumps(bob), encoding="utf-8")
    made = invoke(
        capsys, "--lang", "fr", "character", "new", "obscur", "Zed", "--from", str(bob_file)
    )
    assert made.out.splitlines()[0] == "Le nom de la fiche (Bob) devient Zed.", made.out
    hurt = invoke(capsys, "hurt", "obscur", "--character", "Zed", "--fall", "4", "--seed", "1")
    assert hurt.out.startswith("Zed — Chute de 4 m") and log(capsys)[-1]["who"] == "Zed"

    assert invoke(capsys, "character", "new", "tunnels", "Zed2", "--seed", "3").status == 0
    tom = sheet_of("Zed2")  # a Tunnels hero, given Bob's name below
    tom["name"] = "Bob"
    tom_file = tmp_path / "tom.json"
    tom_file.write_text(json.dumps(tom), encoding="utf-8")
    edited = invoke(capsys, "--lang", "en", "character", "edit", "zed2", "--sheet", str(tom_file))
    assert edited.out == "The sheet's name (Bob) becomes Zed2.\nCharacter 'Zed2' updated.\n"
    rolled = invoke(
        capsys, "test", "tunnels", "--character", "Zed2", "--trait", "Force", "--threshold", "1"
    )
    assert rolled.out.startswith("Zed2 : Force "), rolled.out
    assert log(capsys)[-1]["who"] == "Zed2" and sheet_of("Zed2")["name"] == "Zed2"

    exported = tmp_path / "zed2.json"
    assert invoke(capsys, "character", "export", "Zed2", "--out", str(exported)).status == 0
    again = invoke(capsys, "character", "import", str(exported), "--replace")  # as it was
    assert again.status == 0 and "fiche" not in again.out
    document = json.loads(exported.read_text())
    document["character"]["sheet"]["name"] = "Bob"
    exported.write_text(json.dumps(document), encoding="utf-8")
    imported = invoke(capsys, "character", "import", str(exported), "--replace")
    assert imported.out.startswith("Le nom de la fiche (Bob) devient Zed2.\n"), imported.out
    assert sheet_of("Zed2")["name"] == "Zed2"


def test_legendes_scene_from_a_stored_hero(db_url: str, capsys: Capsys) -> None:
    example = ROOT / "examples" / "legendes" / "lyssia.json"
    assert (
        invoke(capsys, "character", "new", "legendes", "Lyssia", "--from", str(example)).status == 0
    )
    steps = [
        ["scene", "legendes", "start", "--character", "Lyssia", "--title", "Le pont"],
        ["scene", "legendes", "add", "Orsk", "--level", "heroique", "--character", "Lyssia"],
        ["scene", "legendes", "roll", "--vs", "Orsk", "--character", "Lyssia", "--seed", "1"],
    ]
    for step in steps:
        result = invoke(capsys, *step)
        assert result.status == 0, (step, result.err)
    scene = sheet_of("Lyssia")["scene"]
    assert scene["title"] == "Le pont" and scene["oppositions"][0]["name"] == "Orsk"
    assert scene["oppositions"][0]["rolls"] == 1
    entry = log(capsys)[-1]
    assert (entry["who"], entry["kind"]) == ("Lyssia", "scene roll")
    from meneur.campaign.summary import entry_summary  # the log's « Result » column

    said = entry_summary(entry)  # the system's own words (System.log_summary), not JSON
    assert said == "Orsk : opposition : victoire définitive (0 contre 7)", said
    assert invoke(capsys, "log").status == 0


def test_L1_a_domain_typo_is_refused_unlogged_unsaved(db_url: str, capsys: Capsys) -> None:
    """L-1: « magie des ronses » is not on Lyssia's sheet but nearly is: refused before the
    roll or the help, so nothing is logged and the stored sheet keeps its scene as it was."""
    example = ROOT / "examples" / "legendes" / "lyssia.json"
    made = invoke(capsys, "character", "new", "legendes", "Lyssia", "--from", str(example))
    assert made.status == 0, made.err
    for step in (
        ["scene", "legendes", "start", "--character", "Lyssia"],
        ["scene", "legendes", "add", "Orsk", "--level", "heroique", "--character", "Lyssia"],
    ):
        assert invoke(capsys, *step).status == 0
    entries, before = len(log(capsys)), sheet_of("Lyssia")
    for command, *args in (
        ("roll", "--vs", "Orsk"),
        ("aid", "--helper", "Tomas", "--helper-dice", "2"),
    ):
        refused = invoke(
            capsys, "scene", "legendes", command, "--character", "Lyssia", *args,
            "--domain", "magie des ronses", "--seed", "3",
        )  # fmt: skip
        assert refused.status == 2 and "« Magie des ronces »" in refused.err, refused.err
    assert len(log(capsys)) == entries and sheet_of("Lyssia") == before


def test_committed_system_rolls_verify(db_url: str, capsys: Capsys, tmp_path: Path) -> None:
    """System rolls under an open game session use its committed dice; verify recomputes."""
    new_zed(capsys)
    assert invoke(capsys, "session", "start").status == 0
    for threshold in ("1", "2", "3"):
        rolled = invoke(
            capsys, "test", "tunnels", "--character", "Zed", "--trait", "Force",
            "--threshold", threshold,
        )  # fmt: skip
        assert rolled.status == 0, rolled.err
    assert invoke(capsys, "oppose", "krasses", "--bonus", "2", "--vs-bonus", "3").status == 0
    assert invoke(capsys, "session", "reveal").status == 0
    out = tmp_path / "log.json"
    assert invoke(capsys, "log", "--export", str(out)).status == 0
    assert [e["source"] for e in json.loads(out.read_text())["entries"][1:]] == ["committed"] * 4
    verified = invoke(capsys, "verify", str(out))
    assert verified.status == 0, verified.err
    document = json.loads(out.read_text())
    document["entries"][2]["faces"][0][0] = 7 - document["entries"][2]["faces"][0][0]
    out.write_text(json.dumps(document))
    tampered = invoke(capsys, "verify", str(out))
    assert tampered.status == 2 and "3" in tampered.err


def test_odds_and_shows_are_not_logged(db_url: str, capsys: Capsys) -> None:
    new_zed(capsys)
    entries = len(log(capsys))
    assert invoke(capsys, "odds", "tunnels", "--dice", "3", "--threshold", "2").status == 0
    assert invoke(capsys, "character", "show", "Zed").status == 0
    assert len(log(capsys)) == entries


@pytest.mark.parametrize("system", ["tunnels", "obscur", "krasses", "legendes"])
def test_judged_rank_is_the_mid_rank_of_brute_force(system: str) -> None:
    """The luck of a roll is P(worse) + P(as good)/2 among the check's exact outcomes.

    Cross-checked against brute-force enumeration for every check with an order of
    results, on every outcome of its first example; the mean rank is exactly 1/2.
    """
    for check in find_system(system).checks().values():
        params = check.examples()[0]
        if check.score(check.key(check.resolve(params, first_faces(check, params)))) is None:
            continue
        exact = brute_force(check, params)
        assert exact == check.odds(params)
        mean = Fraction(0)
        for key, weight in exact.items():
            probability = Fraction(weight, exact.total)
            mine = check.score(key)
            assert mine is not None
            worse = sum(
                (
                    Fraction(w, exact.total)
                    for k, w in exact.items()
                    if (check.score(k) or 0) < mine
                ),
                Fraction(0),
            )
            same = sum(
                (Fraction(w, exact.total) for k, w in exact.items() if check.score(k) == mine),
                Fraction(0),
            )
            outcome = outcome_with_key(check, params, key)
            verdict = recording.judge(check, params, outcome)
            assert verdict is not None
            assert verdict["rank"] == pytest.approx(float(worse + same / 2), abs=1e-12)
            mean += probability * (worse + same / 2)
        assert mean == Fraction(1, 2), (system, check.name)


def first_faces(check: Any, params: Any) -> tuple[tuple[int, ...], ...]:
    from meneur.rng import make_source

    return check.roll(params, [make_source(seed=0)] * check.streams(params)).faces  # type: ignore[no-any-return]


def outcome_with_key(check: Any, params: Any, key: Any) -> Any:
    """An outcome of ``check`` whose key is ``key`` (found by seeded rolls)."""
    from meneur.rng import make_source

    source = make_source(seed=1)
    for _ in range(100_000):
        outcome = check.roll(params, [source] * check.streams(params)).outcome
        if check.key(outcome) == key:
            return outcome
    raise AssertionError(f"no roll gave {key!r}")


def test_check_luck_table_adds_ranks_per_player() -> None:
    lucky = [{"who": "Ana", "outcome": {"luck": [{"rank": 0.95, "var": 1 / 12}]}}] * 20
    plain = [{"who": "Bo", "outcome": {"luck": [{"rank": 0.5, "var": 1 / 12}]}}] * 20
    junk = [{"who": "Cy", "outcome": {"luck": "no"}}, {"who": "Cy", "outcome": None}]
    table = {row.who: row for row in check_luck_table([*lucky, *plain, *junk])}
    assert set(table) == {"Ana", "Bo"}
    assert table["Ana"].rolls == 20 and table["Ana"].rank == pytest.approx(0.95)
    assert table["Ana"].tail < 1e-6  # fair dice almost never do that well
    assert table["Bo"].tail == pytest.approx(0.5)


def test_luck_report_judges_system_rolls(db_url: str, capsys: Capsys) -> None:
    new_zed(capsys)
    for _ in range(3):
        assert invoke(
            capsys, "test", "tunnels", "--character", "Zed", "--trait", "Force",
            "--threshold", "1", "--faces", "6,6",
        ).status == 0  # fmt: skip
    rows = invoke(capsys, "log", "--luck", "--json").json()
    (judged,) = [row for row in rows if row["measure"] == "checks"]
    # Force 2 at threshold 1: two successes has P = 1/4 and nothing is better, so each
    # roll's rank is 3/4 + (1/4)/2 = 7/8
    assert judged["who"] == "Zed" and judged["rolls"] == 3 and judged["rank"] == 0.875
    assert judged["p_at_least"] < 0.05


def store_obscur(capsys: Capsys, *names: str) -> dict[str, dict[str, Any]]:
    """Store the example Obscur characters ``names``; their sheets as stored."""
    for name in names:
        path = ROOT / "examples" / "obscur" / f"{name.lower()}.toml"
        made = invoke(capsys, "character", "new", "obscur", name, "--from", str(path))
        assert made.status == 0, made.err
    return {name: sheet_of(name) for name in names}


def test_obscur_fight_between_stored_characters(db_url: str, capsys: Capsys) -> None:
    """Both fighters' wounds are written with the fight's log entry (no --save needed)."""
    before = store_obscur(capsys, "Garance", "Corbeau")
    fought = invoke(
        capsys, "fight", "obscur", "--a-character", "Garance", "--b-character", "Corbeau",
        "--seed", "12", "--json",
    )  # fmt: skip
    assert fought.status == 0, fought.err
    changed = [name for name in before if sheet_of(name).get("etat") != before[name].get("etat")]
    assert changed, "the fight's wounds were not saved"
    entry = log(capsys)[-1]
    assert (entry["who"], entry["kind"]) == ("Garance", "fight")
    alone = invoke(capsys, "fight", "obscur", "--a-character", "Garance")
    assert alone.status == 2 and "--b/--b-character" in alone.err


def test_obscur_survival_with_stored_party(db_url: str, capsys: Capsys) -> None:
    before = store_obscur(capsys, "Garance", "Ninon")
    days = invoke(
        capsys, "survive", "obscur", "--milieu", "Forêt tempérée", "--party-character", "Garance",
        "--party-character", "Ninon", "--days", "5", "--seed", "6", "--json",
    )  # fmt: skip
    assert days.status == 0, days.err
    data = days.json()
    assert data["saved"] and [m["name"] for m in data["party"]] == ["Garance", "Ninon"]
    entry = log(capsys)[-1]
    assert (entry["who"], entry["kind"]) == ("Garance", "survive")
    assert entry["faces"][0]  # every die of the five days
    assert entry["outcome"]["final"] == data["final"]
    after = {name: sheet_of(name) for name in ("Garance", "Ninon")}
    assert after != before  # five days in the forest leave marks
    twice = invoke(
        capsys, "survive", "obscur", "--milieu", "Forêt tempérée", "--party-character", "Ninon",
        "--party-character", "ninon",
    )  # fmt: skip
    assert twice.status == 2 and sheet_of("Ninon") == after["Ninon"]


def test_K3_an_automatic_action_in_a_campaign_ends_cleanly(db_url: str, capsys: Capsys) -> None:
    """K-3: an automatic action rolls nothing. In a campaign, judging its luck (an
    outcome with no margin) stopped the command with a traceback; it now succeeds, logs
    no roll (there is none), and the luck report judges nothing for it."""
    new_zed(capsys)
    before = len(log(capsys))
    done = invoke(capsys, "test", "krasses", "--bonus", "0", "--difficulty", "automatique")
    assert done.status == 0, done.err
    assert "Traceback" not in done.err
    assert len(log(capsys)) == before
    rows = invoke(capsys, "log", "--luck", "--json").json()
    assert not [row for row in rows if row["measure"] == "checks"]


def test_a_rolls_luck_waits_half_a_second_at_most(
    db_url: str, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log entry spends at most ``LUCK_SECONDS`` judging its rolls' luck, as the live
    table's writer waits: a judgement that outlasts them (60 dice that always explode,
    held two seconds first: the engine's cold law alone now takes ~0.5-1 s, too close to
    the limit to rely on) is stopped by the real timer and the roll logged unjudged (it
    took ~9 s to log before); the next command's roll, small, is judged as before."""
    import time

    from meneur.campaign import recording
    from meneur.systems.tunnels.odds import clear_caches

    assert recording.LUCK_SECONDS == 0.5
    clear_caches()  # a law built by an earlier test would be read at once
    judge = recording.judge

    def slow_when_big(check: Any, params: Any, outcome: Any) -> Any:
        if getattr(params, "dice", 0) == 60:
            time.sleep(2)  # the deadline's signal ends this sleep after 0.5 s
        return judge(check, params, outcome)

    monkeypatch.setattr(recording, "judge", slow_when_big)
    args = ("test", "tunnels", "--dice", "60", "--threshold", "30", "--explode", "always")
    big = invoke(capsys, *args, "--seed", "1")
    assert big.status == 0, big.err
    assert "luck" not in log(capsys)[-1]["outcome"]
    small = invoke(capsys, "test", "tunnels", "--dice", "3", "--threshold", "2", "--seed", "1")
    assert small.status == 0, small.err
    assert log(capsys)[-1]["outcome"]["luck"][0]["check"] == "test"


def test_a_result_that_cannot_be_shown_is_neither_shown_nor_logged(
    db_url: str, capsys: Capsys, tmp_path: Path
) -> None:
    """K-3's ladder names the difficulty in the text output. With the user's ladder file
    broken, the command used to print half its result, log the roll, then fail: the
    rendering is now made first, unseen, and its failure stops the command before the log
    and the screen. The same roll with a valid ladder is logged and shown once."""
    import os

    new_zed(capsys)
    before = len(log(capsys))
    ladder = Path(os.environ["MENEUR_DATA_DIR"]) / "krasses" / "difficulties.toml"
    ladder.parent.mkdir(parents=True, exist_ok=True)
    ladder.write_text("garbage")
    from meneur.systems.krasses.ladder import ladder as cached_ladder

    cached_ladder.cache_clear()
    try:
        failed = invoke(capsys, "test", "krasses", "--bonus", "1", "--difficulty", "12")
    finally:
        ladder.unlink()
        cached_ladder.cache_clear()
    assert failed.status == 2 and "difficulties.toml" in failed.err
    assert failed.out == ""
    assert len(log(capsys)) == before
    done = invoke(capsys, "test", "krasses", "--bonus", "1", "--difficulty", "12")
    assert done.status == 0 and done.out.count("Krâsses") == 1
    assert len(log(capsys)) == before + 1


def test_a_krasse_named_like_markup_is_shown_once_as_typed(db_url: str, capsys: Capsys) -> None:
    """A krâsse named ``[/]`` broke rich's markup midway: the result was printed twice,
    the second time with our own tags showing. ``[bold]`` was read as a style."""
    for name in ("[/]", "[bold red]x[/]"):
        shown = invoke(capsys, "test", "krasses", "--bonus", "5", "--difficulty", "10",
                       "--krasse", f"{name}:5")  # fmt: skip
        assert shown.status == 0, shown.err
        assert shown.out.count("Krâsses") == 1 and f"« {name} »" in shown.out
        assert "[bold" not in shown.out.replace(name, "")


def test_a_logged_commands_options_are_data_not_python_reprs(db_url: str, capsys: Capsys) -> None:
    """A parsed option (a Krâsses difficulty, a krâsse) was logged as its Python repr,
    ``"Difficulty(value=15, name='Moyen')"``: it is logged as its fields."""
    new_zed(capsys)
    done = invoke(capsys, "test", "krasses", "--bonus", "1", "--difficulty", "moyen",
                  "--krasse", "pluie:2")  # fmt: skip
    assert done.status == 0, done.err
    params = log(capsys)[-1]["params"]
    assert params["difficulty"] == {"value": 15, "name": "Moyen"}
    assert params["krasse"] == [{"name": "pluie", "value": 2}]


def test_the_log_says_each_procedure_s_result_in_words(
    db_url: str, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``meneur log``'s « Result » of Obscur's oppositions, fights, shots, journeys,
    purchases and care, and of Légendes' tests and help, in the reader's words
    (System.log_summary): it showed raw JSON (« {"system":"obscur",... ») or raw values
    (« vainqueur : b », « issue : advantage »)."""
    from meneur.campaign.summary import entry_summary

    monkeypatch.setenv("MENEUR_LOG", "1")
    obscur = ROOT / "examples" / "obscur"
    a, b, m = (str(obscur / f"{n}.toml") for n in ("garance", "corbeau", "mireille"))
    rolls = [
        ["fight", "obscur", "--a", a, "--b", b, "--rounds", "3", "--seed", "3"],
        ["fight", "obscur", "--shoot", "--a", m, "--b", b, "--seed", "3"],
        ["survive", "obscur", "--milieu", "Forêt tempérée", "--party", a, "--party", b,
         "--days", "2", "--seed", "1"],
        ["acquire", "obscur", "--rarity", "3", "--price", "12", "--seed", "2"],
        ["aid", "legendes", "--helper-dice", "2", "--helped-dice", "3", "--seed", "11"],
        ["hurt", "obscur", "--sheet", a, "--fall", "6", "--dry-run", "--seed", "2"],
    ]  # fmt: skip
    for roll in rolls:
        assert invoke(capsys, *roll).status == 0, roll
    bruno, ninon = (str(obscur / f"{n}.toml") for n in ("bruno", "ninon"))
    marsh = str(obscur / "marais.toml")
    rolls = [  # a fumbled shot; a journey and a drowning that end in a coma and a death
        ["fight", "obscur", "--a", m, "--b", bruno, "--shoot", "--faces", "1,1,1,1",
         "--distance", "longue"],
        ["survive", "obscur", "--milieu-file", marsh, "--party", bruno, "--party", ninon,
         "--party", a, "--days", "25", "--seed", "3"],
        ["hurt", "obscur", "--sheet", a, "--drown", "2", "--steps", "3", "--seed", "1",
         "--dry-run"],
        ["heal", "obscur", "--sheet", a, "--morale", "--dry-run", "--faces", "6"],
        ["oppose", "obscur", "--dice", "3", "--vs", "4", "--seed", "2"],
        ["test", "legendes", "--domain", "legendary", "--vs", "heroique", "--seed", "7"],
    ]  # fmt: skip
    for roll in rolls:
        assert invoke(capsys, *roll).status == 0, roll
    said = [entry_summary(entry) for entry in log(capsys)]
    assert said[:6] == [
        "pas de vainqueur après 3 tours",
        "Mireille l'Arbalétrière → Corbeau le Lancier : touché (Bras), dégâts 2",
        "2 jours : Garance l'Épéiste 14/14, Corbeau le Lancier 16/16",
        "indisponible",
        "aide : aucun effet (l'aidé a fait mieux), 9 contre 13",
        "Garance l'Épéiste : Vie 14 → 8/14",
    ], said
    assert said[6] == "Mireille l'Arbalétrière → Bruno le Gardien : maladresse"
    assert (
        "Bruno le Gardien -15/15 — mort" in said[7] and "Garance l'Épéiste -9/14 — coma" in said[7]
    )
    assert said[8] == "Garance l'Épéiste : Vie 14 → 14/14 — coma"
    assert said[9].startswith("moral : Garance l'Épéiste +"), said[9]  # O-34, not its Vie
    assert said[10:] == ["b l'emporte de 4 (0 contre 4)", "héros : avantage (9 contre 7)"]


def test_the_log_says_tests_oppositions_and_fights_in_words(
    db_url: str, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Tunnels opposition (T-9), a Tunnels fight (T-10) and a Krâsses opposition (K-4)
    in ``meneur log`` read « a l'emporte de 1 (2 contre 1) », « Héros l'emporte après 8
    tours » and « a l'emporte (23 contre 18), par un 20 ou un 1 naturel »: they showed
    « vainqueur : a », which says neither the score, nor who a is, nor why. A test says
    its verdict against its goal (« échec critique (1 succès sur 2) »), where it showed
    « succès : 1 » or « total : 8 » alone."""
    from meneur.campaign.summary import entry_summary

    monkeypatch.setenv("MENEUR_LOG", "1")
    rolls = [  # the seed's example of T-9: 1-1-4-6 against 2-3-5, 2 against 1
        ["oppose", "tunnels", "--dice", "4", "--vs", "3", "--faces", "1,1,4,6",
         "--vs-faces", "2,3,5"],
        ["oppose", "tunnels", "--dice", "2", "--vs", "2", "--faces", "2,3", "--vs-faces", "4,6"],
        ["oppose", "tunnels", "--dice", "1", "--vs", "1", "--faces", "4", "--vs-faces", "5"],
        ["oppose", "krasses", "--bonus", "3", "--vs-bonus", "2", "--faces", "8",
         "--vs-faces", "19"],
        ["oppose", "krasses", "--bonus", "3", "--vs-bonus", "9", "--faces", "20",
         "--vs-faces", "9"],
        ["oppose", "krasses", "--bonus", "3", "--vs-bonus", "3", "--faces", "10",
         "--vs-faces", "10"],
        ["fight", "tunnels", "--dice", "3", "--endurance", "6", "--vs-mr", "3", "--seed", "2"],
        ["test", "tunnels", "--dice", "3", "--threshold", "2", "--faces", "2,5,1"],
        ["test", "tunnels", "--dice", "4", "--threshold", "2", "--faces", "1,1,1,6",
         "--explode", "never"],
        ["test", "tunnels", "--dice", "4", "--threshold", "2", "--faces", "6,6,6,2",
         "--explode", "never"],
        ["test", "tunnels", "--dice", "4", "--threshold", "5", "--faces", "6,6,6,2",
         "--explode", "never"],
        ["test", "krasses", "--bonus", "3", "--difficulty", "15", "--faces", "5"],
        ["test", "krasses", "--bonus", "3", "--difficulty", "25", "--faces", "20"],
        ["test", "krasses", "--bonus", "30", "--difficulty", "15", "--faces", "1"],
        ["cooperate", "krasses", "--member", "3:2", "--member", "1:1", "--difficulty", "15",
         "--faces", "5,19"],
        ["test", "obscur", "--dice", "2", "--difficulty", "2", "--faces", "1,1"],
        ["test", "obscur", "--dice", "2", "--difficulty", "1", "--faces", "6,1"],
        ["fight", "tunnels", "--dice", "3", "--endurance", "6", "--vs-mr", "1", "--faces",
         "4,5,6", "--vs-faces", "2"],
    ]  # fmt: skip
    for roll in rolls:
        done = invoke(capsys, *roll)
        assert done.status == 0, (roll, done.err)
    said = [entry_summary(entry) for entry in log(capsys)]
    assert said == [
        "a l'emporte de 1 (2 contre 1)",
        "b l'emporte de 2 (0 contre 2)",
        "égalité (1 contre 1)",
        "b l'emporte (11 contre 21)",
        "a l'emporte (23 contre 18), par un 20 ou un 1 naturel",
        "a l'emporte (13 contre 13), égalité au PJ",
        "Héros l'emporte après 8 tours",
        "échec (1 succès sur 2)",
        "échec critique (1 succès sur 2)",  # T-8 beats T-7's three 6s
        "réussite exceptionnelle (3 succès sur 2)",
        "échec (3 succès sur 5)",  # three 6s, short of the threshold: T-3 decides
        "échec (8 contre 15)",
        "réussite sur un 20 naturel (23 contre 25)",  # K-2
        "échec sur un 1 naturel (31 contre 15)",
        "réussite (20 contre 15)",
        "maladresse (0 succès sur 2)",  # O-3
        "réussite (2 succès sur 1)",  # O-2: a 6 counts two
        "Héros l'emporte après 1 tour",
    ], said


def test_a_fighter_cannot_fight_their_own_kept_sheet(
    db_url: str, capsys: Capsys, tmp_path: Path
) -> None:
    """A Tunnels fight of a stored character against itself (« Zed » against « zed ») saved
    both sides' ends to the one sheet, the loser's last: Zed won and was saved dead. It is
    refused, as Obscur refused it, for a file too however named (a link); unsaved, a sheet
    may still face itself (nothing is written)."""
    new_zed(capsys)
    before = invoke(capsys, "character", "show", "Zed", "--json").json()
    done = invoke(capsys, "fight", "tunnels", "--character", "Zed", "--vs-character", "zed",
                  "--seed", "2")  # fmt: skip
    assert done.status == 2 and "propre fiche" in done.err, done.err
    assert invoke(capsys, "character", "show", "Zed", "--json").json() == before
    sheet = tmp_path / "z.json"
    made = invoke(capsys, "character", "new", "tunnels", "Kim", "--seed", "3", "--out", str(sheet))
    assert made.status == 0, made.err
    link = tmp_path / "link.json"
    link.symlink_to(sheet)
    kept = sheet.read_bytes()
    done = invoke(capsys, "fight", "tunnels", "--sheet", str(sheet), "--vs-sheet", str(link),
                  "--save", "--seed", "2")  # fmt: skip
    assert done.status == 2 and sheet.read_bytes() == kept, done.err
    done = invoke(capsys, "fight", "tunnels", "--sheet", str(sheet), "--vs-sheet", str(link),
                  "--seed", "2")  # fmt: skip
    assert done.status == 0 and sheet.read_bytes() == kept, done.err


class _Die:
    """A toy check for :func:`recording.judge`: one fair die of ``sides``, scored by
    ``score`` (the face itself by default)."""

    name = "die"

    def __init__(self, sides: int, score: Any = None) -> None:
        self.sides = sides
        self.scored = score or (lambda face: face)

    def key(self, outcome: int) -> int:
        return outcome

    def score(self, key: int) -> float:
        return float(self.scored(key))

    def score_odds(self, params: Any) -> dict[int, int]:
        return {face: 1 for face in range(1, self.sides + 1)}


def test_a_judged_rolls_variance_is_the_exact_variance_of_its_rank() -> None:
    """``judge``: ``rank`` is P(worse) + P(as good)/2 and ``var`` its exact variance under
    fair dice (docs/campaign.md, « La chance de chaque joueur »: the ranks of a player
    add up, with their variances). On a fair d6 the ranks are (2k - 1)/12, of variance
    (6² - 1)/(12·6²) = 35/432; scored only as « 4 or more », two results of 1/2 each
    rank 1/4 and 3/4, of variance 1/16."""
    d6 = _Die(6)
    for face in range(1, 7):
        verdict = recording.judge(d6, None, face)  # type: ignore[arg-type]
        assert verdict == {
            "check": "die",
            "rank": float(Fraction(2 * face - 1, 12)),
            "var": pytest.approx(float(Fraction(35, 432)), abs=1e-15),
        }
    high = _Die(6, lambda face: face >= 4)
    assert recording.judge(high, None, 2) == {  # type: ignore[arg-type]
        "check": "die",
        "rank": 0.25,
        "var": pytest.approx(float(Fraction(1, 16)), abs=1e-15),
    }
    assert recording.judge(high, None, 5)["rank"] == 0.75  # type: ignore[arg-type,index]


def test_a_judged_checks_variance_is_that_of_its_brute_force_ranks() -> None:
    """The variance ``judge`` gives a real check (Tunnels T-5, three dice at threshold 2,
    no explosion) is E[rank²] - E[rank]² over the outcomes enumerated by brute force."""
    check = find_system("tunnels").checks()["test"]
    params = check.examples()[0]
    exact = brute_force(check, params)
    scores: dict[float, Fraction] = {}
    for key, weight in exact.items():
        score = check.score(key)
        assert score is not None
        scores[score] = scores.get(score, Fraction(0)) + Fraction(weight, exact.total)
    ranks = {
        score: sum((p for s, p in scores.items() if s < score), Fraction(0)) + p / 2
        for score, p in scores.items()
    }
    mean = sum(p * ranks[score] for score, p in scores.items())
    variance = sum(p * ranks[score] ** 2 for score, p in scores.items()) - mean**2
    assert mean == Fraction(1, 2) and variance > 0
    for key in exact:
        verdict = recording.judge(check, params, outcome_with_key(check, params, key))
        assert verdict is not None
        assert verdict["rank"] == pytest.approx(float(ranks[check.score(key)]), abs=1e-12)
        assert verdict["var"] == pytest.approx(float(variance), abs=1e-12)


def _observed_rolls(monkeypatch: pytest.MonkeyPatch, rolls: int, seconds: float) -> Any:
    """A fresh recording that saw ``rolls`` Tunnels tests, each one's luck taking exactly
    ``seconds`` to judge (a fake clock: the judge advances it)."""
    from meneur.rng import SeededDice

    clock = [1000.0]
    real_judge = recording.judge

    def slow_judge(check: Any, params: Any, outcome: Any) -> Any:
        clock[0] += seconds
        return real_judge(check, params, outcome)

    monkeypatch.setattr(recording, "judge", slow_judge)
    monkeypatch.setattr("time.perf_counter", lambda: clock[0])
    record = recording.Recording()
    stream = recording.LoggedDice(SeededDice(5), record)
    check = find_system("tunnels").checks()["test"]
    for _ in range(rolls):
        check.roll(check.examples()[0], [stream])
    monkeypatch.undo()
    return record


def test_a_log_entry_judges_the_luck_of_its_first_twelve_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``MAX_JUDGED``: a log entry judges at most 12 checks (a long fight is judged on its
    first rounds); every roll is still kept for the replay."""
    assert recording.MAX_JUDGED == 12
    record = _observed_rolls(monkeypatch, 13, 0.0)
    assert len(record.steps) == 13
    assert len(record.judged) == 12
    assert {verdict["check"] for verdict in record.judged} == {"test"}


def test_a_log_entry_spends_half_a_second_judging_luck_in_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``LUCK_SECONDS``: the seconds one entry spends judging its rolls' luck add up, and
    once 0.5 s are spent (not merely begun) the rest stands unjudged: at 1/8 s a judgement,
    the first four are judged (exactly 0.5 s spent), the fifth and sixth are not."""
    record = _observed_rolls(monkeypatch, 6, 0.125)
    assert len(record.steps) == 6
    assert len(record.judged) == 4
    assert record.luck_spent == 0.5
    record = _observed_rolls(monkeypatch, 2, 0.0)
    assert len(record.judged) == 2  # judging in no time leaves the budget whole


def test_luck_is_cut_by_a_deadline_only_in_the_main_thread() -> None:
    """``_deadline``: in the main thread, a judgement running past its seconds is stopped
    (the roll stands unjudged); elsewhere (the live table's writer threads) nothing is
    limited, and no signal handler is touched."""
    import threading
    import time

    with pytest.raises(recording._OutOfTime), recording._deadline(0.01):
        time.sleep(2)
    failures: list[BaseException] = []

    def in_a_thread() -> None:
        try:
            with recording._deadline(0.01):
                time.sleep(0.05)
        except BaseException as error:
            failures.append(error)

    worker = threading.Thread(target=in_a_thread)
    worker.start()
    worker.join()
    assert failures == []


def test_a_stored_sheet_kept_from_another_command_reads_the_stored_character(
    db_url: str, capsys: Capsys
) -> None:
    """``read_stored``: a ``StoredSheet`` path kept from another command (not read by this
    one yet) reads the character as stored, and is then checked like one read."""
    new_zed(capsys)
    path = recording.StoredSheet.of("Zed", "tunnels")
    recording.begin()
    try:
        assert path.read_document() == sheet_of("Zed")
        assert recording.current().loaded["Zed"] == sheet_of("Zed")
    finally:
        recording.abandon()


def test_a_newcomers_first_character_logs_its_creation_in_the_default_database(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zero setup (docs/campaign.md, « Zéro installation »): no ``MENEUR_DB_URL``, no
    default database yet, and ``character new`` (T-1) still logs its creation rolls from
    the first die (``creating_database``), in the default file it creates."""
    from meneur.campaign import paths

    monkeypatch.delenv("MENEUR_DB_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = paths.default_path()
    assert db.is_relative_to(tmp_path) and not db.exists()
    sheet = new_zed(capsys)
    assert db.is_file() and sheet_of("Zed") == sheet
    (entry,) = log(capsys)
    assert (entry["who"], entry["system"], entry["kind"]) == ("Zed", "tunnels", "character new")
    (step,) = entry["params"]["rolls"]
    assert (step["check"], step["faces"]) == ("create", entry["faces"])
    assert len(entry["faces"][0]) >= 6


def test_record_names_the_system_and_the_kind_from_the_commands_words(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``record``: one entry with the faces drawn since the last one; ``words`` are the
    command's, the last one its system when the result names none (« character new
    tunnels »: system ``tunnels``, kind ``character new``, as ``meneur log`` shows it);
    ``meneur roll`` (one word) or no words: a ``generic`` ``roll``; nothing drawn since:
    no entry."""
    from meneur.rng import make_source

    monkeypatch.setenv("MENEUR_LOG", "1")
    recording.begin()
    try:
        (stream,) = recording.dice_for([make_source(seed=1)], explicit=True)
        faces = list(stream.roll(6, 3))
        words = ["character", "new", "tunnels"]
        entry = recording.record({"total": sum(faces)}, words, {"seed": 1})
        assert entry is not None
        assert (entry["system"], entry["kind"], entry["source"]) == (
            "tunnels",
            "character new",
            "seeded",
        )
        assert entry["faces"] == [faces] and entry["params"] == {"seed": 1, "rolls": []}
        for words in (["roll"], []):  # ``meneur roll``; a caller that says no words
            more = list(stream.roll(6, 1))
            entry = recording.record({"total": more[0]}, words)
            assert entry is not None
            assert (entry["system"], entry["kind"], entry["faces"]) == ("generic", "roll", [more])
            assert entry["params"] == {"rolls": []}
        assert recording.record({"total": 0}, ["roll"]) is None
    finally:
        recording.abandon()
