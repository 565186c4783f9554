"""``meneur serve``: start the live table on the campaign database and print the GM link.

Zero setup: with no campaign yet, a ``default`` campaign and its table are made, so the
first ``meneur serve`` gives a working GM link at once. FastAPI, uvicorn and the table's
code load only when the command runs (``meneur --help`` stays fast).
"""

from __future__ import annotations

from typing import IO, Annotated, Any

import typer

from meneur.cli.params import int_parser
from meneur.locale import gettext as _

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
    typer.Option("--campaign", metavar="NAME", help=_("The campaign (default: the current one).")),
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


def public_root(url: str) -> tuple[str, str]:
    """``(origin, host)`` of ``--public-url``: a scheme and a host, nothing else."""
    from urllib.parse import urlsplit

    from meneur.errors import UsageError
    from meneur.locale import N_

    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        port = -1
    if (
        parts.scheme not in ("http", "https")
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


def allowed_hosts(host: str, port: int, public: str | None) -> tuple[str, ...]:
    """The ``Host`` values the table answers to: this computer's names, and the public one."""
    names = {host, "127.0.0.1", "localhost"} if host not in ("0.0.0.0", "::") else set()
    names |= {"127.0.0.1", "localhost", "[::1]"}
    found = {f"{name}:{port}" for name in names}
    if public is not None:
        found.add(public)
    return tuple(sorted(found))


def check_port(host: str, port: int) -> None:
    """A clear error, before anything starts, when the address cannot be listened on."""
    import socket

    from meneur.errors import UsageError
    from meneur.locale import N_

    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise UsageError(
            N_("Cannot listen on {host}:{port} ({reason}): choose another --port or --host."),
            host=host[:60],
            port=port,
            reason=(error.strerror or str(error))[:80],
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
) -> None:
    """Start the live table: the GM and players roll together in the browser."""
    import uvicorn

    from meneur.campaign.store import Store
    from meneur.web.app import create_app, redact_logs
    from meneur.web.state import WebSettings
    from meneur.web.tables import Tables

    public = public_root(public_url) if public_url is not None else None
    check_port(host, port)
    store = Store()
    held = hold_sqlite(store.engine.url)
    tables = Tables(store)
    if new_table or campaign is not None:
        table = tables.create(campaign, replace=True) if new_table else tables.default_for(campaign)
    else:
        table = tables.default()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    root = public[0] if public else f"http://{shown}:{port}"
    print(_("The table of the campaign '{campaign}' is ready.").format(campaign=table.campaign))
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
    print(_("Stop with Ctrl+C."), flush=True)
    settings = WebSettings(
        hosts=allowed_hosts(host, port, public[1] if public else None),
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
    try:
        uvicorn.Server(config).run()
    finally:
        if held is not None:
            held.close()


def register(app: typer.Typer) -> None:
    app.command("serve", help=_("Start the live table in the browser and print the GM link."))(
        serve_command
    )
