"""The HTTP side of finished games and players: replays, analyses, and a player's games (docs/protocol.md).

A request may carry the player's token in the ``X-Cafe-Token`` header, or an account's sign-in cookie: a player
who took part in a game then sees their own hand in its replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import pick
from cafe.server.analyses import RETRY_SECONDS as ANALYSIS_RETRY_SECONDS
from cafe.server.analyses import Refused
from cafe.server.gateway import Gateway
from cafe.server.ratings import PROVISIONAL, provisional, shown
from cafe.server.replays import Replays, position_at, replay_json
from cafe.server.sessions import COOKIE, signed_in
from cafe.server.storage.store import RoomRow

PLAYER_GAMES = 100  # games a player's page lists, newest first
ROOM_CHARS = 16  # a room's id is never longer
ID_DIGITS = 18  # a number in a path (a player's id, a step) has at most this many digits: below 2**63, the
# largest integer the databases hold
RETRY_SECONDS = 1  # how soon an address with too many replays computing may ask again

Answer = dict[str, Any] | Response  # what a replay gives: the answer, or the response to give instead


def no_game() -> Response:
    return JSONResponse({"error": "no finished game in that room"}, status_code=404)


def number(request: Request, name: str) -> int | None:
    """The path's ``name`` as an id or a step number: at most ID_DIGITS ASCII digits (else None: no such thing)."""
    text = str(request.path_params[name])
    return int(text) if text.isascii() and text.isdigit() and len(text) <= ID_DIGITS else None


def routes(gateway: Callable[[], Gateway], replays: Callable[[], Replays]) -> list[Route]:
    """The routes, over the running gateway and its replays (``gateway()`` and ``replays()`` give them once the
    application has started)."""

    def asker(request: Request) -> int | None:
        """The player whose token the request carries, or whose account its cookie signs in; if any."""
        token = request.headers.get("x-cafe-token")
        known = gateway().store.player_by_token(token) if token else signed_in(gateway(), request)
        return None if known is None else known[0]

    def seat_of_asker(request: Request, row: RoomRow | None) -> int | None:
        """The seat the asker (by the token in the request) had in the game of ``row``, if any."""
        return seat_of(asker(request) if row is not None else None, row)

    async def replayed(request: Request, key: Hashable, work: Callable[[dict[str, Any]], dict[str, Any]]) -> Answer:
        """``work`` done on the record of the request's finished game: kept from before, or computed if the
        asker's address may have one more replay computing; else the response to give instead (404, 429)."""
        kept = replays().kept(key)
        if kept is not None:
            return kept
        room = request.path_params["room"]
        hidden = gateway().cups.hidden(room)  # a tournament round's deal, still being played at other tables
        record = gateway().store.record(room) if len(room) <= ROOM_CHARS and not hidden else None
        if record is None:
            return no_game()
        address = request.client.host if request.client else ""
        answer = await replays().compute(key, address, lambda: work(record))
        if answer is None:
            return JSONResponse({"error": "too many replays at once from your address: try again in a moment"},
                                status_code=429, headers={"Retry-After": str(RETRY_SECONDS)})  # fmt: skip
        return answer

    async def game(request: Request) -> Response:
        room = request.path_params["room"]
        found = await replayed(request, ("game", room), replay_json)
        if isinstance(found, Response):
            return found
        row = gateway().store.load_room(room)
        name = row.name if row and row.name else room  # a table of a deleted person's has no name
        seated = [seat for seat in row.seats if seat.player is not None] if row else []
        marked = gateway().store.bot_accounts([seat.player for seat in seated if seat.player is not None])
        bots = [seat.seat for seat in seated if seat.player in marked]  # seats of bot accounts, marked as bots'
        return JSONResponse({**found, "id": room, "name": name, "you": seat_of_asker(request, row), "bots": bots,
                             "analysis": gateway().analyses.status(room)})  # fmt: skip

    async def position(request: Request) -> Response:
        room, ply = request.path_params["room"], number(request, "ply")
        if ply is None:
            return no_game()
        found = await replayed(request, ("game", room), replay_json)  # its length, to know which position is asked
        if isinstance(found, Response):
            return found
        ply = min(ply, len(found["steps"]))
        asks = "x-cafe-token" in request.headers or COOKIE in request.cookies
        seat = seat_of_asker(request, gateway().store.load_room(room) if asks else None)
        at = await replayed(request, ("at", room, ply, seat), lambda record: position_at(record, ply, seat))
        return at if isinstance(at, Response) else JSONResponse(at)

    async def analysis(request: Request) -> Response:
        room = request.path_params["room"]
        if len(room) > ROOM_CHARS or gateway().cups.hidden(room) or gateway().store.record(room) is None:
            return no_game()  # hidden: a tournament round's deal, still being played at other tables
        if request.method != "POST":
            return JSONResponse(gateway().analyses.status(room))
        player, row = asker(request), gateway().store.load_room(room)
        played = seat_of(player, row) is not None
        address = request.client.host if request.client else ""
        try:
            status = gateway().analyses.request(room, player, address, played)
        except Refused as refused:
            message = refused.why.render(asked_language(request))
            headers = {"Retry-After": str(ANALYSIS_RETRY_SECONDS)}
            return JSONResponse({"error": message}, status_code=refused.status, headers=headers)
        return JSONResponse(status, status_code=202)

    async def final_scores(rooms: list[str]) -> list[tuple[list[str], list[int]]]:
        """Who played these finished games and their final scores: from their replays, kept with those the replay
        page asks for (each replayed once, in a thread)."""
        missing = {
            room: gateway().store.record(room)
            for room in dict.fromkeys(rooms)
            if replays().kept(("game", room)) is None
        }
        done = await asyncio.to_thread(lambda: {room: replay_json(r) for room, r in missing.items() if r is not None})
        for room, answer in done.items():
            replays().keep(("game", room), answer)
        found = [done.get(room) or replays().kept(("game", room)) for room in rooms]
        return [(answer["players"], answer["scores"]) if answer else ([], []) for answer in found]

    async def player(request: Request) -> Response:
        player_id = number(request, "player")
        store = gateway().store
        name = store.player_name(player_id) if player_id is not None else None
        if player_id is None or name is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        cups = gateway().cups  # a game of a tournament's round under way waits for its round: its scores tell the deal
        played = [g for g in store.games_of(player_id, PLAYER_GAMES) if not cups.hidden(g.room)]
        results = await final_scores([g.room for g in played])
        games = [
            {"room": g.room, "name": g.name, "edition": g.edition, "seat": g.seat, "place": g.place,
             "rating_before": g.rating_before, "rating_after": g.rating_after, "at": g.at,
             "players": players, "scores": scores}
            for g, (players, scores) in zip(played, results, strict=True)
        ]  # fmt: skip
        rating = store.ratings([player_id]).get(player_id)
        standing = {"value": shown(rating), "games": rating.games if rating else 0, "provisional": provisional(rating),
                    "provisional_games": PROVISIONAL}  # fmt: skip
        bot = bool(gateway().store.bot_accounts([player_id]))
        return JSONResponse({"player": player_id, "name": name, "bot": bot, "rating": standing, "games": games})

    return [
        Route("/games/{room}.json", game),
        Route("/games/{room}/at/{ply}.json", position),  # numbers are read by `number`: Starlette's int has no bound
        Route("/games/{room}/analysis", analysis, methods=["GET", "POST"]),
        Route("/players/{player}.json", player),
    ]


def asked_language(request: Request) -> str:
    """The language a request asks its answer in: ``?lang=``, else the first of the browser's that the café speaks."""
    wanted = [request.query_params.get("lang", "")]
    wanted += [tag.split(";")[0] for tag in request.headers.get("accept-language", "").split(",")]
    return pick(wanted)


def seat_of(player: int | None, row: RoomRow | None) -> int | None:
    """The seat ``player`` had in the game of ``row``, if any."""
    if player is None or row is None:
        return None
    return next((s.seat for s in row.seats if s.person == player), None)
