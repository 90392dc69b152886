"""The real server killed with SIGKILL mid-game and started again: no acknowledged step is lost."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from servers import free_port, start_server


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
