"""The HTTP side of finished games and players: replays, analyses, and a player's games (docs/protocol.md).

A request may carry the player's token in the ``X-Cafe-Token`` header: a player who took part in a game
then sees their own hand in its replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.server.hub import Hub
from cafe.server.replays import position_at, replay_json
from cafe.server.store import RoomRow

PLAYER_GAMES = 100  # games a player's page lists, newest first


def routes(hub: Callable[[], Hub]) -> list[Route]:
    """The routes, over the running hub (``hub()`` gives it once the application has started)."""

    def finished(request: Request) -> tuple[str, dict[str, object] | None]:
        room = request.path_params["room"]
        return room, hub().store.record(room) if len(room) <= 16 else None

    def seat_of_asker(request: Request, row: RoomRow | None) -> int | None:
        """The seat the asker (by the token in the request) had in the game of ``row``, if any."""
        token = request.headers.get("x-cafe-token")
        known = hub().store.player_by_token(token) if token and row is not None else None
        if known is None or row is None:
            return None
        return next((s.seat for s in row.seats if s.person == known[0]), None)

    async def game(request: Request) -> Response:
        room, record = finished(request)
        if record is None:
            return JSONResponse({"error": "no finished game in that room"}, status_code=404)
        out = await asyncio.to_thread(replay_json, record)
        row = hub().store.load_room(room)
        out.update({"id": room, "name": row.name if row else room, "you": seat_of_asker(request, row),
                    "analysis": hub().analyses.status(room)})  # fmt: skip
        return JSONResponse(out)

    async def position(request: Request) -> Response:
        room, record = finished(request)
        if record is None:
            return JSONResponse({"error": "no finished game in that room"}, status_code=404)
        ply = request.path_params["ply"]
        seat = seat_of_asker(request, hub().store.load_room(room) if "x-cafe-token" in request.headers else None)
        return JSONResponse(await asyncio.to_thread(position_at, record, ply, seat))

    async def analysis(request: Request) -> Response:
        room, record = finished(request)
        if record is None:
            return JSONResponse({"error": "no finished game in that room"}, status_code=404)
        if request.method == "POST":
            return JSONResponse(hub().analyses.request(room), status_code=202)
        return JSONResponse(hub().analyses.status(room))

    async def player(request: Request) -> Response:
        player_id = request.path_params["player"]
        name = hub().store.player_name(player_id)
        if name is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        games = [
            {"room": g.room, "name": g.name, "edition": g.edition, "seat": g.seat, "place": g.place,
             "rating_before": g.rating_before, "rating_after": g.rating_after, "at": g.at}
            for g in hub().store.games_of(player_id, PLAYER_GAMES)
        ]  # fmt: skip
        return JSONResponse({"player": player_id, "name": name, "games": games})

    return [
        Route("/games/{room}.json", game),
        Route("/games/{room}/at/{ply:int}.json", position),
        Route("/games/{room}/analysis", analysis, methods=["GET", "POST"]),
        Route("/players/{player:int}.json", player),
    ]
