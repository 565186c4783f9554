"""A model's refusal (pydantic's ``ValidationError``) in the user's words.

Sheets, rule data and roll parameters are validated by pydantic, whose messages are
English and technical (« Input should be greater than or equal to 0 »). Every place that
turns such a refusal into a :class:`~meneur.errors.MeneurError` takes its first problem
from here: the field's path and a :class:`Phrase` that is translated when the error is
shown, so the web table answers each player in their own language and the French CLI
never mixes in an English reason.

pydantic is not imported here: the error is read through its ``errors()`` list, which
keeps this module free for the CLI's start-up path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meneur.locale import N_, gettext

MAX_SHOWN = 200
"""The longest reason shown: a hostile value quoted back by a model stays short."""

_REASONS = {
    "missing": N_("missing field"),
    "json_invalid": N_("the request is not valid JSON"),
    "extra_forbidden": N_("unknown field name"),
    "int_type": N_("a whole number is expected"),
    "int_parsing": N_("a whole number is expected"),
    "int_parsing_size": N_("a whole number is expected"),  # thousands of digits
    "int_from_float": N_("a whole number is expected"),
    "float_type": N_("a number is expected"),
    "float_parsing": N_("a number is expected"),
    "finite_number": N_("a finite number is expected (not nan nor inf)"),
    "string_unicode": N_("a text is expected (this one is not valid Unicode)"),
    "greater_than_equal": N_("must be at least {ge}"),
    "greater_than": N_("must be more than {gt}"),
    "less_than_equal": N_("must be at most {le}"),
    "less_than": N_("must be less than {lt}"),
    "string_type": N_("a text is expected"),
    "string_too_short": N_("must not be empty"),
    "string_pattern_mismatch": N_("is not of the expected form"),
    "string_too_long": N_("must be at most {max_length} characters long"),
    "too_long": N_("must hold at most {max_length} items"),
    "too_short": N_("must hold at least {min_length} items"),
    "dict_type": N_("a table of fields is expected"),
    "model_type": N_("a table of fields is expected"),
    "list_type": N_("a list is expected"),
    "tuple_type": N_("a list is expected"),
    "bool_type": N_("true or false is expected"),
    "bool_parsing": N_("true or false is expected"),
    "literal_error": N_("must be one of {expected}"),
    "enum": N_("must be one of {expected}"),
}
"""Each pydantic error type a user can meet, with the context values it names."""


@dataclass(frozen=True, slots=True)
class Phrase:
    """A catalogued message and its values, translated each time it is shown."""

    message: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        text = gettext(self.message)
        text = text.format(**self.values) if self.values else text
        # a reason is quoted inside a sentence, which has its own full stop: « ...). »,
        # never « ....). » when the reason was a whole sentence of its own
        return text[:-1] if text.endswith(".") and not text.endswith("..") else text

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def refusal(message: str, /, **values: Any) -> ValueError:
    """A validator's refusal in the user's words: ``raise refusal(N_("..."), name=x)``.

    pydantic keeps the ``ValueError`` a validator raises; :func:`first_problem` finds
    the :class:`Phrase` in it and translates it when shown, where a plain English
    ``ValueError`` text reached French users as it was. Values are bounded (a hostile
    name quoted back stays short).
    """
    return ValueError(Phrase(message, {key: _shown(value) for key, value in values.items()}))


WHOLE = "-"
"""Where a problem of the whole input lies (a JSON body ``[]``, no field in it)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """The first thing a model refused: where (``ressources.vecu.current``) and why."""

    where: str
    reason: Phrase | str


def first_problem(error: Any, reasons: dict[str, str] | None = None, *, drop: int = 0) -> Problem:
    """The first problem of a pydantic ``ValidationError`` in the user's words.

    ``reasons`` adds a caller's own error types (a model's custom errors, such as
    points above their maximum). A type known nowhere keeps pydantic's message, short;
    a validator's own message (« Value error, ... ») loses pydantic's prefix. ``drop``
    leaves out the first parts of the path (FastAPI's ``body``, ``query``).
    """
    problems = error.errors()
    first: dict[str, Any] = problems[0] if problems else {}
    from meneur.text import visible  # a key typed with a tab or an escape: shown escaped

    where = ".".join(visible(str(part)) for part in tuple(first.get("loc", ()))[drop:]) or WHOLE
    kind = str(first.get("type", ""))
    if kind == "too_long" and isinstance(first.get("input"), str):
        kind = "string_too_long"  # a text checked after validation: pydantic says "items"
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, ValueError) and cause.args and isinstance(cause.args[0], Phrase):
        return Problem(where[:80], cause.args[0])  # a validator's own words (refusal)
    message = (reasons or {}).get(kind) or _REASONS.get(kind)
    if message is None:
        text = str(first.get("msg", "")).removeprefix("Value error, ")[:MAX_SHOWN]
        return Problem(where[:80], text[:-1] if text.endswith(".") else text)
    context = {key: _shown(value) for key, value in (first.get("ctx") or {}).items()}
    if "expected" in context:  # pydantic writes the choices as "'a', 'b' or 'c'": English
        context["expected"] = context["expected"].replace(" or ", ", ")
    try:
        message.format(**context)
    except (KeyError, IndexError):  # a context pydantic did not give: say it plainly
        return Problem(where[:80], str(first.get("msg", ""))[:MAX_SHOWN])
    return Problem(where[:80], Phrase(message, context))


def _shown(value: Any) -> str:
    """A context value as quoted back to the user, bounded."""
    return str(value)[:MAX_SHOWN]
