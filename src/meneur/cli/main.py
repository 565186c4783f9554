"""Entry point: choose the language, build the command tree, turn errors into one line.

The tree is built from the registry: each system adds its own commands to the shared
groups (``test``, ``odds``...), so adding a system touches no code here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from meneur.cli import clickcompat as click
import typer

from meneur import __version__
from meneur.errors import MeneurError
from meneur.locale import LANGUAGES, N_, detect_language, set_language
from meneur.locale import gettext as _
from meneur.systems.base import CommandGroups

GROUP_HELP = {
    "test": N_("Roll a test of a system."),
    "oppose": N_("Roll an opposed test between two sides."),
    "odds": N_("Exact odds of a test, without rolling."),
    "fight": N_("Play a fight to its end, round by round."),
    "character": N_("Create and manage characters."),
    "character new": N_("Create a character for a system."),
    "push": N_("Spend resources on a roll, with the exact odds of each option."),
    "xp": N_("Experience: the cost of raising a trait, and spending it."),
    "acquire": N_("Find an item: availability roll and price."),
    "cooperate": N_("Roll a group test where helpers assist a leader."),
    "aid": N_("One character helps another before a roll."),
    "scene": N_("Play a scene step by step, saving what lasts."),
}


class TyperGroups(CommandGroups):
    """Typer sub-applications created on first use, with translated help."""

    def __init__(self, app: typer.Typer) -> None:
        self.app = app
        self.groups: dict[tuple[str, ...], typer.Typer] = {}

    def group(self, *path: str) -> typer.Typer:
        if path not in self.groups:
            parent = self.group(*path[:-1]) if len(path) > 1 else self.app
            help_id = GROUP_HELP.get(" ".join(path))
            child = typer.Typer(help=_(help_id) if help_id else None, no_args_is_help=True)
            parent.add_typer(child, name=path[-1])
            self.groups[path] = child
        return self.groups[path]


def _version(value: bool) -> None:
    if value:
        print(f"meneur {__version__}")
        raise typer.Exit()


def build_app() -> typer.Typer:
    """The whole command tree, with help in the current language."""
    from meneur.cli.roll import roll
    from meneur.systems.registry import SYSTEMS

    app = typer.Typer(
        name="meneur",
        help=_(
            "meneur: play and design four French tabletop role-playing systems "
            "(Tunnels, Obscur, Krâsses, Légendes) with exact odds."
        ),
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def root(
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help=_("Show the version and exit.")
        ),
        lang: str = typer.Option(
            "", "--lang", help=_("Language of messages: fr or en (also MENEUR_LANG).")
        ),
    ) -> None:
        """Options for every command."""

    app.command("roll", help=_("Roll a generic dice expression such as 3d6+2 or 4d6kh3."))(roll)
    groups = TyperGroups(app)
    for system in SYSTEMS:
        system.register_cli(groups)
    return app


def split_language(args: Sequence[str]) -> tuple[str | None, list[str]]:
    """Take ``--lang X`` / ``--lang=X`` out of the arguments, wherever it stands."""
    rest: list[str] = []
    language: str | None = None
    items = iter(args)
    for item in items:
        if item == "--lang":
            language = next(items, "")
        elif item.startswith("--lang="):
            language = item.split("=", 1)[1]
        else:
            rest.append(item)
    return language, rest


def usage_line(error: click.UsageError) -> str:
    """One line, in the user's language, for a usage error click raised."""
    if isinstance(error, click.NoSuchOption):
        return _("Unknown option {option}.").format(option=error.option_name)
    if isinstance(error, click.MissingParameter):
        name = error.param.opts[0] if error.param is not None and error.param.opts else "?"
        if error.param is not None and error.param.param_type_name == "argument":
            name = error.param.human_readable_name
        return _("Missing {name}.").format(name=name)
    if isinstance(error, click.BadParameter):
        hint = error.param_hint or (error.param.opts[0] if error.param is not None else "")
        if isinstance(hint, list | tuple):
            hint = " / ".join(hint)
        return _("Invalid value for {option}: {message}").format(option=hint, message=error.message)
    message = error.message
    if message.startswith("No such command"):
        return _("Unknown command: {message}").format(message=message.split("'")[1] if "'" in message else message)
    if message.startswith("Got unexpected extra argument"):
        return _("Unexpected argument: {message}").format(message=message.split("(")[-1].rstrip(")"))
    return _("Usage error: {message}").format(message=message)


def fail(line: str) -> int:
    from meneur.cli.output import error_console

    error_console().print(_("Error: {message}").format(message=line), markup=False, soft_wrap=True)
    return 2


def run(args: Sequence[str]) -> int:
    """Run the CLI on ``args``; return the exit status (never lets a traceback out for bad input)."""
    language, rest = split_language(args)
    try:
        set_language(language if language is not None else detect_language())
    except ValueError:
        set_language("fr")
        return fail(
            _("Unknown language '{language}': choose one of {known}.").format(
                language=(language or detect_language())[:20], known=", ".join(LANGUAGES)
            )
        )
    try:
        command = typer.main.get_command(build_app())
        result = command.main(args=rest, prog_name="meneur", standalone_mode=False)
    except MeneurError as error:
        return fail(str(error))
    except click.NoArgsIsHelpError as error:
        print(error.ctx.get_help() if error.ctx else "")
        return 0
    except click.UsageError as error:
        return fail(usage_line(error))
    except click.Abort:
        return fail(_("Interrupted."))
    return result if isinstance(result, int) else 0


def main() -> None:
    sys.exit(run(sys.argv[1:]))
