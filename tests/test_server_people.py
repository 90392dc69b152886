"""People in the café: a refused hello changes nothing, names others can tell apart, and rated games that
someone leaves (each case failed before its fix)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.server.app import create_app
from test_server import OPEN, Person, close_all, open_room, served


@pytest.fixture
def quick(tmp_path: Path) -> Any:
    """A café whose computer players answer at once, and where the tests' clients may send as fast as they like."""
    with served(create_app(tmp_path, bot_delay=0.0, away_seconds=0.2, rate=1000.0, burst=1000)) as client:
        try:
            yield client
        finally:
            close_all()


def refused(client: TestClient, hello: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A new connection whose hello is refused: the connection (still open) and the error."""
    socket = client.websocket_connect("/ws").__enter__()
    OPEN.append(socket)
    socket.send_text(json.dumps({"type": "hello", **hello}))
    answer = socket.receive_json()
    assert answer["type"] == "error", answer
    return socket, answer


# ---------------------------------------------------------------------- a refused hello


@pytest.mark.parametrize("lang", [5, "", "x" * 36, ["de"]])
def test_a_hello_refused_for_its_language_signs_nobody_in(quick: TestClient, lang: object) -> None:
    socket, answer = refused(quick, {"name": "Ann", "lang": lang})
    assert answer["code"] == "field" and "'lang'" in answer["message"]
    for message in ({"type": "lobby"}, {"type": "create", "edition": "board"}, {"type": "say", "room": "x"}):
        socket.send_text(json.dumps(message))
        assert socket.receive_json()["code"] == "hello", message  # not signed in: nothing but hello
    ann = Person(quick, "Ann")  # and the name is free
    assert ann.expect("lobby")["type"] == "lobby"
    socket.send_text(json.dumps({"type": "hello", "name": "Ann"}))
    assert socket.receive_json()["code"] == "name"  # now Ann's


def test_a_hello_with_a_token_refused_for_its_language_leaves_the_owner_present(quick: TestClient) -> None:
    bob = Person(quick, "Bob")
    socket, answer = refused(quick, {"token": bob.token, "lang": 7})
    assert answer["code"] == "field"
    OPEN.remove(socket)
    socket.__exit__(None, None, None)  # the refused connection goes: Bob is still here
    _, taken = refused(quick, {"name": "Bob"})
    assert taken["code"] == "name"
    bob.send({"type": "lobby"})
    assert bob.expect("lobby")["type"] == "lobby"
