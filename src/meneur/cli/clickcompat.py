"""Click's exception classes, wherever this Typer keeps them.

Typer 0.26 and later vendor click as ``typer._click``; older releases depend on ``click``. The CLI
needs the usage-error classes (to turn them into one translated line), the help
formatter (to translate click's own words) and the current context (the roll log
names the command), nothing else.
"""

from __future__ import annotations

import typer

try:
    from typer._click import core as click_core
    from typer._click import exceptions, formatting
    from typer._click.globals import get_current_context
except ImportError:  # an older Typer that depends on click itself
    from click import core as click_core  # type: ignore[import-not-found, no-redef, unused-ignore]
    from click import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        exceptions,
        formatting,
        get_current_context,
    )

UsageError = exceptions.UsageError
NoSuchOption = exceptions.NoSuchOption
MissingParameter = exceptions.MissingParameter
BadParameter = exceptions.BadParameter
NoArgsIsHelpError = exceptions.NoArgsIsHelpError
Abort = typer.Abort

__all__ = [
    "Abort",
    "BadParameter",
    "MissingParameter",
    "NoArgsIsHelpError",
    "NoSuchOption",
    "UsageError",
    "click_core",
    "formatting",
    "get_current_context",
]
