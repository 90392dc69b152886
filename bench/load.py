"""Many simultaneous games over real WebSocket connections against the game server.

    python bench/load.py [--games 200] [--seconds 60] [--think 1.0] [--url ws://HOST:PORT/ws]
    python bench/load.py --processes 2 --database postgresql://... --broker redis://...

Without --url it starts `cafe serve` itself on a free port with a fresh data directory (SQLite),
or with --database and --broker that many processes sharing PostgreSQL and Redis; then each
game's two clients connect to two different processes.  Every game is two scripted clients in
one room; a client whose turn it is waits --think seconds (a person's pace), sends a random
legal step and times the round trip until the room state with that step arrives (with several
processes, through the broker).  After --seconds it reports steps per second and
the round trip's percentiles, then checks with the server's database that every acknowledged
step was stored.  The games are opened 20 at a time and the measured seconds begin once all are seated, so
that the burst of openings is not measured as play.  Prints one JSON object (bench/capacity.py runs it as a curve).

With --stalled N, N more clients ask for the café in SVG, follow the lobby and 20 rooms each,
and then never read again: the players' round trips show whether anyone waits for them.
With --analyses N, N card games against a computer player are played to their end first, and
their analyses requested just before the load starts: the round trips show whether the games
in progress feel the analysing worker processes.

    scripts/with-services.sh sh -c 'python bench/load.py --processes 2 \
        --database "$CAFE_TEST_DATABASE" --broker "$CAFE_TEST_BROKER"'
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

OPENING = 20  # games opened at once: a café's people arrive over time, not in one instant
OPEN_SECONDS = 30.0  # for a connection's opening handshake
SEAT_SECONDS = 60.0  # for a game to be opened, seated and started


class Client:
    def __init__(self, ws: ClientConnection, rng: random.Random, think: float) -> None:
        self.ws, self.rng, self.think = ws, rng, think
        self.round_trips: list[float] = []
        self.acknowledged: dict[str, int] = {}  # room -> plies seen
        self.lost_connection = False

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def receive(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await self.ws.recv())
            if message["type"] == kind:
                return message

    async def play(self, room: str, stop_at: float) -> None:
        sent_at: float | None = None
        sent_plies = -1
        while time.perf_counter() < stop_at:
            try:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=stop_at - time.perf_counter()))
            except TimeoutError:
                return
            except ConnectionClosed:
                self.lost_connection = True
                return
            if message["type"] == "error":
                sent_at = None
                await self.send({"type": "sync", "room": room})
                continue
            if message["type"] != "room" or message["room"]["id"] != room:
                continue
            state = message["room"]
            self.acknowledged[room] = state["plies"]
            if sent_at is not None and state["plies"] > sent_plies:
                self.round_trips.append(time.perf_counter() - sent_at)
                sent_at = None
            if state["status"] != "playing":
                if state["status"] == "finished":
                    return
                continue
            if state["legal"] and sent_at is None:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                sent_at, sent_plies = time.perf_counter(), state["plies"]
                step = self.rng.choice(state["legal"])
                await self.send({"type": "step", "room": room, "step": step, "plies": state["plies"]})


class Window:
    """The measured time: it begins once every game is seated (or failed to be), so that the burst of openings is
    not measured as play.  ``ready`` is called with nothing left to open; it may wait for other client processes."""

    def __init__(self, games: int, seconds: float, opening: int = OPENING) -> None:
        self.left, self.seconds = games, seconds
        self.opening = asyncio.Semaphore(opening)
        self.started = asyncio.Event()
        self.stop_at = float("inf")
        self.not_opened = 0

    async def opened(self, ok: bool, ready: Callable[[], Awaitable[None]]) -> None:
        self.not_opened += not ok
        self.left -= 1
        if self.left == 0:
            await ready()
            self.stop_at = time.perf_counter() + self.seconds
            self.started.set()
        await self.started.wait()


async def _nothing() -> None:
    return None


async def seat(urls: list[str], seed: int, think: float) -> tuple[Client, Client, str]:
    """A game of two clients on (maybe) two processes, started: the host's turn or the guest's comes next."""
    rng = random.Random(seed)
    host_ws = await connect(urls[seed % len(urls)], open_timeout=OPEN_SECONDS)
    guest_ws = await connect(urls[(seed + 1) % len(urls)], open_timeout=OPEN_SECONDS)
    host, guest = Client(host_ws, rng, think), Client(guest_ws, random.Random(seed + 1), think)
    await host.send({"type": "hello", "name": f"host{seed}"})
    await guest.send({"type": "hello", "name": f"guest{seed}"})
    await host.receive("welcome")
    await guest.receive("welcome")
    await host.send({"type": "create", "edition": "board"})
    room = (await host.receive("room"))["room"]["id"]
    await guest.send({"type": "enter", "room": room})  # made by the host's process, maybe not the guest's
    await guest.receive("room")
    await guest.send({"type": "say", "room": room, "text": "/join"})
    while len((await host.receive("room"))["room"]["seats"]) < 2:
        pass
    await host.send({"type": "say", "room": room, "text": "/start"})
    return host, guest, room


async def one_game(
    urls: list[str], seed: int, think: float, window: Window, ready: Callable[[], Awaitable[None]] = _nothing
) -> tuple[Client, Client, str] | None:
    """One game, opened at most OPENING at a time, played from the window's start to its end (None: it could
    not be opened)."""
    async with window.opening:
        try:
            game: tuple[Client, Client, str] | None = await asyncio.wait_for(seat(urls, seed, think), SEAT_SECONDS)
        except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
            game = None
    await window.opened(game is not None, ready)
    if game is None:
        return None
    host, guest, room = game
    await asyncio.gather(host.play(room, window.stop_at), guest.play(room, window.stop_at))
    for client in (host, guest):
        with contextlib.suppress(ConnectionClosed):
            await client.ws.close()
    return game


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data: Path, *options: str, command: tuple[str, ...] = ()) -> tuple[subprocess.Popen[bytes], str]:
    """`cafe serve` on a free port, once it answers (``command``: what runs Python, e.g. under a sampler)."""
    port = free_port()
    data.mkdir(parents=True, exist_ok=True)
    with open(data / f"serve-{port}.log", "ab") as log:  # what the server says, kept with its data
        server = subprocess.Popen(
            [*(command or (sys.executable,)), "-m", "cafe", "serve", "--port", str(port), "--data", str(data),
             *options],
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return server, f"ws://127.0.0.1:{port}/ws"
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def server_options(clients: int, database: str | None, broker: str | None) -> list[str]:
    """`cafe serve`'s options for a bench: the shared database and broker, and the limits raised for ``clients``
    connections (every one of them from this one address, and more than a default process takes)."""
    shared = ["--database", database, "--broker", broker] if database and broker else []
    raised = {"per_address": clients + 10, "sockets_per_address": clients + 20, "connections": clients + 100,
              "max_rooms": clients + 100}  # fmt: skip
    return [*shared, *(part for key, value in raised.items() for part in ("--limit", f"{key}={value}"))]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def stalled(url: str, number: int, seconds: float) -> None:
    """A client that follows the lobby and 20 rooms, with pictures, and stops reading (its queue holds one)."""
    await asyncio.sleep(2.0)  # the games' rooms are open by then
    host, port = url.split("//")[1].split("/")[0].split(":")
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a slow phone's small window
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, (host, int(port)))
    async with connect(url, max_queue=1, sock=raw) as ws:
        await ws.send(json.dumps({"type": "hello", "name": f"stalled{number}", "svg": True}))
        while (message := json.loads(await ws.recv()))["type"] != "lobby":
            pass
        with contextlib.suppress(ConnectionClosed):
            for room in message["rooms"][number : number + 20]:
                await ws.send(json.dumps({"type": "enter", "room": room["id"]}))
            await asyncio.sleep(seconds)


async def run(
    urls: list[str],
    games: int,
    seconds: float,
    think: float,
    stalling: int = 0,
    first_seed: int = 1000,
    ready: Callable[[], Awaitable[None]] = _nothing,
) -> tuple[list[tuple[Client, Client, str]], float, int]:
    """Open ``games`` games, then play them for ``seconds``: the games played, the measured seconds, and how many
    games could not be opened."""
    window = Window(games, seconds)
    idle = [asyncio.ensure_future(stalled(urls[n % len(urls)], n, seconds)) for n in range(stalling)]
    played = await asyncio.gather(*(one_game(urls, first_seed + 2 * g, think, window, ready) for g in range(games)))
    await asyncio.gather(*idle)
    wall = time.perf_counter() - (window.stop_at - seconds)
    return [game for game in played if game is not None], wall, window.not_opened


async def finished_games(url: str, count: int) -> list[tuple[str, str]]:
    """``count`` card games between a scripted client and an easy computer player, played to their end: each
    room with its player's token (a game's own player may ask for its analysis from an address that has asked
    already)."""
    rooms = []
    for number in range(count):
        async with connect(url) as ws:
            client = Client(ws, random.Random(number), 0.0)
            await client.send({"type": "hello", "name": f"analysed{number}"})
            token = (await client.receive("welcome"))["token"]
            await client.send({"type": "create", "edition": "cards"})
            room = (await client.receive("room"))["room"]["id"]
            for text in ("/bot easy", "/start"):
                await client.send({"type": "say", "room": room, "text": text})
            while (state := (await client.receive("room"))["room"])["status"] != "finished":
                if state.get("legal"):
                    step = client.rng.choice(state["legal"])
                    await client.send({"type": "step", "room": room, "step": step, "plies": state["plies"]})
            rooms.append((room, token))
    return rooms


def http(url: str, path: str, method: str = "GET", token: str | None = None) -> Any:
    """A JSON answer of the server behind a WebSocket URL (to a player, if ``token``)."""
    base = url.replace("ws://", "http://").removesuffix("/ws")
    headers = {} if token is None else {"X-Cafe-Token": token}
    with urllib.request.urlopen(urllib.request.Request(base + path, method=method, headers=headers)) as answer:
        return json.loads(answer.read())


def dropped(url: str) -> int:
    """Connections a server dropped for falling behind (from its metrics)."""
    with urllib.request.urlopen(url.replace("ws://", "http://").replace("/ws", "/metrics")) as answer:
        lines = dict(line.split() for line in answer.read().decode().splitlines())
    return int(lines.get("cafe_dropped_total", 0))


def stored_steps(data: Path, database: str | None) -> dict[str, int]:
    """How many steps each room has in the servers' database."""
    query = "SELECT room, COUNT(*) FROM steps GROUP BY room"
    if database is None:
        with sqlite3.connect(data / "cafe.sqlite3") as db:
            return dict(db.execute(query).fetchall())
    import psycopg

    with psycopg.connect(database) as db:
        return {room: count for room, count in db.execute(query).fetchall()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client waits before its step")
    parser.add_argument("--url", help="a running server's WebSocket (default: start one)")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (with --database)")
    parser.add_argument("--database", help="PostgreSQL for the started processes (default: SQLite, one process)")
    parser.add_argument("--broker", help="Redis for the started processes")
    parser.add_argument("--stalled", type=int, default=0, help="clients that follow rooms and never read")
    parser.add_argument("--analyses", type=int, default=0, help="finished games analysed while the load runs")
    args = parser.parse_args()
    if args.processes > 1 and not (args.database and args.broker):
        parser.error("several processes need a shared --database and --broker")
    data = Path(tempfile.mkdtemp(prefix="cafe-load-"))
    options = server_options(2 * args.games + args.stalled, args.database, args.broker)
    servers = [] if args.url else [start_server(data, *options) for _ in range(args.processes)]
    urls = [args.url] if args.url else [url for _, url in servers]
    try:
        analysed = asyncio.run(finished_games(urls[0], args.analyses)) if args.analyses else []
        for room, token in analysed:
            http(urls[0], f"/games/{room}/analysis", "POST", token)
        results, wall, not_opened = asyncio.run(run(urls, args.games, args.seconds, args.think, args.stalled))
        analyses = [http(urls[0], f"/games/{room}/analysis")["state"] for room, _ in analysed]
        dropped_connections = sum(dropped(url) for url in urls)
    finally:
        for server, _ in servers:
            server.terminate()
            server.wait()
    trips = [t * 1000 for host, guest, _ in results for t in host.round_trips + guest.round_trips]
    report: dict[str, Any] = {
        "games": args.games,
        "processes": len(urls),
        "backend": "postgresql+redis" if args.database else "sqlite",
        "seconds": round(wall, 1),
        "think": args.think,
        "games_not_opened": not_opened,
        "steps_acknowledged": len(trips),
        "steps_per_second": round(len(trips) / wall, 1),
        "connections_lost": sum(h.lost_connection + g.lost_connection for h, g, _ in results),
        "stalled_clients": args.stalled,
        "connections_dropped_by_the_server": dropped_connections,
        "analyses_requested": len(analysed),
        "analyses_done_during_the_load": analyses.count("done"),
        "round_trip_ms": {
            "median": round(statistics.median(trips), 2) if trips else None,
            "p90": round(percentile(trips, 0.90), 2),
            "p99": round(percentile(trips, 0.99), 2),
            "max": round(max(trips), 2) if trips else None,
        },
    }
    if servers:  # nothing acknowledged is missing from the database
        stored = stored_steps(data, args.database)
        seen = {room: max(h.acknowledged.get(room, 0), g.acknowledged.get(room, 0)) for h, g, room in results}
        report["rooms_with_lost_steps"] = sum(stored.get(room, 0) < plies for room, plies in seen.items())
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
