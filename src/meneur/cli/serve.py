"""``meneur serve``: start the live table on the campaign database and print the GM link.

Zero setup: with no campaign yet, a ``default`` campaign and its table are made, so the
first ``meneur serve`` gives a working GM link at once. FastAPI, uvicorn and the table's
code load only when the command runs (``meneur --help`` stays fast).
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Annotated, Any

import typer

from meneur.cli.params import int_parser, meneur_parser
from meneur.locale import gettext as _
from meneur.text import is_digits

HostOpt = Annotated[
    str,
    typer.Option(
        "--host", metavar="HOST", help=_("Address to listen on (127.0.0.1: this computer only).")
    ),
]
PortOpt = Annotated[
    int,
    typer.Option(
        "--port", metavar="PORT", parser=int_parser(1, 65535), help=_("Port to listen on.")
    ),
]
CampaignOpt = Annotated[
    str | None,
    typer.Option(
        "--campaign",
        metavar="NAME",
        help=_(
            "The campaign whose table is served (default: the table served last, the same "
            "links at every start; at the first start, the current campaign's)."
        ),
    ),
]
NewOpt = Annotated[
    bool,
    typer.Option(
        "--new-table",
        help=_("Make a new table (new GM and invite links; the old links stop working)."),
    ),
]
PublicOpt = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        metavar="URL",
        help=_(
            "The address players reach the table by, through a proxy or a LAN address "
            "(http://192.168.1.10:8000): the printed links use it, and only it and this "
            "computer are accepted."
        ),
    ),
]


def _folder(text: str) -> Path:
    """``--data-dir`` as a path, never empty: ``Path("")`` is the current folder, so
    ``--data-dir ''`` made a database wherever the command ran, unsaid."""
    from meneur.errors import UsageError
    from meneur.locale import N_

    if not text:
        raise UsageError(N_("an empty path names no folder: give one, or leave the option out."))
    return Path(text)


DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        metavar="DIR",
        parser=meneur_parser(_folder),
        help=_(
            "The folder of the table's data: its SQLite database (meneur.db) lives there, "
            "made on first use (default: MENEUR_DB_URL, else the user's data folder)."
        ),
    ),
]
SERVED_KEY = "served_table"
"""The setting that remembers which table ``meneur serve`` served last (its id)."""


def data_dir_url(folder: Path) -> str:
    """The SQLite URL of ``meneur.db`` in ``folder``, made if missing; one line if it cannot be."""
    from meneur.campaign.paths import DB_FILENAME
    from meneur.errors import UsageError
    from meneur.locale import N_

    where = folder.expanduser()
    try:
        if where.exists() and not where.is_dir():  # mkdir said « it already exists »
            raise UsageError(
                N_("--data-dir {path} is a file, not a folder."), path=str(where)[-120:]
            )
        where.mkdir(parents=True, exist_ok=True)
        probe = where / ".meneur-write-test"
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise UsageError(
            N_("--data-dir {path}: cannot write there ({reason})."),
            path=str(where)[-120:],
            reason=_os_reason(error),
        ) from None
    return f"sqlite:///{(where / DB_FILENAME).resolve()}"


def lan_addresses() -> list[str]:
    """This computer's addresses on the local network (IPv4, loopback left out), best first.

    The route to a public address says which interface players reach (no packet is sent);
    the host name's addresses add the others.
    """
    import socket

    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only, nothing is sent
            found.append(str(probe.getsockname()[0]))
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found.extend(str(info[4][0]) for info in infos)
    unique = dict.fromkeys(a for a in found if not a.startswith(("127.", "0.")))
    return list(unique)


def served_table(tables: Any, campaign: str | None, new_table: bool) -> tuple[Any, str | None]:
    """The table to serve, and the current campaign's name when it is another one's table.

    ``--campaign`` or ``--new-table`` choose; otherwise the table served last (the same
    links at every start, whatever ``meneur campaign use`` did since), else the current
    campaign's. The choice is remembered in the database.
    """
    from meneur.campaign.models import Setting

    store = tables.store
    if new_table:
        table = tables.create(campaign, replace=True)
    elif campaign is not None:
        store.current_campaign(create=True)  # zero setup: « default » may be named at once
        table = tables.default_for(campaign)
    else:
        with store.transaction() as session:
            setting = session.get(Setting, SERVED_KEY)
            last = int(setting.value) if setting is not None and is_digits(setting.value) else None
        table = tables.get(last) if last is not None else None
        table = table or tables.default()
    with store.transaction() as session:
        setting = session.get(Setting, SERVED_KEY)
        if setting is None:
            session.add(Setting(key=SERVED_KEY, value=str(table.id)))
        else:
            setting.value = str(table.id)
    current = store.current_campaign(create=True).name
    return table, (current if current != table.campaign else None)


def public_root(url: str) -> tuple[str, str]:
    """``(origin, host)`` of ``--public-url``: a scheme and a host, nothing else."""
    from urllib.parse import urlsplit

    from meneur.errors import UsageError
    from meneur.locale import N_
    from meneur.text import has_control

    try:  # an unclosed IPv6 bracket raises at once, a bad port only when read
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        parts, port = urlsplit(""), -1
    if (
        has_control(url)  # printed in the links: an escape sequence would run
        or " " in url.strip()
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or port == -1
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise UsageError(
            N_(
                "--public-url takes a scheme and a host, like https://table.example.org, "
                "not '{url}'."
            ),
            url=url[:80],
        )
    host = parts.netloc.lower()
    return f"{parts.scheme}://{host}", host


def allowed_hosts(
    host: str, port: int, public: str | None, lan: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The ``Host`` values the table answers to: this computer's names (its LAN addresses
    when it listens on every interface), and the public one."""
    names = {in_url(host), "127.0.0.1", "localhost"} if host not in ("0.0.0.0", "::") else set(lan)
    names |= {"127.0.0.1", "localhost", "[::1]"}
    found = {f"{name}:{port}" for name in names}
    if public is not None:
        found.add(public)
    return tuple(sorted(found))


def in_url(host: str) -> str:
    """``host`` as a link writes it: an IPv6 address in brackets (``http://[::1]:8000``;
    ``http://::1:8000`` leads nowhere)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def check_port(host: str, port: int) -> None:
    """A clear error, before anything starts, when the address cannot be listened on: an
    empty ``--host`` (it listened on every interface, and printed links without a host),
    or one no socket takes (control or non-ASCII characters)."""
    import socket

    from meneur.errors import UsageError
    from meneur.locale import N_

    if not host or not all(33 <= ord(char) <= 126 for char in host):
        raise UsageError(
            N_("--host '{host}' is not an address: give one such as 127.0.0.1 or 0.0.0.0."),
            host=host[:60].encode("ascii", "backslashreplace").decode("ascii"),
        )
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise UsageError(
            N_("Cannot listen on {host}:{port} ({reason}): choose another --port or --host."),
            host=host,
            port=port,
            reason=_os_reason(error),
        ) from None


def hold_sqlite(url: Any) -> IO[bytes] | None:
    """Hold a lock beside a SQLite database for as long as this server runs.

    One process serves a SQLite table (its seats and rate limits live in its memory): a
    second ``meneur serve`` on the same file is refused in one line that says to use
    PostgreSQL for several processes. The lock goes with the process, even killed.
    """
    import fcntl
    from pathlib import Path

    from meneur.errors import UsageError
    from meneur.locale import N_

    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = Path(str(url.database)).expanduser().resolve()
    held = (path.parent / (path.name + ".serve-lock")).open("ab")
    try:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held.close()
        raise UsageError(
            N_(
                "Another 'meneur serve' already serves the SQLite database {path}: one process "
                "per SQLite file; for several processes, use PostgreSQL (MENEUR_DB_URL)."
            ),
            path=str(path)[-120:],
        ) from None
    return held


def serve_command(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    campaign: CampaignOpt = None,
    new_table: NewOpt = False,
    public_url: PublicOpt = None,
    data_dir: DataDirOpt = None,
) -> None:
    """Start the live table: the GM and players roll together in the browser."""
    import uvicorn

    from meneur.campaign.store import Store
    from meneur.web.app import create_app, redact_logs
    from meneur.web.state import WebSettings
    from meneur.web.tables import Tables

    public = public_root(public_url) if public_url is not None else None
    check_port(host, port)
    store = Store(data_dir_url(data_dir) if data_dir is not None else None)
    held = hold_sqlite(store.engine.url)
    tables = Tables(store)
    table, current = served_table(tables, campaign, new_table)
    everywhere = host in ("0.0.0.0", "::")
    lan = tuple(lan_addresses()) if everywhere else ()
    shown = (lan[0] if lan else "127.0.0.1") if everywhere else in_url(host)
    root = public[0] if public else f"http://{shown}:{port}"
    print(_("The table of the campaign '{campaign}' is ready.").format(campaign=table.campaign))
    if current is not None:
        print(
            _(
                "(The current campaign is '{current}'; its table: meneur serve --campaign "
                "'{current}'.)"
            ).format(current=current)
        )
    print(
        _("GM link (keep it to yourself): {url}").format(
            url=f"{root}/t/{table.id}/{table.gm_token}"
        )
    )
    print(
        _("Invite link (for your players): {url}").format(
            url=f"{root}/t/{table.id}/join/{table.invite_token}"
        )
    )
    if not public and len(lan) > 1:
        others = ", ".join(f"http://{address}:{port}" for address in lan[1:])
        print(_("This computer is also reachable at: {addresses}").format(addresses=others))
    print(_("Stop with Ctrl+C."), flush=True)
    settings = WebSettings(
        hosts=allowed_hosts(host, port, public[1] if public else None, lan),
        public_url=public[0] if public else "",
    )
    app = create_app(store, settings=settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=settings.max_ws_message * 4,
        ws_per_message_deflate=False,  # small messages: compressing costs more than it saves
        server_header=False,
    )
    redact_logs()  # again: uvicorn's own handlers exist now
    from meneur.web import heap

    heap.settle()  # what start-up built outlives every roll: no collection walks it again
    try:
        uvicorn.Server(config).run()
    finally:
        if held is not None:
            held.close()


def register(app: typer.Typer) -> None:
    app.command("serve", help=_("Start the live table in the browser and print the GM link."))(
        serve_command
    )


def _os_reason(error: OSError) -> object:
    """The system's reason in the user's words (read only after a failure: no import at
    start-up)."""
    from meneur.files import os_reason

    return os_reason(error)
