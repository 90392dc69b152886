"""The café's capacity curve: for 1, 2 and 4 server processes, the number of simultaneous games is raised until a
step's 99th-percentile round trip passes the knee (100 ms), measured as bench/load.py measures it (two scripted
clients a game, a step after about --think seconds, every acknowledged step checked in the database).

    python bench/capacity.py --processes 1                       # one process on SQLite
    scripts/with-services.sh sh -c 'python bench/capacity.py --processes 1 2 4 \\
        --database "$CAFE_TEST_DATABASE" --broker "$CAFE_TEST_BROKER"'
    python bench/capacity.py --processes 1 --games 600 --profile /tmp/serve.prof   # where one process's time goes

Without --database and --broker one process runs on SQLite; with them every rung runs on PostgreSQL and Redis, one
process too (several processes need them). Each rung of the ladder starts fresh servers on a fresh database (a café
that has just played 1,000 games is not a fresh café), opens its games 20 at a time, and measures once all are
seated. The clients run in --clients processes of their own on the same machine, so on a small machine they take CPU
from the servers: the figures are what the machine gives both. Each rung also says what a step costs in CPU time, by
kind of process (the servers, the clients, PostgreSQL, Redis; bench/cpu_share.py): from that, how many cores a café
of a given size needs, whatever shares this machine's.

With --profile FILE, a single rung (the first of --games) is played with one process sampled by py-spy
(100 times a second, into FILE as collapsed stacks), and the server's time is summed by where it goes: the
event loop and sockets, JSON encoding, compression, the SVG pictures, the store, the broker, the game itself,
and the café's code.  A sample counts for the innermost frame that names a place; the server's start (its
imports) is left out.  "The event loop" is mostly uvloop's own C code, seen from Python as asyncio's runner.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import load  # bench/load.py, beside this file
from cpu_share import CpuSampler  # bench/cpu_share.py

LADDER = (100, 200, 400, 600, 800, 1000, 1200, 1500, 2000)
KNEE_MS = 100.0
OPENING_SECONDS = 600.0  # for a rung's games to be opened, at most
STOP_SECONDS = 60.0  # for a server to stop after SIGINT

# where a profiled function's own time goes, by the first match in its file's path or name
PLACES = (
    ("JSON encoding", ("json/", "_json", "orjson")),
    ("compression (permessage-deflate)", ("zlib", "permessage_deflate", "extensions/")),
    ("SVG pictures", ("cafe/svg",)),
    ("store", ("sqlite3", "psycopg", "/store.py", "_rows.py", "/database.py", "/postgres.py", "storage/")),
    ("broker", ("redis", "/broker.py")),
    ("sockets and HTTP", ("websockets/", "uvicorn/", "starlette/", "h11", "httptools", "socket", "ssl")),
    ("event loop", ("asyncio/", "selectors", "select.epoll", "uvloop")),
    (
        "the game (rules, views, steps)",
        (
            "cafe/engine",
            "cafe/game",
            "cafe/board",
            "cafe/cards",
            "cafe/view",
            "cafe/steps",
            "cafe/rules",
            "cafe/legal",
            "cafe/state",
        ),
    ),
    ("the café (rooms, gateway, outboxes)", ("cafe/server",)),
)


@dataclass
class Rung:
    """One rung of the ladder: what the clients measured."""

    processes: int
    games: int
    trips_ms: list[float]
    seconds: float
    not_opened: int
    connections_lost: int
    lost_steps: int
    cpu_seconds: dict[str, float]  # the measured seconds' CPU time, by kind of process (bench/cpu_share.py)

    def report(self) -> dict[str, Any]:
        trips = self.trips_ms
        steps = len(trips) or 1
        per_step = {kind: round(1000 * spent / steps, 2) for kind, spent in self.cpu_seconds.items()}
        return {
            "processes": self.processes,
            "games": self.games,
            "games_per_process": round(self.games / self.processes),
            "steps_per_second": round(len(trips) / self.seconds, 1) if self.seconds else 0,
            "median_ms": round(statistics.median(trips), 1) if trips else None,
            "p90_ms": round(load.percentile(trips, 0.90), 1) if trips else None,
            "p99_ms": round(load.percentile(trips, 0.99), 1) if trips else None,
            "games_not_opened": self.not_opened,
            "connections_lost": self.connections_lost,
            "rooms_with_lost_steps": self.lost_steps,
            "cpu_ms_per_step": per_step,
        }

    def under_knee(self, knee: float) -> bool:
        whole = not (self.not_opened or self.connections_lost or self.lost_steps)
        return whole and bool(self.trips_ms) and load.percentile(self.trips_ms, 0.99) < knee


def _clients(urls: list[str], games: int, seconds: float, think: float, first_seed: int, barrier: Barrier,
             out: Any) -> None:  # fmt: skip
    """A client process: its share of the games, measured from the moment every client process has seated its
    own (the barrier)."""

    async def ready() -> None:
        await asyncio.to_thread(barrier.wait)

    try:
        played, wall, not_opened = asyncio.run(
            load.run(urls, games, seconds, think, first_seed=first_seed, ready=ready)
        )
    except Exception as failed:  # said, not waited for: the rung is reported as failed
        barrier.abort()
        out.put({"failed": f"{type(failed).__name__}: {failed}"})
        return
    out.put(
        {
            "trips": [t * 1000 for host, guest, _ in played for t in host.round_trips + guest.round_trips],
            "seconds": wall,
            "not_opened": not_opened,
            "lost": sum(host.lost_connection + guest.lost_connection for host, guest, _ in played),
            "seen": {
                room: max(host.acknowledged.get(room, 0), guest.acknowledged.get(room, 0))
                for host, guest, room in played
            },
        }
    )


RUNGS = itertools.count()  # the rungs played so far


def fresh_database(url: str, rung: int) -> str:
    """A new database beside ``url``'s for one rung (a café that has played a rung is not a fresh café: its rooms
    stay open, and count against the next one's limits); its Redis keys are its own too (cafe.server.broker)."""
    import psycopg

    name = f"capacity_{os.getpid()}_{rung}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path="/" + name))


def rung(processes: int, games: int, args: argparse.Namespace, command: tuple[str, ...] = ()) -> Rung:
    """Start ``processes`` fresh servers, play ``games`` games on them from --clients processes, stop them."""
    number = next(RUNGS)
    data = Path(tempfile.mkdtemp(prefix="cafe-capacity-"))
    database = fresh_database(args.database, number) if args.database else None
    broker = args.broker
    options = load.server_options(2 * games, database, broker)
    servers = [load.start_server(data, *options, command=command) for _ in range(processes)]
    urls = [url for _, url in servers]
    clients = max(1, min(args.clients, games))
    barrier = multiprocessing.Barrier(clients)
    out: Any = multiprocessing.Queue()
    shares = [games // clients + (k < games % clients) for k in range(clients)]
    workers = [
        multiprocessing.Process(
            target=_clients, args=(urls, share, args.seconds, args.think, 1000 + 4 * games * k, barrier, out)
        )
        for k, share in enumerate(shares)
    ]
    cpu = CpuSampler({"servers": [server.pid for server, _ in servers]}, every=0.5)
    cpu.start()
    try:
        for worker in workers:
            worker.start()
        cpu.named.update({worker.pid: "clients" for worker in workers if worker.pid is not None})
        parts = [out.get(timeout=args.seconds + OPENING_SECONDS) for _ in workers]
        measured = time.monotonic()  # the clients' window ended just now (the first of them a moment ago)
        cpu.stop()
        for worker in workers:
            worker.join()
        failed = [part["failed"] for part in parts if "failed" in part]
        if failed:
            raise SystemExit(f"the clients failed at {games} games on {processes} processes: {failed[0]} "
                             f"(the servers' logs: {data})")  # fmt: skip
    finally:
        cpu.stop()
        for server, _ in servers:  # SIGINT: the sampler writes its file on the way out
            server.send_signal(signal.SIGINT)
        for server, _ in servers:
            try:
                server.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:  # a server that does not stop is no reason to lose the rung
                print(f"a server did not stop within {STOP_SECONDS:g} s of SIGINT: killed", file=sys.stderr)
                server.kill()
                server.wait()
    seen = {room: plies for part in parts for room, plies in part["seen"].items()}
    stored = load.stored_steps(data, database)
    return Rung(
        processes,
        games,
        [t for part in parts for t in part["trips"]],
        max(part["seconds"] for part in parts),
        sum(part["not_opened"] for part in parts),
        sum(part["lost"] for part in parts),
        sum(stored.get(room, 0) < plies for room, plies in seen.items()),
        cpu.seconds_between(measured - max(part["seconds"] for part in parts), measured),
    )


def place_of(frames: list[str]) -> str | None:
    """The place of a sample: the innermost frame's that names one; None while the server starts (imports)."""
    if any("importlib" in frame for frame in frames):
        return None
    for frame in frames:
        for label, marks in PLACES:
            if any(mark in frame for mark in marks):
                return label
    return "other"


def where_time_goes(profile: Path) -> dict[str, float]:
    """The server's samples, in percent, by place (py-spy's collapsed stacks: ``frame;frame;... count``)."""
    spent: dict[str, int] = {}
    for line in profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [frame.replace(os.sep, "/") for frame in reversed(stack.split(";"))]
        place = place_of(frames)
        if place is not None:
            spent[place] = spent.get(place, 0) + int(count)
    total = sum(spent.values()) or 1
    return {place: round(100 * n / total, 1) for place, n in sorted(spent.items(), key=lambda kv: -kv[1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, nargs="+", default=[1])
    parser.add_argument("--games", type=int, nargs="+", default=list(LADDER), help="the ladder's rungs (games)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds a rung")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client waits before its step")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--knee", type=float, default=KNEE_MS, help="the p99 round trip (ms) a rung must stay under")
    parser.add_argument("--database", help="PostgreSQL for the servers (one process runs on SQLite without it)")
    parser.add_argument("--broker", help="Redis for the servers, with --database")
    parser.add_argument("--profile", type=Path, help="profile one process at the first rung into this file")
    args = parser.parse_args()
    if any(n > 1 for n in args.processes) and not (args.database and args.broker):
        parser.error("several processes need a shared --database and --broker")
    if bool(args.database) != bool(args.broker):
        parser.error("--database and --broker go together")
    if args.profile:
        spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
        if spy is None:
            parser.error("--profile samples the server with py-spy: pip install py-spy")
        sampled = (spy, "record", "--format", "raw", "--rate", "100", "--output", str(args.profile), "--",
                   sys.executable)  # fmt: skip
        played = rung(1, args.games[0], args, command=sampled)
        print(json.dumps({"rung": played.report(), "server_time_percent": where_time_goes(args.profile)}, indent=1))
        return
    curve: list[dict[str, Any]] = []
    knees: dict[int, int] = {}
    for processes in args.processes:
        for games in args.games:
            played = rung(processes, games, args)
            curve.append(played.report())
            print(json.dumps(curve[-1]), file=sys.stderr, flush=True)
            if not played.under_knee(args.knee):
                break
            knees[processes] = games
    print(json.dumps({"knee_ms": args.knee, "seconds": args.seconds, "think": args.think, "clients": args.clients,
                      "cpus": os.cpu_count(), "knee_games": knees, "curve": curve}, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
