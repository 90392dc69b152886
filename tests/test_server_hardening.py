"""What a clumsy or hostile client must not be able to do to the café (each case failed before its fix)."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from websockets.sync.client import connect

from cafe.record import Record
from cafe.server.app import create_app
from cafe.server.gateway import HANDLERS
from cafe.server.storage.store import Ending, SQLiteStore
from servers import send_frames, serving, stalled_socket
from test_server import (
    Person,
    close_all,
    open_room,
    served,
)

HIDDEN_CARD = re.compile(r"down:[A-Z]{3}[fm]")


def receive(socket: Any, **wanted: Any) -> dict[str, Any]:
    """The next message with these fields (60 s at most: a server that stopped answering fails the test)."""
    while True:
        message = json.loads(socket.recv(timeout=60))
        if all(message.get(k) == v for k, v in wanted.items()):
            return message


def say(socket: Any, room: str, text: str) -> None:
    socket.send(json.dumps({"type": "say", "room": room, "text": text}))


def bots_only(client: TestClient, edition: str, bots: int) -> tuple[Person, str]:
    """Ann opens a room with ``bots`` easy computer players, starts and leaves her seat to one: she only watches."""
    ann = Person(client, "Ann")
    ann.send({"type": "create", "edition": edition})
    room = ann.room()["id"]
    for _ in range(bots):
        ann.say(room, "/bot easy")
    ann.say(room, "/start")
    ann.say(room, "/leave")
    return ann, room


# ---------------------------------------------------------------------- 1. a client that stops reading


def test_clients_that_stop_reading_are_dropped_and_freeze_nobody(tmp_path: Path) -> None:
    app = create_app(tmp_path, bot_delay=0.0, send_buffer=100_000)
    with serving(app) as port, connect(f"ws://127.0.0.1:{port}/ws") as ann:
        ann.send(json.dumps({"type": "hello", "name": "Ann"}))
        receive(ann, type="welcome")
        ann.send(json.dumps({"type": "create", "edition": "board"}))
        room = receive(ann, type="room")["room"]["id"]
        for _ in range(3):
            say(ann, room, "/bot easy")
        # two clients follow the room and the lobby, ask for the café in SVG again and again, and never read
        stalled = [stalled_socket(port) for _ in range(2)]
        for raw, name in zip(stalled, ("Sly", "Sid"), strict=True):
            send_frames(raw, json.dumps({"type": "hello", "name": name, "svg": True}),
                        json.dumps({"type": "enter", "room": room}), json.dumps({"type": "lobby"}))  # fmt: skip
        say(ann, room, "/start")
        say(ann, room, "/leave")  # a computer player takes Ann's seat; she watches
        for raw in stalled:
            send_frames(raw, *[json.dumps({"type": "sync", "room": room})] * 30)
        while receive(ann, type="room")["room"]["status"] != "finished":
            pass  # the computer players play on to the end
        ann.send(json.dumps({"type": "create", "edition": "cards"}))  # and a new room answers at once
        other = receive(ann, type="room")["room"]["id"]
        say(ann, other, "/bot hard")
        receive(ann, type="info", room=other, text="Hard bot 2 takes a seat")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as answer:
            metrics = answer.read().decode()
        assert "cafe_dropped_total 2" in metrics, metrics
        for raw in stalled:
            raw.close()


# ---------------------------------------------------------------------- 2. nothing hidden reaches anyone else


def choose(legal: list[str]) -> str:
    """Lay cards face down and draw whenever allowed (so that hidden cards pile up), else the first step."""
    return next((s for s in legal if s.startswith("down:")), next((s for s in legal if s == "draw"), legal[0]))


def scan(message: dict[str, Any], seat: int | None) -> None:
    """Nothing in ``message`` that the receiver (``seat``; None: a spectator) may not see."""
    text = json.dumps(message)
    for secret in ("bag", "deck", "table_cards", "seed", "token_hash", "held"):
        assert f'"{secret}":' not in text, message
    if message["type"] != "room" or not message["room"].get("view"):
        assert not HIDDEN_CARD.search(text), message
        return
    state, view = message["room"], message["room"]["view"]
    if view["over"]:
        return  # everything is shown at the end (RULES.md §5)
    rules = view["rules"] if isinstance(view["rules"], dict) else {}
    hidden = "face_down" in view or rules.get("surprise_guests", False)  # the card game, or surprise guests
    for other, hand in enumerate(view["hands"]):
        if other != seat and hidden:
            assert hand is None, (seat, other, view["hands"])
    for other, down in enumerate(view.get("face_down", [])):
        if other != seat:
            assert down is None, (seat, other, view["face_down"])
    for turn in state["log"]:
        for step in turn["steps"]:
            assert turn["seat"] == seat or not HIDDEN_CARD.search(step), (seat, state["log"])
    if seat is None or view["current_player"] != seat:
        assert state["legal"] == [] and state["points"] == {}


@pytest.mark.parametrize(
    "edition,rules",
    [
        ("cards", "printed"),
        ("cards", {"preset": "printed", "tribe_and_circle": True}),
        ("board", {"preset": "printed", "surprise_guests": True}),
        ("board", {"preset": "brettspielwelt", "regulars": True}),
    ],
)
def test_no_message_shows_anyone_what_they_may_not_see(quick: TestClient, edition: str, rules: Any) -> None:
    ann, bob, cid = Person(quick, "Ann"), Person(quick, "Bob"), Person(quick, "Cid")
    ann.send({"type": "create", "edition": edition, "rules": rules})
    room = ann.room()["id"]
    for person in (bob, cid):
        person.send({"type": "enter", "room": room})
        person.room()
    bob.say(room, "/join")
    ann.say(room, "/bot easy")
    ann.say(room, "/start")
    people = {0: ann, 1: bob}
    state = ann.room(status="playing")
    while state["status"] == "playing":
        seat = state["view"]["current_player"]
        if seat in people:
            mine = people[seat].at(state["plies"])
            if mine["plies"] == state["plies"] and mine["legal"]:
                people[seat].send({"type": "step", "room": room, "step": choose(mine["legal"]), "plies": mine["plies"]})
        state = ann.room()
    while cid.latest is None or cid.latest["status"] != "finished":
        cid.expect("room")
    bob.at(state["plies"])
    for person, seat in ((ann, 0), (bob, 1), (cid, None)):
        for message in person.seen:
            scan(message, seat)
    record = quick.get(f"/records/{room}.json").json()
    if edition == "cards":  # the game hid something: face-down cards were laid
        assert any(step.startswith("down:") for turn in record["turns"] for step in turn.split(","))


# ---------------------------------------------------------------------- 3. bounds on rooms, the lobby, connections


def test_rooms_rules_and_connections_are_bounded(tmp_path: Path) -> None:
    options = {"rooms_per_player": 2, "lobby_rooms": 3, "per_address": 4, "rules_bytes": 60}
    with served(create_app(tmp_path, bot_delay=0.0, **options)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        for _ in range(2):
            ann.send({"type": "create", "edition": "board"})
            ann.room()
        ann.send({"type": "create", "edition": "board"})
        assert ann.expect("error")["code"] == "busy"  # two waiting tables hosted already
        for _ in range(2):
            bob.send({"type": "create", "edition": "cards"})
            bob.room()
        bob.send({"type": "create", "rules": {"preset": "printed", "bar_values": list(range(20))}})
        assert "too long" in bob.expect("error", code="rules")["message"]
        cid = Person(client, "Cid")
        lobby = cid.expect("lobby")
        assert len(lobby["rooms"]) == 3 and lobby["total"] == 4
        close_all()


def test_a_fifth_connection_from_one_address_is_refused(tmp_path: Path) -> None:
    with served(create_app(tmp_path, per_address=2)) as client:
        Person(client, "Ann"), Person(client, "Bob")
        with client.websocket_connect("/ws") as third:
            assert third.receive_json()["code"] == "busy"
        with client.websocket_connect("/ws", headers={"Accept-Language": "pt-BR,fr;q=0.8,en;q=0.5"}) as fourth:
            assert fourth.receive_json()["message"] == "trop de connexions depuis votre adresse"  # before any hello
        close_all()
        Person(client, "Cid")  # the others have gone: room again
        close_all()


# ---------------------------------------------------------------------- 4. memory and storage


def test_finished_games_leave_memory_and_abandoned_rooms_close(tmp_path: Path) -> None:
    options = {"bot_delay": 0.0, "finished_seconds": 0.0, "waiting_seconds": 0.0, "sweep_seconds": 0.05}
    with served(create_app(tmp_path, **options)) as client:
        gateway = client.app.state.gateway  # type: ignore[attr-defined]
        ann, room = bots_only(client, "cards", 2)
        while ann.room()["status"] != "finished":
            pass
        bob = Person(client, "Bob")
        bob.send({"type": "create", "edition": "board"})
        waiting = bob.room()["id"]
        bob.close()  # nobody is left in Bob's waiting room
        for _ in range(600):
            if room not in gateway.tables.rooms and waiting not in gateway.tables.rooms:
                break
            time.sleep(0.05)
        assert room not in gateway.tables.rooms and waiting not in gateway.tables.rooms
        assert client.get(f"/records/{room}.json").json()["format"] == "cafe-record-1"  # the record stays
        assert room not in gateway.broker._seq  # the broker forgot the room's counters too
        close_all()


def test_computer_players_wait_while_nobody_is_there(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0, waiting_seconds=3600.0)) as client:
        ann, room = bots_only(client, "board", 3)
        ann.at(5)
        ann.close()  # nobody follows the room now
        store = client.app.state.gateway.store  # type: ignore[attr-defined]
        time.sleep(0.5)  # a step already being thought out may still land
        before = len(store.load_room(room).steps)
        time.sleep(1.0)
        assert len(store.load_room(room).steps) == before  # the bots wait
        cid = Person(client, "Cid")
        cid.send({"type": "enter", "room": room})
        assert cid.at(before + 3)["plies"] >= before + 3  # someone came: they go on
        close_all()


# ---------------------------------------------------------------------- 5. presence and the turn clock


def test_a_second_hello_does_not_keep_a_player_present_forever(quick: TestClient) -> None:
    ann, bob, room = open_room(quick)
    while ann.latest is None or len(ann.latest["seats"]) < 2:  # Bob's seat
        ann.room()
    ann.say(room, "/start")
    ann.room(status="playing")
    bob.send({"type": "hello", "token": bob.token})
    assert bob.expect("error")["code"] == "hello"
    bob.close()
    state = ann.room()
    while state["seats"][1]["bot"] is None:  # away: a computer player takes Bob's seat
        state = ann.room()
    assert state["seats"][1]["name"] == "Bob (bot)"


def test_a_turn_that_takes_too_long_is_played_by_a_computer_player(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0, turn_seconds=0.3)) as client:
        ann = Person(client, "Ann")
        ann.send({"type": "create", "edition": "board"})
        room = ann.room()["id"]
        ann.say(room, "/bot easy")
        ann.say(room, "/start")
        ann.room(status="playing")
        ann.expect("info", room=room, text="Ann's time is up: a computer player plays this turn")
        state = ann.room()
        while state["view"]["turn_number"] < 1:
            state = ann.room()
        assert state["seats"][0] == {"seat": 0, "name": "Ann", "bot": None}  # the seat is still Ann's
        close_all()


# ---------------------------------------------------------------------- 6. names


def test_names_are_cleaned_unique_and_not_a_computer_players(quick: TestClient) -> None:
    ann = Person(quick, "Ann")
    for name, code in (("Ann (bot)", "name"), ("\u200b\u200d", "name"), ("ANN", "name"), ("Easy Bot 2", "name")):
        with quick.websocket_connect("/ws") as socket:
            socket.send_json({"type": "hello", "name": name})
            assert socket.receive_json()["code"] == code, name
    with quick.websocket_connect("/ws") as socket:  # a right-to-left override is refused, not hidden
        socket.send_json({"type": "hello", "name": "\u202eAnn\u202c a"})
        assert "U+202E" in socket.receive_json()["message"]
    assert quick.get("/health").status_code == 200
    ann.send({"type": "create", "edition": "board"})
    room = ann.room()["id"]
    ann.say(room, "/kick Ann")
    assert "/leave" in ann.expect("error")["message"]  # the host cannot kick itself out of its own room
    ann.say(room, "/bot easy")
    ann.say(room, "/bot easy")
    while len(ann.room()["seats"]) < 3:
        pass
    ann.say(room, "/kick 3")  # a seat by its number
    assert [s["name"] for s in ann.room()["seats"]] == ["Ann", "Easy bot 2"]
    ann.say(room, "/kick easy BOT 2")  # or by its name, in any case
    assert [s["name"] for s in ann.room()["seats"]] == ["Ann"]


# ---------------------------------------------------------------------- 8. a game's ending is written at once


class FailingStore(SQLiteStore):
    """A store whose disk fills up just as a game ends."""

    failures = 0

    def finish_game(self, room: str, ending: Ending) -> None:
        self.failures += 1
        raise OSError("disk full")


def test_a_failure_at_the_end_of_a_game_leaves_it_whole(tmp_path: Path) -> None:
    store = FailingStore(tmp_path / "cafe.sqlite3")
    with served(create_app(store=store, bot_delay=0.0)) as client:
        try:
            _watcher, room = bots_only(client, "cards", 1)
            while not store.failures:  # the computer players play on until the last step cannot be written ...
                time.sleep(0.05)
            row = store.load_room(room)
            assert row is not None and row.status == "playing" and store.record(room) is None  # ... nor the end
        finally:
            close_all()  # an open connection would keep the test client from closing: a failure would hang
    again = SQLiteStore(tmp_path / "cafe.sqlite3")  # restarted: the game goes on from its last written step
    with served(create_app(store=again, bot_delay=0.0)) as client:
        try:
            cid = Person(client, "Cid")
            cid.send({"type": "enter", "room": room})
            while cid.room()["status"] != "finished":
                pass
            assert client.get(f"/records/{room}.json").json()["format"] == "cafe-record-1"
            finished = again.load_room(room)
        finally:
            close_all()
    # the written steps stand, and the game went on from them (its computer players need not end it the same way)
    assert finished is not None and finished.status == "finished" and finished.steps[: len(row.steps)] == row.steps
    assert len(finished.steps) > len(row.steps)


# ---------------------------------------------------------------------- 10. request headers


def test_request_headers_are_bounded(tmp_path: Path) -> None:
    from servers import free_port, start_server

    port = free_port()
    server = start_server(port, tmp_path)
    try:
        import socket

        with socket.create_connection(("127.0.0.1", port)) as raw:  # a header that never ends
            raw.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            sent = 0
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                while sent < 32_000_000:
                    raw.sendall(b"a" * 65536)
                    sent += 65536
        assert sent < 32_000_000  # the server hung up long before, instead of keeping it all
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health") as health:
            assert health.status == 200
    finally:
        server.terminate()
        server.wait()


# ---------------------------------------------------------------------- 12. a front end without its extra


@pytest.mark.parametrize(
    "command,missing,extra",
    [(["serve"], "uvicorn", "serve"), (["play"], "textual", "play"), (["arena", "greedy", "random"], "rich", "arena")],
)
def test_a_front_end_without_its_extra_says_which_to_install(command: list[str], missing: str, extra: str) -> None:
    script = f"import sys; sys.modules[{missing!r}] = None; from cafe.cli import main; sys.exit(main({command!r}))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert done.stderr.strip() == (
        f"cafe {command[0]}: needs the [{extra}] extra (no module named {missing!r}): "
        f"pip install 'cafe-international[{extra}]'"
    )


# ---------------------------------------------------------------------- 7. anything a client sends gets an answer


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize(
    "message,code",
    [
        (deep(2000), "json"),  # deeper than Python's recursion
        ('{"type": "lobby", "x": ' + deep(20) + "}", "json"),
        ('{"type": "\\ud800"}', "json"),  # a lone surrogate, even in the type
        ('{"type": "say", "room": "r", "text": "hi \\udfff"}', "json"),
        ('{"type": "create", "rules": {"preset": []}}', "rules"),
        ('{"type": "create", "rules": {"preset": "printed", "scoring": {}}}', "rules"),
        ('{"type": "create", "edition": ["board"]}', "rules"),
        ('{"type": "create", "match": true}', "field"),
        ('{"type": "step", "room": {"a": 1}, "step": "pass"}', "room"),
        ('{"type": "step", "room": "r", "step": "pass", "plies": true}', "room"),
    ],
)
def test_malformed_messages_get_a_clear_error(quick: TestClient, message: str, code: str) -> None:
    ann = Person(quick, "Ann")
    ann.socket.send_text(message)
    answer = ann.expect("error")
    assert answer["code"] == code, answer
    ann.send({"type": "lobby"})
    ann.expect("lobby")  # and the connection lives on


def test_a_surrogate_in_a_hello_is_refused_cleanly(quick: TestClient) -> None:
    for hello in ('{"type": "hello", "name": "Ann\\ud800"}', '{"type": "hello", "token": "\\udc00"}'):
        with quick.websocket_connect("/ws") as socket:
            socket.send_text(hello)
            assert socket.receive_json()["code"] == "json"


FIELDS = ("name", "token", "svg", "room", "edition", "rules", "match", "text", "step", "plies")
any_text = st.text(st.characters(exclude_categories=()), max_size=12)  # lone surrogates included
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3),
    max_leaves=8,
)
known = st.sampled_from(["printed", "board", "cards", "/join", "/start", "/bot easy", "/kick 1", "pass", "draw", 0, 3])
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(HANDLERS)) | any_text},
    optional={key: json_values | known for key in FIELDS},
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=messages)
def test_any_message_gets_an_answer_and_never_an_internal_error(quick: TestClient, message: dict[str, Any]) -> None:
    if not hasattr(quick, "fuzzer"):  # one player and one room for every example of this run
        quick.fuzzer = Person(quick, "Fuzz")  # type: ignore[attr-defined]
        quick.fuzzer.send({"type": "create", "edition": "board"})  # type: ignore[attr-defined]
        quick.room = quick.fuzzer.room()["id"]  # type: ignore[attr-defined]
    fuzzer: Person = quick.fuzzer  # type: ignore[attr-defined]
    if message.get("room") == 0:
        message["room"] = quick.room  # type: ignore[attr-defined]
    fuzzer.socket.send_text(json.dumps(message))
    fuzzer.send({"type": "lobby"})
    while True:  # everything up to the answer to `lobby`: no internal error among it
        answer = fuzzer.socket.receive_json()
        assert answer.get("code") != "internal", (message, answer)
        if answer["type"] == "lobby":
            break


def test_a_game_left_to_computer_players_and_nobody_is_abandoned(tmp_path: Path) -> None:
    options = {"bot_delay": 0.0, "waiting_seconds": 0.2, "sweep_seconds": 0.05, "finished_seconds": 3600.0}
    with served(create_app(tmp_path, **options)) as client:
        ann, room = bots_only(client, "board", 1)
        ann.close()
        store = client.app.state.gateway.store  # type: ignore[attr-defined]
        for _ in range(600):
            if store.record(room) is not None:
                break
            time.sleep(0.05)
        record = store.record(room)
        assert record is not None and not Record.from_json(record).replay().is_over()  # ended where it stood
        row = store.load_room(room)
        assert row is not None and row.status == "finished" and store.leaderboard(10) == []
        close_all()


def test_limits_are_set_by_name_and_wrong_ones_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    from cafe.cli import main
    from cafe.server.limits import Limits, parse_limit

    limits = parse_limit("turn_seconds=90", parse_limit("per_address = 5", Limits()))
    assert limits.turn_seconds == 90.0 and limits.per_address == 5 and limits.away_seconds == Limits().away_seconds
    for wrong, says in (("speed=3", "NAME=VALUE"), ("per_address=1.5", "whole number"), ("turn_seconds=-1", "negative"),
                        ("away_seconds=soon", "a number")):  # fmt: skip
        with pytest.raises(ValueError, match=says):
            parse_limit(wrong, Limits())
        assert main(["serve", "--limit", wrong]) == 2
        assert says in capsys.readouterr().err
