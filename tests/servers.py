"""Real `cafe serve` processes for the tests that need one (killed, restarted, driven by a browser)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data: Path) -> subprocess.Popen[bytes]:
    """`cafe serve` on 127.0.0.1:port with its database in ``data``, once its health check answers."""
    server = subprocess.Popen(
        [sys.executable, "-m", "cafe", "serve", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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
