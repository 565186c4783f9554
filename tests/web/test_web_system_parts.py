"""Each system's part at the table is its own (issue 14): the web code names no system.

The tracker shows the fields of the systems the campaign plays, a waiting roll shows the
faces its rule counts, and what a system does not offer is refused in words, never
played by another system's rule.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import meneur.web
from cli_helpers import invoke
from meneur.systems.registry import SYSTEMS
from meneur.web.systems import adapters
from web.test_web_rules_at_table import TUNNELS
from web.web_helpers import Table

FETCH = {"x-requested-with": "fetch"}


def _add(table: Table, *names: str) -> str:
    csrf = table.csrf(table.gm)
    for name in names:
        table.client.post(f"{table.gm}/combat", data={"csrf": csrf, "action": "add", "name": name})
    return csrf


def test_the_web_package_names_no_system() -> None:
    """No module, template or script of ``meneur.web`` names one of the systems."""
    names = {system.name for system in SYSTEMS} | {system.title for system in SYSTEMS}
    pattern = re.compile("|".join(map(re.escape, sorted(names))), re.IGNORECASE)
    root = Path(meneur.web.__file__).parent
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*"))
        if path.suffix in (".py", ".html", ".js", ".css")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_every_registered_system_has_its_part_at_the_table(table: Table) -> None:
    """The app installs one adapter per registered system, from the systems' own list."""
    assert list(adapters()) == [system.name for system in SYSTEMS]


def test_the_tracker_shows_only_the_fields_of_the_systems_played(table: Table) -> None:
    """A Tunnels campaign's tracker asks no Légendes level and offers no Obscur shot."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "tunnels", "Gros Jean", **TUNNELS)
    _add(table, "Brindille", "Gros Jean")
    page = table.client.get(table.gm).text
    assert 'name="level"' not in page and 'value="shot"' not in page
    assert 'name="third"' not in page
    assert 'placeholder="Endurance / MR"' in page


def test_a_legendes_campaign_tracker_asks_the_level_and_the_third(table: Table) -> None:
    table.create(table.gm, "legendes", "Ysolde", legendary="Épée", secondary="Chant")
    _add(table, "Ysolde", "Le Loup")
    page = table.client.get(table.gm).text
    assert 'name="level"' in page and 'name="third"' in page and 'value="shot"' not in page


def test_a_shot_between_tunnels_characters_is_refused_in_words(table: Table) -> None:
    """A shot is Obscur's (O-14): asked of two Tunnels characters, it is refused, not played."""
    table.create(table.gm, "tunnels", "Brindille", **TUNNELS)
    table.create(table.gm, "tunnels", "Gros Jean", **TUNNELS)
    csrf = _add(table, "Brindille", "Gros Jean")
    answer = table.client.post(
        f"{table.gm}/combat",
        data={"csrf": csrf, "action": "shot", "index": "0", "other": "1"},
        headers=FETCH,
    )
    assert answer.status_code == 400
    assert "Tunnels" in answer.json()["error"] and table.store.rolls() == []


def test_T3_a_waiting_batch_marks_the_faces_the_test_counts(table: Table) -> None:
    """T-3, T-4: a blessed roll counts 3+ as successes; the waiting batch marks them so."""
    player = table.join("Alice")
    table.create(player, "tunnels", "Brindille", **TUNNELS)
    csrf = table.csrf(player)
    form = {"csrf": csrf, "character": "Brindille", "trait": "Force", "explode": "ask"}
    started = table.client.post(
        f"{player}/roll", data={**form, "blessed": "true", "faces": "3 3 2"}, headers=FETCH
    )
    assert started.json() == {"pending": True}
    page = table.client.get(player).text
    dice = re.findall(r'<span class="die ?([a-z]*)">(\d)</span>', page.split('id="pending"')[1])
    assert dice[:3] == [("hit", "3"), ("hit", "3"), ("", "2")]


def test_an_unknown_waiting_roll_is_404(table: Table) -> None:
    player = table.join("Alice")
    answer = table.client.post(f"{player}/roll/nothing", data={"csrf": table.csrf(player)})
    assert answer.status_code == 404


def test_K3_krasses_offers_the_ladder_and_rolls_moyen_by_default(table: Table) -> None:
    """K-3 at the table: the difficulty is picked on the ladder (Très facile 5 … Héroïque
    40), Moyen (15) when none is given; a difficulty given is kept."""
    table.create(table.gm, "krasses", "Aurore", characteristics="Force=2", skills="Bagarre=3")
    page = table.client.get(table.gm).text
    ladder = re.findall(r'<option value="(\d+)"( selected)?>([^<]+) \((\d+)\)</option>', page)
    assert [(int(v), name) for v, _s, name, _n in ladder][:2] == [
        (5, "Très facile"),
        (10, "Facile"),
    ]
    assert ("15", " selected", "Moyen", "15") in ladder and ("40", "", "Héroïque", "40") in ladder
    entry = table.roll(table.gm, "Aurore", "Bagarre", faces="10")["entry"]
    assert isinstance(entry, dict)
    [stored] = table.store.rolls()
    assert stored["outcome"]["difficulty"] == 15 and stored["outcome"]["total"] == 13
    table.roll(table.gm, "Aurore", "Bagarre", faces="10", difficulty=1)
    assert table.store.rolls()[-1]["outcome"]["difficulty"] == 1
    odd = table.client.get(f"{table.gm}?difficulty=17").text
    assert '<option value="17" selected>17</option>' in odd


def test_O4_a_custom_competence_takes_its_association_at_the_table(table: Table) -> None:
    """O-4: a compétence of one's own (Crochetage) adds its dice to the Connaissance the
    creator names; the sheet keeps the association and the trait rolls."""
    table.create(
        table.gm, "obscur", "Isaure", skills="Crochetage=3", associations="Crochetage=Fouineur"
    )
    sheet = table.store.character("Isaure").sheet
    assert sheet["associations"] == {"Crochetage": "Fouineur"}
    assert table.roll(table.gm, "Isaure", "Crochetage", faces="6 6 6 6")["entry"]


def test_a_refused_creation_keeps_what_was_typed(table: Table) -> None:
    """A refused sheet comes back with the reason and every field as typed, none lost."""
    csrf = table.csrf(table.gm)
    answer = table.client.post(
        f"{table.gm}/character",
        data={
            "csrf": csrf,
            "action": "create",
            "system": "obscur",
            "name": "Isaure",
            "skills": "Crochetage=3",
            "abilities": "Bagarre=2",
            "Hargne": "4",
        },
    )
    assert answer.status_code == 400
    page = answer.text
    assert 'role="alert"' in page and "Crochetage" in page.split('role="alert"')[1][:300]
    assert 'value="Crochetage=3"' in page and 'value="Bagarre=2"' in page
    assert 'value="Isaure"' in page and 'name="Hargne" min="0" max="30" value="4"' in page
    assert table.store.characters() == []


@pytest.mark.parametrize(
    ("system", "field", "typed"),
    [("krasses", "characteristics", "Force=99999"), ("obscur", "skills", "Crochetage=99999")],
)
def test_a_refused_pair_names_its_field_and_value(
    table: Table, system: str, field: str, typed: str
) -> None:
    """A value typed as ``Name=value`` past its bound: the reason names the field and the
    value typed (it said « v doit être entre -200 et 200 », a form helper's name)."""
    csrf = table.csrf(table.gm)
    data = {"csrf": csrf, "action": "create", "system": system, "name": "Zed", field: typed}
    answer = table.client.post(f"{table.gm}/character", data=data)
    assert answer.status_code == 400
    alert = answer.text.split('role="alert"')[1][:300]
    name = typed.split("=")[0]
    assert f"{name} : 99999 doit être entre" in alert and "v doit" not in alert
    assert table.store.characters() == []


def test_a_krasses_characteristic_at_the_table_has_the_sheets_own_bound(table: Table) -> None:
    """The table stopped Krâsses characteristics at ±200 (its options' bound) where the
    sheet, and ``character new krasses``, take ±1000."""
    csrf = table.csrf(table.gm)
    data = {"csrf": csrf, "action": "create", "system": "krasses", "name": "Zed"}
    made = table.client.post(f"{table.gm}/character", data={**data, "characteristics": "Force=999"})
    assert made.status_code in (200, 303), made.text
    assert table.store.character("Zed").sheet["characteristics"] == {"Force": 999}
    refused = table.client.post(
        f"{table.gm}/character", data={**data, "name": "Zoé", "characteristics": "Force=1001"}
    )
    assert refused.status_code == 400 and "1000" in refused.text


def test_L1_a_domain_too_long_to_be_typed_is_refused_at_creation_not_cut(table: Table) -> None:
    """L-1: a domain is rolled by typing its name (at most ``DOMAIN_LENGTH`` characters);
    the form cut a longer one to 80 unsaid. It is refused now, its field named, and
    nothing is stored; one of exactly the bound is kept whole."""
    from meneur.systems.legendes.rules import DOMAIN_LENGTH

    csrf = table.csrf(table.gm)
    data = {"csrf": csrf, "action": "create", "system": "legendes", "name": "Lyssia"}
    answer = table.client.post(
        f"{table.gm}/character", data={**data, "legendary": "Épée, " + "m" * (DOMAIN_LENGTH + 1)}
    )
    assert answer.status_code == 400
    alert = answer.text.split('role="alert"')[1][:300]
    assert "Domaines légendaires" in alert and f"1 à {DOMAIN_LENGTH} caractères" in alert, alert
    assert table.store.characters() == []
    table.create(table.gm, "legendes", "Lyssia", legendary="Épée, " + "m" * DOMAIN_LENGTH)
    assert table.store.character("Lyssia").sheet["legendary"] == ["Épée", "m" * DOMAIN_LENGTH]


def test_L12_a_motivation_too_long_is_refused_at_creation_not_cut(table: Table) -> None:
    """L-12: the form's motivation has at most 300 characters (``maxlength``), but a POST
    can send more; it was cut to 300 unsaid. It is refused now, its field named, like a
    domain too long, and nothing is stored; one of exactly 300 is kept whole."""
    csrf = table.csrf(table.gm)
    data = {"csrf": csrf, "action": "create", "system": "legendes", "name": "Lyssia"}
    answer = table.client.post(f"{table.gm}/character", data={**data, "motivation": "m" * 5000})
    assert answer.status_code == 400
    alert = answer.text.split('role="alert"')[1][:300]
    assert "Motivation" in alert and "300 caractères" in alert, alert
    assert table.store.characters() == []
    table.create(table.gm, "legendes", "Lyssia", motivation="m" * 300)
    assert table.store.character("Lyssia").sheet["motivation"] == "m" * 300


@pytest.mark.parametrize("skills", ["=3", "   =3", "E" * 70 + "=3"])
def test_a_krasses_skill_name_at_creation_is_held_to_the_typed_rule(
    table: Table, skills: str
) -> None:
    """A skill is rolled by typing its name (1 to 60 characters); the form stored an
    empty or a 70-character one. Refused now, nothing stored."""
    csrf = table.csrf(table.gm)
    data = {"csrf": csrf, "action": "create", "system": "krasses", "name": "Zoé"}
    answer = table.client.post(f"{table.gm}/character", data={**data, "skills": skills})
    assert answer.status_code == 400
    alert = answer.text.split('role="alert"')[1][:400]
    assert "1 à 60 caractères" in alert, alert
    assert table.store.characters() == []


TWICE = "{} : « {} » est donné deux fois."
WRITE = "Écrivez NOM=VALEUR, par exemple Escalade=3, pas « {} »"


@pytest.mark.parametrize(
    ("system", "field", "typed", "said"),
    [
        (
            "krasses",
            "characteristics",
            "Force=2, Force=5",
            TWICE.format("Caractéristiques", "Force"),
        ),
        ("krasses", "skills", "Bagarre=1\nBagarre=3", TWICE.format("Compétences", "Bagarre")),
        ("krasses", "characteristics", "Force", WRITE.format("Force") + "."),
        ("krasses", "skills", "Bagarre=", WRITE.format("Bagarre=") + " («  » n'est pas un nombre"),
        ("obscur", "abilities", "Bagarre", WRITE.format("Bagarre") + "."),
        (
            "obscur",
            "skills",
            "Crochetage=1, Crochetage=2",
            TWICE.format("Compétences", "Crochetage"),
        ),
    ],
)
def test_a_name_value_list_at_creation_is_read_as_the_command_line_reads_it(
    table: Table, system: str, field: str, typed: str, said: str
) -> None:
    """``Force=2, Force=5`` kept 5 and ``Force`` (no ``=``) stored 0, where ``character
    new krasses --characteristic`` refuses both: the form reads each item with the
    command line's parser, says the same, keeps what was typed, and stores nothing."""
    csrf = table.csrf(table.gm)
    data = {"csrf": csrf, "action": "create", "system": system, "name": "Zed", field: typed}
    answer = table.client.post(f"{table.gm}/character", data=data)
    assert answer.status_code == 400
    alert = html.unescape(answer.text.split('role="alert"')[1][:400])
    assert said in alert, alert
    assert f'name="{field}" maxlength="400"' in answer.text  # the form, as it was typed:
    assert f'value="{html.escape(typed)}"' in answer.text
    assert table.store.characters() == []


def test_a_krasses_name_value_is_refused_by_the_form_and_the_command_line_alike(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """The form and ``character new krasses`` share one parser of ``NAME=VALUE``: the
    same text gets the same sentence from both (the option or the field named)."""
    for option, field, typed in (
        ("--characteristic", "characteristics", ("Force=2", "Force=5")),
        ("--characteristic", "characteristics", ("Force",)),
        ("--skill", "skills", ("Bagarre=x",)),
    ):
        args = [arg for text in typed for arg in (option, text)]
        cli = invoke(capsys, "character", "new", "krasses", "Zed", *args)
        assert cli.status == 2
        csrf = table.csrf(table.gm)
        data = {"csrf": csrf, "action": "create", "system": "krasses", "name": "Zed"}
        answer = table.client.post(f"{table.gm}/character", data={**data, field: ", ".join(typed)})
        assert answer.status_code == 400
        alert = html.unescape(answer.text.split('role="alert">')[1].split("</p>")[0])
        reason = alert.split(" : ", 1)[1] if len(typed) > 1 else alert  # the field, the flag
        assert reason in " ".join(cli.err.split()), (reason, cli.err)
    assert table.store.characters() == []
