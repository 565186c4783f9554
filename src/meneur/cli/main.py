"""Entry point: choose the language, build the command tree, turn errors into one line.

The tree is built from the registry: each system adds its own commands to the shared
groups (``test``, ``odds``...), so adding a system touches no code here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import typer

from meneur import __version__
from meneur.cli import clickcompat as click
from meneur.cli.helpformat import localize, placeholders
from meneur.cli.journal import Journal
from meneur.cli.journal import use as use_journal
from meneur.cli.repeats import refuse_repeats
from meneur.errors import MeneurError
from meneur.locale import LANGUAGES, N_, detect_language, set_language
from meneur.locale import gettext as _
from meneur.systems.base import CommandGroups, System
from meneur.text import fold

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
    "survive": N_("Survival: a party's days in a hostile land."),
    "simulate": N_("Simulate many rolls or whole fights (numpy), with confidence intervals."),
    "simulate fight": N_(
        "Many whole fights, vectorised: win rate with its 95 % interval, rounds, survival."
    ),
    "simulate sweep": N_(
        "Sweep fights or table cells over a grid, on local cores or a Dask cluster."
    ),
    "simulate test": N_("Simulate one cell of a table beside its exact odds (every system)."),
    "simulate policy": N_(
        "When to spend a resource: each policy's success rate with its interval."
    ),
    "hurt": N_("Apply a source of damage to a character sheet."),
    "heal": N_("Treat wounds, hang on to life, lift morale."),
    "rest": N_("Recover with or without rest."),
    "march": N_("March with a load: encumbrance tests."),
}


CAMPAIGN_COMMANDS = ("campaign", "session", "character", "log", "verify")
"""Top-level commands of :mod:`meneur.cli.campaign` (registered only when typed or listed)."""
LAB_COMMANDS = ("table", "compare", "simulate")
"""Top-level commands of :mod:`meneur.cli.lab`."""


class TyperGroups(CommandGroups):
    """Typer sub-applications created on first use, with translated help.

    Start-up matters (every command pays it) and Typer builds a validator for every
    parameter of every command it converts. So only the groups on the path the user
    typed (``meneur test ...`` builds ``test``) get their commands; the others appear in
    ``--help`` as empty groups with their help line.
    """

    def __init__(self, app: typer.Typer, wanted: Sequence[str] = ()) -> None:
        self.app = app
        self.wanted = tuple(wanted)
        self.groups: dict[tuple[str, ...], typer.Typer] = {}

    def _on_wanted_path(self, path: tuple[str, ...]) -> bool:
        depth = min(len(path), len(self.wanted))
        return bool(self.wanted) and path[:depth] == self.wanted[:depth]

    def groups_by_name(self) -> set[str]:
        return {path[0] for path in self.groups}

    def group(self, *path: str) -> typer.Typer:
        if path not in self.groups:
            help_id = GROUP_HELP.get(" ".join(path))
            help_text = _(help_id) if help_id else None
            child = typer.Typer(help=help_text, no_args_is_help=True)
            parent = self.group(*path[:-1]) if len(path) > 1 else self.app
            if self._on_wanted_path(path):
                parent.add_typer(child, name=path[-1])
            elif len(path) == 1:
                parent.add_typer(typer.Typer(help=help_text, no_args_is_help=True), name=path[0])
            self.groups[path] = child
        return self.groups[path]


def _version(value: bool) -> None:
    if value:
        print(f"meneur {__version__}")
        raise typer.Exit()


def build_app(wanted: Sequence[str] = ()) -> typer.Typer:
    """The command tree, with help in the current language.

    ``wanted`` is the command path the user typed (``("test", "<system>")``): only the
    groups on it get their commands, and only from the systems it names (see
    :class:`TyperGroups` and :func:`systems_named_in`). Start-up stays fast that way.
    """
    from meneur.cli.roll import roll
    from meneur.systems.registry import SYSTEMS

    app = typer.Typer(
        name="meneur",
        help=_(
            "meneur: play and design French tabletop role-playing systems ({titles}) "
            "with exact odds."
        ).format(titles=", ".join(s.title for s in SYSTEMS)),
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def root(
        version: bool = typer.Option(
            False,
            "--version",
            callback=_version,
            is_eager=True,
            help=_("Show the version and exit."),
        ),
        lang: str = typer.Option(
            "",
            "--lang",
            metavar="fr|en",
            help=_("Language of messages: fr or en (also MENEUR_LANG)."),
        ),
    ) -> None:
        """Options for every command."""

    app.command(
        "roll",
        help=_("Roll a generic dice expression such as 3d6+2 or 4d6kh3."),
        epilog=_(
            "Examples: 3d6+2 (sum), 4D6kh3 (keep the 3 highest), 2d20kl1 (keep the lowest), "
            "5d6x (explode on 6), 4d6r<3 (reroll 1s and 2s once), 2d6rr1 (reroll 1s until "
            "none), 6d10cs>=8 (count dice of 8 or more)."
        ),
    )(roll)
    groups = TyperGroups(app, wanted)
    for name in GROUP_HELP:
        groups.group(*name.split()[:1])
    if wanted and wanted[0] in groups.groups_by_name():
        for system in systems_named_in(wanted, SYSTEMS):
            if wanted[0] == "simulate":
                system.register_lab_cli(groups)
            else:
                system.register_cli(groups)
    first = wanted[0] if wanted else None
    if first is None or first in CAMPAIGN_COMMANDS:  # `meneur roll` need not import them
        from meneur.cli.campaign import register as register_campaign

        register_campaign(app, groups, wanted)
    if first is None or first in LAB_COMMANDS:
        from meneur.cli.lab import register as register_lab

        register_lab(app, groups, wanted)
    if first is None or first == "serve":  # the live table (FastAPI loads only when run)
        from meneur.cli.serve import register as register_serve

        register_serve(app)
    return app


def systems_named_in(words: Sequence[str], systems: Sequence[System]) -> list[System]:
    """The systems the command names (``test <name>`` -> that system), else all of them.

    Only those register their commands: ``meneur test <name>`` imports no other system.
    """
    folded = {fold(word) for word in words}
    named = [
        system
        for system in systems
        if folded & {fold(system.name), fold(system.title), *map(fold, system.aliases)}
    ]
    return named or list(systems)


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


def command_path(args: Sequence[str]) -> list[str]:
    """The leading words of the arguments, before any option: the command the user wants."""
    path: list[str] = []
    for item in args:
        if item.startswith("-"):
            break
        path.append(item)
    return path[:3]


def usage_line(error: click.UsageError) -> str:
    """One line, in the user's language, for a usage error click raised."""
    from meneur.text import cut  # what click quotes back of the command line: bounded

    if isinstance(error, click.NoSuchOption):
        return _("Unknown option {option}.").format(option=cut(error.option_name))
    if isinstance(error, click.MissingParameter):
        param = error.param
        name = param.opts[0] if param is not None and param.opts else "?"
        if param is not None and param.param_type_name == "argument":
            shown = (param.metavar or param.name or name).strip("[]").upper()
            name = placeholders(shown)  # as the help names it: NOM, FICHIER...
        return _("Missing {name}.").format(name=name)
    if isinstance(error, click.BadParameter):
        hint = error.param_hint or (error.param.opts[0] if error.param is not None else "")
        if isinstance(hint, list | tuple):
            hint = " / ".join(hint)
        return _("Invalid value for {option}: {message}").format(option=hint, message=error.message)
    message = error.message
    if message.startswith("No such command"):
        return _("Unknown command: {message}").format(
            message=cut(message.split("'")[1] if "'" in message else message)
        )
    if message.startswith("Got unexpected extra argument"):
        return _("Unexpected argument: {message}").format(
            message=cut(message.split("(")[-1].rstrip(")"))
        )
    return _("Usage error: {message}").format(message=message)


def fail(line: str) -> int:
    """Print one error line and give exit status 2. Whatever the message echoes of the
    user's input is shown with its control characters escaped (``text.visible``): an
    escape sequence typed in an option is never run by the terminal, whichever message
    quotes it."""
    from meneur.cli.output import error_console
    from meneur.text import visible

    said = _("Error: {message}").format(message=visible(line))
    error_console().print(said, markup=False, soft_wrap=True)
    return 2


def _journal() -> Journal:
    """The campaign's roll log, imported when a command first rolls (see :mod:`.journal`)."""
    from meneur.campaign import recording

    return recording


use_journal(_journal)


def _recording() -> ModuleType | None:
    """The roll log's recorder, if this command loaded it (commands that roll do).

    Not imported otherwise: ``meneur --help`` need not pay for it.
    """
    return sys.modules.get("meneur.campaign.recording")


def _abandon() -> None:
    """After an error: whatever the command recorded is not written."""
    recording = _recording()
    if recording is not None:
        recording.abandon()


PLAYS = 5
"""Times a command is played when another process drew its committed dice first, or
changed a sheet it read, before anything was shown (``recording.may_play_again``): two
players rolling at the same moment in a session both get their roll."""


def _print_anything() -> None:
    """Make standard output and error write what UTF-8 cannot encode as escapes
    (``\\udcff``) instead of failing. A file name of bytes that are not UTF-8 (Linux
    allows them) reaches a command as such text; a strict UTF-8 terminal refused to print
    « Saved to ... » once the command had already written it and logged its roll."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def run(args: Sequence[str]) -> int:
    """Run the CLI on ``args`` and return the exit status; bad input never gives a traceback."""
    _print_anything()
    language, rest = split_language(args)
    asked = language if language is not None else detect_language()
    try:
        set_language(asked)
    except ValueError:
        set_language("fr")
        return fail(
            _("Unknown language '{language}': choose one of {known}.").format(
                language=asked[:20], known=", ".join(LANGUAGES)
            )
        )
    try:
        command = typer.main.get_command(build_app(command_path(rest)))
        if command_path(rest)[:1] == ["odds"]:  # every system's odds can be plotted
            from meneur.cli.lab import add_odds_plot

            add_odds_plot(command)
        if command_path(rest)[:1] in (["odds"], ["table"], ["compare"], ["simulate"]):
            from meneur.cli.lab import add_plot_force  # an existing plot: only with --force

            add_plot_force(command)
        localize(command)
        refuse_repeats(command)
        return _played(command, rest)
    except MeneurError as error:
        _abandon()
        return fail(str(error))
    except click.NoArgsIsHelpError as error:
        print(error.ctx.get_help() if error.ctx else "")
        return 0
    except click.UsageError as error:
        _abandon()
        return fail(usage_line(error))
    except click.Abort:
        _abandon()
        return fail(_("Interrupted."))
    except UnicodeEncodeError:  # an argument of bytes that are not UTF-8, stored or printed
        _abandon()
        return fail(_("A text typed (a name, a campaign) is not valid UTF-8: type it again."))


def _played(command: Any, args: list[str]) -> int:
    """The exit status of ``command`` run on ``args``, each run on a fresh record; run
    again (:data:`PLAYS` at most) while a conflict leaves it nothing shown
    (``recording.may_play_again``)."""
    for attempt in range(1, PLAYS + 1):
        recording = _recording()
        if recording is not None:
            recording.begin()  # a fresh record (in-process runs, such as the tests)
        try:
            result = command.main(args=args, prog_name="meneur", standalone_mode=False)
            recording = _recording()
            if recording is not None:
                recording.finish()  # a sheet changed meanwhile: a conflict, as above
        except MeneurError as error:
            recording = _recording()
            if attempt < PLAYS and recording is not None and recording.may_play_again(error):
                continue  # nothing was shown: draw again from the session as it now is
            raise
        return result if isinstance(result, int) else 0
    raise AssertionError("unreachable: the last play returns or raises")  # pragma: no cover


def main() -> None:
    sys.exit(run(sys.argv[1:]))
