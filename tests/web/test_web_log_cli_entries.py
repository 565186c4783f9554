"""The command line's rolls in the live table's log: every rolling command's entry reads in
the reader's words, with its result, and none breaks the page.

The command line logs its rolls by the command's words (« character new ») and with its
own outcomes (a cooperation's members without names, a help between two pools of dice).
The table titled such a line « character new » on a French page, showed no result for a
fight, a day of survival or a new character, named a help's heroes « ? », and a
cooperation rolled at the command line stopped the whole page (its members have no name).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from meneur.campaign.store import Store
from meneur.campaign.summary import entry_summary
from meneur.locale import set_language
from meneur.systems.at_table import web_adapters
from meneur.web.systems import install
from meneur.web.views import KIND_TITLES, log_line
from web.web_helpers import Table

ROOT = Path(__file__).resolve().parents[2]
SIX = ("Force", "Dextérité", "Constitution", "Volonté", "Intelligence", "Charisme")
"""T-1's six characteristics, in the text's order."""
EXAMPLES = ROOT / "examples"

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("test", "tunnels", "--dice", "3", "--threshold", "2"),
    ("roll", "3d6"),
    ("character", "new", "tunnels", "Pip"),
    ("oppose", "tunnels", "--dice", "3", "--vs", "2"),
    ("fight", "tunnels", "--dice", "3", "--endurance", "5", "--vs-mr", "2"),
    ("test", "obscur", "--sheet", "mireille.toml", "--trait", "Acrobaties"),
    ("fight", "obscur", "--a", "garance.toml", "--b", "corbeau.toml"),
    ("acquire", "obscur", "--rarity", "2"),
    ("survive", "obscur", "--milieu-file", "marais.toml", "--party", "ninon.toml"),
    ("hurt", "obscur", "--sheet", "corbeau.toml", "--fall", "5", "--dry-run"),
    ("heal", "obscur", "--sheet", "isaure-blessee.json", "--healer", "ninon.toml", "--dry-run"),
    ("rest", "obscur", "--sheet", "isaure-froid.json", "--no-rest", "--days", "30", "--dry-run"),
    ("march", "obscur", "--sheet", "mireille.toml", "--hours", "4", "--dry-run"),
    ("test", "krasses", "--bonus", "3", "--difficulty", "moyen"),
    ("cooperate", "krasses", "--member", "2:1", "--member", "3:2", "--difficulty", "moyen"),
    ("test", "legendes", "--dice", "3", "--vs", "elite"),
    ("aid", "legendes", "--helper-dice", "2", "--helped-dice", "3"),
    ("scene", "legendes", "roll", "lyssia.json", "--vs", "Garde"),
    ("scene", "legendes", "aid", "lyssia.json", "--helper", "Brune", "--helper-dice", "2"),
)
"""One command per kind of entry the command line logs, every system's."""
SCENE = (
    ("scene", "legendes", "start", "lyssia.json"),
    ("scene", "legendes", "add", "lyssia.json", "Garde", "--level", "elite"),
)
"""The scene the scene's rolls are made in (no dice: nothing logged)."""

FRENCH = {
    "test": "test",
    "roll": "jet de dés",
    "oppose": "opposition",
    "fight": "combat",
    "character new": "nouveau personnage",
    "acquire": "acquisition",
    "cooperate": "coopération (K-7)",
    "aid": "aide (L-11)",
    "survive": "survie",
    "hurt": "dommages",
    "heal": "soins",
    "rest": "récupération",
    "march": "marche",
    "scene roll": "jet de scène",
    "scene aid": "aide dans la scène",
}
"""Each kind's title on a French page (a test with a trait is titled by its trait; a
system that describes the kind titles it with its rule: the cooperation, the help)."""


def _rolled(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, Any]]:
    """Every command of :data:`COMMANDS` run and logged; the log's entries."""
    for folder in ("obscur", "legendes"):
        for sheet in (EXAMPLES / folder).iterdir():
            shutil.copy(sheet, tmp_path / sheet.name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MENEUR_LOG", "1")
    for command in SCENE:
        assert invoke(capsys, *command).status == 0, command
    for seed, command in enumerate(COMMANDS):
        done = invoke(capsys, *command, "--seed", str(seed + 1))
        assert done.status == 0, (command, done.err)
    store = Store(f"sqlite:///{tmp_path / 'private.db'}")
    try:
        return list(store.export_log()["entries"])
    finally:
        store.close()


def test_every_rolling_command_reads_in_words_with_its_result_on_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = _rolled(capsys, tmp_path, monkeypatch)
    kinds = {str(entry["kind"]) for entry in entries}
    assert kinds == set(FRENCH), "each kind of the command line is rolled here"
    install(web_adapters())
    try:
        for entry in entries:
            set_language("fr")
            line = log_line(entry, "public")
            trait = (entry.get("params") or {}).get("trait")
            assert line.title == (trait or FRENCH[entry["kind"]]), entry["kind"]
            assert line.verdict.words, entry["kind"]  # its result, as `meneur log` says it
            assert "?" not in line.verdict.words + line.verdict.detail, (entry["kind"], line)
            if entry["kind"] == "character new":  # T-1: the six characteristics drawn
                drawn = entry["outcome"]["characteristics"]
                values = ", ".join(f"{name} {value}" for name, value in drawn.items())
                assert line.verdict.words == f"Pip : {values}"
                assert list(drawn) == list(SIX)
            set_language("en")
            english = log_line(entry, "public")
            if entry["kind"] in KIND_TITLES and not trait:
                assert english.title.startswith(KIND_TITLES[entry["kind"]]), entry["kind"]
    finally:
        set_language("fr")


def test_a_cooperation_rolled_at_the_command_line_names_its_members_by_number(
    capsys: pytest.CaptureFixture[str], table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """K-7 at the command line: members are bonuses, not sheets; the line numbers them as
    the command's table does, where the page stopped on their missing names."""
    monkeypatch.setenv("MENEUR_LOG", "1")
    url = table.store.engine.url.render_as_string(hide_password=False)
    monkeypatch.setenv("MENEUR_DB_URL", url)  # the command line logs into the table's campaign
    command = ("cooperate", "krasses", "--member", "2:1", "--member", "3:2", "--faces", "5,19")
    assert invoke(capsys, *command, "--difficulty", "moyen").status == 0
    page = table.client.get(table.gm)
    assert page.status_code == 200
    entries = re.findall(r'<li class="entry.*?</li>', page.text, re.DOTALL)
    assert len(entries) == 1
    words = " ".join(re.sub(r"<[^>]+>", " ", entries[0]).split())
    assert "coopération ( K-7 )" in words  # the rule id is a link to the rules panel
    assert "Réussite · #2 mène : total 22 contre 15" in words
    assert "#1 7 (naturel 5) ; #2 22 (naturel 19)" in words


MALFORMED: list[dict[str, Any]] = [
    {"system": "krasses", "kind": "cooperate", "outcome": {"members": 3, "passed": True}},
    {"system": "tunnels", "kind": "oppose", "outcome": {"names": ["a"], "a": 1, "winner": "a"}},
    {"system": "obscur", "kind": "melee", "outcome": {"names": ["a", "b"], "rounds": "x"}},
    {"system": "obscur", "kind": "melee", "outcome": {"names": 2.5}},
    {"system": "obscur", "kind": "melee", "outcome": {"names": {}, "round": "a"}},
    {"system": "obscur", "kind": "shot", "outcome": {"names": ["a", "b"]}},
    {"system": "obscur", "kind": "shot", "outcome": {"shot": ["x"], "names": {}}},
    {"system": "legendes", "kind": "aid", "outcome": {"helper": "Brune", "effect": "plus_1"}},
    {"system": "legendes", "kind": "test", "outcome": "a"},
    {"system": "obscur", "kind": "edit", "outcome": {}, "params": {"changes": 10**30}},
    {"system": "tunnels", "kind": "edit", "outcome": {}, "params": [0]},
    {"system": "tunnels", "kind": "roll", "outcome": {"passed": []}, "params": True},
    {"system": "tunnels", "kind": "heal", "outcome": [[-3, {}], {}, 2.5]},
    {"system": "obscur", "kind": "chat", "outcome": [True], "params": {"trait": [""]}},
]
"""Entries whose outcome or params their system does not write (another version's): each
stopped the table's page or ``meneur log`` with a traceback (found by feeding the log's
readers random outcomes)."""


@pytest.mark.parametrize("entry", MALFORMED)
def test_an_entry_its_system_cannot_read_is_one_plain_line_of_the_log(
    entry: dict[str, Any],
) -> None:
    """Read as far as its system can, else as ``meneur log`` reads it, where it stopped the
    table's whole page or the log; a blind roll's roller still reads only that it
    happened."""
    install(web_adapters())
    whole = {"params": {}, "faces": [], "at": "2026-12-07T10:00:00Z", **entry}
    line = log_line(whole, "public")
    assert line.title and (line.verdict.words or line.verdict.detail)
    assert entry_summary(whole)
    blind = log_line(whole, "blindroll", hidden=True)
    assert blind.hidden and blind.streams == []
    assert blind.verdict.words == "Jet à l'aveugle : seul le MJ voit les dés."
