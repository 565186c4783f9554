"""Turn a pydantic validation error into one clear line that names the field.

Sheets and rule data are validated with pydantic; its messages are English and
technical, so the first error is rewritten as a :class:`SheetError` naming the file and
the field path (``ressources.vecu.current``) in the user's language.
"""

from __future__ import annotations

from pydantic import ValidationError

from meneur.errors import SheetError
from meneur.locale import N_

_REASONS = {
    "missing": N_("missing field"),
    "extra_forbidden": N_("unknown field name"),
    "int_type": N_("a whole number is expected"),
    "int_parsing": N_("a whole number is expected"),
    "int_from_float": N_("a whole number is expected"),
    "greater_than_equal": N_("must not be negative"),
    "less_than_equal": N_("is too large"),
    "string_type": N_("a text is expected"),
    "dict_type": N_("a table of fields is expected"),
    "model_type": N_("a table of fields is expected"),
    "list_type": N_("a list is expected"),
    "bool_type": N_("true or false is expected"),
    "literal_error": N_("this value is not allowed"),
    "above_max": N_("the current points are above the maximum"),
    "below_zero": N_("the points cannot fall below 0"),
}


def field_path(location: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in location) or "-"


def sheet_error(error: ValidationError, source: str) -> SheetError:
    """The first problem of ``error`` as one translated line naming ``source`` and the field."""
    from meneur.locale import gettext

    first = error.errors()[0]
    reason_id = _REASONS.get(first["type"])
    if reason_id is not None:
        reason = gettext(reason_id)
    else:
        message = str(first.get("msg", ""))
        reason = message.removeprefix("Value error, ")
    return SheetError(
        N_("{source}: field {field}: {reason}."),
        source=source,
        field=field_path(tuple(first["loc"])),
        reason=reason,
    )
