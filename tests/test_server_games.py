"""Finished games on the server: their replay, their analysis (once, in worker processes), players' pages, hints."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.record import Record
from cafe.server.app import create_app
from cafe.server.ratings import provisional, shown
from cafe.server.storage.store import Rating
from test_server import Person, close_all, open_room, served


@pytest.fixture
def cafe(tmp_path: Path) -> Any:
    app = create_app(tmp_path, bot_delay=0.0, analysis_budget=4, hint_seconds=0.05, rate=1000.0, burst=1000)
    with served(app) as client:
        try:
            yield client
        finally:
            close_all()


def finished_game(client: TestClient, person: Person, edition: str = "board") -> str:
    """``person`` plays a game against an easy computer player to its end, hinting once; the room's id."""
    person.send({"type": "create", "edition": edition})
    room = person.room()["id"]
    person.say(room, "/bot easy")
    person.say(room, "/start")
    state = person.room(status="playing")
    hinted = False
    while state["status"] == "playing":
        if state["legal"] and not hinted:
            assert state["hints"]
            person.send({"type": "hint", "room": room})
            hint = person.expect("hint")
            assert hint["room"] == room and hint["step"] in state["legal"] and hint["steps"][0] == hint["step"]
            probe = client.app.state.gateway.tables.rooms[room].game.copy()  # type: ignore[attr-defined]
            results = [probe.push(step) for step in hint["steps"]]  # the rest of the turn, legal in its order
            assert results[-1].turn_over or results[-1].drawn or probe.is_over()
            assert not any(r.turn_over or r.drawn for r in results[:-1])  # nothing after a draw: unknown yet
            hinted = True
            assert person.latest is not None
            state = person.latest  # the room's news of the hint came first
            continue
        if state["legal"]:
            person.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        state = person.room()
    assert any(turn["hint"] for turn in state["log"])  # the turn log says a hint was used
    return room


def test_a_finished_game_is_replayed_step_by_step(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    room = finished_game(cafe, ann, "cards")
    record = Record.from_json(cafe.get(f"/records/{room}.json").json())
    game = record.replay()
    replay = cafe.get(f"/games/{room}.json").json()
    assert len(replay["steps"]) == len(game.results) and [t["points"] for t in replay["turns"]] == game.turn_points()
    assert replay["you"] is None and replay["winner"] == game.winner() and replay["analysis"]["state"] == "none"
    mine = cafe.get(f"/games/{room}.json", headers={"X-Cafe-Token": ann.token}).json()
    assert mine["you"] == 0
    at = cafe.get(f"/games/{room}/at/9.json").json()
    assert at["ply"] == 9 and at["svg"].startswith("<svg") and at["view"]["hands"] == [None, None]
    own = cafe.get(f"/games/{room}/at/9.json", headers={"X-Cafe-Token": ann.token}).json()
    assert own["view"]["hands"][0] is not None and own["view"]["hands"][1] is None  # only her own hand
    assert cafe.get("/games/nothing.json").status_code == 404
    assert cafe.get(f"/games/{room}/at/99999.json").json()["ply"] == len(game.results)


def test_a_finished_game_no_longer_held_after_a_restart_leads_to_its_replay(tmp_path: Path) -> None:
    settings: dict[str, Any] = {"bot_delay": 0.0, "rate": 1000.0, "burst": 1000}
    with served(create_app(tmp_path, **settings)) as client:
        ann = Person(client, "Ann")
        room = finished_game(client, ann)
        token = ann.token
        close_all()
    with served(create_app(tmp_path, **settings)) as client:  # the café again: finished games are not loaded
        ann = Person(client, token=token)
        ann.send({"type": "enter", "room": room})
        over = ann.expect("error")
        assert over["code"] == "over" and over["room"] == room and "replay" in over["message"]
        assert client.get(f"/games/{room}.json").json()["winner"] is not None  # what the browser opens then
        ann.send({"type": "enter", "room": "nothing"})
        unknown = ann.expect("error")
        assert unknown["code"] == "room" and "room" not in unknown  # an unknown table is not a finished game
        close_all()


def test_a_game_is_analysed_once_in_the_background(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    room = finished_game(cafe, ann)
    first = cafe.post(f"/games/{room}/analysis")
    assert first.status_code == 202 and first.json()["state"] in ("queued", "running")
    for _ in range(1200):
        status = cafe.get(f"/games/{room}/analysis").json()
        if status["state"] == "done":
            break
        time.sleep(0.1)
    analysis = status["analysis"]
    turns = cafe.get(f"/records/{room}.json").json()["turns"]
    assert [t["played"] for t in analysis["turns"]] == turns and all(t["loss"] >= 0 for t in analysis["turns"])
    again = cafe.post(f"/games/{room}/analysis").json()
    assert again == {"state": "done", "analysis": analysis}  # stored: not computed again
    assert cafe.get(f"/games/{room}.json").json()["analysis"]["state"] == "done"


def test_a_players_page_lists_their_games_newest_first(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    first, second = finished_game(cafe, ann), finished_game(cafe, ann, "cards")
    page = cafe.get(f"/players/{ann.player}.json").json()
    assert page["name"] == "Ann" and [g["room"] for g in page["games"]] == [second, first]
    assert page["games"][0]["place"] in (1, 2) and page["games"][0]["rating_after"] is None  # against a bot: unrated
    for game in page["games"]:  # each with its players and their final scores, as its record replays
        record = cafe.get(f"/records/{game['room']}.json").json()
        replayed = Record.from_json(record).replay()
        assert game["players"] == record["players"] and game["scores"] == list(replayed.scores)
        assert game["at"] > 0
    assert page["rating"] == {"value": None, "games": 0, "provisional": True, "provisional_games": 5}
    assert cafe.get("/players/99999.json").status_code == 404


def test_a_rating_is_shown_never_below_0_and_provisional_for_the_first_games() -> None:
    new = Rating(25.0, 25 / 3, 0)
    after_a_loss = Rating(22.0, 8.0, 1)  # mu - 3 sigma = -2
    assert shown(new) == 0.0 and shown(after_a_loss) == 0.0 and shown(None) is None
    assert shown(Rating(30.0, 3.0, 9)) == 21.0
    assert provisional(after_a_loss) and provisional(None) and not provisional(Rating(30.0, 3.0, 5))


def test_no_hints_in_a_game_between_people(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe)
    while ann.latest is None or len(ann.latest["seats"]) < 2:  # Bob's seat
        ann.room()
    ann.say(room, "/start")
    state = ann.room(status="playing")
    assert state["hints"] is False
    ann.send({"type": "hint", "room": room})
    assert "other people" in ann.expect("error", code="refused")["message"]
    bob.send({"type": "hint", "room": room})
    assert "whose turn" in bob.expect("error", code="refused")["message"]


def test_a_host_may_allow_hints_and_the_game_is_then_not_rated(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe, "cards")
    bob.say(room, "/hints on")
    assert "only the host" in bob.expect("error", code="refused")["message"]
    ann.say(room, "/hints on")
    assert ann.room(hints=True)["hints"] is True
    ann.say(room, "/start")
    people = {0: ann, 1: bob}
    state = ann.room(status="playing")
    while state["status"] == "playing":
        mover = people[state["view"]["current_player"]]
        mine = mover.at(state["plies"])
        if mine["plies"] == state["plies"]:
            assert mine["hints"] is True
            mover.send({"type": "step", "room": room, "step": mine["legal"][0], "plies": mine["plies"]})
        state = ann.room()
    assert cafe.get("/leaderboard").json() == []  # two people, but hints were allowed: not rated
    page = cafe.get(f"/players/{ann.player}.json").json()
    assert page["games"][0]["rating_after"] is None
