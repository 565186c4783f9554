"""Obscur melee fighters for the tests (O-11..O-22): a weapon of a class, a fighter whose
every die is given, and a body with points to spend."""

from __future__ import annotations

from meneur.systems.obscur.combat import Arm, Fighter
from meneur.systems.obscur.gear import Weapon, _fraction, armoury
from meneur.systems.obscur.health import Dice
from meneur.systems.obscur.state import Body


def weapon(cls: str, *, damage: int = 0, initiative: int = 0, defense: int = 0) -> Weapon:
    key, data = armoury().weapon_class(cls)
    return Weapon("w", key, data.skill, _fraction(data.hargne), initiative, defense, damage)


def fighter(name: str, **kw: object) -> Fighter:
    base: dict[str, object] = {
        "name": name,
        "agility": 2,
        "hargne": 2,
        "resistance": 1,
        "gardien": 2,
        "arms": (Arm(weapon("Moyennes", damage=1, initiative=1, defense=1), Dice(4)),),
        "unarmed": Arm(armoury().unarmed(), Dice(3)),
        "choc": Dice(2),
        "dodge": Dice(2),
        "impress": Dice(3),
    }
    base.update(kw)
    return Fighter(**base)  # type: ignore[arg-type]


def body(name: str, vie: int = 10) -> Body:
    return Body(name, vie, vie, vecu=6, volonte=3, volonte_max=3)
