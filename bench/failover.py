"""A server process killed mid-game: how long until the work it held is done by the others.

    scripts/with-services.sh sh -c 'python bench/failover.py --database "$CAFE_TEST_DATABASE" \
        --broker "$CAFE_TEST_BROKER"' [--games 30] [--turn-seconds 4] [--lease 5]

Starts three `cafe serve` processes on the PostgreSQL database and Redis given, and plays --games
games, each a scripted person against a computer player, the people spread over the processes.
In half the games the computer player is the expert (a second a turn) and the person plays on at
once; in the other half it is easy, and the person stops moving after --play-seconds.  A moment
later the first process is killed (SIGKILL): every game of the first kind whose computer player
is to move then waits for its step, and every game of the second kind for its person's turn clock
(--turn-seconds), in whichever process scheduled or claimed them.  The people of the killed
process come back through the others, with their tokens.  For every such game the bench times
the kill until its next step arrives, and reports them by kind (a computer player's step, a turn
clock): how many, the median and the longest, and for clocks how late they ran out compared with
when they were due.  Then it checks with the database that every game's stored steps replay, and
that no client saw more steps than were stored.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cafe.arena.match import new_game


@dataclass
class Game:
    """One game as its person sees it."""

    index: int
    process: int  # the process the person first connects to
    against_thinker: bool  # against an expert (a second a turn), playing on; else against easy, stopping
    room: str = ""
    token: str = ""
    seat: int = 0
    plies: int = 0
    current: int | None = None  # the seat to move, as last seen
    turn_began: float = 0.0  # when the state of the present player's turn arrived
    waiting_for: str = ""  # at the kill: "bot" or "clock"
    plies_at_kill: int = 0
    due: float = 0.0  # at the kill: when the person's clock was due
    fired: float | None = None
    seen: list[int] = field(default_factory=list)


async def receive(ws: ClientConnection, timeout: float) -> dict[str, Any] | None:
    try:
        return json.loads(await asyncio.wait_for(ws.recv(), timeout))  # type: ignore[no-any-return]
    except TimeoutError:
        return None


def note(game: Game, state: dict[str, Any], now: float) -> None:
    if state["id"] != game.room:
        return
    current = state["view"]["current_player"] if state["status"] == "playing" else None
    if current != game.current or not game.turn_began:
        game.turn_began = now
    game.current, game.plies = current, state["plies"]
    game.seen.append(state["plies"])


async def play(game: Game, urls: list[str], stop: asyncio.Event, killed: list[float], rng: random.Random) -> None:
    """The person of ``game``: plays at once whenever it is their turn; a person of a clock game stops at ``stop``
    (and their clock runs out after the kill), one of a computer player's game plays on (and the computer player
    is thinking at the kill, in one process or another)."""
    ws = await connect(urls[game.process])
    await ws.send(json.dumps({"type": "hello", "name": f"p{game.index}"}))
    while (message := await receive(ws, 30)) is not None and message["type"] != "welcome":
        pass
    assert message is not None
    game.token = message["token"]
    await ws.send(json.dumps({"type": "create", "edition": "board"}))
    while (message := await receive(ws, 30)) is not None and message["type"] != "room":
        pass
    assert message is not None
    game.room = message["room"]["id"]
    for text in ("/bot expert" if game.against_thinker else "/bot easy", "/start"):
        await ws.send(json.dumps({"type": "say", "room": game.room, "text": text}))
    while True:
        message = None
        try:
            message = await receive(ws, 0.2)
        except ConnectionClosed:  # its process was killed: back through another
            ws = await connect(urls[(game.process + 1) % len(urls)])
            await ws.send(json.dumps({"type": "hello", "token": game.token}))
            continue
        now = time.perf_counter()
        if message is not None and message["type"] == "room":
            state = message["room"]
            note(game, state, now)
            if killed and game.fired is None and state["plies"] > game.plies_at_kill:
                game.fired = now
            if state["status"] == "finished" or (killed and (game.fired is not None or not game.waiting_for)):
                break
            if state["status"] == "playing":
                game.seat = state["you"]
                mine = state["view"]["current_player"] == game.seat
                plays = game.against_thinker or not stop.is_set()
                if mine and plays and state["legal"] and not (killed and game.waiting_for):
                    await asyncio.sleep(0.1)
                    await ws.send(json.dumps({"type": "step", "room": game.room, "step": rng.choice(state["legal"]),
                                              "plies": state["plies"]}))  # fmt: skip
        if killed and game.fired is None and time.perf_counter() - killed[0] > 120:
            break  # never fired: reported as such
    await ws.close()


def start(port: int, data: Path, *options: str) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "cafe", "serve", "--port", str(port), "--data", str(data), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("a server did not start")


def summary(delays: list[float]) -> dict[str, Any]:
    if not delays:
        return {"count": 0}
    return {"count": len(delays), "median": round(statistics.median(delays), 2), "longest": round(max(delays), 2)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import socket

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    limits = [f"turn_seconds={args.turn_seconds}", f"lease_seconds={args.lease}", "sweep_seconds=1", "bot_delay=0.2"]
    options = ["--database", args.database, "--broker", args.broker]
    options += [part for limit in limits for part in ("--limit", limit)]
    data = Path(tempfile.mkdtemp(prefix="cafe-failover-"))
    ports = [free_port() for _ in range(3)]
    servers = [start(port, data, *options) for port in ports]
    urls = [f"ws://127.0.0.1:{port}/ws" for port in ports]
    games = [Game(i, i % 3, i % 2 == 1) for i in range(args.games)]
    stop, killed = asyncio.Event(), []
    rng = random.Random(args.seed)
    tasks = [asyncio.create_task(play(g, urls, stop, killed, random.Random(rng.random()))) for g in games]
    try:
        await asyncio.sleep(args.play_seconds)
        stop.set()
        await asyncio.sleep(1.0)  # the clock games' last steps arrive
        now = time.perf_counter()
        for g in games:
            g.plies_at_kill = g.plies
            if g.against_thinker:
                g.waiting_for = "bot" if g.current not in (None, g.seat) else ""  # their person moves: not timed
            else:
                g.waiting_for = "clock" if g.current == g.seat else ""
            g.due = g.turn_began + args.turn_seconds
        os.kill(servers[0].pid, signal.SIGKILL)
        servers[0].wait()
        killed.append(now)
        await asyncio.gather(*tasks)
    finally:
        for server in servers:
            server.kill()
            server.wait()
    kill = killed[0]
    report: dict[str, Any] = {"games": args.games, "turn_seconds": args.turn_seconds, "lease_seconds": args.lease}
    for kind in ("bot", "clock"):
        waiting = [g for g in games if g.waiting_for == kind]
        fired = [g.fired - kill for g in waiting if g.fired is not None]
        report[kind] = summary(fired) | {"never": sum(g.fired is None for g in waiting)}
        if kind == "clock":
            late = [g.fired - g.due for g in waiting if g.fired is not None]
            report[kind]["late_median"] = round(statistics.median(late), 2) if late else None
            report[kind]["late_longest"] = round(max(late), 2) if late else None
    report["stored_steps_replay"] = check_stored(args.database, games)
    return report


def check_stored(database: str, games: list[Game]) -> bool:
    """Every game's stored steps replay, and no client saw more steps than were stored."""
    from cafe.server.storage.postgres import PostgresStore

    store = PostgresStore(database)
    try:
        for g in games:
            row = store.load_room(g.room)
            if row is None:
                return False
            game = new_game(row.edition, [s.name for s in row.seats], row.seed, row.rules)
            for step in row.steps:
                game.push(step)
            if max(g.seen, default=0) > len(row.steps):
                return False
        return True
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="PostgreSQL URL the three processes share")
    parser.add_argument("--broker", required=True, help="Redis URL the three processes share")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--play-seconds", type=float, default=8.0, help="seconds of play before the kill")
    parser.add_argument("--turn-seconds", type=float, default=4.0)
    parser.add_argument("--lease", type=float, default=5.0, help="the processes' lease_seconds")
    parser.add_argument("--seed", type=int, default=1)
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
