"""A character's sheet and state, validated by the system it belongs to.

The system is found through the registry (``find_system``); its hook
:meth:`~meneur.systems.base.System.check_sheet` refuses a sheet that breaks its rules,
naming the character and the first fault. The sheet is stored exactly as
given (not re-serialised through the model), so export then import gives it back
byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from meneur.errors import SheetError, UnknownSystemError
from meneur.locale import N_, quoted

MAX_SHEET_BYTES = 1_000_000


def named(sheet: Any, name: str) -> Any:
    """``sheet`` as stored under ``name``: the stored name is the character's identity
    (the log's « who »), so a sheet's own ``name`` field becomes it. A roll printed the
    sheet's name (« Bob : Force 2 ») while the log said the stored one (Zed). A sheet
    already so named is kept as it is (export then import gives the same bytes); a
    sheet without the field is left without it."""
    if isinstance(sheet, dict) and "name" in sheet and sheet["name"] != name:
        return {**sheet, "name": name}
    return sheet


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
    system.check_sheet(sheet, quoted(character))
    return system.name


def validate_state(system_name: str, state: Any, *, character: str) -> None:
    """:class:`CampaignError` unless ``state`` is an object of fields, and the system's
    :class:`SheetError` when it breaks a rule (``System.check_state``): every way in
    (an import, ``character edit --state``, a roll's new state) is judged alike."""
    from meneur.campaign.errors import CampaignError
    from meneur.systems.registry import find_system

    if not isinstance(state, dict):
        raise CampaignError(
            N_("Character {name}: the state must be an object of fields."), name=character
        )
    find_system(system_name).check_state(state, quoted(character))
