"""Tournaments over HTTP (docs/protocol.md, "Tournaments"): the list, one tournament's standings and tables, a
finished one's games, and the requests that open, enter, withdraw from and start them.

Who asks is the player whose token the request carries (``X-Cafe-Token``; a bot account's API token as
``Authorization: Bearer TOKEN``) or whose account its cookie signs in: any person of the café may direct a
tournament, as anyone may host a table, and a bot account enters one itself.  Every request that changes something
comes from the café's own page as JSON (:func:`cafe.server.accounts.changing`); a refusal names what is wrong in
the asker's language, and nothing changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import T
from cafe.server import bots
from cafe.server.accounts import changing
from cafe.server.cups import Cup
from cafe.server.fields import ProtocolError
from cafe.server.games import asked_language
from cafe.server.gateway import Gateway
from cafe.server.sessions import signed_in

LISTED = 100  # tournaments the list shows, newest first
STATUS = {"missing": 404, "who": 401, "token": 401, "director": 403, "person": 403, "busy": 503, "size": 413,
          "origin": 403}  # fmt: skip


def routes(gateway: Callable[[], Gateway]) -> list[Route]:
    def asker(request: Request) -> tuple[int, str] | None:
        """The player whose token the request carries (a bot account's API token as ``Authorization: Bearer``,
        checked as the WebSocket's ``bot_token`` is), or whose account its cookie signs in; if any."""
        scheme, _, bearer = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer":
            return bots.account_of(gateway().store, bearer.strip())
        token = request.headers.get("x-cafe-token")
        return gateway().store.player_by_token(token) if token else signed_in(gateway(), request)

    def who(request: Request) -> tuple[int, str]:
        found = asker(request)
        if found is None:
            raise ProtocolError("who", T("say who you are: your token, or sign in"))
        return found

    def cup_of(request: Request) -> Cup:
        cup_id = str(request.path_params["cup"])
        cup = gateway().cups.load(cup_id)
        if cup is None:
            raise ProtocolError("missing", T("there is no tournament '{id}'", id=cup_id[:16]))
        return cup

    def answered(work: Callable[[Request], Response]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                return work(request)
            except ProtocolError as refused:
                return refusal(refused, request)

        return endpoint

    def listing(request: Request) -> Response:
        rows = gateway().store.tournaments(None, LISTED)
        return JSONResponse([{"id": r.id, "name": r.name, "status": r.status, "created": r.created} for r in rows])

    def one(request: Request) -> Response:
        found = asker(request)
        return JSONResponse(gateway().cups.public(cup_of(request), None if found is None else found[0]))

    def games(request: Request) -> Response:
        cup = cup_of(request)
        if cup.status != "finished":
            raise ProtocolError("playing", T("the tournament's games can be downloaded once it is over"))
        headers = {"Content-Disposition": f'attachment; filename="cafe-tournament-{cup.id}.json"'}
        return Response(json.dumps(gateway().cups.games(cup), indent=1), media_type="application/json", headers=headers)

    async def opening(request: Request, message: dict[str, Any]) -> Response:
        player, _ = who(request)
        cup_id = gateway().cups.open(player, message)
        return shown(request, cup_id, player, 201)

    async def entering(request: Request, message: dict[str, Any]) -> Response:
        player, name = who(request)
        cup = await gateway().cups.enter(str(request.path_params["cup"]), player, name, message.get("bot"),
                                     asked_language(request), message.get("account"))  # fmt: skip
        return JSONResponse(gateway().cups.public(cup, player))

    async def withdrawing(request: Request, message: dict[str, Any]) -> Response:
        player, _ = who(request)
        cup = await gateway().cups.withdraw(str(request.path_params["cup"]), player, message.get("entry"))
        return JSONResponse(gateway().cups.public(cup, player))

    async def starting(request: Request, message: dict[str, Any]) -> Response:
        player, _ = who(request)
        cup = await gateway().cups.start(str(request.path_params["cup"]), player)
        return JSONResponse(gateway().cups.public(cup, player))

    def shown(request: Request, cup_id: str, player: int, status: int = 200) -> Response:
        cup = gateway().cups.load(cup_id)
        assert cup is not None
        return JSONResponse(gateway().cups.public(cup, player), status_code=status)

    def posted(work: Callable[[Request, dict[str, Any]], Any]) -> Callable[[Request], Any]:
        async def guarded(request: Request, message: dict[str, Any]) -> Response:
            try:
                return await work(request, message)  # type: ignore[no-any-return]
            except ProtocolError as refused:
                return refusal(refused, request)

        return changing(guarded)

    return [
        Route("/tournaments.json", answered(listing)),
        Route("/tournaments/open", posted(opening), methods=["POST"]),
        Route("/tournaments/{cup}.json", answered(one)),
        Route("/tournaments/{cup}/games.json", answered(games)),
        Route("/tournaments/{cup}/enter", posted(entering), methods=["POST"]),
        Route("/tournaments/{cup}/withdraw", posted(withdrawing), methods=["POST"]),
        Route("/tournaments/{cup}/start", posted(starting), methods=["POST"]),
    ]


def refusal(refused: ProtocolError, request: Request) -> Response:
    body = {"error": refused.text.render(asked_language(request)), "code": refused.code}
    return JSONResponse(body, status_code=STATUS.get(refused.code, 400))
