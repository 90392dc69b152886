"""People in the café: a refused hello changes nothing, names others can tell apart, and rated games that
someone leaves (each case failed before its fix)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from test_server import (
    OPEN,
    Person,
    make_account,
    open_room,
)


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


# ---------------------------------------------------------------------- names others can tell apart

INVISIBLE = ["\u034f", "\ufe0f", "\ufe00", "\u3164", "\uffa0", "\u115f", "\u2800", "\u17b5"]  # not in category C
DOUBLES = [
    *(f"A{hidden}nn" for hidden in INVISIBLE),
    *(f"Ann{hidden}" for hidden in INVISIBLE),
    "\u0410nn",  # a Cyrillic A
    "\u0391nn",  # a Greek Alpha
    "\uff21\uff4e\uff4e",  # fullwidth
    "ANN",
]
BOTS = ["Ann (b\u043et)", "Ann \uff42\uff4f\uff54", "Ann b\u034fot", "Ann B\u03bfT", "Ann b0t"]
HONEST = [  # Latin with accents, Chinese, Greek, Cyrillic, Japanese, Korean, and a few punctuation marks
    "J\u00fcrgen", "Am\u00e9lie", "\u017dofie", "\u674e\u96f7", "\u0399\u03c9\u03ac\u03bd\u03bd\u03b7\u03c2",
    "\u0418\u0432\u0430\u043d", "\u7530\u4e2d\u3055\u3093", "\uae40\ubbfc\uc218", "O'Brien", "Jean-Luc 2",
]  # fmt: skip


@pytest.mark.parametrize("name", DOUBLES)
def test_a_name_that_looks_like_a_connected_ones_is_refused(quick: TestClient, name: str) -> None:
    Person(quick, "Ann")
    _, answer = refused(quick, {"name": name})
    _, german = refused(quick, {"name": name, "lang": "de"})
    assert answer["code"] == german["code"] == "name" and german["message"] != answer["message"], answer


@pytest.mark.parametrize("name", BOTS)
def test_a_name_that_looks_like_a_computer_players_is_refused(quick: TestClient, name: str) -> None:
    _, answer = refused(quick, {"name": name, "lang": "fr"})
    assert answer["code"] == "name" and ("bot" in answer["message"] or "U+" in answer["message"]), answer


def test_invisible_and_mixed_names_are_refused_saying_why_and_honest_ones_pass(quick: TestClient) -> None:
    for hidden in INVISIBLE:
        _, answer = refused(quick, {"name": f"Ma{hidden}x"})
        assert f"U+{ord(hidden):04X}" in answer["message"], answer
    _, answer = refused(quick, {"name": "Ma\u0445"})  # a Cyrillic x at the end of a Latin name
    assert "one script" in answer["message"]
    for name in HONEST:  # while honest names in many scripts pass
        person = Person(quick, name)
        assert person.expect("lobby")["type"] == "lobby"
        assert quick.get(f"/players/{person.player}.json").json()["name"] == name


# ---------------------------------------------------------------------- a rated game someone leaves


@pytest.mark.parametrize("goes", ["/leave", "away"])
def test_who_leaves_a_rated_game_losing_is_rated_as_it_finishes(quick: TestClient, goes: str) -> None:
    ann, bob, room = open_room(quick, "cards")
    _, bobs = make_account(quick, ann, bob)
    while ann.latest is None or len(ann.latest["seats"]) < 2:  # Bob's seat
        ann.room()
    ann.say(room, "/start")
    people = {0: ann, 1: bob}
    state = ann.room(status="playing")
    while state["view"]["scores"][1] >= state["view"]["scores"][0]:  # Ann plays her best, Bob his worst
        assert state["status"] == "playing", "Bob was never behind"
        mover = people[state["view"]["current_player"]]
        mine = mover.at(state["plies"])
        pick = max if mover is ann else min
        step = pick(mine["legal"], key=lambda legal: mine["points"][legal])
        mover.send({"type": "step", "room": room, "step": step, "plies": mine["plies"]})
        state = ann.at(state["plies"] + 1)
    if goes == "/leave":
        bob.say(room, "/leave")
    else:
        bob.close()  # and stays away: a computer player takes over
    while not ann.room()["seats"][1]["bot"]:
        pass
    asked = False
    state = ann.latest
    while state["status"] == "playing":  # Ann plays on against the computer player in Bob's seat
        if state["legal"]:
            assert state["hints"] is False  # the game is still rated: no hints
            if not asked:
                ann.send({"type": "hint", "room": room})
                assert "other people" in ann.expect("error", code="refused")["message"]
                asked = True
            ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        state = ann.room()
    assert asked
    board = {row["name"]: row for row in quick.get("/leaderboard").json()}
    assert sorted(board) == ["Ann", "Bob"] and board["Ann"]["games"] == board["Bob"]["games"] == 1
    for person in (ann, bob):
        games = quick.get(f"/players/{person.player}.json").json()["games"]
        assert [g["room"] for g in games] == [room] and games[0]["rating_after"] is not None
    replay = quick.get(f"/games/{room}.json", headers={"cookie": f"cafe-session={bobs}"}).json()
    assert replay["you"] == 1  # Bob's own seat, his hand shown to him in the replay
