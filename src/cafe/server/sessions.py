"""Who a request or a WebSocket comes from, by its sign-in cookie (docs/protocol.md, "Accounts").

The cookie holds a random session (its hash is stored); it counts only when the request comes from the café's own
page, so that another site's page cannot act with it (a browser sends ``Origin`` with every WebSocket and every
POST, and ``Sec-Fetch-Site`` with most requests).
"""

from __future__ import annotations

import time

from starlette.requests import HTTPConnection

from cafe.server.gateway import Gateway

COOKIE = "cafe-session"
MAX_SESSION = 100  # characters of a cookie's value worth looking up


def same_origin(connection: HTTPConnection) -> bool:
    """Whether a browser says the request comes from the café's own page (a client that is no browser says
    nothing, and is believed: it holds the cookie itself)."""
    origin = connection.headers.get("origin")
    site = connection.headers.get("sec-fetch-site")
    scheme = {"ws": "http", "wss": "https"}.get(connection.url.scheme, connection.url.scheme)
    if origin is not None and origin != f"{scheme}://{connection.url.netloc}":
        return False
    return site is None or site in ("same-origin", "none")


def session_cookie(connection: HTTPConnection) -> str | None:
    """The sign-in cookie, if it came from the café's own page and may be a session at all."""
    found = connection.cookies.get(COOKIE)
    return found if found and len(found) <= MAX_SESSION and same_origin(connection) else None


def signed_in(gateway: Gateway, connection: HTTPConnection) -> tuple[int, str] | None:
    """The account a request's cookie signs in: its player and name."""
    found = session_cookie(connection)
    if found is None:
        return None
    return gateway.store.session_player(found, time.time() - gateway.limits.session_days * 86_400)
