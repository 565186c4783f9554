"""Web rolls replay like CLI rolls: the table logs each roll's canonical params (issue 14).

The main test of the four systems and a Tunnels melee exchange at the tracker, rolled
through the table, export to a log whose every entry ``meneur verify --replay`` resolves
again through the registry.
"""

from __future__ import annotations

from meneur.campaign.chain import verify_log
from meneur.campaign.replay import STEPS, replay_entries
from web.web_helpers import Table

FORMS = {
    "tunnels": (
        {
            "Force": "3",
            "Dextérité": "4",
            "Constitution": "2",
            "Volonté": "3",
            "Intelligence": "2",
            "Charisme": "3",
        },
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
