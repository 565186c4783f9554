"""The FastAPI application of the live table: pages, the JSON API, the WebSocket log.

Security in one place:

* every page is a Jinja2 template with autoescape on: a name like
  ``<script>alert(1)</script>`` is shown as text; a strict Content-Security-Policy
  forbids inline scripts anyway;
* request bodies are limited (:class:`BodyLimit`), WebSocket messages too (in the route);
* POST forms carry a per-seat CSRF token, and a form or WebSocket whose ``Origin`` is not
  exactly the table's own (``null`` and other schemes included) is refused
  (:class:`SameOrigin`); the ``Host`` must be one the table is served as
  (:attr:`WebSettings.hosts`); the JSON API takes ``application/json`` only, which a
  cross-site form cannot send;
* no response ever holds a stack trace: errors become a short page or JSON message;
* no log line holds a token (:class:`Redact`), and a client that drops mid-request is
  not an error worth a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator
from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect, HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meneur.campaign.store import Store
from meneur.errors import MeneurError
from meneur.locale import N_, current_language, fill, gettext, ngettext, set_language
from meneur.locale.numbers import percent
from meneur.model_errors import first_problem
from meneur.web.labels import invalid_value, label
from meneur.web.language import choose_language
from meneur.web.refusals import form_system, posted
from meneur.web.rolls import Roller
from meneur.web.rulesdoc import link_rules
from meneur.web.state import HERE, WebSettings, WebState
from meneur.web.tables import Tables
from meneur.web.words import points_words

log = logging.getLogger("meneur.web")

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would make browsers send Origin: null
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


TOKENISH = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,64}(?![A-Za-z0-9_-])")
"""Anything shaped like a token (43 URL-safe characters) in a log line."""
REDACTED_LOGGERS = ("meneur.web", "uvicorn", "uvicorn.error", "uvicorn.access", "fastapi")


def redact(text: str) -> str:
    return TOKENISH.sub("[token]", text)


class Redact(logging.Filter):
    """Tokens out of every log line: the message, its arguments and its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        record.exc_info = None  # formatted (and redacted) above
        return True


def redact_logs() -> None:
    """Put :class:`Redact` on the table's loggers and on every handler they write to."""
    targets: list[logging.Filterer] = []
    for name in (*REDACTED_LOGGERS, None):
        logger = logging.getLogger(name)
        targets.append(logger)
        targets.extend(logger.handlers)
    for target in targets:
        if not any(isinstance(f, Redact) for f in target.filters):
            target.addFilter(Redact())


class TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (declared or streamed) with 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await refuse_early(scope, send, 413, TOO_LARGE)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except TooLarge:
            await refuse_early(scope, send, 413, TOO_LARGE)
        except ClientDisconnect:  # the client went away mid-body: nobody to answer
            return


class SameOrigin:
    """Refuse a request for another host, and forms or WebSockets from another origin.

    ``hosts`` lists the ``Host`` values the table is served as (empty: any, for tests
    and embedding). The origin of an unsafe request or a WebSocket must equal the
    table's own exactly: the public URL's when one is set, else the scheme and host the
    request came in by; ``null``, another scheme or another port are refused. A request
    without ``Origin`` (a script, not a browser) passes: forms still need their CSRF
    token and the JSON API its content type.
    """

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...] = (), public: str = "") -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)
        self.public = public.rstrip("/").lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers", []))
            host = headers.get(b"host", b"").decode("latin-1").lower()
            if self.hosts and host not in self.hosts:
                await _refuse(scope, send, 400, N_("Unknown host."))
                return
            unsafe = scope["type"] == "websocket" or scope.get("method") not in (
                "GET",
                "HEAD",
                "OPTIONS",
            )
            origin = headers.get(b"origin")
            if unsafe and origin is not None:
                secure = scope.get("scheme") in ("https", "wss")
                own = self.public or f"{'https' if secure else 'http'}://{host}"
                if origin.decode("latin-1").lower() != own:
                    await _refuse(scope, send, 403, N_("Cross-site request refused."))
                    return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, status: int, text: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
    else:
        await refuse_early(scope, send, status, text)


class Language:
    """Each request speaks its user's language (:func:`choose_language`); ``?lang=`` sticks."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        code = choose_language(connection)
        set_language(code)
        remember = connection.query_params.get("lang") == code

        async def with_cookie(message: Message) -> None:
            if remember and message["type"] == "http.response.start":
                cookie = f"lang={code}; Max-Age=31536000; Path=/; SameSite=Lax"
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, with_cookie)


class Headers:
    """Security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


TOO_LARGE = N_("Request too large.")


UNREADABLE = "There was an error parsing the body"
"""FastAPI's refusal of a body it cannot parse; Starlette's own for a broken multipart
form are a :class:`MultiPartException`'s. Both English, neither catalogued: the reader
gets one message of ours."""
SEAT_PAGE = re.compile(r"/t/[0-9]{1,18}/(?:join/)?[A-Za-z0-9_-]{1,64}")


def seat_page(request: Request) -> str:
    """The table (or join) page a refused address is under, where its short page links
    back to: no route has read the seat yet (else :mod:`meneur.web.refusals` shows that
    page itself). Home for any other address."""
    page = SEAT_PAGE.match(request.url.path)
    return page.group(0) if page else "/"


async def refuse_early(scope: Scope, send: Send, status: int, message: str) -> None:
    """A refusal before the routes (too large, another site, another host), answered as
    the routes' own refusals are (:func:`error_response`): in the reader's language, a
    short page with a link back to the page it came from, or JSON for a script."""
    request = Request(scope)
    before = current_language()
    set_language(choose_language(request))  # the Language middleware has not run yet
    try:
        response = await error_response(request, status, gettext(message), back=seat_page(request))
    finally:
        set_language(before)
    await response(scope, _nothing, send)


async def _nothing() -> Message:
    """The body an early refusal never reads."""
    return {"type": "http.disconnect"}


def wants_json(request: Request) -> bool:
    """The API, the page's script, and a client that asks for JSON and not for a page."""
    if request.url.path.startswith("/api/") or request.headers.get("x-requested-with") == "fetch":
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


async def error_response(
    request: Request, status: int, message: str, *, back: str | None = None
) -> Response:
    """A refusal as the caller reads it: JSON for the API and the page's script; for a
    form posted by the browser, the page it came from with the reason
    (:mod:`meneur.web.refusals`); else a short page, linking ``back`` (its language
    links too: the refused address may be a form's, which no GET reaches) or home."""
    if wants_json(request):
        return JSONResponse({"error": message}, status_code=status)
    from meneur.web.refusals import refusal_page

    page = await refusal_page(request, status, message)
    if page is not None:
        return page
    state: WebState = request.app.state.web
    return state.templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message, "back": back or "/", "page_url": back or ""},
        status_code=status,
    )


def build_templates() -> Jinja2Templates:
    """The table's templates, and each system's own parts under ``<system>/``."""
    from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

    from meneur.web.systems import adapters

    parts = {
        name: FileSystemLoader(str(adapter.templates))
        for name, adapter in adapters().items()
        if adapter.templates is not None
    }
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    env = templates.env
    env.loader = ChoiceLoader([FileSystemLoader(str(HERE / "templates")), PrefixLoader(parts)])
    env.autoescape = True
    env.auto_reload = False  # templates ship with the package: no stat() per render
    env.globals["_"] = gettext
    env.globals["ngettext"] = ngettext
    env.globals["fill"] = fill  # « de » elided before a vowel, as in the CLI
    env.globals["lang"] = current_language
    env.filters["percent"] = lambda value: percent(value, 1, symbol=False)
    env.filters["tojson_attr"] = lambda value: json.dumps(value, ensure_ascii=False)
    env.filters["rules"] = link_rules  # « (T-5) » links to the rules panel
    env.globals["points_words"] = points_words
    env.globals["label"] = label  # a field's label, the one its refusals name (labels.py)
    return templates


def create_app(
    store: Store | None = None, *, settings: WebSettings | None = None, url: str | None = None
) -> FastAPI:
    """The application on ``store`` (or a store opened on ``url`` / the default database)."""
    from meneur.web.routes import api, chat, pages, ws

    owned = store is None
    the_store = store if store is not None else Store(url)
    the_settings = settings or WebSettings()
    redact_logs()
    from meneur.systems.at_table import web_adapters
    from meneur.web.systems import adapters, install

    install(web_adapters())
    roller = Roller(the_store)
    state = WebState(
        store=the_store,
        settings=the_settings,
        templates=build_templates(),
        tables=Tables(the_store),
        roller=roller,
        waits={wait.name: wait for a in adapters().values() for wait in a.waits(the_store)},
    )

    from meneur.web.fanout import Fanout, psycopg_url
    from meneur.web.routes.common import deliver

    url = psycopg_url(the_store.url)
    state.fanout = Fanout(
        url,
        lambda message: deliver(state, message),
        state.tables.keep if url is not None else None,  # seats kept while changes are heard
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        assert state.fanout is not None
        await state.fanout.start()
        yield
        await state.fanout.stop()
        roller.close()
        if owned:
            the_store.close()

    app = FastAPI(
        title="meneur",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
    )
    app.state.web = state

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        messages = {
            404: gettext("Nothing here: check the link you were given."),
            403: gettext("This action is not allowed from here."),
            405: gettext("This action is not allowed from here."),
            429: gettext("Too many rolls at once: wait a moment."),
            415: gettext("Send JSON (Content-Type: application/json)."),
        }
        if isinstance(error.__cause__, TooLarge):  # a streamed body, cut while a form read it
            return await error_response(request, 413, gettext(TOO_LARGE), back=seat_page(request))
        if error.detail == UNREADABLE or isinstance(error.__context__, MultiPartException):
            unread = gettext("The form sent could not be read.")
            return await error_response(request, 400, unread, back=seat_page(request))
        detail = error.detail if isinstance(error.detail, str) and error.status_code < 500 else ""
        phrase = HTTPStatus(error.status_code).phrase
        told = detail if detail and detail != phrase else ""  # a message the route chose
        message = detail if error.status_code == 400 else told or messages.get(error.status_code)
        return await error_response(request, error.status_code, message or gettext("Bad request."))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        system = await form_system(request, await posted(request))
        message = invalid_value(first_problem(error, drop=1), system)
        return await error_response(request, 422, message)

    @app.exception_handler(ValidationError)
    async def invalid_model(request: Request, error: ValidationError) -> Response:
        """A form field that a sheet or form model refuses (a name with [ ]...): a 400."""
        system = await form_system(request, await posted(request))
        return await error_response(request, 400, invalid_value(first_problem(error), system))

    @app.exception_handler(MeneurError)
    async def refused(request: Request, error: MeneurError) -> Response:
        return await error_response(request, 400, str(error))

    @app.exception_handler(Exception)
    async def crashed(request: Request, error: Exception) -> Response:
        log.exception("unexpected error on %s", redact(request.url.path))
        return await error_response(request, 500, gettext("Something went wrong on the server."))

    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(pages.router)
    app.include_router(api.router)
    app.include_router(chat.router)
    app.include_router(ws.router)
    app.add_middleware(Language)
    app.add_middleware(SameOrigin, hosts=the_settings.hosts, public=the_settings.public_url)
    app.add_middleware(BodyLimit, limit=the_settings.max_body)
    app.add_middleware(Headers)
    return app
