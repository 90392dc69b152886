"""The café's doors against slow, oversized and numerous requests, connections that never say hello, numbers in URLs,
and floods of replays (each case failed before its fix)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import selectors
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from cafe.server.app import create_app
from servers import free_port, serving, start_server
from test_server import Person, served
from test_server_games import finished_game

QUICK: dict[str, Any] = {"bot_delay": 0.0, "hint_seconds": 0.05, "rate": 1000.0, "burst": 1000}  # games played fast
SLOW = b"GET /health HTTP/1.1\r\nHost: cafe\r\nX-Slow: "  # a request whose headers never end


def handshake(port: int, *headers: bytes) -> bytes:
    key = base64.b64encode(secrets.token_bytes(16))
    return (
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n" % (port, key, b"".join(headers))
    )


def answer(port: int, request: bytes) -> bytes:
    """All that the server says to ``request`` until it closes the connection (60 s at most)."""
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.settimeout(60)
        raw.sendall(request)
        said = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := raw.recv(65536):
                said += chunk
        return said


def wait_closed(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` the server closes (each read to its end), waiting 60 s at most for the last."""
    with selectors.DefaultSelector() as selector:
        for raw in sockets:
            raw.setblocking(False)
            selector.register(raw, selectors.EVENT_READ)
        closed, until = 0, time.monotonic() + 60
        while closed < len(sockets) and time.monotonic() < until:
            for key, _ in selector.select(timeout=1):
                raw = key.fileobj
                assert isinstance(raw, socket.socket)
                try:
                    ended = raw.recv(65536) == b""
                except ConnectionResetError:
                    ended = True
                if ended:
                    selector.unregister(raw)
                    closed += 1
        return closed


def hello(port: int) -> dict[str, Any]:
    with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "name": f"Ann{secrets.randbelow(1000)}"}))
        return dict(json.loads(ws.recv(timeout=60)))


# ---------------------------------------------------------------------- 3. slow and numerous connections


def test_one_address_cannot_hold_the_server_open(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(port, tmp_path, files=1024)  # as `ulimit -n` is on a default server
    held: list[socket.socket] = []
    try:
        # a WebSocket handshake with a header line over 8 KiB is answered, and closed
        refused = answer(port, handshake(port, b"Accept-Language: " + b"de," * 3000 + b"\r\n"))
        assert refused.startswith(b"HTTP/1.1 431 "), refused[:100]
        # a second request on a kept-alive connection, whose headers never end: closed too
        with socket.create_connection(("127.0.0.1", port)) as raw:
            raw.settimeout(60)
            raw.sendall(b"GET /health HTTP/1.1\r\nHost: cafe\r\n\r\n")
            first = b""
            while not first.endswith(b'"broker":"ok"}'):  # the whole answer: /health's last field
                first += raw.recv(65536)
            raw.sendall(SLOW)
            assert raw.recv(65536) == b""
        # 1,100 connections from one address: requests whose headers never end, and oversized handshakes
        for n in range(1100):
            raw = socket.socket()
            raw.bind(("127.0.0.2", 0))
            raw.connect(("127.0.0.1", port))
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                raw.sendall(SLOW if n % 2 else handshake(port, b"X-Big: " + b"a" * 9000 + b"\r\n"))
            held.append(raw)
        # the café still answers everyone else, and holds a few dozen files for them, not a thousand
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=60) as health:
            assert health.status == 200
        assert hello(port)["type"] == "welcome"
        assert len(os.listdir(f"/proc/{server.pid}/fd")) < 200
        # and it closes every one of them by itself: at once beyond the address's bound, the others in a few seconds
        assert wait_closed(held) == len(held)
        assert hello(port)["type"] == "welcome"
    finally:
        for raw in held:
            raw.close()
        server.terminate()
        server.wait()


# ---------------------------------------------------------------------- 4. large headers sent at once


def test_large_headers_are_refused_however_fast_they_come(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(port, tmp_path)
    try:
        start = b"GET /health HTTP/1.1\r\nHost: cafe\r\nConnection: close\r\n"
        for headers in (
            b"X-Big: " + b"a" * 100_000 + b"\r\n",  # one 100 KB header
            b"".join(b"X-%d: a\r\n" % n for n in range(5000)),  # 5,000 headers
            b"Cookie: " + b"; ".join(b"c%d=%s" % (n, b"a" * 60) for n in range(1000)) + b"\r\n",  # a huge cookie
        ):
            said = answer(port, start + headers + b"\r\n")
            assert said.startswith(b"HTTP/1.1 400 ") and b"Invalid HTTP request received." in said, said[:200]
        honest = answer(port, start + b"Cookie: " + b"a" * 12_000 + b"\r\n\r\n")  # a large one within the bound
        assert honest.startswith(b"HTTP/1.1 200 "), honest[:200]
    finally:
        server.terminate()
        server.wait()


# ---------------------------------------------------------------------- 5. a connection that never says hello


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with served(create_app(tmp_path, hello_seconds=0.5)) as client:
        ann = Person(client, "Ann")
        with client.websocket_connect("/ws", headers={"Accept-Language": "de"}) as silent:
            error = silent.receive_json()
            assert error["code"] == "hello" and error["message"].startswith("die Anmeldung kam nicht rechtzeitig"), (
                error
            )
            try:
                silent.receive_json()
                raise AssertionError("the silent connection stays open")
            except WebSocketDisconnect as closed:
                assert closed.code == 1008
        ann.send({"type": "lobby"})  # who said hello stays, past the deadline
        assert ann.expect("lobby")["type"] == "lobby"


# ---------------------------------------------------------------------- 6. numbers in URLs


def test_oversized_numbers_in_urls_are_no_such_thing(tmp_path: Path) -> None:
    with served(create_app(tmp_path, **QUICK)) as client:
        ann = Person(client, "Ann")
        room = finished_game(client, ann)
        huge = "9" * 5000
        for path in (
            "/players/9223372036854775808.json",
            f"/players/{huge}.json",
            "/players/١٢.json",  # digits, but not ASCII ones
            f"/games/{room}/at/{huge}.json",
            f"/games/nothing/at/{huge}.json",
            f"/games/{room}/at/-1.json",
        ):
            got = client.get(path)
            assert got.status_code == 404 and "error" in got.json(), (path[:40], got.status_code)
        assert client.get(f"/players/{ann.player}.json").json()["name"] == "Ann"
        assert client.get(f"/games/{room}/at/999999999999999999.json").status_code == 200  # past the end: the end


# ---------------------------------------------------------------------- 7. replays


def test_finished_positions_are_kept_and_replays_bounded_per_address(tmp_path: Path) -> None:
    with served(create_app(tmp_path, **QUICK)) as client:
        room = finished_game(client, Person(client, "Ann"), "cards")
        for _ in range(20):  # the replay page's reader steps back and forth
            for ply in (3, 4, 5):
                assert client.get(f"/games/{room}/at/{ply}.json").json()["ply"] == ply
        metrics = client.get("/metrics").text
        assert "cafe_replays_total 4\n" in metrics, metrics  # the game once (its length), then each position once
    app = create_app(tmp_path, replays_per_address=1, replay_cache=0)  # every request computes its replay
    with serving(app) as port:
        answers: list[tuple[int, str | None]] = []

        def ask(ply: int, ready: threading.Barrier) -> None:
            ready.wait()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{room}/at/{ply}.json", timeout=60) as got:
                    answers.append((got.status, None))
            except urllib.error.HTTPError as refused:
                answers.append((refused.code, refused.headers.get("Retry-After")))

        for _ in range(20):  # rounds of 16 requests at once from one address, until one is refused
            ready = threading.Barrier(16)
            asking = [threading.Thread(target=ask, args=(ply, ready)) for ply in range(16)]
            for thread in asking:
                thread.start()
            for thread in asking:
                thread.join()
            if any(status == 429 for status, _ in answers):
                break
        assert {status for status, _ in answers} == {200, 429}, answers
        assert all(retry == "1" for status, retry in answers if status == 429)
