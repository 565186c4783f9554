"""Campaign commands: ``campaign``, ``character`` (not ``new``), ``log``, ``session``, ``verify``.

This module stays light (Typer only): the database layer is imported inside the command
bodies, so ``meneur --help`` and ``meneur roll`` never load SQLAlchemy. Names typed by
players are shown as plain text (never as rich markup).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from meneur.cli.params import ForceOpt, Json, int_parser
from meneur.errors import UsageError
from meneur.locale import N_, fill, ngettext
from meneur.locale import gettext as _
from meneur.text import cut, visible

if TYPE_CHECKING:
    from rich.console import Console

    from meneur.campaign.records import CharacterInfo
    from meneur.campaign.store import Store

CampaignOpt = Annotated[
    str | None,
    typer.Option(
        "--campaign", metavar="NAME", help=_("Campaign to use (default: the current one).")
    ),
]
Yes = Annotated[bool, typer.Option("--yes", help=_("Confirm a deletion that loses data."))]


def open_store(*, reading: bool = False) -> Store:
    """The campaign database. ``reading``: a command that only reads (a list, a sheet
    shown, the log): where the SQLite file is not there yet, an empty database in memory
    answers (« no campaign yet ») instead of creating the file and its folders, which
    would also turn on the logging of every later roll (logged once a database exists,
    ``MENEUR_LOG`` unset)."""
    from meneur.campaign.engine import database_exists
    from meneur.campaign.paths import database_url
    from meneur.campaign.store import Store

    if reading and not database_exists(database_url()):
        return Store("sqlite://")
    return Store()


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


SOURCES = {
    "secure": N_("secure"),
    "seeded": N_("seeded"),
    "physical": N_("typed"),
    "committed": N_("committed"),
}
"""Where a roll's dice came from, as the log's Dice column says it: the system's secure
dice, ``--seed``, faces typed from the table, a session's committed seed."""


def source_word(source: str) -> str:
    """A dice source in the reader's words (an unknown one, from an imported log, as it
    is): the log's column and the refusal of ``verify --strict`` say the same."""
    return _(SOURCES[source]) if source in SOURCES else source


def _text(value: str) -> Any:
    """Player-typed text for a rich table: never read as markup, and its control
    characters shown as escapes (``text.visible``): rich passes an escape sequence
    through, which the terminal would run."""
    from rich.text import Text

    from meneur.text import visible

    return Text(visible(value))


def _print(line: str) -> None:
    from meneur.cli.output import console

    console().print(line, markup=False, highlight=False, soft_wrap=True)


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a crash never leaves half a file)."""
    from meneur.files import write_text_atomically

    write_text_atomically(path, text)


# -- campaign ----------------------------------------------------------------------------


def campaign_new(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("Name of the campaign."))],
    as_json: Json = False,
) -> None:
    """Create a campaign (the first one becomes the current one)."""
    with open_store() as store:
        info = store.create_campaign(name)
    if as_json:
        _print(json.dumps(_campaign_json(info), ensure_ascii=False, indent=2))
    elif info.current:
        _print(_("Campaign '{name}' created; it is the current campaign.").format(name=info.name))
    else:
        _print(_("Campaign '{name}' created.").format(name=info.name))


def _campaign_json(info: Any) -> dict[str, Any]:
    return {
        "name": info.name,
        "current": info.current,
        "characters": info.characters,
        "rolls": info.rolls,
        "created_at": _when(info.created_at),
    }


def campaign_list(as_json: Json = False) -> None:
    """List the campaigns; the current one is marked."""
    with open_store(reading=True) as store:
        infos = store.campaigns()
    if as_json:
        _print(json.dumps([_campaign_json(i) for i in infos], ensure_ascii=False, indent=2))
        return
    if not infos:
        _print(_("No campaign yet: create one with 'meneur campaign new NAME'."))
        return
    from rich.table import Table

    from meneur.cli.output import console

    table = Table(title=_("Campaigns"))
    for header in (_("Current"), _("Name"), _("Characters"), _("Rolls"), _("Created")):
        table.add_column(header)
    for info in infos:
        table.add_row(
            "*" if info.current else "",
            _text(info.name),
            str(info.characters),
            str(info.rolls),
            _when(info.created_at),
        )
    console().print(table)


def campaign_use(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("Name of the campaign."))],
) -> None:
    """Make a campaign the current one."""
    with open_store() as store:
        info = store.use_campaign(name)
    _print(_("The current campaign is now '{name}'.").format(name=info.name))


def campaign_delete(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("Name of the campaign."))],
    yes: Yes = False,
) -> None:
    """Delete a campaign with its characters and its roll log."""
    with open_store() as store:
        if not yes:
            found = [i for i in store.campaigns() if _same(i.name, name)]
            if found and (found[0].characters or found[0].rolls):
                raise UsageError(
                    N_(
                        "The campaign '{name}' holds {characters} and {rolls}: add --yes to "
                        "delete them all."
                    ),
                    name=found[0].name,
                    characters=ngettext(
                        "{count} character", "{count} characters", found[0].characters
                    ).format(count=found[0].characters),
                    rolls=ngettext("{count} roll", "{count} rolls", found[0].rolls).format(
                        count=found[0].rolls
                    ),
                )
        info = store.delete_campaign(name)
    _print(_("Campaign '{name}' deleted.").format(name=info.name))


def _same(left: str, right: str) -> bool:
    from meneur.text import fold

    return fold(left) == fold(right)


# -- character ---------------------------------------------------------------------------


def _character_json(info: CharacterInfo) -> dict[str, Any]:
    from meneur.campaign.transfer import character_json

    return {"campaign": info.campaign, **character_json(info)}


Listed = TypeVar("Listed")


def _listed(read: Callable[[], list[Listed]]) -> list[Listed]:
    """``read()``, or nothing when no campaign exists yet and none was named: a fresh
    database lists as an empty one (a command that needs a campaign still says so)."""
    from meneur.campaign.errors import NoCampaignYet

    try:
        return read()
    except NoCampaignYet:
        return []


def character_list(campaign: CampaignOpt = None, as_json: Json = False) -> None:
    """List the characters of the campaign."""
    with open_store(reading=True) as store:
        infos = _listed(lambda: store.characters(campaign=campaign))
        current = campaign or next((c.name for c in store.campaigns() if c.current), None)
    if as_json:
        _print(json.dumps([_character_json(i) for i in infos], ensure_ascii=False, indent=2))
        return
    if not infos:
        if current is None:
            _print(_("No campaign and no character yet."))
        else:
            _print(_("No character in the campaign '{name}'.").format(name=current))
        return
    from rich.table import Table

    from meneur.cli.output import console

    table = Table(title=_text(_("Characters of '{name}'").format(name=infos[0].campaign)))
    for header in (_("Name"), _("System"), _("Updated")):
        table.add_column(header)
    for info in infos:
        table.add_row(_text(info.name), info.system, _when(info.updated_at))
    console().print(table)


def character_show(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("Name of the character."))],
    campaign: CampaignOpt = None,
    as_json: Json = False,
) -> None:
    """Show a stored character: its sheet and its current state."""
    with open_store(reading=True) as store:
        info = store.character(name, campaign=campaign)
    data = _character_json(info)
    if as_json:
        _print(json.dumps(data, ensure_ascii=False, indent=2))
        return
    from rich.panel import Panel
    from rich.pretty import Pretty
    from rich.table import Table

    from meneur.cli.output import console

    table = Table.grid(padding=(0, 2))
    table.add_row(_("System"), info.system)
    table.add_row(_("Campaign"), _text(info.campaign))
    table.add_row(_("Sheet"), Pretty(info.sheet))
    table.add_row(_("State"), Pretty(info.state))
    table.add_row(_("Updated"), _when(info.updated_at))
    console().print(Panel(table, title=_text(info.name)))


def character_delete(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("Name of the character."))],
    campaign: CampaignOpt = None,
) -> None:
    """Delete a stored character (its past rolls stay in the log)."""
    with open_store() as store:
        info = store.delete_character(name, campaign=campaign)
    _print(_("Character '{name}' deleted.").format(name=info.name))


def parse_state(text: str) -> dict[str, Any]:
    """``--state '{"vecu": 2}'``: a JSON object, at most 100,000 characters."""
    if len(text) > 100_000:
        raise typer.BadParameter(_("The state is limited to 100,000 characters."))
    from meneur.files import strict_json

    try:  # NaN and Infinity would make the export unreadable to other programs
        value = strict_json(text)
    except (ValueError, RecursionError):  # JSONDecodeError, NotANumber, too deep
        value = None
    if not isinstance(value, dict):
        raise typer.BadParameter(_("The state must be a JSON object such as '{\"vecu\": 2}'."))
    return value


def character_edit(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("Name of the character."))],
    sheet: Annotated[
        Path | None,
        typer.Option(
            "--sheet", metavar="FILE", help=_("Replace the sheet with FILE (JSON or TOML).")
        ),
    ] = None,
    state: Annotated[
        dict[str, Any] | None,
        typer.Option("--state", parser=parse_state, metavar="JSON", help=_("Replace the state.")),
    ] = None,
    campaign: CampaignOpt = None,
) -> None:
    """Replace a stored character's sheet (validated by its system) or state."""
    from meneur.files import read_sheet

    if sheet is None and state is None:
        raise UsageError(N_("Give --sheet FILE or --state JSON (or both)."))
    new_sheet = read_sheet(sheet) if sheet is not None else None
    with open_store() as store:
        info = store.update_character(name, sheet=new_sheet, state=state, campaign=campaign)
    _say_renamed(new_sheet, info.name)
    _print(_("Character '{name}' updated.").format(name=info.name))


def _say_renamed(sheet: Any, name: str) -> None:
    """One line when the store gave ``sheet`` its character's stored name."""
    from meneur.cli.newcharacter import renamed_line

    line = renamed_line(sheet, name)
    if line is not None:
        _print(line)


def character_export(
    name: Annotated[
        str | None,
        typer.Argument(metavar="[NAME]", help=_("Character to export (default: all of them).")),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help=_("Write to FILE instead of the screen.")),
    ] = None,
    force: ForceOpt = False,
    campaign: CampaignOpt = None,
) -> None:
    """Export one character, or every character of the campaign, as JSON."""
    from meneur.campaign.transfer import dumps, export_campaign, export_character
    from meneur.cli.newcharacter import check_out

    check_out(out, force)
    with open_store(reading=True) as store:
        if name is not None:
            document = export_character(store.character(name, campaign=campaign))
        else:
            target = campaign or store.current_campaign().name
            document = export_campaign(target, store.characters(campaign=target))
    text = dumps(document)
    if out is None:
        sys.stdout.write(text)
        return
    _write(out, text)
    count = 1 if name is not None else len(document["characters"])
    _print(_("{count} character(s) exported to {path}.").format(count=count, path=out))


def character_import(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=_("A JSON export of meneur."))],
    campaign: CampaignOpt = None,
    replace: Annotated[
        bool, typer.Option("--replace", help=_("Replace characters of the same name."))
    ] = False,
) -> None:
    """Import characters from a JSON export: all of them are checked before any is written."""
    from meneur.campaign.transfer import parse_characters, read_document

    characters = parse_characters(read_document(file))
    with open_store() as store:
        written = store.add_characters(characters, campaign, replace=replace)
    for new, info in zip(characters, written, strict=True):
        _say_renamed(new.sheet, info.name)
    target = written[0].campaign if written else (campaign or "-")
    _print(
        _("{count} character(s) imported into the campaign '{name}'.").format(
            count=len(written), name=target
        )
    )


# -- log ---------------------------------------------------------------------------------


def parse_since(text: str) -> datetime:
    """``2026-12-01`` or ``2026-12-01T20:30`` (UTC unless an offset is given)."""
    cleaned = text.strip()
    try:
        if len(cleaned) > 40:
            raise ValueError(cleaned)
        moment = datetime.fromisoformat(cleaned.replace("Z", "+00:00"))
    except ValueError:
        raise typer.BadParameter(
            _("'{value}' is not a date: write it like 2026-12-01 or 2026-12-01T20:30.").format(
                value=cut(cleaned)
            )
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


CSV_COLUMNS = (
    "seq",
    "at",
    "who",
    "system",
    "kind",
    "source",
    "faces",
    "params",
    "outcome",
    "decisions",
    "commitment",
    "counter",
    "hash",
)


def _cell(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text  # a spreadsheet must not run a formula typed as a name
    return text


def log_csv(entries: Sequence[dict[str, Any]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        writer.writerow([_cell(entry.get(column)) for column in CSV_COLUMNS])
    return buffer.getvalue()


def log_command(
    character: Annotated[
        str | None,
        typer.Option("--character", metavar="NAME", help=_("Only this character's rolls.")),
    ] = None,
    since: Annotated[
        datetime | None,
        typer.Option(
            "--since", parser=parse_since, metavar="DATE", help=_("Only rolls since DATE.")
        ),
    ] = None,
    as_json: Json = False,
    as_csv: Annotated[bool, typer.Option("--csv", help=_("Print the log as CSV."))] = False,
    export: Annotated[
        Path | None,
        typer.Option(
            "--export",
            metavar="FILE",
            help=_("Write the verifiable log to FILE (JSON); '-' writes it to standard output."),
        ),
    ] = None,
    force: ForceOpt = False,
    last: Annotated[
        int,
        typer.Option(
            "--last",
            parser=int_parser(1, 1_000_000),
            metavar="N",
            help=_("Show only the last N rolls on screen."),
        ),
    ] = 50,
    luck: Annotated[
        bool,
        typer.Option("--luck", help=_("How lucky each player has been, against fair dice.")),
    ] = False,
    campaign: CampaignOpt = None,
) -> None:
    """The roll log of the campaign: who rolled what, when, with which dice."""
    if as_json and as_csv:
        raise UsageError(N_("Choose --json or --csv, not both."))
    from meneur.cli.newcharacter import check_out

    to_stdout = export is not None and str(export) == "-"  # as most commands read « - »
    check_out(None if to_stdout else export, force)
    with open_store(reading=True) as store:
        who = None if character is None else _log_name(store, character, campaign)
        if character is not None and who is None:  # a typo is refused, not « empty »
            raise UsageError(
                N_("No character named '{name}', and no roll under that name in the log."),
                name=visible(cut(character)),
            )
        if export is not None:
            document = store.export_log(campaign=campaign, character=character, since=since)
            text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
            if to_stdout:
                sys.stdout.write(text)
                return
            _write(export, text)
            count = len(document["entries"])
            _print(
                ngettext(
                    "{count} log entry exported to {path}.",
                    "{count} log entries exported to {path}.",
                    count,
                ).format(count=count, path=export)
            )
            return
        entries = _listed(lambda: store.rolls(campaign=campaign, character=character, since=since))
    empty = _empty_log(who, since)
    if luck:
        show_luck(entries, as_json=as_json, empty=empty)
    elif as_json:
        _print(json.dumps(entries, ensure_ascii=False, indent=2))
    elif as_csv:
        sys.stdout.write(log_csv(entries))
    else:
        from meneur.cli.output import console

        render_log(entries[-last:], console(), empty=empty)


def _log_name(store: Store, name: str, campaign: str | None) -> str | None:
    """The name ``log --character`` shows for ``name`` (see :meth:`Store.log_name`); None
    when nothing goes by it, a fresh database included."""
    from meneur.campaign.errors import NoCampaignYet

    try:
        return store.log_name(name, campaign=campaign)
    except NoCampaignYet:
        return None


def _empty_log(who: str | None, since: datetime | None) -> str:
    """What an empty answer means: « the log is empty » only when nothing filtered it
    (one character's rolls, or the rolls since a date, may be none in a full log)."""
    if who is not None and since is not None:
        text = _("No roll of {name} in the log since {date}.")
    elif who is not None:
        text = _("No roll of {name} in the log yet.")
    elif since is not None:
        text = _("No roll in the log since {date}.")
    else:
        return _("The log is empty.")
    return fill(text, name=who, date=_when(since) if since is not None else "")


def show_luck(
    entries: Sequence[dict[str, Any]], *, as_json: bool, empty: str | None = None
) -> None:
    from meneur.campaign.luck import check_luck_table, luck_table

    table = luck_table(entries)
    checks = check_luck_table(entries)
    if as_json:
        rows: list[dict[str, Any]] = [
            {
                "measure": "faces",
                "who": line.who,
                "sides": line.sides,
                "dice": line.dice,
                "mean": round(line.mean, 4),
                "expected": line.expected,
                "p_at_least": line.tail,
                "exact": line.exact,
            }
            for line in table
        ]
        rows += [
            {
                "measure": "checks",
                "who": line.who,
                "rolls": line.rolls,
                "rank": round(line.rank, 4),
                "expected": 0.5,
                "p_at_least": line.tail,
            }
            for line in checks
        ]
        _print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    from rich.table import Table

    from meneur.cli.output import console
    from meneur.locale.numbers import decimal, percent

    if not table:
        _print(empty or _("The log is empty."))
        return
    grid = Table(
        title=_("Luck: the chance that fair dice do at least as well"),
        caption=_("near 0%: very lucky; near 100%: very unlucky; ≈: normal approximation"),
    )
    for header in (_("Who"), _("Die"), _("Dice"), _("Mean"), _("Expected"), _("Chance")):
        grid.add_column(header)
    for line in table:
        chance = percent(line.tail, 1) if line.exact else f"≈ {percent(line.tail, 1)}"
        grid.add_row(
            _text(line.who),
            f"d{line.sides}",
            str(line.dice),
            decimal(line.mean),
            decimal(line.expected, 1),
            chance,
        )
    console().print(grid)
    if checks:
        judged = Table(
            title=_("Luck by result: each roll against its check's exact odds"),
            caption=_(
                "rank: where a roll stands among the possible results (50% on average, "
                "100% the best); chance: that fair dice do at least as well (≈ normal law)"
            ),
        )
        for header in (_("Who"), _("Rolls"), _("Mean rank"), _("Chance")):
            judged.add_column(header)
        for row in checks:
            judged.add_row(
                _text(row.who), str(row.rolls), percent(row.rank, 0), f"≈ {percent(row.tail, 1)}"
            )
        console().print(judged)


def render_log(
    entries: Sequence[dict[str, Any]], console: Console, *, empty: str | None = None
) -> None:
    """The log as a table; ``empty`` says what no entry means (« the log is empty »)."""
    if not entries:
        console.print(
            empty or _("The log is empty."), markup=False, highlight=False, soft_wrap=True
        )
        return
    from rich.table import Table

    from meneur.campaign.chain import command_of
    from meneur.campaign.summary import entry_summary

    table = Table(title=_("Roll log"))
    for header in ("#", _("When"), _("Who"), _("Roll"), _("Dice"), _("Faces"), _("Result")):
        table.add_column(header)
    for entry in entries:
        faces = " | ".join(" ".join(map(str, stream)) for stream in entry["faces"])
        table.add_row(
            str(entry["seq"]),
            entry["at"][:19].replace("T", " "),
            _text(entry["who"] or "-"),
            _text(command_of(entry)),
            _text(source_word(entry["source"])),
            _text(faces if len(faces) <= 40 else faces[:37] + "..."),
            _text(entry_summary(entry)),
        )
    console.print(table)


# -- session -----------------------------------------------------------------------------


def session_start(campaign: CampaignOpt = None, as_json: Json = False) -> None:
    """Start a game session with committed dice: publish the commitment before playing."""
    with open_store() as store:
        info = store.start_session(campaign=campaign)
    if as_json:
        _print(json.dumps({"commitment": info.commitment, "started_at": _when(info.started_at)}))
        return
    _print(_("Game session started. Publish this commitment to the players now:"))
    _print(f"  sha256(seed) = {info.commitment}")
    _print(_("Rolls are drawn from the secret seed until 'meneur session reveal'."))


def session_reveal(campaign: CampaignOpt = None, as_json: Json = False) -> None:
    """End the game session: reveal the seed so that anyone can verify the rolls."""
    with open_store() as store:
        info = store.reveal_session(campaign=campaign)
    data = {
        "commitment": info.commitment,
        "seed": info.seed,
        "rolls": info.rolls,
        "closing_hash": info.closing_hash,
    }
    if as_json:
        _print(json.dumps(data, indent=2))
        return
    _print(
        _("Game session over: {rolls} roll(s) drawn from the committed seed.").format(
            rolls=info.rolls
        )
    )
    _print(f"  sha256(seed) = {info.commitment}")
    _print(f"  seed         = {info.seed}")
    _print(_("  log head     = {head}").format(head=info.closing_hash))
    _print(_("Check it: meneur log --export FILE, then meneur verify FILE."))


def session_list(campaign: CampaignOpt = None, as_json: Json = False) -> None:
    """The game sessions of the campaign: commitments, and seeds once revealed."""
    with open_store(reading=True) as store:
        infos = _listed(lambda: store.game_sessions(campaign=campaign))
    rows = [
        {
            "commitment": i.commitment,
            "started_at": _when(i.started_at),
            "revealed_at": _when(i.revealed_at) if i.revealed_at else None,
            "seed": i.seed,
            "rolls": i.rolls,
        }
        for i in infos
    ]
    if as_json:
        _print(json.dumps(rows, indent=2))
        return
    if not rows:
        _print(_("No game session yet: start one with 'meneur session start'."))
    for row in rows:
        state = _("open") if row["revealed_at"] is None else _("revealed")
        _print(f"{row['started_at']}  {row['commitment']}  {state}  ({row['rolls']})")


# -- verify ------------------------------------------------------------------------------


StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help=_(
            "Fail unless the file is the whole log (its end recorded, no entry missing) "
            "and every game session's rolls were drawn from its committed dice."
        ),
    ),
]


def verify_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=_("A log exported by meneur."))],
    replay: Annotated[
        bool,
        typer.Option(
            "--replay",
            help=_(
                "Also resolve every roll again through today's rules and report each entry "
                "whose outcome differs or that cannot be replayed (exit status 2)."
            ),
        ),
    ] = False,
    as_json: Json = False,
    strict: StrictOpt = False,
) -> None:
    """Check an exported roll log: every link of the chain and every committed face."""
    from meneur.campaign.chain import verify_log
    from meneur.campaign.transfer import read_document

    document = read_document(file)
    report = verify_log(document)
    refusal = _strict_refusal(report) if strict else None
    replayed = True
    if replay:
        replayed = _replay(document, report.entries, as_json=as_json)
    elif as_json:
        _print(
            json.dumps(
                {
                    "ok": refusal is None,
                    "entries": report.entries,
                    "recomputed": report.recomputed,
                    "physical": report.physical,
                    "unrevealed": report.unrevealed,
                    "complete": report.complete,
                    "end_known": report.end_known,
                    "missing": report.missing,
                    "head": report.head,
                    "sessions": [
                        {"commitment": s.commitment, "sources": s.sources} for s in report.sessions
                    ],
                },
                indent=2,
            )
        )
    else:
        _print_report(report)
    if refusal is not None:
        raise refusal
    if not replayed:
        raise typer.Exit(2)


def _strict_refusal(report: Any) -> Exception | None:
    """Why ``--strict`` refuses this file, or None: ``--strict`` asks for the whole log,
    its end recorded, every entry present from the first (a roll removed from the middle
    or the end, even with its hash chain redone, leaves a gap in the numbers or in the
    head), and every session's rolls drawn from its committed dice."""
    from meneur.campaign.errors import VerifyError

    if not report.end_known:
        return VerifyError(
            N_("The file does not record where the log ended (no 'head'); --strict refuses it.")
        )
    if report.missing:
        return VerifyError(
            N_(
                "The file is not the whole log: {count} entry(ies) are not in it; "
                "--strict refuses it."
            ),
            count=report.missing,
        )
    if not report.complete:
        return VerifyError(
            N_("The file is not the whole log: it does not start the log; --strict refuses it.")
        )
    bypassed = [s for s in report.sessions if s.bypassed]
    if not bypassed:
        return None
    first = bypassed[0]
    return VerifyError(
        N_(
            "Game session {commitment}: {count} roll(s) not drawn from its committed dice "
            "({sources}); --strict refuses them."
        ),
        commitment=first.commitment[:16],
        count=first.bypassed,
        sources=", ".join(
            f"{source_word(source)} {count}" for source, count in sorted(first.sources.items())
        ),
    )


def _print_report(report: Any) -> None:
    _print(
        ngettext(
            "The log verifies: {entries} entry, every link intact.",
            "The log verifies: {entries} entries, every link intact.",
            report.entries,
        ).format(entries=report.entries)
    )
    _print(
        ngettext(
            "  {count} committed roll recomputed from the revealed seeds.",
            "  {count} committed rolls recomputed from the revealed seeds.",
            report.recomputed,
        ).format(count=report.recomputed)
    )
    _print(
        ngettext(
            "  {count} physical roll: typed by players, chain-checked only.",
            "  {count} physical rolls: typed by players, chain-checked only.",
            report.physical,
        ).format(count=report.physical)
    )
    if report.unrevealed:
        _print(
            ngettext(
                "  {count} committed roll waits for its seed to be revealed.",
                "  {count} committed rolls wait for their seed to be revealed.",
                report.unrevealed,
            ).format(count=report.unrevealed)
        )
    for session in report.sessions:
        _print(
            _(
                "  game session {commitment}: {committed} committed, {secure} secure, "
                "{physical} physical, {other} other"
            ).format(
                commitment=session.commitment[:16],
                committed=session.sources.get("committed", 0),
                secure=session.sources.get("secure", 0),
                physical=session.sources.get("physical", 0),
                other=sum(
                    n
                    for source, n in session.sources.items()
                    if source not in ("committed", "secure", "physical")
                ),
            )
        )
    if not report.end_known:
        _print(
            _(
                "  The file does not record where the log ended (no 'head'): entries cut "
                "from its end would not be seen. --strict refuses it."
            )
        )
    elif not report.complete and (not report.rooted or not report.missing):
        _print(_("  This is part of a log (filtered): its first link is not checked."))
    if report.missing:
        _print(
            ngettext(
                "  {count} entry is not in this file (filtered out, or a roll secret from "
                "its reader): its content and the links around it are not checked.",
                "  {count} entries are not in this file (filtered out, or rolls secret from "
                "their reader): their content and the links around them are not checked.",
                report.missing,
            ).format(count=report.missing)
        )
    _print(_("  head = {head}").format(head=report.head))


def _replay(document: dict[str, Any], entries: int, *, as_json: bool) -> bool:
    """``verify --replay``: the chain is intact; now every roll, through the registry.

    Prints the report; true when every entry replays."""
    from meneur.campaign.replay import replay_entries
    from meneur.locale import gettext

    report = replay_entries(document.get("entries", []))
    problems = [
        {"seq": p.seq, "problem": gettext(p.message).format(**p.values)} for p in report.problems
    ]
    if as_json:
        data = {
            "ok": not problems,
            "entries": entries,
            "replayed": report.entries - len(problems),
            "rolls": report.rolls,
            "problems": problems,
        }
        _print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        ok = report.entries - len(problems)
        replayed = ngettext(
            "The chain verifies; {ok} of {entries} entries replays",
            "The chain verifies; {ok} of {entries} entries replay",
            ok,
        ).format(ok=ok, entries=report.entries)
        rolls = ngettext("({rolls} roll).", "({rolls} rolls).", report.rolls)
        _print(f"{replayed} {rolls.format(rolls=report.rolls)}")
        for problem in problems:
            _print(_("  entry {seq}: {problem}").format(**problem))
    return not problems


# -- registration ------------------------------------------------------------------------

GROUPS = {
    "campaign": N_("Create, list, choose and delete campaigns."),
    "session": N_("Game sessions with verifiable dice: commit, then reveal."),
}


def register(app: typer.Typer, groups: Any, wanted: Sequence[str] = ()) -> None:
    """Add the campaign commands to the CLI (only the group typed gets its commands)."""
    first = wanted[0] if wanted else ""
    for name, help_id in GROUPS.items():
        group = typer.Typer(help=_(help_id), no_args_is_help=True)
        if first == name and name == "campaign":
            group.command("new", help=_("Create a campaign."))(campaign_new)
            group.command("list", help=_("List the campaigns."))(campaign_list)
            group.command("use", help=_("Make a campaign the current one."))(campaign_use)
            group.command("delete", help=_("Delete a campaign and all it holds."))(campaign_delete)
        elif first == name:
            group.command("start", help=_("Start a game session: commit to a secret seed."))(
                session_start
            )
            group.command("reveal", help=_("End the game session: reveal its seed."))(
                session_reveal
            )
            group.command("list", help=_("List the game sessions."))(session_list)
        app.add_typer(group, name=name)
    if first == "character":
        group = groups.group("character")
        group.command("list", help=_("List the stored characters."))(character_list)
        group.command("show", help=_("Show a stored character."))(character_show)
        group.command("edit", help=_("Replace a stored character's sheet or state."))(
            character_edit
        )
        group.command("delete", help=_("Delete a stored character."))(character_delete)
        group.command("export", help=_("Export characters as JSON."))(character_export)
        group.command("import", help=_("Import characters from JSON, all or nothing."))(
            character_import
        )
    # Typer converts every parameter of every attached command at start-up: commands
    # not typed get a bare stand-in with the same help (``meneur --help`` lists them).
    app.command("log", help=_("Show or export the roll log."))(
        log_command if first == "log" else _stand_in
    )
    app.command("verify", help=_("Verify an exported roll log."))(
        verify_command if first == "verify" else _stand_in
    )


def _stand_in() -> None:
    """Never run: replaced by the real command when its name is typed."""
