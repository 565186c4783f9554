"""Click's exception classes, wherever this Typer keeps them.

Typer 0.29 vendors click as ``typer._click``; older releases depend on ``click``. The CLI
needs the usage-error classes to turn them into one translated line, and nothing else.
"""

from __future__ import annotations

import typer

try:
    from typer._click import exceptions
except ImportError:  # an older Typer that depends on click itself
    from click import exceptions  # type: ignore[no-redef]

UsageError = exceptions.UsageError
NoSuchOption = exceptions.NoSuchOption
MissingParameter = exceptions.MissingParameter
BadParameter = exceptions.BadParameter
NoArgsIsHelpError = exceptions.NoArgsIsHelpError
Abort = typer.Abort

__all__ = ["Abort", "BadParameter", "MissingParameter", "NoArgsIsHelpError", "NoSuchOption", "UsageError"]
