"""The café's doors (cafe.server.sockets) in this process, through uvicorn as `cafe serve` configures it: heads too
large however fast they come, refused handshakes answered, requests that never end closed, and every connection
counted by address (tests/test_server_limits.py attacks a `cafe serve` process the same way, at scale)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import uvicorn

from cafe.server.app import create_app
from cafe.server.command import doors
from cafe.server.limits import Limits
from servers import free_port
from test_server_limits import SLOW, answer, handshake, wait_closed


@contextlib.contextmanager
def open_doors(data: Path, limits: Limits) -> Iterator[int]:
    """A café served by uvicorn in a thread of this process, with the doors `cafe serve` gives it: its port."""
    port = free_port()
    server = uvicorn.Server(doors(create_app(data, limits=limits), "127.0.0.1", port, limits))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(300):
            if server.started:
                break
            time.sleep(0.05)
        assert server.started, "uvicorn did not start"
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def from_address(port: int, address: str, request: bytes) -> socket.socket:
    raw = socket.socket()
    raw.bind((address, 0))
    raw.connect(("127.0.0.1", port))
    raw.sendall(request)
    return raw


def test_the_doors_refuse_large_heads_answer_refused_handshakes_and_close_requests_that_never_end(
    tmp_path: Path,
) -> None:
    with open_doors(tmp_path, Limits(request_seconds=0.5)) as port:
        start = b"GET /health HTTP/1.1\r\nHost: cafe\r\nConnection: close\r\n"
        large = answer(port, start + b"X-Big: " + b"a" * 100_000 + b"\r\n\r\n")  # sent at once
        assert large.startswith(b"HTTP/1.1 400 "), large[:100]
        many = answer(port, start + b"".join(b"X-%d: a\r\n" % n for n in range(5000)) + b"\r\n")
        assert many.startswith(b"HTTP/1.1 400 "), many[:100]
        assert answer(port, start + b"\r\n").startswith(b"HTTP/1.1 200 ")
        refused = answer(port, handshake(port, b"X-Big: " + b"a" * 9000 + b"\r\n"))
        assert refused.startswith(b"HTTP/1.1 431 "), refused[:100]
        never = from_address(port, "127.0.0.1", SLOW)  # its headers never end: closed after request_seconds
        assert wait_closed([never]) == 1
        never.close()


def test_every_connection_counts_toward_its_address_until_it_closes(tmp_path: Path) -> None:
    with open_doors(tmp_path, Limits(sockets_per_address=3, request_seconds=30.0)) as port:
        held = [from_address(port, "127.0.0.2", SLOW) for _ in range(3)]
        try:
            time.sleep(0.2)  # the three are in
            beyond = from_address(port, "127.0.0.2", b"GET /health HTTP/1.1\r\nHost: cafe\r\n\r\n")
            beyond.settimeout(30)
            assert beyond.recv(65536).startswith(b"HTTP/1.1 503 ")  # the address has as many open as it may
            beyond.close()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30) as health:
                assert health.status == 200  # another address is let in
        finally:
            for raw in held:
                raw.close()
        for _ in range(100):  # once they are closed, the address may come in again
            again = from_address(port, "127.0.0.2", b"GET /health HTTP/1.1\r\nHost: cafe\r\nConnection: close\r\n\r\n")
            again.settimeout(30)
            said = again.recv(65536)
            again.close()
            if said.startswith(b"HTTP/1.1 200 "):
                break
            time.sleep(0.05)
        assert said.startswith(b"HTTP/1.1 200 "), said[:100]
