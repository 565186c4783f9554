"""Help pages in the user's language, with click's plain (fast) formatter.

Click writes a few words of its own on every help page ("Usage:", "Options",
"Show this message and exit."); this formatter translates them, and the placeholders of
the usage line and the option list (``NAME``, ``HOST``, ``FILE``...) with them: the
commands keep one English ``metavar`` each, translated here in one place. Rich help would look
nicer but costs about 80 ms of imports on every ``--help`` (typer.rich_utils).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from meneur.cli.clickcompat import click_core, formatting
from meneur.locale import N_, labelled
from meneur.locale import gettext as _

HEADINGS = {
    "Options": N_("Options"),
    "Commands": N_("Commands"),
    "Arguments": N_("Arguments"),
}
BUILT_IN_HELP = {"Show this message and exit.": N_("Show this message and exit.")}
PLACEHOLDERS = {
    "NAME": N_("NAME"),
    "HOST": N_("HOST"),
    "FILE": N_("FILE"),
    "DIR": N_("DIR"),
    "SHEET": N_("SHEET"),
    "LEVEL": N_("LEVEL"),
    "SYSTEM": N_("SYSTEM"),
    "CHECK": N_("CHECK"),
    "OPTION": N_("OPTION"),
    "VALUE": N_("VALUE"),
    "POLICY": N_("POLICY"),
    "ADDRESS": N_("ADDRESS"),
    "ROUNDS": N_("ROUNDS"),
    "COMMAND": N_("COMMAND"),
    "OPTIONS": N_("OPTIONS"),
    "TEXT": N_("TEXT"),
    "INTEGER": N_("INTEGER"),
    "FLOAT": N_("FLOAT"),
    "PATH": N_("PATH"),
    "INTENSITY": N_("INTENSITY"),
    "DAMAGE": N_("DAMAGE"),
    "DAYS": N_("DAYS"),
    "DOMAIN": N_("DOMAIN"),
    "RESULT": N_("RESULT"),
    "BAND": N_("BAND"),
    "DIE": N_("DIE"),
}
"""The English placeholders the commands and click use, each one word of capitals."""
PLACEHOLDER = re.compile(r"(?<![A-Za-z-])[A-Z]{2,}(?![A-Za-z])")


REQUIRED = re.compile(r"\{([^{}\s]+)\}")
"""Typer writes a required argument in braces in the usage line (``{EXPR}``), which reads
as a literal to type; click and the commands' own help write it bare (``EXPR``)."""


class LocalizedHelpFormatter(formatting.HelpFormatter):
    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        bare = REQUIRED.sub(r"\1", args)
        super().write_usage(prog, placeholders(bare), prefix=prefix or _("Usage: "))

    def write_heading(self, heading: str) -> None:
        """``Options:`` in English, « Options : » in French (a space before the colon)."""
        title = _(HEADINGS[heading]) if heading in HEADINGS else heading
        self.write(f"{'':>{self.current_indent}}{labelled(title).rstrip()}\n")

    def write_dl(self, rows: Iterable[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        translated = [(placeholders(term), _translate_row(text)) for term, text in rows]
        super().write_dl(translated, *args, **kwargs)


def placeholders(text: str) -> str:
    """``--campaign NAME`` as ``--campaign NOM`` in French: each known placeholder word."""
    return PLACEHOLDER.sub(
        lambda found: _(PLACEHOLDERS[found[0]]) if found[0] in PLACEHOLDERS else found[0], text
    )


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
