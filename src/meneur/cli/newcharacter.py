"""``meneur character new SYSTEM``: every new character lands in the campaign database.

A system that rolls or builds its characters has its own command call
:func:`store_new`; a system whose sheets are written by hand has its command
(:func:`from_file`) store a sheet file under a name. Either way the first character of
a newcomer creates the database and a ``default`` campaign: zero setup.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meneur.cli.params import Json
from meneur.locale import gettext as _

if TYPE_CHECKING:
    from rich.console import Console


def check_out(out: Path | None, force: bool) -> None:
    """``--out FILE`` checked before anything is rolled or stored (all of it, or nothing):
    its folder writable, and an existing file replaced only with ``--force`` (a system
    overwrote any file without a word)."""
    from meneur.errors import UsageError
    from meneur.files import check_writable
    from meneur.locale import N_

    if out is None:
        return
    check_writable(out)
    if out.exists() and not force:
        raise UsageError(N_("{path} exists: add --force to replace it."), path=str(out))


def store_new(system: str, name: str, sheet: dict[str, Any]) -> str:
    """Store a new character in the current campaign; the campaign's name.

    The character becomes the roller of the command's log entry (its creation rolls).
    """
    from meneur.cli.journal import required

    return required().store_character(system, name, sheet)


def creating() -> None:
    """This command stores what it makes: its rolls are logged from the start (first run too)."""
    from meneur.cli.journal import required

    required().creating_database()


def stored_line(name: str, campaign: str) -> str:
    return _("{name} is stored in the campaign '{campaign}'.").format(name=name, campaign=campaign)


def renamed_line(sheet: Any, name: str) -> str | None:
    """« The sheet's name (Bob) becomes Zed. » when a sheet stored under ``name`` was
    named otherwise: the store gives a sheet its character's stored name (the one the log
    says), and the user is told. None when the sheet was so named, or named nothing."""
    from meneur.campaign.names import normalised
    from meneur.text import cut, visible

    old = sheet.get("name") if isinstance(sheet, dict) else None
    if not isinstance(old, str) or not old.strip():
        return None
    if normalised(old) == name:
        return None
    return _("The sheet's name ({old}) becomes {name}.").format(old=visible(cut(old)), name=name)


def from_file(system: str) -> Callable[..., None]:
    """The ``character new SYSTEM NAME --from FILE`` command of ``system``."""

    def command(
        name: Annotated[str, typer.Argument(metavar="NAME", help=_("The character's name."))],
        source: Annotated[
            Path,
            typer.Option("--from", metavar="FILE", help=_("The character's sheet (JSON or TOML).")),
        ],
        as_json: Json = False,
    ) -> None:
        """Store a character from its sheet file (validated first)."""
        from meneur.cli.output import emit
        from meneur.files import read_sheet

        sheet = read_sheet(source)
        campaign = store_new(system, name, sheet)  # the sheet's name becomes the stored one
        data = {"system": system, "name": name.strip(), "campaign": campaign}
        renamed = renamed_line(sheet, data["name"])

        def render(console: Console) -> None:
            if renamed is not None:
                console.print(renamed, markup=False, highlight=False)
            console.print(stored_line(data["name"], campaign), markup=False)

        emit(data, render, as_json=as_json)

    return command
