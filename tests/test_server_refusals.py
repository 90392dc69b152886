"""A room's commands refused to whoever may not give them, or at the wrong moment: each refusal says why, and the
table (its seats, as stored in a real SQLite file) stays as it was."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cafe.server.app import DATABASE, create_app
from test_server import OPEN, Person, open_room, served
from test_server_invitations import private_table, refused, said


@pytest.fixture
def cafe(tmp_path: Path) -> Iterator[TestClient]:
    with served(create_app(tmp_path, bot_delay=0.0, rate=1000.0, burst=1000)) as client:
        yield client


def stored_seats(tmp_path: Path, room: str) -> list[str]:
    """The room's seats as the database keeps them, in order."""
    with sqlite3.connect(tmp_path / DATABASE) as db:
        return [name for (name,) in db.execute("SELECT name FROM seats WHERE room = ? ORDER BY seat", (room,))]


def seated(person: Person, room: str, *names: str) -> None:
    """``person`` is shown the room with these seats (after the states on the way there)."""
    person.send({"type": "sync", "room": room})
    while [s["name"] for s in person.room(id=room)["seats"]] != list(names):
        pass


def test_only_the_host_changes_the_table_and_each_refusal_leaves_it_as_it_was(cafe: TestClient, tmp_path: Path) -> None:
    ann = Person(cafe, "Ann")
    ann.send({"type": "create", "edition": "board"})
    room = ann.room()["id"]
    ann.say(room, "/start")
    refused(ann, "at least 2 players")
    bob = Person(cafe, "Bob")
    bob.send({"type": "enter", "room": room})
    bob.room()
    bob.say(room, "/leave")
    refused(bob, "you have no seat here")
    bob.say(room, "/join")
    seated(ann, room, "Ann", "Bob")
    bob.say(room, "/join")
    refused(bob, "you already have a seat")
    for command, words in [
        ("/bot easy", "only the host can seat computer players"),
        ("/kick 1", "only the host can remove a seat"),
        ("/hints on", "only the host can allow hints"),
    ]:
        bob.say(room, command)
        refused(bob, words)
    for command, words in [
        ("/kick 9", "there is no seat 9"),
        ("/kick Zed", "nobody called 'Zed' has a seat"),
        ("/hints maybe", "/hints on, or /hints off"),
        ("/private maybe", "/private on, or /private off"),
    ]:
        ann.say(room, command)
        refused(ann, words)
    assert stored_seats(tmp_path, room) == ["Ann", "Bob"]
    ann.send({"type": "step", "room": room, "step": "USAm@a2"})
    refused(ann, "no game is being played in this room")
    ann.send({"type": "sync", "room": room})
    assert ann.room(id=room)["status"] == "waiting"


def test_a_second_seat_of_the_same_name_is_kicked_by_its_number(cafe: TestClient, tmp_path: Path) -> None:
    ann, _, room = open_room(cafe)
    ann.say(room, "/bot easy")
    ann.say(room, "/kick 2")  # Bob goes; the next computer player is numbered as the third seat again
    ann.say(room, "/bot easy")
    seated(ann, room, "Ann", "Easy bot 3", "Easy bot 3")
    ann.say(room, "/kick easy bot 3")
    refused(ann, "several seats are called 'easy bot 3'", "number")
    ann.say(room, "/kick 3")
    seated(ann, room, "Ann", "Easy bot 3")
    assert stored_seats(tmp_path, room) == ["Ann", "Easy bot 3"]


def test_a_full_table_takes_no_computer_player_and_a_started_one_changes_no_seat(
    cafe: TestClient, tmp_path: Path
) -> None:
    ann, _, room = open_room(cafe)
    ann.say(room, "/hints on")
    ann.say(room, "/hints off")
    said(ann, room, "No hints at this table while other people play at it")
    ann.say(room, "/bot easy")
    ann.say(room, "/bot hard")
    ann.say(room, "/bot medium")
    refused(ann, "every seat is taken (4 players at most)")
    assert stored_seats(tmp_path, room) == ["Ann", "Bob", "Easy bot 3", "Hard bot 4"]
    ann.say(room, "/start")
    ann.room(id=room, status="playing")
    for command, words in [
        ("/start", "the game has already started"),
        ("/bot easy", "the game has already started"),
        ("/kick 4", "seats can be changed only before the start"),
        ("/hints on", "hints are allowed or not before the start"),
    ]:
        ann.say(room, command)
        refused(ann, words)
    cid = Person(cafe, "Cid")
    cid.send({"type": "enter", "room": room})
    state = cid.room(id=room)
    cid.send({"type": "step", "room": room, "step": "USAm@a2", "plies": state["plies"]})
    refused(cid, "you are watching")
    assert stored_seats(tmp_path, room) == ["Ann", "Bob", "Easy bot 3", "Hard bot 4"]


def test_a_turn_begun_has_nothing_to_take_back(cafe: TestClient) -> None:
    ann, _, room = open_room(cafe)
    ann.say(room, "/start")
    state = ann.room(id=room, status="playing")
    ann.send({"type": "undo", "room": room, "plies": 0})
    refused(ann, "nothing to take back")
    ann.send({"type": "sync", "room": room})
    assert ann.room(id=room)["plies"] == state["plies"] == 0


def test_a_finished_game_of_a_match_is_left_as_it_was_and_has_no_rematch_of_its_own(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    ann.send({"type": "create", "edition": "cards", "match": 3})
    first = ann.room()["id"]
    ann.say(first, "/bot easy")
    ann.send({"type": "rematch", "room": first})
    refused(ann, "a rematch is offered once the game is over")
    ann.say(first, "/start")
    while (state := ann.room(id=first))["status"] != "finished":
        if state["legal"]:
            ann.send({"type": "step", "room": first, "step": state["legal"][0], "plies": state["plies"]})
    ann.send({"type": "rematch", "room": first})
    refused(ann, "a match plays its own games")
    ann.say(first, "/leave")
    refused(ann, "the game is over")
    ann.send({"type": "sync", "room": first})
    ended = ann.room(id=first)
    assert [s["name"] for s in ended["seats"]] == ["Ann", "Easy bot 2"] and ended["rematch"] is None


def test_a_private_table_its_host_leaves_closes_and_its_link_seats_nobody(cafe: TestClient, tmp_path: Path) -> None:
    ann, room, code = private_table(cafe, "board")
    ann.send({"type": "join", "room": room, "code": code})  # the host opens their own link: nothing changes
    said(ann, room, "you already have a seat")
    bob = Person(cafe, "Bob")
    bob.send({"type": "join", "room": room, "code": code})
    seated(ann, room, "Ann", "Bob")
    bob.say(room, "/leave")
    said(ann, room, "Bob leaves the table")
    seated(ann, room, "Ann")
    ann.say(room, "/leave")
    said(bob, room, "Ann leaves the table; the room closes")
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT count(*) FROM invitations WHERE room = ?", (room,)).fetchone() == (0,)
    cid = Person(cafe, "Cid")
    cid.send({"type": "join", "room": room, "code": code})
    assert "expired" in cid.expect("error", code="invitation")["message"]


def test_a_full_cafe_opens_no_table_a_wrong_token_and_a_wrong_link_are_named(tmp_path: Path) -> None:
    with served(create_app(tmp_path, max_rooms=1)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        ann.send({"type": "create", "edition": "board"})
        room = ann.room()["id"]
        bob.send({"type": "create", "edition": "cards"})
        assert "the café is full" in bob.expect("error", code="busy")["message"]
        bob.send({"type": "lobby"})
        assert [listed["id"] for listed in bob.expect("lobby")["rooms"]] == [room]
        bob.send({"type": "join", "room": ["a", "list"], "code": "x" * 20})
        assert "expired" in bob.expect("error", code="invitation")["message"]
        stranger = client.websocket_connect("/ws").__enter__()
        OPEN.append(stranger)
        stranger.send_text(json.dumps({"type": "hello", "token": 12345}))
        said = stranger.receive_json()
        assert said["code"] == "token" and "a token is the string the server gave you" in said["message"]
