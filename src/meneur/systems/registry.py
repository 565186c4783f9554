"""The registered systems, listed explicitly (no registration by import side effect).

To add a system: write its package under ``systems/`` with a light ``system.py`` that
defines a :class:`~meneur.systems.base.System`, then add it to ``SYSTEMS`` below. The CLI,
the conformance suite and the web table find it here and nowhere else.
"""

from __future__ import annotations

from meneur.errors import UnknownSystemError
from meneur.locale import N_
from meneur.systems.base import System
from meneur.systems.krasses.system import SYSTEM as KRASSES
from meneur.systems.legendes.system import SYSTEM as LEGENDES
from meneur.systems.obscur.system import SYSTEM as OBSCUR
from meneur.systems.tunnels.system import SYSTEM as TUNNELS
from meneur.text import fold

SYSTEMS: tuple[System, ...] = (TUNNELS, OBSCUR, KRASSES, LEGENDES)


def find_system(name: str) -> System:
    """The system called ``name`` or one of its aliases (case and accents ignored)."""
    wanted = fold(name)
    for system in SYSTEMS:
        if wanted in {fold(system.name), fold(system.title), *map(fold, system.aliases)}:
            return system
    raise UnknownSystemError(
        N_("Unknown system '{name}'. Known systems: {known}."),
        name=name,
        known=", ".join(s.name for s in SYSTEMS) or "-",
    )
