"""A character's sheet, validated by the system it belongs to.

The system is found through the registry (``find_system``). A system that offers a
``sheet_model()`` method returns a pydantic model class: the sheet must validate against
it, and the first fault is reported with the character's name and the field's path. A
system without one stores the JSON object as given. The sheet is stored exactly as
given (not re-serialised through the model), so export then import gives it back
byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from meneur.errors import SheetError, UnknownSystemError
from meneur.locale import N_
from meneur.model_errors import first_problem

MAX_SHEET_BYTES = 1_000_000


def validate_sheet(system_name: str, sheet: Any, *, character: str) -> str:
    """The system's canonical name, once ``sheet`` is valid for it; :class:`SheetError` else."""
    from meneur.systems.registry import find_system

    try:
        system = find_system(system_name)
    except UnknownSystemError as error:
        raise SheetError(
            N_("Character {name}: field '{field}': {reason}"),
            name=character,
            field="system",
            reason=str(error),
        ) from None
    if not isinstance(sheet, dict):
        raise SheetError(
            N_("Character {name}: the sheet must be an object of fields."), name=character
        )
    size = len(json.dumps(sheet, ensure_ascii=False).encode("utf-8"))
    if size > MAX_SHEET_BYTES:
        raise SheetError(
            N_("Character {name}: the sheet is larger than {limit} bytes."),
            name=character,
            limit=MAX_SHEET_BYTES,
        )
    factory = getattr(system, "sheet_model", None)
    if callable(factory):
        from pydantic import ValidationError

        model = factory()
        try:
            model.model_validate(sheet)
        except ValidationError as error:
            problem = first_problem(error)
            raise SheetError(
                N_("Character {name}: field '{field}': {reason}"),
                name=character,
                field=problem.where,
                reason=problem.reason,
            ) from None
    return system.name
