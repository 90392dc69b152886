"""Private tables, invitation links and rematches, through real WebSocket connections over a real SQLite file; the
store's part in both stores (SQLite, and PostgreSQL with the services)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.server.app import create_app
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import RoomRow, SQLiteStore, Store
from servers import fresh_database
from test_server import Person, against_a_bot, open_room, play_out, served


@pytest.fixture
def cafe(tmp_path: Path) -> Iterator[TestClient]:
    with served(create_app(tmp_path, bot_delay=0.0, left_seconds=0.2, rematch_seconds=30)) as client:
        yield client


def private_table(client: TestClient, edition: str = "cards", host: str = "Ann") -> tuple[Person, str, str]:
    """Ann opens a private table: the person, the room and its invitation code."""
    ann = Person(client, host)
    ann.send({"type": "create", "edition": edition, "private": True})
    state = ann.room()
    assert state["private"] is True and state["you"] == 0
    return ann, state["id"], state["invite"]


def refused(person: Person, *words: str) -> str:
    """The next refusal's message, which says ``words``."""
    message = person.expect("error")["message"]
    assert all(word in message for word in words), message
    return message


def test_a_private_table_seats_only_those_who_bring_its_link(cafe: TestClient) -> None:
    cy = Person(cafe, "Cy")  # in the lobby
    _, room, code = private_table(cafe)
    listed = cy.expect("listing")["room"]
    assert listed["id"] == room and listed["private"] is True
    assert len(code) >= 16 and room not in code
    cy.send({"type": "enter", "room": room})
    watched = cy.room()
    assert "invite" not in watched  # a spectator never reads the code
    cy.say(room, "/join")
    refused(cy, "private", "invitation link")
    cy.send({"type": "join", "room": room, "code": code[:-1] + ("A" if code[-1] != "A" else "B")})
    refused(cy, "not valid")
    assert all(code not in str(message) for message in cy.seen)
    bob = Person(cafe, "Bob")
    bob.send({"type": "join", "room": room, "code": code})
    seated = bob.room(you=1)
    assert [s["name"] for s in seated["seats"]] == ["Ann", "Bob"] and seated["invite"] == code
    assert [s["name"] for s in cy.room()["seats"]] == ["Ann", "Bob"]  # Cy watches; no seat of hers came of it
    other_code = private_table(cafe, host="Di")[2]
    assert other_code != code  # each table's own code, drawn at random


def test_the_host_makes_a_table_private_or_public_before_the_start(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    ann.send({"type": "create", "edition": "cards", "private": "yes"})
    assert "'private'" in ann.expect("error", code="field")["message"]
    ann.send({"type": "create", "edition": "cards"})
    room = ann.room()["id"]
    bob = Person(cafe, "Bob")
    bob.send({"type": "enter", "room": room})
    bob.room()
    bob.say(room, "/private on")
    refused(bob, "only the host")
    ann.say(room, "/private on")
    first = ann.room(private=True)["invite"]
    ann.say(room, "/private off")
    assert "invite" not in ann.room(private=False)
    ann.say(room, "/private on")
    second = ann.room(private=True)["invite"]
    assert second != first
    bob.send({"type": "join", "room": room, "code": first})  # the old link seats nobody any more
    refused(bob, "not valid")
    bob.send({"type": "join", "room": room, "code": second})
    assert bob.room(you=1)["private"] is True
    ann.say(room, "/start")
    ann.room(status="playing")
    ann.say(room, "/private off")
    refused(ann, "before the start")


def test_an_invitation_to_a_full_table_a_started_game_or_a_closed_table_is_refused(cafe: TestClient) -> None:
    ann, room, code = private_table(cafe, "board")
    for _ in range(3):
        ann.say(room, "/bot easy")
    while len(ann.room()["seats"]) < 4:
        pass
    bob = Person(cafe, "Bob")
    bob.send({"type": "join", "room": room, "code": code})
    refused(bob, "every seat is taken")
    assert bob.latest is not None and len(bob.latest["seats"]) == 4 and bob.latest["you"] is None
    ann.say(room, "/kick 4")
    ann.say(room, "/start")
    ann.room(status="playing")
    bob.send({"type": "join", "room": room, "code": code})
    refused(bob, "the game has started")
    bob.send({"type": "sync", "room": room})
    assert bob.room()["you"] is None  # bob watches, and nothing changed
    bob.send({"type": "join", "room": "nowhere", "code": code})
    assert "expired" in bob.expect("error", code="invitation")["message"]
    bob.send({"type": "language", "lang": "de"})
    bob.send({"type": "join", "room": "nowhere", "code": code})
    assert "abgelaufen" in bob.expect("error", code="invitation")["message"]


def offer(person: Person, room: str) -> dict[str, Any]:
    """The person's next state of the finished room with a rematch offered."""
    while not (state := person.room(id=room)).get("rematch"):
        pass
    return state


def said(person: Person, room: str, words: str) -> str:
    """The next news of the room that says ``words``."""
    while words not in (text := person.expect("info", room=room)["text"]):
        pass
    return text


def turned(state: dict[str, Any]) -> list[str]:
    """The seats' names, turned by one: the first seat goes last."""
    names = [s["name"] for s in state["seats"]]
    return names[1:] + names[:1]


def test_a_rematch_starts_with_the_seats_turned_when_everyone_accepts(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe, "cards")
    cy = Person(cafe, "Cy")
    cy.send({"type": "enter", "room": room})
    cy.room()
    ended = play_out(ann, bob, room)
    assert ended["rematch"] is None
    cy.send({"type": "rematch", "room": room})
    refused(cy, "only those who played")
    ann.send({"type": "rematch", "room": room})
    offered = offer(bob, room)
    assert offered["rematch"]["accepted"] == [0] and 0 < offered["rematch"]["for"] <= 30
    assert said(bob, room, "Ann offers a rematch")
    ann.send({"type": "rematch", "room": room})
    refused(ann, "accepted the rematch already")
    bob.send({"type": "rematch", "room": room})
    following = ann.room(status="playing")
    assert following["id"] != room and following["seats"] and following["you"] == 1
    assert [s["name"] for s in following["seats"]] == turned(ended) == ["Bob", "Ann"]
    assert (following["edition"], following["rules"], following["hints"]) == (ended["edition"], ended["rules"], False)
    assert bob.room(id=following["id"])["you"] == 0
    while not (cy.room(id=room)["rematch"] or {}).get("next"):  # the watchers hear where it went
        pass
    assert cy.latest is not None and cy.latest["rematch"]["next"] == following["id"]
    bob.send({"type": "rematch", "room": room})
    refused(bob, "has begun already")


def test_a_rematch_with_a_computer_player_begins_when_the_one_person_asks(cafe: TestClient) -> None:
    ann, room, state = against_a_bot(cafe, "cards")
    while state["status"] == "playing":
        if state["legal"]:
            ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        message = ann.expect("room", "error")
        if message["type"] == "error":  # the bot moved first (a stale step), or we played too fast: catch up
            time.sleep(0.1 if message["code"] == "rate" else 0)
            ann.send({"type": "sync", "room": room})
            message = ann.expect("room")
        state = message["room"]
    ann.send({"type": "rematch", "room": room})
    while (message := ann.expect("room", "error"))["type"] == "error" or message["room"]["status"] != "playing":
        if message["type"] == "error":  # a whole game at a machine's pace: the rate limit held Ann back a moment
            assert message["code"] == "rate", message
            time.sleep(0.1)
            ann.send({"type": "rematch", "room": room})
    following = message["room"]
    assert [s["name"] for s in following["seats"]] == turned(state) == ["Easy bot 2", "Ann"]
    assert following["seats"][0]["bot"] == "easy" and following["you"] == 1


def test_a_declined_rematch_is_off_and_one_who_left_or_went_away_allows_none(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe, "cards")
    play_out(ann, bob, room)
    bob.send({"type": "rematch", "room": room, "accept": "yes"})
    assert "'accept'" in bob.expect("error", code="field")["message"]
    bob.send({"type": "rematch", "room": room, "accept": False})
    refused(bob, "no rematch offer to decline")
    ann.send({"type": "rematch", "room": room})
    assert offer(ann, room)["rematch"]["accepted"] == [0]
    bob.send({"type": "rematch", "room": room, "accept": False})
    assert said(ann, room, "Bob declines the rematch")
    assert ann.latest is not None and ann.latest["rematch"] is None
    ann.send({"type": "rematch", "room": room})  # asked again: a new offer; Bob goes away, and it is off
    assert offer(ann, room)["rematch"]["accepted"] == [0]
    bob.close()
    assert said(ann, room, "Bob has left: the rematch is off")
    assert ann.latest is not None and ann.latest["rematch"] is None


def test_no_rematch_after_a_player_left_the_game(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe, "cards")
    cy = Person(cafe, "Cy")
    cy.send({"type": "enter", "room": room})
    cy.room()
    cy.say(room, "/join")
    while len(ann.room()["seats"]) < 3:
        pass
    ann.say(room, "/start")
    ann.room(status="playing")
    cy.say(room, "/leave")  # a computer player plays Cy's seat to the end
    assert said(ann, room, "Cy leaves")
    people = {0: ann, 1: bob}
    state = ann.latest
    assert state is not None
    while state["status"] == "playing":
        mover = people.get(state["view"]["current_player"])
        if mover is not None:
            mine = mover.at(state["plies"])
            if mine["plies"] == state["plies"] and mine["legal"]:
                time.sleep(0.05)  # two people's pace stays within the rate limit
                mover.send({"type": "step", "room": room, "step": mine["legal"][0], "plies": state["plies"]})
        state = ann.expect("room")["room"]
    ann.send({"type": "rematch", "room": room})
    refused(ann, "Cy left the game")
    assert state["rematch"] is None


def test_an_offer_lapses_after_its_time_and_everyone_hears_it(tmp_path: Path) -> None:
    with served(create_app(tmp_path, bot_delay=0.0, rematch_seconds=0.5)) as cafe:
        ann, bob, room = open_room(cafe, "cards")
        play_out(ann, bob, room)
        ann.send({"type": "rematch", "room": room})
        assert said(bob, room, "Not everyone accepted in time: the rematch is off")
        assert bob.latest is not None and bob.latest["rematch"] is None
        bob.send({"type": "rematch", "room": room})  # too late to accept Ann's: Bob's is a new offer
        assert said(ann, room, "Bob offers a rematch")
        assert ann.latest is not None and ann.latest["rematch"]["accepted"] == [1]


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def test_both_stores_keep_a_tables_code_and_its_rematch_offer(kind: str, tmp_path: Path) -> None:
    from cafe.server.storage.invitations import Offer  # here: the other tests run on a café without it too

    with fresh_database() if kind == "postgresql" else _nothing() as url:
        store: Store = PostgresStore(url) if url else SQLiteStore(tmp_path / "cafe.sqlite3")
        try:
            store.add_room(RoomRow("r1", "Ann's table", "cards", "printed", store.add_player("Ann", "t"), "waiting",
                                   1, (), ()))  # fmt: skip
            assert store.invitation("r1") is None
            store.set_invitation("r1", "secret-code")
            store.set_invitation("r1", "other-code")
            assert store.invitation("r1") == "other-code"
            store.set_invitation("r1", None)
            assert store.invitation("r1") is None
            assert store.rematch("r1") is None
            store.set_rematch("r1", Offer((3, 1), 12.5))
            assert store.rematch("r1") == Offer((3, 1), 12.5)
            store.set_rematch("r1", Offer((3, 1, 2), 12.5, "r2"))
            assert store.rematch("r1") == Offer((3, 1, 2), 12.5, "r2")
            store.set_rematch("r1", None)
            assert store.rematch("r1") is None
        finally:
            store.close()


@contextlib.contextmanager
def _nothing() -> Iterator[str]:
    yield ""
