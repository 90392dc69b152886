"""Two `cafe serve` processes on a PostgreSQL and a Redis of the test's own, which restart under them.

The café comes back by itself: the processes connect again, read every room again, and go on with
nothing lost, while `/health` says 503 for as long as either is away.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from own_services import OwnPostgres, OwnRedis
from servers import free_port, start_server
from test_scale import OPEN, Player, begin_with_a_bot, play_to

pytestmark = pytest.mark.services


def health(port: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def health_becomes(port: int, status: int) -> dict[str, Any]:
    """The health report once it answers ``status`` (it must within a minute)."""
    for _ in range(600):
        code, body = health(port)
        if code == status:
            return body
        time.sleep(0.1)
    raise AssertionError(f"/health never answered {status}: {body}")


@pytest.fixture
def cafe(tmp_path: Path) -> Iterator[tuple[OwnPostgres, OwnRedis, list[int]]]:
    postgres, redis = OwnPostgres(), OwnRedis()
    servers: list[subprocess.Popen[bytes]] = []
    ports = [free_port(), free_port()]
    try:
        for port in ports:
            servers.append(start_server(port, tmp_path, "--database", postgres.url, "--broker", redis.url))
        yield postgres, redis, ports
    finally:
        while OPEN:
            OPEN.pop().close()
        for server in servers:
            server.kill()
            server.wait()
        redis.remove()
        postgres.remove()


def agree(people: list[Player], room: str) -> int:
    """Every person's state of the room, asked for afresh, has the same steps (once a computer player's step in
    flight has reached everyone); returns how many."""
    for _ in range(100):
        plies = set()
        for person in people:
            person.send({"type": "sync", "room": room})
            person.refusals_before_help(room)  # read up to the answer to the sync and after
            plies.add(person.state["plies"])
        if len(plies) == 1:
            return plies.pop()
        time.sleep(0.1)
    raise AssertionError(f"the processes disagree: {plies}")


def stored_steps(url: str, room: str) -> int:
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute("SELECT count(*) FROM steps WHERE room = %s", (room,)).fetchone()
    assert row is not None
    return int(row[0])


def test_the_cafe_comes_back_by_itself_after_redis_and_postgresql_restart(
    cafe: tuple[OwnPostgres, OwnRedis, list[int]],
) -> None:
    postgres, redis, (first, second) = cafe
    ann, bob = Player(first, "Ann"), Player(second, "Bob")
    room, people = begin_with_a_bot(ann, bob)
    play_to(people, room, ann, plies=8)

    # Redis crashes and comes back empty: every count and every subscription gone
    redis.kill()
    for port in (first, second):
        assert health_becomes(port, 503)["broker"] == "away"
    redis.start()
    for port in (first, second):
        assert health_becomes(port, 200) == {"status": "ok", "database": "ok", "broker": "ok"}
    agree([ann, bob], room)
    play_to(people, room, ann, plies=20)  # each step acknowledged and delivered through both processes again
    assert agree([ann, bob], room) == stored_steps(postgres.url, room)
    eve = Player(second, "Eve")
    eve.send({"type": "create", "edition": "cards"})  # a new room gets its answer
    assert eve.room(status="waiting")["edition"] == "cards"

    # PostgreSQL restarts: every session of both processes ends
    postgres.stop()
    for port in (first, second):
        assert health_becomes(port, 503)["database"] == "away"
    with connect(f"ws://127.0.0.1:{second}/ws") as refused:  # a hello meanwhile is told to try again
        refused.send(json.dumps({"type": "hello", "name": "Cleo"}))
        error = json.loads(refused.recv(timeout=30))
    assert error["type"] == "error" and error["code"] == "unavailable" and "try again" in error["message"]
    postgres.start()
    for port in (first, second):
        assert health_becomes(port, 200)["database"] == "ok"
    for port in (first, second):  # hellos pass on both processes again
        Player(port, f"Dan{port}")
    play_to(people, room, ann)  # to the end of the game
    assert bob.room(status="finished")["plies"] == ann.state["plies"] == stored_steps(postgres.url, room)
