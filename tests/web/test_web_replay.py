"""Web rolls replay like CLI rolls: the table logs each roll's canonical params (issue 14).

The main test of the four systems and a Tunnels melee exchange at the tracker, rolled
through the table, export to a log whose every entry ``meneur verify --replay`` resolves
again through the registry.
"""

from __future__ import annotations

from meneur.campaign.chain import verify_log
from meneur.campaign.replay import STEPS, replay_entries
from web.web_helpers import TUNNELS, Table

FORMS = {
    "tunnels": (
        TUNNELS,
        "Force",
        {},
    ),
    "obscur": ({}, "Agilité", {"difficulty": 1}),
    "krasses": (
        {"characteristics": "Force=2", "skills": "Bagarre=3"},
        "Bagarre",
        {"difficulty": 12},
    ),
    "legendes": ({"legendary": "Épée", "secondary": "Ruse"}, "Épée", {"level": "elite"}),
}


def test_web_rolls_of_the_four_systems_replay(table: Table) -> None:
    for system, (fields, trait, options) in FORMS.items():
        name = f"Héros {system}"
        table.create(table.gm, system, name, **fields)
        entry = table.roll(table.gm, name, trait, **options)["entry"]
        assert isinstance(entry, dict) and entry["system"] == system
    csrf = table.csrf(table.gm)
    for name, health in (("Héros tunnels", ""), ("Orque", "4")):
        table.client.post(
            f"{table.gm}/combat",
            data={"csrf": csrf, "action": "add", "name": name, "health": health},
        )
    answer = table.client.post(
        f"{table.gm}/combat", data={"csrf": csrf, "action": "exchange", "index": "0", "other": "1"}
    )
    assert answer.status_code == 200
    document = table.store.export_log()
    verify_log(document)
    entries = document["entries"]
    assert [e["kind"] for e in entries] == ["test"] * 4 + ["oppose"]
    exchange = entries[-1]["params"][STEPS]
    assert [(s["system"], s["check"]) for s in exchange] == [("tunnels", "fight")]
    report = replay_entries(entries)
    assert report.problems == () and report.entries == report.rolls == 5


def _replays(table: Table, fighters: tuple[str, str], **faces: str) -> list[tuple[str, str]]:
    """Both fighters join the tracker and exchange once; the log replays with no problem."""
    csrf = table.csrf(table.gm)

    def post(**data: str) -> None:
        answer = table.client.post(f"{table.gm}/combat", data={"csrf": csrf, **data})
        assert answer.status_code == 200, answer.text

    for name in fighters:
        post(action="add", name=name)
    post(action="exchange", index="0", other="1", **faces)
    entries = table.store.export_log()["entries"]
    report = replay_entries(entries)
    assert report.problems == () and report.rolls == len(entries) == 1, report
    return [(s["system"], s["check"]) for e in entries for s in e["params"][STEPS]]


def test_web_obscur_melee_round_replays(table: Table) -> None:
    """Issue 14: the tracker's Obscur melee round (O-11..O-13) rolls the system's fight
    procedure and logs its canonical params: it replays."""
    table.create(table.gm, "obscur", "Garou")
    table.create(table.gm, "obscur", "Isaure", **{"Agilité": "4", "abilities": "Bagarre=2"})
    assert _replays(table, ("Garou", "Isaure")) == [("obscur", "fight")]


def test_web_legendes_exchange_replays(table: Table) -> None:
    """Issue 14: the tracker's Légendes exchange (L-10) rolls the scene-roll procedure."""
    table.create(table.gm, "legendes", "Aube", legendary="Épée")
    table.create(table.gm, "legendes", "Brune", secondary="Arc")
    found = _replays(table, ("Aube", "Brune"), faces="4 4 4", vs_faces="3 4")
    assert found == [("legendes", "scene-roll")]
