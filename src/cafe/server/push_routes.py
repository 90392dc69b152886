"""Web Push over HTTP (docs/protocol.md): the café's public key, a browser's subscription given and taken back,
and the service worker that shows the notices.

Only a signed-in person's browser may subscribe, from the café's own page (:func:`~cafe.server.accounts.changing`).
A subscription is checked at the edge: its endpoint an https:// address of bounded length (the café posts to it,
and never in the clear), its keys of the sizes Web Push gives them (a P-256 point, and a 16-byte secret).
"""

from __future__ import annotations

import base64
import binascii
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import T
from cafe.server import fields, push
from cafe.server.accounts import changing
from cafe.server.fields import ProtocolError
from cafe.server.games import asked_language
from cafe.server.gateway import Gateway
from cafe.server.sessions import session_cookie, signed_in
from cafe.server.storage.push_rows import Subscription

MAX_ENDPOINT = 1024  # characters of a subscription's endpoint
SERVICE_WORKER = Path(__file__).parent / "client" / "sw.js"


def subscription(message: dict[str, Any], language: str) -> Subscription:
    """A browser's subscription (``PushSubscription.toJSON()``), checked at the edge."""
    endpoint = message.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT or not _https(endpoint):
        said = T("'endpoint' must be an https:// address of at most {limit} characters", limit=MAX_ENDPOINT)
        raise ProtocolError("field", said)
    keys = message.get("keys")
    p256dh = _base64url(keys.get("p256dh") if isinstance(keys, dict) else None, 65)
    auth = _base64url(keys.get("auth") if isinstance(keys, dict) else None, 16)
    if p256dh is None or auth is None or not _on_the_curve(p256dh):
        raise ProtocolError("field", T("'keys' must hold the browser's key 'p256dh' (65 bytes) and its secret "
                                       "'auth' (16 bytes), in base64url"))  # fmt: skip
    return Subscription(endpoint, _unpadded(p256dh), _unpadded(auth), language)


def _https(address: str) -> bool:
    """Whether ``address`` is an https:// URL with a host (and a port, if any, that is one), all of it printable."""
    if any(c.isspace() or not c.isprintable() for c in address):
        return False
    try:
        parts = urlsplit(address)
        return parts.scheme == "https" and bool(parts.hostname) and (parts.port is None or parts.port > 0)
    except ValueError:  # "https://[::1", a port of letters or beyond 65535
        return False


def _base64url(value: Any, size: int) -> bytes | None:
    """The bytes of a base64url string (padded or not) of exactly ``size`` bytes, else None."""
    if not isinstance(value, str) or len(value) > 2 * size:
        return None
    bare = value.rstrip("=")
    try:
        found = base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except (binascii.Error, ValueError):
        return None
    return found if len(found) == size and _unpadded(found) == bare else None


def _unpadded(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _on_the_curve(point: bytes) -> bool:
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True


def routes(gateway: Callable[[], Gateway]) -> list[Route]:
    """The public key, (un)subscribing, and the service worker (from the site's root, so that its scope is the
    whole café)."""

    def account(request: Request) -> tuple[int, str]:
        """The signed-in account's player, and the session its subscription lasts with."""
        found, session = signed_in(gateway(), request), session_cookie(request)
        if found is None or session is None:
            raise ProtocolError("session", T("you are not signed in"))
        return found[0], session

    async def key(request: Request) -> Response:
        return JSONResponse({"key": push.public(gateway().chores.notices)})

    async def subscribe(request: Request, message: dict[str, Any]) -> Response:
        player, session = account(request)
        gateway().store.subscribe(player, session, subscription(message, asked_language(request)), time.time())
        return JSONResponse({"subscribed": True})

    async def unsubscribe(request: Request, message: dict[str, Any]) -> Response:
        player, _ = account(request)
        gateway().store.unsubscribe(player, fields.text(message, "endpoint", MAX_ENDPOINT))
        return JSONResponse({"subscribed": False})

    async def worker(request: Request) -> Response:
        return FileResponse(SERVICE_WORKER, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return [
        Route("/push/key", key),
        Route("/push/subscribe", changing(subscribe), methods=["POST"]),
        Route("/push/unsubscribe", changing(unsubscribe), methods=["POST"]),
        Route("/sw.js", worker),
    ]
