"""Real `cafe serve` processes for the tests that need one (killed, restarted, driven by a browser)."""

from __future__ import annotations

import contextlib
import os
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


def start_server(port: int, data: Path, *options: str) -> subprocess.Popen[bytes]:
    """`cafe serve` on 127.0.0.1:port with its database in ``data`` (or as ``options`` say), once it is healthy.

    What it prints goes to ``data/serve-PORT.log``."""
    data.mkdir(parents=True, exist_ok=True)
    with open(data / f"serve-{port}.log", "ab") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "cafe", "serve", "--port", str(port), "--data", str(data), *options],
            stdout=log,
            stderr=subprocess.STDOUT,
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
