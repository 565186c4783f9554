"""Help pages in the user's language, with click's plain (fast) formatter.

Click writes a few words of its own on every help page ("Usage:", "Options",
"Show this message and exit."); this formatter translates them. Rich help would look
nicer but costs about 80 ms of imports on every ``--help`` (typer.rich_utils).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meneur.cli.clickcompat import click_core, formatting
from meneur.locale import N_
from meneur.locale import gettext as _

HEADINGS = {
    "Options": N_("Options"),
    "Commands": N_("Commands"),
    "Arguments": N_("Arguments"),
}
BUILT_IN_HELP = {"Show this message and exit.": N_("Show this message and exit.")}


class LocalizedHelpFormatter(formatting.HelpFormatter):
    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, prefix=prefix or _("Usage: "))

    def write_heading(self, heading: str) -> None:
        super().write_heading(_(HEADINGS[heading]) if heading in HEADINGS else heading)

    def write_dl(self, rows: Iterable[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        translated = [(term, _translate_row(text)) for term, text in rows]
        super().write_dl(translated, *args, **kwargs)


def _translate_row(text: str) -> str:
    text = _(BUILT_IN_HELP[text]) if text in BUILT_IN_HELP else text
    return text.replace("[required]", _("[required]")).replace("[default: ", _("[default: "))


class LocalizedContext(click_core.Context):
    formatter_class = LocalizedHelpFormatter


def localize(command: Any) -> None:
    """Make ``command`` and all its subcommands format their help in the user's language."""
    stack = [command]
    while stack:
        current = stack.pop()
        current.context_class = LocalizedContext
        stack.extend(getattr(current, "commands", {}).values())
