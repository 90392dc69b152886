"""Accounts over HTTP (docs/protocol.md): claim a guest's name with a password, sign in and out, change the
password, delete the account.

A sign-in is a session: a random cookie (``cafe-session``: HttpOnly, SameSite=Strict, Secure over HTTPS) whose
hash the store keeps; the WebSocket's ``hello`` picks the account up from it.  Every request that changes
something must come from the café's own page: JSON (which a form of another site cannot send without asking
first), and an ``Origin`` (or ``Sec-Fetch-Site``) that is the café's own when the browser gives one.  Sign-ins
are bounded per address and per name, and their answer never tells whether a name has an account.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import T, Text
from cafe.server import fields, names
from cafe.server.broker import reaching_redis
from cafe.server.fields import ProtocolError
from cafe.server.games import asked_language
from cafe.server.gateway import Gateway
from cafe.server.passkeys import MAX_BODY as PASSKEY_BODY
from cafe.server.passkeys import Ceremonies, Doors, Work
from cafe.server.passwords import Hashing, given_password, new_password
from cafe.server.replays import Replays
from cafe.server.sessions import COOKIE, same_origin, session_cookie, signed_in
from cafe.server.storage.account_rows import NameTaken, StillPlaying
from cafe.server.storage.bot_rows import Rated
from cafe.server.storage.store import Unavailable
from cafe.server.throttle import Bound

MAX_BODY = 2048  # bytes of a request's JSON
STATUS = {"size": 413, "json": 400, "field": 400, "name": 400, "origin": 403, "signin": 401, "session": 401,
          "token": 401, "taken": 409, "playing": 409, "rated": 409, "bot": 409, "rate": 429, "link": 410, "mail": 503,
          "passkey": 401, "challenge": 401, "last": 409, "unavailable": 503}  # fmt: skip


class Bounds:
    """An application's bounds on attempts (per name, per address: both counted for every process that shares the
    broker) and its hashing of passwords, made on the first request, when the gateway and its limits exist."""

    def __init__(self, gateway: Callable[[], Gateway]) -> None:
        self._gateway = gateway

    @functools.cached_property
    def _made(self) -> tuple[Bound, Bound, Hashing]:
        bound, broker = self._gateway().limits, self._gateway().broker
        per_account = broker.bound("signin-name", bound.signins_per_account, bound.signin_seconds)
        per_address = broker.bound("signin-address", bound.signins_per_address, bound.signin_seconds)
        return per_account, per_address, Hashing(bound.hashers)

    @property
    def hashing(self) -> Hashing:
        return self._made[2]

    async def check(self, request: Request, key: str | None) -> None:
        """One more attempt from this address (and for this key: a name's, an address's): refused beyond the
        bounds."""
        per_account, per_address, _ = self._made
        address = request.client.host if request.client else ""
        with reaching_redis():
            allowed = await per_address.attempt(address)
            allowed = allowed and (key is None or await per_account.attempt(key))
        if not allowed:
            raise ProtocolError("rate", T("too many attempts: wait a few minutes and try again"))


def routes(
    gateway: Callable[[], Gateway], replays: Callable[[], Replays], bounds: Bounds, public_url: str | None = None
) -> list[Route]:
    """The routes, over the running gateway (``gateway()`` gives it once the application has started); passkeys are
    those of the café at ``public_url`` (None: of each request's own address)."""
    ceremonies = Ceremonies(gateway, public_url)

    async def throttled(request: Request, name: str | None) -> None:
        """One more attempt at a password from this address (and for this name): refused beyond the bounds."""
        await bounds.check(request, None if name is None else names.key(name))

    def signs_in(player: int, name: str, request: Request, status: int = 200) -> Response:
        """The answer that signs this browser in: a new session in its cookie."""
        token = secrets.token_urlsafe(32)
        gateway().store.add_session(token, player, time.time())
        answer = JSONResponse({"player": player, "name": name, "account": True}, status_code=status)
        answer.set_cookie(COOKIE, token, max_age=int(gateway().limits.session_days * 86_400), path="/", httponly=True,
                          samesite="strict", secure=request.url.scheme == "https")  # fmt: skip
        return answer

    def signs_out(answer: Response, request: Request) -> Response:
        answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https")
        return answer

    async def confirmed(request: Request, message: dict[str, Any]) -> tuple[int, str]:
        """The signed-in account, once its password is given again, or one of its passkeys answers a sign-in
        ceremony (``passkey``), for a change that cannot be undone."""
        player, name = account(gateway(), request)
        if "passkey" in message:
            await ceremonies.signed(request, {"credential": message["passkey"]}, doors, player)
            return player, name
        password = given_password(message, "password")
        await throttled(request, name)
        if not await bounds.hashing.verify(gateway().store.password_of(player), password):
            raise ProtocolError("signin", T("wrong password"))
        return player, name

    async def me(request: Request) -> Response:
        found = signed_in(gateway(), request)
        if found is None:
            return JSONResponse({"account": False})
        bot = bool(gateway().store.bot_accounts([found[0]]))
        return JSONResponse({"player": found[0], "name": found[1], "account": True, "bot": bot})

    async def claim(request: Request, message: dict[str, Any]) -> Response:
        """A guest (by the token of their browser) makes their name theirs with a password; their games and
        rating stay theirs."""
        token = fields.text(message, "token", 100)
        password = new_password(message, "password")
        known = gateway().store.player_by_token(token)
        if known is None:
            raise ProtocolError("token", T("unknown token: say hello with a name to start afresh"))
        await throttled(request, None)  # hashing is dear: bounded per address
        hashed = await bounds.hashing.hash(password)
        try:
            if not gateway().store.claim(known[0], hashed):
                raise ProtocolError("token", T("unknown token: say hello with a name to start afresh"))
        except NameTaken:
            raise ProtocolError("taken", T("'{name}' belongs to an account already", name=known[1])) from None
        return signs_in(*known, request, status=201)

    async def sign_in(request: Request, message: dict[str, Any]) -> Response:
        """Name and password; a name without an account gets the same answer after the same work as a wrong
        password."""
        name = fields.text(message, "name", names.MAX_NAME * 4)
        password = given_password(message, "password")
        await throttled(request, name)
        found = gateway().store.account_named(name)
        if not await bounds.hashing.verify(found[2] if found else None, password) or found is None:
            raise ProtocolError("signin", T("wrong name or password"))
        return signs_in(found[0], found[1], request)

    async def sign_out(request: Request, message: dict[str, Any]) -> Response:
        found = session_cookie(request)
        if found is not None:
            gateway().store.end_session(found)
        return signs_out(JSONResponse({"account": False}), request)

    async def everywhere(request: Request, message: dict[str, Any]) -> Response:
        player, _ = account(gateway(), request)
        gateway().store.end_sessions(player)
        gateway().sign_out(player)
        return signs_out(JSONResponse({"account": False}), request)

    async def password(request: Request, message: dict[str, Any]) -> Response:
        """A new password; every session ends, this browser gets a new one."""
        new = new_password(message, "new")
        player, name = await confirmed(request, message)
        gateway().store.set_password(player, await bounds.hashing.hash(new))
        gateway().sign_out(player)
        return signs_in(player, name, request)

    async def delete(request: Request, message: dict[str, Any]) -> Response:
        """The account and everything of the person go; finished games keep a nameless seat."""
        player, _ = await confirmed(request, message)
        try:
            rooms = gateway().store.erase(player)
        except StillPlaying:
            raise ProtocolError(
                "playing", T("you still take part in a game that is not over: delete the account after its end")
            ) from None
        for room in rooms:
            replays().drop(room)
        await gateway().erased(player, rooms)
        return signs_out(JSONResponse({"account": False}), request)

    async def bot(request: Request, message: dict[str, Any]) -> Response:
        """The account becomes a bot, played by a program (``bot: true``), or a person again: only while it has
        no rated game, so that its rating stays a bot's or a person's."""
        player, _ = account(gateway(), request)
        wanted = message.get("bot")
        if not isinstance(wanted, bool):
            raise ProtocolError("field", T("'bot' is true or false"))
        try:
            gateway().store.set_bot(player, wanted, time.time())
        except Rated:
            raise ProtocolError(
                "rated", T("this account has rated games: whether it is a bot can no longer change")
            ) from None
        gateway().sign_out(player)  # its connections say hello again, and are shown as what it is now
        return JSONResponse({"player": player, "bot": wanted})

    async def bot_token(request: Request, message: dict[str, Any]) -> Response:
        """A new API token for the bot (shown this once; only its hash is kept); the older one and the bot's
        connections end."""
        player, _ = await confirmed(request, message)
        token = secrets.token_urlsafe(32)
        if not gateway().store.set_bot_token(player, token):
            raise ProtocolError("bot", T("this account is not a bot: make it one first"))
        gateway().end_bot(player)
        return JSONResponse({"player": player, "token": token}, status_code=201)

    async def revoke(request: Request, message: dict[str, Any]) -> Response:
        """The bot's API token signs nothing in any more; the bot's connections end."""
        player, _ = account(gateway(), request)
        if not gateway().store.set_bot_token(player, None):
            raise ProtocolError("bot", T("this account is not a bot: make it one first"))
        gateway().end_bot(player)
        return JSONResponse({"player": player, "token": None})

    doors = Doors(signs_in, lambda request: account(gateway(), request), throttled, changing)
    return [
        *ceremonies.routes(doors),
        Route("/account", me),
        Route("/account/claim", changing(claim), methods=["POST"]),
        Route("/account/sign-in", changing(sign_in), methods=["POST"]),
        Route("/account/sign-out", changing(sign_out), methods=["POST"]),
        Route("/account/sign-out-everywhere", changing(everywhere), methods=["POST"]),
        Route("/account/password", changing(password, PASSKEY_BODY), methods=["POST"]),  # a passkey may confirm
        Route("/account/delete", changing(delete, PASSKEY_BODY), methods=["POST"]),
        Route("/account/bot", changing(bot), methods=["POST"]),
        Route("/account/bot-token", changing(bot_token, PASSKEY_BODY), methods=["POST"]),  # a passkey may confirm
        Route("/account/bot-token/revoke", changing(revoke), methods=["POST"]),
    ]


def account(gateway: Gateway, request: Request) -> tuple[int, str]:
    """The signed-in account of a request: its player and name."""
    found = signed_in(gateway, request)
    if found is None:
        raise ProtocolError("session", T("you are not signed in"))
    return found


def changing(work: Work, limit: int = MAX_BODY) -> Callable[[Request], Any]:
    """A request that changes something: from the café's own page, a JSON object (of at most ``limit`` bytes)
    checked at the edge; a refusal as ``{error, code}`` in the asker's language, nothing changed."""

    async def endpoint(request: Request) -> Response:
        try:
            if not same_origin(request):
                raise ProtocolError("origin", T("this request must come from the café's own page"))
            if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
                raise ProtocolError("json", T("not a JSON object"))
            return await work(request, fields.json_object(await _body(request, limit), limit))
        except ProtocolError as refused:
            return refusal(refused.code, refused.text, request)
        except Unavailable:  # the database or the broker, for a moment
            return refusal("unavailable", T("the café is reconnecting; try again in a moment"), request)

    return endpoint


async def _body(request: Request, limit: int) -> str:
    """The request's body, read no further than ``limit`` bytes."""
    read = b""
    async for chunk in request.stream():
        read += chunk
        if len(read) > limit:
            raise ProtocolError("size", T("message too long (at most {limit} bytes)", limit=limit))
    return read.decode("utf-8", "replace")


def refusal(code: str, text: Text, request: Request) -> Response:
    headers = {"Retry-After": "60"} if code == "rate" else None
    return JSONResponse({"error": text.render(asked_language(request)), "code": code},
                        status_code=STATUS.get(code, 400), headers=headers)  # fmt: skip
