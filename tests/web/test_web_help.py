"""The Légendes help at the table (L-11, issue 17) and the GM's « nouvelle scène ».

The helper rolls against the helped hero; the difference gives +1 die (6+), +2 (4–5),
+1 (2–3) or nothing but colour (0–1); a better helped score gives nothing. The effect
waits on the helped hero's sheet for their next roll of the scene, which spends it; a
helper helps once per scene; the new scene heals light wounds (L-13) and lets everyone
help again. The dice are typed through the table's dice source, so each result is known.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from meneur.campaign.chain import verify_log
from meneur.campaign.replay import STEPS, replay_entries
from meneur.campaign.summary import entry_summary
from web.web_helpers import Table, action_dice

FETCH = {"x-requested-with": "fetch"}
HELP = "/action/legendes/help"


def _heroes(table: Table) -> None:
    table.create(table.gm, "legendes", "Ysolde", legendary="Épée", secondary="Chant")
    table.create(table.gm, "legendes", "Bran", legendary="Ruse")
    table.create(table.gm, "legendes", "Cid", secondary="Arc")


def _help(table: Table, base: str, helper: str, helped: str, **fields: str) -> Any:
    form = {"csrf": table.csrf(base), "helper": helper, "helped": helped, **fields}
    return table.client.post(f"{base}{HELP}", data=form, headers=FETCH)


def _pending(table: Table, name: str) -> list[dict[str, Any]]:
    scene = table.store.character(name).sheet.get("scene") or {}
    return list(scene.get("pending_help") or [])


@pytest.mark.parametrize(
    ("faces", "effect", "extra_dice", "bonus"),
    [
        ((6, 3, 1, 1, 3), "extra_die", 1, 0),  # Ruse 10 against Chant 4: difference 6
        ((5, 3, 1, 1, 3), "plus_2", 0, 2),  # 9 against 4: 5
        ((4, 3, 1, 1, 3), "plus_2", 0, 2),  # 8 against 4: 4
        ((3, 3, 1, 1, 3), "plus_1", 0, 1),  # 7 against 4: 3
        ((2, 2, 1, 1, 2), "plus_1", 0, 1),  # 5 against 3: 2
        ((2, 1, 1, 1, 2), "cosmetic", 0, 0),  # 4 against 3: 1
        ((1, 1, 1, 1, 2), "cosmetic", 0, 0),  # 3 against 3: 0
        ((1, 1, 1, 2, 2), "none", 0, 0),  # 3 against 4: the helped one scores higher
    ],
)
def test_L11_the_difference_gives_the_helped_heros_bonus(
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    faces: tuple[int, ...],
    effect: str,
    extra_dice: int,
    bonus: int,
) -> None:
    """L-11: Bran (Ruse, legendary: 3 dice) helps Ysolde (Chant, secondary: 2 dice)."""
    _heroes(table)
    action_dice(monkeypatch, *faces)
    answer = _help(table, table.gm, "Bran", "Ysolde", helper_trait="Ruse", helped_trait="Chant")
    assert answer.status_code == 200, answer.text
    (entry,) = table.store.rolls()
    assert entry["kind"] == "aid" and entry["faces"] == [list(faces[:3]), list(faces[3:])]
    assert entry["outcome"]["effect"] == effect
    waiting = _pending(table, "Ysolde")
    if extra_dice or bonus:
        assert waiting == [
            {"helper": "Bran", "effect": effect, "extra_dice": extra_dice, "bonus": bonus}
        ]
    else:
        assert waiting == []


def test_L11_the_help_applies_to_the_helped_heros_next_roll_only(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """+2 waits on Ysolde's card and in her chances, her next roll takes it, the one after
    does not; the help's log line says what it gives."""
    _heroes(table)
    before = table.client.get(
        f"/api{table.gm}/odds", params={"character": "Ysolde", "level": "heroique"}
    ).json()["traits"]["Épée"]["exact"]
    action_dice(monkeypatch, 5, 3, 1, 1, 3)  # 9 against 4: +2
    assert _help(table, table.gm, "Bran", "Ysolde", helped_trait="Chant").status_code == 200
    page = table.client.get(table.gm).text
    assert "Aide en attente (L-11)</b> +2 de Bran" in page
    assert "Ysolde obtient +2 à son prochain jet de la scène" in page
    helped = table.client.get(
        f"/api{table.gm}/odds", params={"character": "Ysolde", "level": "heroique"}
    ).json()["traits"]["Épée"]["exact"]
    assert helped != before
    first = table.roll(table.gm, "Ysolde", "Épée", level="heroique")["entry"]
    second = table.roll(table.gm, "Ysolde", "Épée", level="heroique")["entry"]
    assert isinstance(first, dict) and isinstance(second, dict)
    assert (first["params"]["bonus"], second["params"]["bonus"]) == (2, 0)
    assert _pending(table, "Ysolde") == []
    after = table.client.get(
        f"/api{table.gm}/odds", params={"character": "Ysolde", "level": "heroique"}
    ).json()["traits"]["Épée"]["exact"]
    assert after == before


def test_L11_an_extra_die_goes_to_the_next_opposed_roll_at_the_tracker(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next roll may be an exchange of the tracker: it rolls the die and spends it."""
    _heroes(table)
    action_dice(monkeypatch, 6, 6, 6, 1, 1)
    assert _help(table, table.gm, "Bran", "Ysolde", helped_trait="Chant").status_code == 200
    monkeypatch.undo()
    csrf = table.csrf(table.gm)
    for name, level in (("Ysolde", ""), ("Loup", "elite")):
        table.client.post(
            f"{table.gm}/combat",
            data={"csrf": csrf, "action": "add", "name": name, "level": level},
        )
    answer = table.client.post(
        f"{table.gm}/combat",
        data={"csrf": csrf, "action": "exchange", "index": "0", "other": "1", "trait": "Épée"},
    )
    assert answer.status_code == 200
    exchange = table.store.rolls()[-1]
    assert len(exchange["faces"][0]) == 4  # Épée's 3 dice and the help's one
    assert _pending(table, "Ysolde") == []


def test_L11_a_helper_helps_once_per_scene_until_the_gm_starts_a_new_one(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once per helper per scene, whoever they help; « Nouvelle scène » lets them help
    again, drops the help not used and heals light wounds (L-13)."""
    _heroes(table)
    action_dice(monkeypatch, 6, 6, 6, 1, 1)
    assert _help(table, table.gm, "Bran", "Ysolde", helped_trait="Chant").status_code == 200
    again = _help(table, table.gm, "Bran", "Cid")
    assert again.status_code == 400
    assert again.json()["error"] == (
        "Bran a déjà aidé dans cette scène (L-11 : une fois par aidant et par scène)."
    )
    assert "Ont déjà aidé dans cette scène : Bran." in table.client.get(table.gm).text
    csrf = table.csrf(table.gm)
    table.client.post(
        f"{table.gm}/sheet", data={"csrf": csrf, "character": "Cid", "wound": "light"}
    )
    new = table.client.post(f"{table.gm}/action/legendes/scene", data={"csrf": csrf}, headers=FETCH)
    assert new.status_code == 200, new.text
    assert _pending(table, "Ysolde") == []
    assert table.store.character("Cid").sheet["wound"] == "none"
    page = re.sub(r"<[^>]+>", "", table.client.get(table.gm).text)  # rule ids are links
    assert "Blessures légères guéries (L-13) : Cid" in page
    assert _help(table, table.gm, "Bran", "Cid").status_code == 200
    kinds = [entry["kind"] for entry in table.store.rolls()]
    assert kinds == ["aid", "edit", "scene", "aid"]
    scene = table.store.rolls()[2]  # meneur log
    assert entry_summary(scene) == "nouvelle scène · Blessures légères guéries (L-13) : Cid"


def test_only_the_gm_starts_a_new_scene(table: Table) -> None:
    _heroes(table)
    player = table.join("Alice")
    answer = table.client.post(
        f"{player}/action/legendes/scene", data={"csrf": table.csrf(player)}, headers=FETCH
    )
    assert answer.status_code == 400 and "MJ" in answer.json()["error"]
    assert table.store.rolls() == []


@pytest.mark.parametrize(
    ("helper", "helped", "fields", "message"),
    [
        ("Personne", "Ysolde", {}, "Personne"),
        ("Bran", "Aldo", {}, "Aldo ne joue pas à Légendes."),
        ("Bran", "Bran", {}, "ne peut pas s'aider lui-même"),
        ("Bran", "Ysolde", {"modifier": "1000"}, "Modificateur"),
        ("Bran", "Ysolde", {"helper_trait": "Épée"}, "Épée"),
    ],
)
def test_a_refused_help_says_why_in_one_line_and_logs_nothing(
    table: Table, helper: str, helped: str, fields: dict[str, str], message: str
) -> None:
    """Unknown hero, a hero of another system, oneself, a bad number, a domain the helper
    does not have."""
    _heroes(table)
    table.create(table.gm, "krasses", "Aldo", characteristics="Force=2", skills="Bagarre=3")
    answer = _help(table, table.gm, helper, helped, **fields)
    assert answer.status_code == 400, answer.text
    assert message in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert table.store.rolls() == []
    assert _pending(table, "Ysolde") == []


def test_a_player_helps_only_with_their_own_hero(table: Table) -> None:
    _heroes(table)
    player = table.join("Alice")
    csrf = table.csrf(table.gm)
    table.client.post(
        f"{table.gm}/seats",
        data={"csrf": csrf, "action": "assign", "character": "Bran", "holder": "1"},
    )
    refused = _help(table, player, "Ysolde", "Bran")
    assert refused.status_code == 400 and "Ysolde" in refused.json()["error"]
    assert _help(table, player, "Bran", "Ysolde").status_code == 200


def test_a_secret_help_never_shows_on_a_card_read_by_someone_who_may_not_see_it(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The effect shows on the helped hero's card: Alice holds Ysolde, so the GM's GM-only
    or blind help to Ysolde is refused (she would read its result); Bob's GM-only help
    with Bran reaches Alice's card, refused too. Between the GM's own heroes, a blind
    help is the GM's alone: allowed, and no player's log shows it."""
    _heroes(table)
    alice, bob = table.join("Alice"), table.join("Bob")
    csrf = table.csrf(table.gm)
    for character, holder in (("Ysolde", "1"), ("Bran", "2")):
        table.client.post(
            f"{table.gm}/seats",
            data={"csrf": csrf, "action": "assign", "character": character, "holder": holder},
        )
    for base, helper, mode in (
        (table.gm, "Bran", "gmroll"),
        (table.gm, "Cid", "blindroll"),
        (bob, "Bran", "gmroll"),
        (bob, "Bran", "selfroll"),
    ):
        refused = _help(table, base, helper, "Ysolde", mode=mode)
        assert refused.status_code == 400, (helper, mode)
        assert "La carte d'Ysolde" in refused.json()["error"]
    assert table.store.rolls() == [] and _pending(table, "Ysolde") == []
    table.create(table.gm, "legendes", "Garde", legendary="Lance")
    assert _help(table, table.gm, "Cid", "Garde", mode="blindroll").status_code == 200
    assert table.client.get(f"/api{alice}/log").json()["entries"] == []
    assert _help(table, bob, "Bran", "Ysolde").status_code == 200  # public: Alice sees it
    assert len(table.client.get(f"/api{alice}/log").json()["entries"]) == 1


def test_the_help_odds_before_the_roll_are_L11s_exact_chances(table: Table) -> None:
    """3 dice against 2: the chance of each result, from +1 die to none, sums to 1."""
    from fractions import Fraction
    from itertools import product

    _heroes(table)
    answer = table.client.get(
        f"/api{table.gm}{HELP}/odds",
        params={"helper": "Bran", "helped": "Ysolde", "helped_trait": "Chant"},
    )
    assert answer.status_code == 200, answer.text
    rows = {row["label"]: Fraction(row["exact"]) for row in answer.json()["odds"]}
    counts = {"+1 dé": 0, "+2": 0, "+1": 0, "cosmétique": 0, "aucun effet": 0}
    for faces in product(range(1, 7), repeat=5):
        difference = sum(faces[:3]) - sum(faces[3:])
        label = (
            "aucun effet"
            if difference < 0
            else "+1 dé"
            if difference >= 6
            else "+2"
            if difference >= 4
            else "+1"
            if difference >= 2
            else "cosmétique"
        )
        counts[label] += 1
    assert rows == {label: Fraction(n, 6**5) for label, n in counts.items()}


def test_a_help_and_a_new_scene_replay(table: Table) -> None:
    """``meneur verify --replay``: the help's step is the scene's aid procedure; the new
    scene rolls no die and says so (no step)."""
    _heroes(table)
    assert _help(table, table.gm, "Bran", "Ysolde").status_code == 200
    csrf = table.csrf(table.gm)
    table.client.post(f"{table.gm}/action/legendes/scene", data={"csrf": csrf}, headers=FETCH)
    document = table.store.export_log()
    verify_log(document)
    steps = document["entries"][0]["params"][STEPS]
    assert [(s["system"], s["check"]) for s in steps] == [("legendes", "scene-aid")]
    report = replay_entries(document["entries"])
    assert report.problems == () and (report.entries, report.rolls) == (2, 1)
