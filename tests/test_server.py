"""The game server through real WebSocket connections (Starlette's test client) over a real SQLite file."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.arena.match import new_game
from cafe.record import Record
from cafe.server import rooms
from cafe.server.app import DATABASE, create_app
from cafe.server.gateway import MAX_MESSAGE
from cafe.server.limits import Limits

SECRETS = ("bag", "deck", "table_cards", "seed", "token_hash")


OPEN: list[Any] = []  # sockets of the running test, closed at its end even when it fails


class Person:
    """One browser: a WebSocket, and the messages it received."""

    def __init__(self, client: TestClient, name: str | None = None, token: str | None = None) -> None:
        self.socket = client.websocket_connect("/ws").__enter__()
        OPEN.append(self.socket)
        self.seen: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None  # the last room state received
        self.seqs: dict[str, int] = {}  # the last sequence number seen in each room
        self.send({"type": "hello", "name": name} if token is None else {"type": "hello", "token": token})
        self.welcome = self.expect("welcome")
        self.token, self.player = self.welcome["token"], self.welcome["player"]

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send_text(json.dumps(message))

    def expect(self, *kinds: str, **fields: Any) -> dict[str, Any]:
        """The next message of one of these types (with these fields), skipping others."""
        for _ in range(500):
            message = self.socket.receive_json()
            self.seen.append(message)
            if message["type"] == "room":
                self.latest = message["room"]
            room = message["room"]["id"] if message["type"] == "room" else message.get("room")
            if "seq" in message:  # a room's messages arrive in the order of their numbers, none twice
                last = self.seqs.get(room, -1)
                assert message["seq"] >= last if message["type"] == "room" else message["seq"] > last, message
                self.seqs[room] = message["seq"]
            for secret in SECRETS:
                assert f'"{secret}":' not in json.dumps(message), f"{secret} reached a client: {message}"
            if message["type"] in kinds and all(message.get(k) == v for k, v in fields.items()):
                return message
        raise AssertionError(f"no {kinds} message")

    def at(self, plies: int) -> dict[str, Any]:
        """This person's latest room state once it has seen ``plies`` steps."""
        while self.latest is None or self.latest["plies"] < plies:
            self.expect("room")
        return self.latest

    def room(self, **wanted: Any) -> dict[str, Any]:
        """The next room state matching ``wanted``."""
        while True:
            state = self.expect("room")["room"]
            if all(state.get(k) == v for k, v in wanted.items()):
                return state

    def say(self, room: str, text: str) -> None:
        self.send({"type": "say", "room": room, "text": text})

    def close(self) -> None:
        OPEN.remove(self.socket)
        self.socket.__exit__(None, None, None)


def close_all() -> None:
    while OPEN:
        OPEN.pop().__exit__(None, None, None)


@contextlib.contextmanager
def served(app: Any) -> Iterator[TestClient]:
    """A test client whose connections all close when the block ends, even when it fails: one left open would keep
    the client from closing, and turn a failing assertion into a hang."""
    with TestClient(app) as client:
        try:
            yield client
        finally:
            close_all()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    with served(create_app(tmp_path, away_seconds=0.2, bot_delay=0.0)) as client:
        yield client


def open_room(client: TestClient, edition: str = "board") -> tuple[Person, Person, str]:
    """Ann creates a room, Bob enters and joins it."""
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    ann.send({"type": "create", "edition": edition, "name": "Ann's table"})
    room = ann.room()["id"]
    bob.send({"type": "enter", "room": room})
    bob.room()
    bob.say(room, "/join")
    assert [s["name"] for s in ann.room(id=room, status="waiting")["seats"]] in (["Ann"], ["Ann", "Bob"])
    return ann, bob, room


def make_account(client: TestClient, *people: Person) -> list[str]:
    """Guests claim their names with a password: their games are rated from now on. Their sessions (cookies)."""
    sessions = []
    for person in people:
        answer = client.post("/account/claim", json={"token": person.token, "password": "correct horse battery"})
        assert answer.status_code == 201, answer.text
        sessions.append(answer.cookies["cafe-session"])
        client.cookies.clear()
    return sessions


def test_health_and_metrics(server: TestClient) -> None:
    assert server.get("/health").json() == {"status": "ok", "database": "ok", "broker": "ok"}
    assert "cafe_rooms 0" in server.get("/metrics").text


def test_rooms_commands_and_chat(server: TestClient) -> None:
    ann, bob, room = open_room(server)
    bob.say(room, "/start")
    assert "only the host" in bob.expect("error")["message"]
    bob.say(room, "/wave")
    assert "/help" in bob.expect("error")["message"]
    bob.say(room, "/help")
    assert "/join" in bob.expect("info")["text"]
    bob.say(room, "Hello Ann!")
    assert ann.expect("chat")["text"] == "Hello Ann!"
    ann.say(room, "/bot wizard")
    assert "unknown level" in ann.expect("error")["message"]
    ann.say(room, "/bot easy")
    ann.say(room, "/kick Easy bot 3")
    ann.say(room, "/bot hard")
    ann.say(room, "/bot master")
    ann.say(room, "/start")
    state = ann.room(status="playing")
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob", "Hard bot 3", "Master bot 4"]
    bob.say(room, "/join")
    assert "started" in bob.expect("error")["message"]
    lobby = Person(server, "Cid")
    listed = lobby.expect("lobby")["rooms"]
    assert listed and listed[0]["status"] == "playing"


def test_the_lobby_hears_of_each_changed_room_and_players_in_rooms_do_not(server: TestClient) -> None:
    cid = Person(server, "Cid")
    assert cid.expect("lobby")["rooms"] == []
    ann, bob, room = open_room(server)
    seen_in_room = len(ann.seen), len(bob.seen)
    listed = cid.expect("listing")["room"]
    assert listed["id"] == room and [s["name"] for s in listed["seats"]] == ["Ann"]
    assert [s["name"] for s in cid.expect("listing")["room"]["seats"]] == ["Ann", "Bob"]
    ann.say(room, "/start")
    assert cid.expect("listing")["room"]["status"] == "playing"
    ann.room(status="playing")
    ann.say(room, "Nobody in the lobby hears this chat")
    bob.expect("chat")
    cid.send({"type": "lobby"})
    assert [r["status"] for r in cid.expect("lobby")["rooms"]] == ["playing"]
    later = ann.seen[seen_in_room[0] :] + bob.seen[seen_in_room[1] :]
    assert later and not any(m["type"] == "listing" for m in later)
    assert not any(m["type"] == "chat" for m in cid.seen)


def test_the_server_checks_every_step_and_tells_why(server: TestClient, tmp_path: Path) -> None:
    ann, bob, room = open_room(server)
    ann.say(room, "/start")
    state = ann.room(status="playing")
    assert state["you"] == 0 and state["legal"]
    bob_state = bob.room(status="playing")
    assert bob_state["legal"] == [] and bob_state["you"] == 1
    bob.send({"type": "step", "room": room, "step": state["legal"][0]})
    assert "Ann's turn" in bob.expect("error")["message"]
    ann.send({"type": "step", "room": room, "step": "USAm@zz9"})
    refused = ann.expect("error")
    assert refused["code"] == "refused" and refused.get("rule")
    ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": 5})
    assert "stale" in ann.expect("error")["message"]
    ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": 0})
    after = bob.room(plies=1)
    assert "cafe_steps_total 1\n" in server.get("/metrics").text  # the start and the refusals are not steps
    assert after["view"]["this_turn"] == [state["legal"][0]] or after["view"]["turns"]
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT step FROM steps WHERE room = ?", (room,)).fetchall() == [(state["legal"][0],)]


def test_a_joker_put_on_a_taken_chair_is_refused_for_the_chair_not_for_its_missing_nation(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person who clicks a chair that is not lit with a joker chose no nation: the reason that holds for every
    nation is told (the chair is taken), not the notation's demand for one."""
    seed = next(s for s in range(1000) if any(str(step).startswith("JOK") for step in
                                              new_game("board", ["Ann", "Bob"], s).legal_steps()))  # fmt: skip
    monkeypatch.setattr(rooms, "_seed", lambda: seed)  # a deal that gives Ann a joker
    ann, _bob, room = open_room(server)
    ann.say(room, "/start")
    state = ann.room(status="playing")
    joker = next(step for step in state["legal"] if step.startswith("JOK")).split("@")[0]
    first = next(step for step in state["legal"] if "@" in step and not step.startswith("JOK") and "bar" not in step)
    ann.send({"type": "step", "room": room, "step": first, "plies": 0})
    legal = ann.room(plies=1)["legal"]
    chair = first.split("@")[1]
    ann.send({"type": "step", "room": room, "step": f"{joker}@{chair}", "plies": 1})
    refused = ann.expect("error")
    assert refused["message"] == f"chair {chair} is taken" and refused["rule"] == "R2.3.1"
    ann.send({"type": "step", "room": room, "step": f"{joker}@{chair}x", "plies": 1})  # not notation at all
    assert ann.expect("error")["message"].startswith(f"cannot read step '{joker}@{chair}x'")
    free = next(step for step in legal if step.startswith(f"{joker}@") and "=" in step).split("=")[0]
    ann.send({"type": "step", "room": room, "step": free, "plies": 1})  # a chair it may take under some nation
    assert ann.expect("error")["message"].startswith(f"'{free}': a joker names its given nation")
    assert server.app.state.gateway.tables.rooms[room].plies == 1  # type: ignore[attr-defined]


def test_hidden_hands_stay_hidden(server: TestClient) -> None:
    ann, bob, room = open_room(server, edition="cards")
    ann.say(room, "/start")
    mine = ann.room(status="playing")["view"]["hands"]
    theirs = bob.room(status="playing")["view"]["hands"]
    assert mine[0] is not None and mine[1] is None
    assert theirs[1] is not None and theirs[0] is None


def test_bad_messages_get_answers_and_the_connection_lives(server: TestClient) -> None:
    cid = Person(server, "Cid")
    for text, code in [
        ("{not json", "json"),
        ("[1, 2]", "json"),
        (json.dumps({"type": "dance"}), "type"),
        ("x" * (MAX_MESSAGE + 1), "size"),
        (json.dumps({"type": "enter", "room": "nowhere"}), "room"),
        (json.dumps({"type": "say", "room": "nowhere"}), "room"),
        (json.dumps({"type": "create", "edition": "chess"}), "rules"),
    ]:
        cid.socket.send_text(text)
        assert cid.expect("error")["code"] == code
    cid.socket.send_bytes(b"\xff\xfe")
    assert cid.expect("error")["code"] == "json"
    for _ in range(Limits().burst + 5):
        cid.send({"type": "lobby"})
    assert cid.expect("error")["code"] == "rate"
    stranger = server.websocket_connect("/ws").__enter__()
    OPEN.append(stranger)
    stranger.send_text(json.dumps({"type": "lobby"}))
    assert stranger.receive_json()["code"] == "hello"
    stranger.send_text(json.dumps({"type": "hello", "token": "forged"}))
    assert stranger.receive_json()["code"] == "token"


def test_a_reconnect_with_the_token_gets_the_seat_back(server: TestClient) -> None:
    ann, bob, room = open_room(server)
    ann.say(room, "/start")
    ann.room(status="playing")
    bob.close()
    again = Person(server, token=bob.token)
    assert again.player == bob.player
    assert again.welcome["seated"] == [room]  # the welcome names the seats to go back to
    assert again.room(id=room)["you"] == 1
    assert Person(server, "Cid").welcome["seated"] == []


def test_a_table_hears_who_left_and_who_is_back_and_its_seats_show_who_is_away(tmp_path: Path) -> None:
    with served(create_app(tmp_path, left_seconds=0.05)) as client:
        ann, bob, room = open_room(client)
        bob.close()
        left = ann.expect("presence", room=room)
        assert left["text"] == "Bob has left" and left["seat"] == 1 and left["away"] is not None
        ann.send({"type": "sync", "room": room})
        away = ann.expect("room")["room"]["away"]
        assert away[0] is None and away[1] >= 0  # Bob's seat: away, for so many seconds
        again = Person(client, token=bob.token)
        back = ann.expect("presence", room=room)
        assert back["text"] == "Bob is back" and back["away"] is None
        assert again.room(id=room)["away"] == [None, None]
        ann.send({"type": "language", "lang": "de"})
        again.close()
        assert ann.expect("presence", room=room)["text"] == "Bob ist weg"


def test_a_table_hears_once_that_someone_left_however_many_of_their_connections_closed(tmp_path: Path) -> None:
    with served(create_app(tmp_path, left_seconds=0.2)) as client:
        ann, bob, room = open_room(client)
        bob.close()  # Bob reloads the page, then closes it before left_seconds are out
        Person(client, token=bob.token).close()
        left = ann.expect("presence", room=room)
        assert left["text"] == "Bob has left" and 0 <= left["for"] < 60  # and how long ago, by the server's clock
        time.sleep(0.6)  # longer than left_seconds: a second announcement would be out by now
        ann.send({"type": "sync", "room": room})
        ann.expect("room")
        assert [m["text"] for m in ann.seen if m["type"] == "presence"] == ["Bob has left"]


def test_an_absent_player_is_replaced_by_a_bot_after_the_timeout(server: TestClient) -> None:
    ann, bob, room = open_room(server)
    ann.say(room, "/start")
    ann.room(status="playing")
    bob.close()
    while "away" not in ann.expect("info", room=room)["text"]:
        pass
    ann.send({"type": "sync", "room": room})
    assert ann.room(id=room)["seats"][1]["bot"] == "medium"


def against_a_bot(client: TestClient, edition: str) -> tuple[Person, str, dict[str, Any]]:
    """Ann alone with an easy bot: the started room's first state."""
    ann = Person(client, "Ann")
    ann.send({"type": "create", "edition": edition})
    room = ann.room()["id"]
    ann.say(room, "/bot easy")
    ann.say(room, "/start")
    return ann, room, ann.room(status="playing")


def test_a_whole_game_against_a_bot_and_its_record(server: TestClient) -> None:
    ann, room, state = against_a_bot(server, "cards")
    while state["status"] == "playing":
        if state["legal"]:
            ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        message = ann.expect("room", "error")
        if message["type"] == "error":  # the bot moved first (a stale step), or we played too fast: catch up
            assert message["code"] == "rate" or "stale" in message["message"] or "turn" in message["message"]
            time.sleep(0.1 if message["code"] == "rate" else 0)
            ann.send({"type": "sync", "room": room})
            message = ann.expect("room")
        state = message["room"]
    assert state["status"] == "finished"
    record = server.get(f"/records/{room}.json")
    assert record.status_code == 200
    game = Record.from_json(record.json()).replay()
    assert list(game.scores) == state["view"]["scores"]
    assert state["places"] == list(game.places() or ())  # the final places, as the rules rank them
    assert server.get("/records/nowhere.json").status_code == 404


def test_a_restart_continues_every_game_from_its_last_step(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        ann, _, room = open_room(client)
        ann.say(room, "/start")
        state = ann.room(status="playing")
        ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": 0})
        before = ann.room(plies=1)
        close_all()
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        ann_again = Person(client, token=ann.token)
        after = ann_again.room(id=room)
        close_all()
        assert after["plies"] == 1 and after["view"] == before["view"] and after["legal"] == before["legal"]


def test_a_room_keeps_its_last_chat_lines_for_who_enters_or_comes_back_even_after_a_restart(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0, chat_kept=3)) as client:
        ann, bob, room = open_room(client)
        for k in range(4):
            bob.say(room, f"line {k}")
            ann.expect("chat", text=f"line {k}")
        ann.say(room, "/help")  # a command is no chat line
        cid = Person(client, "Cid")
        cid.send({"type": "enter", "room": room})
        lines = cid.expect("history", room=room)["lines"]
        assert [(line["from"], line["text"]) for line in lines] == [("Bob", f"line {k}") for k in (1, 2, 3)]
        close_all()
    with served(create_app(tmp_path, bot_delay=0.0, chat_kept=3)) as client:
        back = Person(client, token=bob.token)  # a seat's history comes with the welcome back
        lines = back.expect("history", room=room)["lines"]
        assert [line["text"] for line in lines] == ["line 1", "line 2", "line 3"]


class BrokenBot:
    name = "broken"

    def choose(self, view: Any, legal: Any) -> Any:
        raise RuntimeError("out of order")


def test_a_failing_computer_player_does_not_stop_the_room(server: TestClient) -> None:
    ann, room, state = against_a_bot(server, "board")
    server.app.state.gateway.tables.rooms[room].bots[1] = BrokenBot()
    while state["view"]["current_player"] == 0:
        ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        state = ann.room()
    while state["view"]["current_player"] == 1:
        state = ann.room()
    assert state["plies"] > 1 and state["status"] == "playing"


def test_when_the_host_leaves_before_the_start_the_next_player_hosts(server: TestClient) -> None:
    ann, bob, room = open_room(server)
    bob.room(seats=[{"seat": 0, "name": "Ann", "bot": None}, {"seat": 1, "name": "Bob", "bot": None}])
    ann.say(room, "/leave")
    while "Bob is the host now" not in bob.expect("info", room=room)["text"]:
        pass
    bob.say(room, "/bot easy")
    bob.say(room, "/start")
    state = bob.room(status="playing")
    assert state["host"] == bob.player and [s["name"] for s in state["seats"]] == ["Bob", "Easy bot 2"]


def test_a_fault_of_the_server_is_answered_and_the_connection_lives(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = Person(server, "Cid")

    def broken(*args: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(server.app.state.gateway.store, "add_room", broken)
    cid.send({"type": "create", "edition": "board"})
    assert cid.expect("error")["code"] == "internal"
    cid.send({"type": "lobby"})
    assert cid.expect("lobby")["rooms"] == []


def play_out(ann: Person, bob: Person, room: str) -> dict[str, Any]:
    """Ann and Bob play their game to its end, each the first legal step: its last state."""
    people = {0: ann, 1: bob}
    ann.say(room, "/start")
    ann.room(status="playing")
    bob.room(status="playing")
    plies = 0
    while (state := ann.at(plies))["status"] == "playing":
        mover = people[state["view"]["current_player"]]
        mine = mover.at(plies)
        time.sleep(0.05)  # two people's pace stays within the rate limit
        mover.send({"type": "step", "room": room, "step": mine["legal"][0], "plies": plies})
        plies += 1
    return state


def test_finished_games_between_people_are_rated(server: TestClient) -> None:
    ann, bob, room = open_room(server, edition="cards")
    make_account(server, ann, bob)
    state = play_out(ann, bob, room)
    board = server.get("/leaderboard").json()
    assert sorted(row["name"] for row in board) == ["Ann", "Bob"]
    assert all(row["games"] == 1 for row in board)
    winner = state["view"]["winner"]
    if winner is not None:
        assert board[0]["name"] == ["Ann", "Bob"][winner]


def test_a_step_is_taken_back_within_its_turn_and_not_after(server: TestClient, tmp_path: Path) -> None:
    ann, bob, room = open_room(server)
    ann.say(room, "/start")
    ann.room(status="playing")
    people = (ann, bob)
    plies = 0
    while True:  # play until a step leaves its turn open (a first guest usually does)
        mover = people[people[0].at(plies)["view"]["current_player"]]
        opening = mover.at(plies)
        assert opening["can_undo"] is False and set(opening["points"]) == set(opening["legal"])
        first = opening["legal"][0]
        mover.send({"type": "step", "room": room, "step": first, "plies": plies})
        plies += 1
        state = mover.at(plies)
        if state["can_undo"]:
            break
    other = bob if mover is ann else ann
    assert state["log"][-1] == {"seat": opening["you"], "steps": [first], "points": state["log"][-1]["points"],
                                "hint": False}  # fmt: skip
    other.send({"type": "undo", "room": room})
    assert "your own steps" in other.expect("error")["message"]
    mover.send({"type": "undo", "room": room, "plies": plies - 1})
    assert "stale" in mover.expect("error")["message"]
    mover.send({"type": "undo", "room": room, "plies": plies})
    name = state["seats"][opening["you"]]["name"]
    assert other.expect("info", room=room)["text"] == f"{name} takes back {first}"
    back = mover.room(plies=plies - 1)
    assert back["log"] == opening["log"] and back["view"] == opening["view"] and back["legal"] == opening["legal"]
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT COUNT(*) FROM steps WHERE room = ?", (room,)).fetchone() == (plies - 1,)
    plies -= 1
    while (state := mover.at(plies))["view"]["current_player"] == opening["you"]:  # the turn played to its end
        mover.send({"type": "step", "room": room, "step": state["legal"][0], "plies": plies})
        plies += 1
    assert state["can_undo"] is False and state["legal"] == []
    mover.send({"type": "undo", "room": room, "plies": plies})
    assert "your own steps" in mover.expect("error")["message"]


def test_browsers_get_the_cafe_drawn_and_others_do_not(server: TestClient) -> None:
    ann = Person(server, "Ann")
    ann.send({"type": "create", "edition": "cards"})
    room = ann.room()["id"]
    viewer = server.websocket_connect("/ws").__enter__()
    OPEN.append(viewer)
    viewer.send_text(json.dumps({"type": "hello", "name": "Viewer", "svg": True}))
    viewer.send_text(json.dumps({"type": "enter", "room": room}))
    ann.say(room, "/bot easy")
    ann.say(room, "/start")
    while (message := viewer.receive_json())["type"] != "room" or message["room"]["status"] != "playing":
        pass
    assert message["svg"].startswith("<svg") and "data-place" in message["svg"]
    assert "svg" not in ann.expect("room")
    nations = server.get("/catalogue.json").json()["nations"]
    assert nations["FRA"]["name"] == "France" and nations["FRA"]["colour"].startswith("#")
    page = server.get("/")
    assert page.status_code == 200 and 'type="module"' in page.text


def test_waiting_rooms_keep_their_seats_over_a_restart_and_close_when_emptied(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        ann, bob, room = open_room(client)
        ann.say(room, "/bot hard")
        while len(ann.room(id=room)["seats"]) < 3:
            pass
        close_all()
    with served(create_app(tmp_path, bot_delay=0.0)) as client:
        ann, bob = Person(client, token=ann.token), Person(client, token=bob.token)
        seats = ann.room(id=room)["seats"]
        assert [s["name"] for s in seats] == ["Ann", "Bob", "Hard bot 3"]
        watcher = Person(client, "Cid")
        watcher.expect("lobby")
        ann.say(room, "/leave")
        bob.say(room, "/leave")
        bob.expect("info", room=room, text="Bob leaves the table; the room closes")
        while (listed := watcher.expect("listing")["room"])["status"] != "closed":
            pass
        assert listed["id"] == room
        watcher.send({"type": "lobby"})
        assert watcher.expect("lobby")["rooms"] == []
        close_all()
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT COUNT(*) FROM seats WHERE room = ?", (room,)).fetchone() == (0,)


def test_a_best_of_three_match_plays_game_after_game_with_the_seats_turned(server: TestClient) -> None:
    ann = Person(server, "Ann")
    ann.send({"type": "create", "edition": "board", "match": 4})
    assert "'match'" in ann.expect("error", code="field")["message"]
    ann.send({"type": "create", "edition": "board", "match": 3})
    first = ann.room()["id"]
    ann.say(first, "/bot easy")
    ann.say(first, "/start")
    games: dict[str, dict[str, Any]] = {}  # room -> its latest state
    news: list[str] = []
    while not any(line.endswith(("wins the match", "the match is shared")) for line in news):
        message = ann.expect("room", "info", "error")
        if message["type"] == "error":  # faster than a person: the rate limit holds Ann back a moment
            assert message["code"] == "rate", message
            time.sleep(0.3)
            ann.send({"type": "sync", "room": list(games)[-1]})
            continue
        if message["type"] == "info":
            news.append(message["text"])
            continue
        state = message["room"]
        games[state["id"]] = state
        if state.get("legal"):
            ann.send({"type": "step", "room": state["id"], "step": state["legal"][0], "plies": state["plies"]})
    rooms = list(games)
    assert 2 <= len(rooms) <= 3 and rooms[0] == first
    for k, room in enumerate(rooms):
        match = games[room]["match"]
        assert match["game"] == k + 1 and match["previous"] == (rooms[k - 1] if k else None)
        assert [s["name"] for s in games[room]["seats"]] == (
            ["Ann", "Easy bot 2"] if k % 2 == 0 else ["Easy bot 2", "Ann"]
        )
        assert games[room]["you"] == k % 2
        assert games[room]["name"] == ("Ann's table" if k == 0 else f"Ann's table · {k + 1}")  # no English "game"
        assert server.get(f"/records/{room}.json").json()["players"] == [s["name"] for s in games[room]["seats"]]
    final = games[rooms[-1]]["match"]
    assert final["decided"] and final["entrants"] == ["Ann", "Easy bot 2"]
    assert max(final["wins"]) == 2 or len(rooms) == 3  # two wins, or every game played (shared first places)
    assert sum(final["wins"]) <= len(rooms)


def test_an_older_database_is_upgraded_and_its_rooms_kept(tmp_path: Path) -> None:
    from cafe.server.storage.store import MIGRATIONS, ChatLine, SQLiteStore

    with sqlite3.connect(tmp_path / "old.sqlite3") as db:  # the first schema: rooms had no match column
        db.executescript(
            "CREATE TABLE rooms (id TEXT PRIMARY KEY, name TEXT NOT NULL, edition TEXT NOT NULL, rules TEXT NOT NULL,"
            " host INTEGER NOT NULL, status TEXT NOT NULL, seed INTEGER NOT NULL, created REAL NOT NULL, record TEXT);"
            "CREATE TABLE seats (room TEXT, seat INTEGER, player INTEGER, bot TEXT, name TEXT);"
            "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,"
            " created REAL NOT NULL);"
            "INSERT INTO players VALUES (1, 'ÉVA', 'hash', 0);"
            "CREATE TABLE steps (room TEXT, n INTEGER, seat INTEGER, step TEXT, at REAL);"
            "INSERT INTO rooms VALUES ('r1', 'Old room', 'board', '\"printed\"', 1, 'waiting', 7, 0, NULL);"
        )
    store = SQLiteStore(tmp_path / "old.sqlite3")
    try:
        (row,) = store.open_rooms()
        assert row.id == "r1" and row.match is None
        store.set_match("r1", {"best_of": 5})
        assert store.open_rooms()[0].match == {"best_of": 5}
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert store.players_named("ÉVA") == [1]  # an old player is found by name
        store.add_chat("r1", ChatLine("ÉVA", 1, "hello", 1.0), kept=50)  # the chat table came with the upgrade
        assert store.chat("r1", 50) == [ChatLine("ÉVA", 1, "hello", 1.0)]
    finally:
        store.close()
    again = SQLiteStore(tmp_path / "old.sqlite3")  # already upgraded: nothing runs twice
    assert again.open_rooms()[0].match == {"best_of": 5}
    again.close()
