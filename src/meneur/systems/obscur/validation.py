"""Turn a pydantic validation error into one clear line that names the field.

Sheets and rule data are validated with pydantic; its messages are English and
technical, so the first error is rewritten as a :class:`SheetError` naming the file and
the field path (``ressources.vecu.current``) in the user's language.
"""

from __future__ import annotations

from pydantic import ValidationError

from meneur.errors import SheetError
from meneur.locale import N_
from meneur.model_errors import first_problem

_REASONS = {
    "above_max": N_("the current points are above the maximum"),
    "below_zero": N_("the points cannot fall below 0"),
}
"""The sheet models' own error types; pydantic's are worded in :mod:`meneur.model_errors`."""


def sheet_error(error: ValidationError, source: str, within: str = "") -> SheetError:
    """The first problem of ``error`` as one translated line naming ``source`` and the field;
    ``within``: the sheet's table that was validated alone (``equipement``), written as
    the start of the field's path (« champ equipement.armes »), not glued to the source
    with an English colon (« « IE »: equipement »)."""
    from meneur.systems.obscur.system import SYSTEM

    problem = first_problem(error, _REASONS)
    where = problem.where if problem.where != "-" else ""
    path = ".".join(part for part in (within, where) if part) or "-"
    return SheetError(
        N_("{source}: field {field}: {reason}."),
        source=source,
        field=SYSTEM.field_name(path),  # « Vécu », not ressources.vecu
        reason=problem.reason,
    )
