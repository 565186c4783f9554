"""No request holds the table (issue 16, point 2): exact odds run in a worker process
with a cache and a time budget; ``/odds`` is rate-limited like rolls."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import meneur.web.odds
from meneur.web.odds import SLOW, Odds
from meneur.web.state import WebSettings
from meneur.web.systems import RollOptions
from web.web_helpers import make_table

TUNNELS = {"Force": "3", "Dextérité": "4", "Constitution": "2"}


def test_a_computation_past_its_budget_is_stopped_and_remembered() -> None:
    odds = Odds(budget=0.5)
    try:
        assert odds.run(time.sleep, 60) is SLOW  # stopped, not waited for
        assert odds.run(time.sleep, 60) is SLOW  # remembered: not tried again
        assert odds.run(abs, -3) == 3  # a new worker answers the next question
        found = odds.sheet("nosuchsystem", {}, RollOptions())
        assert found is None  # the worker's own failure is no answer, never a crash
    finally:
        odds.close()


def test_questions_waiting_on_a_stopped_worker_get_no_answer_never_an_error() -> None:
    """Several questions at once on a worker stopped past its budget: each waiting one
    finds the pool broken (its processes already gone) and gets « not available »."""
    from concurrent.futures import ThreadPoolExecutor

    odds = Odds(budget=0.5)
    try:
        with ThreadPoolExecutor(6) as threads:
            found = list(threads.map(lambda n: odds.run(time.sleep, 30 + n), range(6)))
        assert all(answer is SLOW for answer in found)
        assert odds.run(abs, -4) == 4  # a new worker answers the next question
    finally:
        odds.close()


def test_odds_are_rate_limited_like_rolls(tmp_path: Path) -> None:
    for table in make_table(tmp_path, WebSettings(roll_rate=0.001, roll_burst=2)):
        table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
        asked = [
            table.client.get(f"/api{table.gm}/odds", params={"character": "Brindille"})
            for _ in range(3)
        ]
        assert [a.status_code for a in asked] == [200, 200, 429]


WORKER_MODULES = """
from meneur.systems.at_table import web_adapters
from meneur.web.odds import Odds
from meneur.web.systems import install

if __name__ == "__main__":
    install(web_adapters())
    odds = Odds()
    try:
        print("\\n".join(odds.run(eval, "sorted(__import__('sys').modules)")))
    finally:
        odds.close()
"""


def test_a_worker_starts_with_every_system_s_odds_modules_loaded(tmp_path: Path) -> None:
    """A worker's first question pays no import (a luck verdict has half a second, and a
    busy machine took longer than that to import a system's odds): the fork server
    loads what each installed system lists in ``WebAdapter.preload``."""
    import subprocess
    import sys

    from meneur.systems.at_table import web_adapters

    script = tmp_path / "worker_modules.py"
    script.write_text(WORKER_MODULES)
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True
    )
    loaded = set(run.stdout.split())
    wanted = {name for adapter in web_adapters() for name in adapter.preload}
    assert len(wanted) >= 4 and wanted <= loaded, wanted - loaded


def test_a_sheets_error_from_the_worker_reads_in_the_askers_language() -> None:
    """A sheet's error is worded in the worker process, whose language is the server's;
    and the cache kept one answer for every reader. The asker's language now travels
    with the question (and so keys the cache): a reader of English got French."""
    from meneur.locale import current_language, set_language
    from meneur.systems.obscur.web.adapter import ObscurWeb

    odds = Odds()
    before = current_language()
    try:
        broken = {"name": "Isaure", "competences": "?"}
        set_language("fr")
        french = odds.sheet(ObscurWeb(), broken, RollOptions())
        set_language("en")
        english = odds.sheet(ObscurWeb(), broken, RollOptions())
    finally:
        set_language(before)
        odds.close()
    assert french is not None and english is not None
    assert french.error == "Isaure : champ caracteristiques : champ manquant."
    assert english.error == "Isaure: field caracteristiques: missing field."


def test_T3_O34_a_trait_without_a_chance_says_why_in_the_askers_language() -> None:
    """A trait the rule refuses shows « – » on its sheet, and now the reason: named by
    its trait when others have a chance (T-3: a Force of 0 rolls no die), alone when
    every trait is refused (O-34: at 0 Volonté no test is rolled)."""
    import json

    from meneur.locale import current_language, set_language
    from meneur.rng import PhysicalDice
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.systems.tunnels.character import create
    from meneur.systems.tunnels.web.adapter import TunnelsWeb
    from meneur.web.odds import sheet_odds

    root = Path(__file__).parents[2]
    frail = create("Frêle", PhysicalDice((3,) * 6)).model_dump(mode="json")  # T-1: all 3
    frail["characteristics"]["Force"] = 0
    exhausted = json.loads((root / "examples/obscur/isaure-epuisee.json").read_text())
    before = current_language()
    try:
        tunnels = sheet_odds(TunnelsWeb(), frail, RollOptions(threshold=3), "", "fr")
        english = sheet_odds(TunnelsWeb(), frail, RollOptions(threshold=3), "", "en")
        obscur = sheet_odds(ObscurWeb(), exhausted, RollOptions(), "", "fr")
    finally:
        set_language(before)
    assert tunnels.chances["Force"] is None and tunnels.chances["Dextérité"] is not None
    assert tunnels.refused == "Force : Un jet lance au moins 1 dé, pas 0."
    assert english.refused == "Force: A test rolls at least 1 die, not 0."
    assert set(obscur.chances.values()) == {None}
    assert obscur.refused.startswith("Isaure la Fouineuse a 0 en Volonté (O-34) : incapable")
    able = {**frail, "characteristics": {**frail["characteristics"], "Force": 1}}
    healthy = sheet_odds(TunnelsWeb(), able, RollOptions(threshold=3), "", "fr")
    assert healthy.refused == "" and None not in healthy.chances.values()
    # T-6 batch by batch: the roller's choices make the chance; said, not « unknown policy »
    asked = RollOptions(threshold=3, explode="ask")
    chosen = sheet_odds(TunnelsWeb(), able, asked, "", "fr")
    assert set(chosen.chances.values()) == {None}
    assert chosen.refused.startswith("Lot par lot (T-6), la chance dépend de chacun de vos choix")


def test_O10_L12_a_roll_the_sheet_cannot_pay_shows_no_chance_and_is_not_offered() -> None:
    """O-10: a Dépassement is paid from Vécu, Volonté, Moral, never below 0; L-12: a hero
    spends only the motivation points it holds. The menu offered +3 dice for 6 points to
    a sheet holding 2, with a chance, and the roll was then refused; an address asking
    it showed that chance too. Now the menu offers what the sheet can pay, and a roll it
    cannot pay shows « – » and why."""
    import json

    from meneur.systems.legendes.web.adapter import LegendesWeb
    from meneur.systems.obscur.web.adapter import ObscurWeb
    from meneur.web.odds import sheet_odds

    root = Path(__file__).parents[2]
    isaure = json.loads((root / "examples/obscur/isaure.json").read_text())
    poor = {**isaure, "ressources": {**isaure["ressources"], "vecu": 0,
            "volonte": {"max": 6, "current": 1}, "moral": {"max": 5, "current": 1}}}  # fmt: skip
    pushes = ObscurWeb().push_chances(poor, "Bagarre", RollOptions())
    assert [(tier, dice, cost) for tier, dice, cost, _chance in pushes] == [(0, 0, 0), (1, 1, 1)]
    assert len(ObscurWeb().push_chances(isaure, "Bagarre", RollOptions())) == 4  # 17 points
    asked = RollOptions(push=2, given=frozenset({"push"}))
    found = sheet_odds(ObscurWeb(), poor, asked, "", "fr")
    assert set(found.chances.values()) == {None}
    assert (
        found.refused == "Pas assez de points pour ce Dépassement : il coûte 3, 2 sont disponibles."
    )
    assert None not in sheet_odds(ObscurWeb(), isaure, asked, "", "fr").chances.values()
    lyssia = json.loads((root / "examples/legendes/lyssia.json").read_text())  # 1 point
    spend = sheet_odds(LegendesWeb(), lyssia, RollOptions(spend=2), "", "fr")
    assert set(spend.chances.values()) == {None}
    assert spend.refused == "Lyssia a 1 point(s) de motivation, pas assez pour en dépenser 2."
    assert (
        None
        not in sheet_odds(LegendesWeb(), lyssia, RollOptions(spend=1), "", "fr").chances.values()
    )


def test_chances_past_the_budget_read_a_dash_and_why(tmp_path: Path) -> None:
    """A sheet whose chances the worker gives up (past its budget) showed « – » without a
    word, and the script kept the chances of the options asked before. Now the page and
    the odds API say why."""
    import html

    huge = {"Force": "60", "Dextérité": "60", "Constitution": "60"}  # ~0.2 s a trait
    asked = {"threshold": "30", "explode": "always"}  # a loaded machine never beats the
    for table in make_table(tmp_path):  # budget below with the answer, as a 3-die pool can
        table.create(table.gm, "tunnels", "Colosse", **huge)
        table.client.app.state.web.odds.budget = 1e-9  # type: ignore[attr-defined]
        page = html.unescape(table.client.get(table.gm, params=asked).text)
        note = "Ces chances demandent plus de calcul que la table n'en attend"
        assert f'<p class="message odds-note" role="status">{note}' in page
        assert page.count('<span class="chance">–</span>') == 6
        answer = table.client.get(
            f"/api{table.gm}/odds", params={"character": "Colosse", **asked, "threshold": "29"}
        )
        assert answer.status_code == 200 and answer.json()["traits"] == {}
        assert answer.json()["refused"].startswith(note)


def test_the_cache_forgets_the_question_asked_longest_ago_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past CACHE answers the one asked longest ago goes, never the one just computed,
    and an answer asked again is kept (each answer here is fresh random bytes: a cached
    answer is told from one computed again)."""
    monkeypatch.setattr(meneur.web.odds, "CACHE", 2)
    odds = Odds()
    try:
        first, second = odds.run(os.urandom, 8), odds.run(os.urandom, 9)
        assert odds.run(os.urandom, 8) == first  # asked again: now the most recent
        third = odds.run(os.urandom, 10)  # the cache is full: the 9 bytes go
        assert odds.run(os.urandom, 8) == first and odds.run(os.urandom, 10) == third
        assert odds.run(os.urandom, 9) != second  # computed again
    finally:
        odds.close()


def test_closing_the_odds_ends_their_worker_process() -> None:
    """The server's stop closes the odds (``Roller.close``): the worker process is gone
    when ``close`` returns, none is left behind."""
    odds = Odds()
    worker = odds.run(os.getpid)
    assert isinstance(worker, int) and worker != os.getpid()
    odds.close()
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)
