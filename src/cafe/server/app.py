"""The café's web application (Starlette): the WebSocket, health, metrics and finished games' records."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cafe.ai.levels import LEVELS
from cafe.i18n import LANGUAGES, T, pick, translate
from cafe.options import option_catalogue, preset_catalogue
from cafe.server import accounts, emails, games, howto, lessons, push, push_routes, sessions
from cafe.server.broker import Broker
from cafe.server.cup_routes import routes as tournament_routes
from cafe.server.gateway import Gateway
from cafe.server.limits import Limits
from cafe.server.mail import Mailer, Smtp
from cafe.server.outbox import Outbox
from cafe.server.puzzles import routes as puzzle_routes
from cafe.server.ratings import provisional, shown
from cafe.server.replays import Replays
from cafe.server.storage.store import Rating, SQLiteStore, Store
from cafe.svg import LIGHT, NATION_COLOURS
from cafe.tiles import NATION_TITLES, TILE_OBJECTS, TILE_WORDS, Nation

DATABASE = "cafe.sqlite3"
CLIENT = Path(__file__).parent / "client"  # the browser client: plain ES modules, no build step
LEADERBOARD = 100  # players listed


def create_app(
    data: Path | None = None,
    store: Store | None = None,
    broker: Broker | None = None,
    limits: Limits | None = None,
    public_url: str | None = None,
    mail: Smtp | None = None,
    **options: Any,
) -> Starlette:
    """The application over a store (the given one, or SQLite in ``data``, default ./cafe-data) and a broker (the
    given one, or this process alone), within ``limits`` (``options`` change single ones); passkeys belong to
    ``public_url`` (None: to the address each request names); e-mail through ``mail``'s SMTP server, if given."""
    gateway: Gateway | None = None
    replays: Replays | None = None

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal gateway, replays
        folder = data or Path("cafe-data")
        opened = store or SQLiteStore(folder / DATABASE)
        gateway = app.state.gateway = Gateway(opened, broker, limits, **options)
        if store is None or data is not None:  # a data folder of the café's: its push key is kept there
            push.attach(gateway.chores.notices, folder)
        replays = Replays(gateway.limits.replays_per_address, gateway.limits.replay_cache)
        if mail is not None:
            gateway.chores.notices.mailer = Mailer(mail, gateway.limits.mail_tries, gateway.limits.mail_retry_seconds)
        await gateway.start()
        try:
            yield
        finally:
            if gateway.chores.notices.mailer is not None:
                gateway.chores.notices.mailer.close()
            await gateway.close()
            opened.close()

    def running() -> Gateway:
        assert gateway is not None
        return gateway

    def replaying() -> Replays:
        assert replays is not None
        return replays

    guard = accounts.Bounds(running)  # attempts at passwords and mailed links, bounded alike

    async def page(request: Request) -> Response:
        return FileResponse(CLIENT / "index.html")

    async def catalogue(request: Request) -> Response:
        """What the browser client offers, in the language asked for (``?lang=de``): nations (names and the
        drawings' colours), the words of each tile (alone, and as a sentence's object), rule presets and options,
        computer players' levels."""
        language = pick([request.query_params.get("lang", "")])
        nations = {
            n.name: {"name": translate(NATION_TITLES[n], language), "colour": NATION_COLOURS[n.name],
                     "light": n.name in LIGHT}
            for n in Nation
        }  # fmt: skip
        tiles = {tile.name: translate(words, language) for tile, words in TILE_WORDS.items()}
        objects = {tile.name: translate(words, language) for tile, words in TILE_OBJECTS.items()}
        editions = ("board", "cards")
        presets = {edition: preset_catalogue(edition, language) for edition in editions}
        options = {edition: option_catalogue(edition, language) for edition in editions}
        return JSONResponse({"language": language, "languages": LANGUAGES, "nations": nations, "tiles": tiles,
                             "objects": objects, "presets": presets, "options": options,
                             "levels": list(LEVELS)})  # fmt: skip

    async def health(request: Request) -> Response:
        """200 while this process can serve: started, its database answering and its broker's events arriving."""
        if gateway is None:
            return JSONResponse({"status": "starting"}, status_code=503)
        parts = {"database": gateway.store.reachable(), "broker": gateway.broker.connected}
        ok = all(parts.values())
        body = {"status": "ok" if ok else "unavailable", **{k: "ok" if v else "away" for k, v in parts.items()}}
        return JSONResponse(body, status_code=200 if ok else 503)

    async def metrics(request: Request) -> Response:
        assert gateway is not None
        figures = {
            "cafe_connections": len(gateway.connections),
            "cafe_rooms": len(gateway.tables.rooms),
            "cafe_games_playing": sum(room.status == "playing" for room in gateway.tables.rooms.values()),
            "cafe_players_present": len({c.player for c in gateway.connections.values() if c.player is not None}),
            "cafe_replays_total": replaying().computed,
            **{f"cafe_{name}_total": value for name, value in gateway.counters.items()},
        }
        return PlainTextResponse("".join(f"{name} {value}\n" for name, value in figures.items()))

    async def leaderboard(request: Request) -> Response:
        """The rated people, or (``/leaderboard/bots``) the rated bots: each on a leaderboard of their own."""
        assert gateway is not None
        rows = gateway.store.ranked(LEADERBOARD, bots=request.url.path.endswith("/bots"))
        return JSONResponse(
            [
                {"player": player, "name": name, "rating": shown(r), "mu": round(r.mu, 2), "sigma": round(r.sigma, 2),
                 "games": r.games, "provisional": provisional(r)}
                for player, name, r in ((p, n, Rating(mu, sigma, games)) for p, n, mu, sigma, games in rows)
            ]
        )  # fmt: skip

    async def record(request: Request) -> Response:
        assert gateway is not None
        found = gateway.store.record(request.path_params["room"])
        if found is None or gateway.cups.hidden(request.path_params["room"]):  # a round's deal, still being played
            return JSONResponse({"error": "no finished game in that room"}, status_code=404)
        headers = {"Content-Disposition": f'attachment; filename="cafe-{request.path_params["room"]}.json"'}
        return Response(json.dumps(found, indent=1), media_type="application/json", headers=headers)

    async def socket(websocket: WebSocket) -> None:
        """One client: its messages read here, its outbox written by a task of its own (nobody waits for it)."""
        assert gateway is not None
        await websocket.accept()
        outbox = Outbox(websocket.send_text, gateway.limits.send_buffer)
        address = websocket.client.host if websocket.client else ""
        # until its hello says otherwise: the first language of the browser's own that the café speaks
        wanted = pick(tag.split(";")[0] for tag in websocket.headers.get("accept-language", "").split(","))
        # a sign-in cookie counts only from the café's own page (another site's page cannot use it)
        connection = gateway.connect(outbox.put, address, wanted, sessions.session_cookie(websocket))
        if connection is None:
            await refuse(websocket, "busy", T("too many connections from your address").render(wanted))
            return
        closing = asyncio.Event()  # set by the gateway: the person signed out everywhere, or is deleted
        connection.end = closing.set

        async def read() -> None:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:  # a binary frame: read as text, so that it gets the usual answer
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                await gateway.receive(connection, text)

        tasks = [asyncio.ensure_future(read()), asyncio.ensure_future(outbox.run()),
                 asyncio.ensure_future(outbox.overflowed.wait()), asyncio.ensure_future(closing.wait())]  # fmt: skip
        silent = False
        try:
            ended, _ = await asyncio.wait(
                tasks, timeout=gateway.limits.hello_seconds, return_when=asyncio.FIRST_COMPLETED
            )
            silent = not ended and connection.player is None
            if not ended and not silent:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            gateway.disconnect(connection, dropped=outbox.overflowed.is_set())
            for task in tasks:  # a writer stuck on a full socket, or a reader that failed: gone either way
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                    await task
        if silent:  # no hello in time: the connection held a place for nobody
            await refuse(websocket, "hello", T("no hello in time: the connection closes").render(wanted))
        elif closing.is_set():
            await refuse(websocket, "signed-out", T("you are signed out").render(connection.language))

    return Starlette(
        routes=[
            Route("/", page),
            Route("/catalogue.json", catalogue),
            Mount("/client", StaticFiles(directory=CLIENT), name="client"),
            Route("/health", health),
            Route("/metrics", metrics),
            Route("/records/{room}.json", record),
            *games.routes(running, replaying),
            *howto.routes(),
            *lessons.routes(),
            *accounts.routes(running, replaying, guard, public_url),
            *emails.routes(running, guard),
            *push_routes.routes(running),
            Route("/leaderboard", leaderboard),
            Route("/leaderboard/bots", leaderboard),
            *puzzle_routes(running),
            *tournament_routes(running),
            WebSocketRoute("/ws", socket),
        ],
        lifespan=lifespan,
    )


async def refuse(websocket: WebSocket, code: str, message: str) -> None:
    """An error before any hello (so in the first language of the browser's own that the café speaks), and the
    connection closed."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_json({"type": "error", "code": code, "message": message})
        await websocket.close(code=1008)
