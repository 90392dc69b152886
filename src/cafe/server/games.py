"""The HTTP side of finished games and players: replays, analyses, and a player's games (docs/protocol.md).

A request may carry the player's token in the ``X-Cafe-Token`` header: a player who took part in a game
then sees their own hand in its replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.record import Record
from cafe.server.hub import Hub
from cafe.server.ratings import PROVISIONAL, provisional, shown
from cafe.server.replays import position_at, replay_json
from cafe.server.store import RoomRow

PLAYER_GAMES = 100  # games a player's page lists, newest first
FINALS_KEPT = 4096  # finished games whose players and scores are kept in memory for players' pages


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
        return next((s.seat for s in row.seats if s.player == known[0]), None)

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

    finals: dict[str, tuple[list[str], list[int]]] = {}  # a finished game's players and final scores (never change)

    async def final_scores(rooms: list[str]) -> list[tuple[list[str], list[int]]]:
        """Who played these finished games and their final scores, from the records (each replayed once, in a
        thread, then kept)."""
        new = {room: hub().store.record(room) for room in dict.fromkeys(rooms) if room not in finals}
        if new:
            replayed = await asyncio.to_thread(lambda: [outcome(record) for record in new.values()])
            for room, found in zip(new, replayed, strict=True):
                while len(finals) >= FINALS_KEPT:
                    finals.pop(next(iter(finals)))
                finals[room] = found
        return [finals.get(room, ([], [])) for room in rooms]

    async def player(request: Request) -> Response:
        player_id = request.path_params["player"]
        store = hub().store
        name = store.player_name(player_id)
        if name is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        played = store.games_of(player_id, PLAYER_GAMES)
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
        return JSONResponse({"player": player_id, "name": name, "rating": standing, "games": games})

    return [
        Route("/games/{room}.json", game),
        Route("/games/{room}/at/{ply:int}.json", position),
        Route("/games/{room}/analysis", analysis, methods=["GET", "POST"]),
        Route("/players/{player:int}.json", player),
    ]


def outcome(record: dict[str, Any] | None) -> tuple[list[str], list[int]]:
    """A finished game's players and final scores, from its record (none for a game without one)."""
    if record is None:
        return [], []
    game = Record.from_json(record).replay()
    return list(game.players), list(game.scores)
