"""The real server killed with SIGKILL mid-game and started again: no acknowledged step is lost."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data: Path) -> subprocess.Popen[bytes]:
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


def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == kind:
            return message
        assert message["type"] != "error", message


def test_a_killed_server_loses_no_acknowledged_step(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(port, tmp_path)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "name": "Ann"}))
            token = receive(ws, "welcome")["token"]
            ws.send(json.dumps({"type": "create", "edition": "board"}))
            room = receive(ws, "room")["room"]["id"]
            ws.send(json.dumps({"type": "say", "room": room, "text": "/bot easy"}))
            ws.send(json.dumps({"type": "say", "room": room, "text": "/start"}))
            seen: dict[str, Any] = {}
            while seen.get("plies", 0) < 12:
                state = receive(ws, "room")["room"]
                if state["status"] != "playing":
                    continue
                seen = state
                if state["legal"]:
                    ws.send(json.dumps({"type": "step", "room": room, "step": state["legal"][0]}))
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        server = start_server(port, tmp_path)
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            after = receive(ws, "room")["room"]
        assert after["id"] == room and after["status"] == "playing"
        assert after["plies"] >= seen["plies"]
        done = seen["view"]["turns"]
        assert after["view"]["turns"][: len(done)] == done
    finally:
        server.kill()
        server.wait()
