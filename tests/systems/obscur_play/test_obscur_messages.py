"""Obscur's messages name things as the text and the sheet do, in whole French sentences:
no English word ("speed inconnu(e)"), no raw key ("ressource moral")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke
from meneur.errors import MeneurError
from meneur.systems.obscur.combat import ranged_modifier
from meneur.systems.obscur.depassement import plan_payment


@pytest.mark.parametrize(
    ("speed", "cover", "distance", "start"),
    [
        ("x", "aucune", "courte", "Vitesse inconnue « x »"),
        ("immobile", "x", "courte", "Couverture inconnue « x »"),
        ("immobile", "aucune", "x", "Distance inconnue « x »"),
    ],
)
def test_O14_an_unknown_shooting_word_is_named_in_french(
    speed: str, cover: str, distance: str, start: str
) -> None:
    """O-14: the table's speed, cover and distance each have their own message."""
    with pytest.raises(MeneurError) as caught:
        ranged_modifier(speed, cover, distance)
    assert str(caught.value).startswith(start), str(caught.value)


@pytest.mark.parametrize(
    ("option", "start"),
    [("--asphyxia", "Niveau d'asphyxie inconnu"), ("--drown", "Niveau de noyade inconnu")],
)
def test_O24_O25_an_unknown_level_is_named_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str, start: str
) -> None:
    """O-24/O-25: « Niveau d'asphyxia » mixed English into the sentence."""
    sheet = tmp_path / "isaure.json"
    shutil.copy(Path(__file__).resolve().parents[3] / "examples/obscur/isaure.json", sheet)
    result = invoke(capsys, "hurt", "obscur", "--sheet", str(sheet), option, "x")
    assert result.status == 2 and result.err.startswith("Erreur : " + start), result.err


@pytest.mark.parametrize("option", ["--asphyxia", "--drown"])
def test_O24_O25_a_level_of_thousands_of_digits_is_refused_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str
) -> None:
    """O-24/O-25: a level is a table's name or a Difficulté 1-20; 5,000 digits reached
    ``int()``, which refuses past 4,300 digits with a traceback of its own."""
    sheet = tmp_path / "isaure.json"
    shutil.copy(Path(__file__).resolve().parents[3] / "examples/obscur/isaure.json", sheet)
    result = invoke(capsys, "hurt", "obscur", "--sheet", str(sheet), option, "9" * 5000)
    assert result.status == 2 and "Traceback" not in result.err, result.err[-300:]
    assert "ou une Difficulté de 1 à 20" in result.err and len(result.err) < 400


def test_O10_an_overdrawn_resource_is_named_as_on_the_sheet() -> None:
    """O-10: paying 6 of 4 Moral names « Moral », not the key « moral »."""
    with pytest.raises(MeneurError) as caught:
        plan_payment(6, {"vecu": 8, "volonte": 5, "moral": 4}, asked={"moral": 6})
    assert "La ressource Moral passerait sous 0" in str(caught.value)
    with pytest.raises(MeneurError) as caught:
        plan_payment(6, {"vecu": 8}, asked={"vecu": 7, "volonte": -1})
    assert "(Volonté)" in str(caught.value)
