"""Names as players type them: matched without regard to case, accents or spacing, and
kept free of the terminal's markup."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any


def fold(name: str) -> str:
    """``"Dextérité"``, ``"dexterite"`` and ``" DEXTÉRITÉ "`` all fold to ``"dexterite"``.

    Spaces, underscores and apostrophes become hyphens, so ``"Gardien du feu"`` matches
    ``gardien-du-feu``.
    """
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    for separator in (" ", "_", "'", "’"):
        plain = plain.replace(separator, "-")
    while "--" in plain:
        plain = plain.replace("--", "-")
    return plain.strip("-")


def is_digits(text: str) -> bool:
    """Only the digits 0 to 9: ``str.isdigit`` also accepts ``²`` and ``①``, which
    ``int()`` then refuses, so a check made with it lets them through to a crash."""
    return text.isascii() and text.isdigit()


ECHO_LENGTH = 40
"""The most of a typed value an error message quotes back (:func:`cut`): enough to
recognise it, never a page of a pasted name."""


def cut(text: str, limit: int = ECHO_LENGTH) -> str:
    """``text`` as a message quotes it: its first ``limit`` characters and « … » when
    it is longer."""
    return text if len(text) <= limit else text[:limit] + "…"


def cut_start(text: str, limit: int) -> str:
    """Like :func:`cut`, keeping the end (a path's file name says the most)."""
    return text if len(text) <= limit else "…" + text[-limit:]


NAME_LENGTH = 80
"""The longest name of a character or a campaign: in every system's sheet as in the
campaign store (:mod:`meneur.campaign.names`), so a sheet that loads can be stored and a
name the store refuses is refused with the same number everywhere."""


MARKUP = frozenset("[]")
"""Characters a name may not hold: rich reads ``[...]`` in printed text as styles, so a
name like ``[/]`` would break the output and ``[red]`` would restyle it."""


def comma_items(text: str) -> list[str]:
    """``2, 4,6`` as its items ``["2", "4", "6"]``, or ``UsageError`` for an empty one
    (``1,,2``, ``1,2,``, ``,1``): the lab's lists skipped it unsaid and read ``1,,2`` as
    ``1,2``, where a value may have been forgotten. A text of spaces holds no item."""
    if not text.strip():
        return []
    items = [item.strip() for item in text.split(",")]
    for number, item in enumerate(items):
        if item:
            continue
        from meneur.errors import UsageError
        from meneur.locale import N_

        if number == 0:
            raise UsageError(N_("'{text}' starts with a comma: nothing before it."), text=text)
        if number == len(items) - 1:
            raise UsageError(N_("'{text}' ends with a comma: nothing after it."), text=text)
        raise UsageError(
            N_("'{text}' has nothing between two commas, after '{item}'."),
            text=text,
            item=items[number - 1],
        )
    return items


def has_markup(name: str) -> bool:
    return any(c in MARKUP for c in name)


CONTROL = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories of characters a one-line label may not hold: tabs, line breaks,
invisible formatting (the campaign store refuses them in names too)."""


def has_control(text: str) -> bool:
    return any(unicodedata.category(c) in CONTROL for c in text)


def visible(text: str) -> str:
    """``text`` with each control character written as its escape (``\\x1b``, ``\\t``),
    every other character kept (accents too): what an error message echoes of the user's
    input, so that an escape sequence typed in a name is shown, not run by the terminal."""
    if not has_control(text):
        return text
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in CONTROL else c
        for c in text
    )


def encodable(value: Any) -> Any:
    """``value`` with every string in it (mappings and lists walked) encodable as UTF-8:
    each lone surrogate written as its escape (``\\udcff``), as :func:`visible` shows it.
    A file name of bytes that are not UTF-8 (Linux allows them) reaches a command as such
    text; the roll log stores what the user typed as UTF-8 JSON, and would fail on it
    after the command had rolled and written its sheet."""
    if isinstance(value, str):  # the codec's own escapes: « \udcff » for a lone surrogate
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, Mapping):
        return {encodable(key): encodable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [encodable(item) for item in value]
    return value


def plain_name(name: str) -> str:
    """``name`` unchanged, or ``ValueError`` if it is blank or holds square brackets or
    control characters (pydantic models): a name is printed where it stands, and one of
    spaces printed nothing there (a character, a skill, a contact)."""
    from meneur.locale import N_
    from meneur.model_errors import refusal

    one_line(name)  # first: an escape sequence (ESC [) is refused as a control character
    if not name.strip():
        raise refusal(N_("a name cannot be empty or only spaces"))
    if has_markup(name):
        raise refusal(N_("a name cannot hold square brackets [ ]"))
    return name


def bounded_name(limit: int, message: str) -> Callable[[str], str]:
    """A validator of a sheet's short text (pydantic ``AfterValidator``): a name as
    :func:`plain_name` allows, 1 to ``limit`` characters and not blank, else ``message``
    (its ``{limit}`` filled). A name on a sheet is typed to roll it and printed where it
    stands: an empty or endless one could not be typed and printed nothing or a page."""

    def check(text: str) -> str:
        from meneur.model_errors import refusal

        if len(text) > limit or not text.strip():
            raise refusal(message, limit=limit)
        return plain_name(text)

    return check


def one_line(text: str) -> str:
    """``text`` unchanged, or ``ValueError`` if it holds a tab, a line break or another
    control character: a title or a name is printed on one line (pydantic models)."""
    if has_control(text):
        from meneur.locale import N_
        from meneur.model_errors import refusal

        raise refusal(N_("a tab, a line break or another control character is not allowed"))
    return text


def text_block(text: str) -> str:
    """``text`` unchanged, or ``ValueError`` if it holds a control character other than a
    line break or a tab: notes span lines, but an escape sequence, a NUL or a bidi
    override would run in a terminal or hide the text around it (pydantic models)."""
    if has_control(text.replace("\n", "").replace("\r", "").replace("\t", "")):
        from meneur.locale import N_
        from meneur.model_errors import refusal

        raise refusal(N_("a control character other than a line break is not allowed"))
    return text


def literal(value: Any) -> Any:
    """``value`` with every string in it (mappings and lists walked) escaped for rich
    markup: a renderer that prints names, titles and notes players typed shows them as
    typed (``[/]``, ``[bold]``) instead of reading them as styles."""
    from rich.markup import escape

    if isinstance(value, str):
        return escape(value)
    if isinstance(value, Mapping):
        return {key: literal(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [literal(item) for item in value]
    return value
