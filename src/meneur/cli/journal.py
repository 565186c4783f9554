"""The roll log as the CLI toolkit reaches it: a loader that :mod:`meneur.cli.main` installs.

The toolkit (:mod:`.params`, :mod:`.output`, :mod:`.newcharacter`) serves the systems'
commands, and the campaign stores characters of every system: if the toolkit imported
the campaign, the systems and the campaign would import each other. So the toolkit asks
here, and the CLI's entry point says where the log is (``use``), loaded only when a
command first rolls or reads a stored character (``meneur --help`` never pays for it).
Without a loader (the toolkit used outside the CLI) nothing is logged and no stored
character can be read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from meneur.errors import UsageError
from meneur.locale import N_
from meneur.rng import DiceSource


class Journal(Protocol):
    """What the toolkit needs of the roll log (:mod:`meneur.campaign.recording` offers it)."""

    def dice_for(self, sources: Sequence[DiceSource], *, explicit: bool) -> list[DiceSource]: ...

    def record(
        self, data: dict[str, Any], words: Sequence[str] = (), options: dict[str, Any] | None = None
    ) -> dict[str, Any] | None: ...

    def stored_sheet(self, name: str, system: str) -> Path: ...

    def store_character(self, system: str, name: str, sheet: dict[str, Any]) -> str: ...

    def creating_database(self) -> None: ...


_loader: Callable[[], Journal] | None = None


def use(loader: Callable[[], Journal]) -> None:
    """Say where the roll log is: ``loader()`` returns it, imported on first use."""
    global _loader
    _loader = loader


def journal() -> Journal | None:
    """The roll log, or ``None`` when no loader was installed."""
    return _loader() if _loader is not None else None


def required() -> Journal:
    """The roll log, for what cannot do without it (stored characters)."""
    found = journal()
    if found is None:
        raise UsageError(N_("Stored characters need the campaign database (run meneur)."))
    return found
