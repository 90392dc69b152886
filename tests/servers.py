"""Real `cafe serve` processes for the tests that need one (killed, restarted, driven by a browser)."""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data: Path, *options: str, files: int | None = None) -> subprocess.Popen[bytes]:
    """`cafe serve` on 127.0.0.1:port with its database in ``data`` (or as ``options`` say), once it is healthy;
    ``files``: the process's `ulimit -n` (soft), as a default server has it (1024).

    What it prints goes to ``data/serve-PORT.log``."""

    def limited() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    data.mkdir(parents=True, exist_ok=True)
    with open(data / f"serve-{port}.log", "ab") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "cafe", "serve", "--port", str(port), "--data", str(data), *options],
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=limited,
        )
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not become healthy")


@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server of scripts/with-services.sh; dropped afterwards."""
    import psycopg

    url = os.environ.get("CAFE_TEST_DATABASE")
    if not url:
        raise AssertionError("no PostgreSQL for the tests: run them under scripts/with-services.sh (make test does)")
    name = f"cafe_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}".encode())
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)".encode())


@contextlib.contextmanager
def serving(app: object) -> Iterator[int]:
    """An application served by uvicorn on a real loopback port, in a thread of the test; yields the port."""
    import threading

    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", http="h11")  # type: ignore[arg-type]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(300):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def stalled_socket(port: int) -> socket.socket:
    """A WebSocket client on /ws that will never read (its receive buffer is tiny); write with :func:`send_frames`."""
    import base64

    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    raw.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)
    assert b" 101 " in answer, answer
    return raw


def send_frames(raw: socket.socket, *texts: str) -> None:
    """Masked text frames, as a client must send them; a server that has hung up is no error here."""
    import struct

    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        for text in texts:
            payload = text.encode()
            mask = secrets.token_bytes(4)
            size = (
                bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0xFE]) + struct.pack("!H", len(payload))
            )
            raw.sendall(bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
