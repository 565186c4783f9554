"""Which language a request speaks: one place for the pages and the live socket alike."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from meneur.locale import LANGUAGES


def choose_language(request: HTTPConnection) -> str:
    """``?lang=`` first, then the ``lang`` cookie, then Accept-Language, else French."""
    asked = (request.query_params.get("lang") or request.cookies.get("lang") or "").lower()
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return "fr"
