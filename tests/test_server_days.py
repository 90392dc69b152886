"""Games over days: a table opened with a clock of hours or days per turn, which runs across restarts, and what
running out of it does (each case failed before turn-based tables existed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cafe.server.app import create_app
from cafe.server.storage.store import SQLiteStore
from servers import free_port, start_server
from test_scale import OPEN, Player
from test_server import Person, served


def turn_based(ann: Person, bob: Person, clock: int = 24, late: str = "bot") -> str:
    """Ann opens a turn-based table, Bob joins, Ann starts: the game's room, Ann to play."""
    ann.send({"type": "create", "edition": "board", "clock": clock, "late": late})
    room = ann.room()["id"]
    bob.send({"type": "enter", "room": room})
    bob.say(room, "/join")
    while len(ann.room()["seats"]) < 2:
        pass
    ann.say(room, "/start")
    state = ann.room(status="playing")
    assert state["clock"] == clock and state["late"] == late and state["view"]["current_player"] == 0
    return room


def test_a_table_with_an_unknown_clock_or_rule_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        ann = Person(client, "Ann")
        ann.expect("lobby")
        for wrong in ({"clock": 5}, {"clock": "24"}, {"clock": True}, {"clock": 24, "late": "kick"}):
            ann.send({"type": "create", "edition": "board", **wrong})
            refused = ann.expect("error")
            assert refused["code"] == "field" and ("'clock'" in refused["message"] or "'late'" in refused["message"])
        ann.send({"type": "language", "lang": "de"})
        ann.send({"type": "create", "edition": "board", "clock": 36})
        assert "Stunden" in ann.expect("error")["message"]
        ann.send({"type": "lobby"})
        assert ann.expect("lobby")["rooms"] == []  # nothing was opened


def test_the_clock_of_a_turn_based_game_is_its_own_and_shown_with_the_time_left(tmp_path: Path) -> None:
    with served(create_app(tmp_path, turn_seconds=300)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        room = turn_based(ann, bob, clock=48)
        state = ann.latest
        assert state is not None and 300 < state["left"] <= 48 * 3600  # two days, not the live clock's five minutes
        ann.send({"type": "lobby"})
        (line,) = ann.expect("lobby")["rooms"]
        assert line["id"] == room and line["clock"] == 48 and line["late"] == "bot"


def test_in_a_turn_based_game_a_person_away_keeps_their_seat(tmp_path: Path) -> None:
    with served(create_app(tmp_path, away_seconds=0.05, left_seconds=0.5, sweep_seconds=0.1)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        room = turn_based(ann, bob)
        bob.close()  # leaving the page is normal in a game over days
        ann.expect("presence", room=room)  # said after ten times the live games' time away
        ann.send({"type": "sync", "room": room})
        assert ann.room()["seats"][1] == {"seat": 1, "name": "Bob", "bot": None}


def test_running_out_of_time_lets_a_computer_player_play_the_turn_if_the_host_chose_so(tmp_path: Path) -> None:
    with served(create_app(tmp_path, clock_hour=0.02, bot_delay=0.0)) as client:  # twelve hours: a quarter second
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        room = turn_based(ann, bob, clock=12, late="bot")
        bob.expect("info", room=room, text="Ann's time is up: a computer player plays this turn")
        state = bob.room()
        while state["view"]["current_player"] == 0:
            state = bob.room()
        assert state["seats"][0] == {"seat": 0, "name": "Ann", "bot": None}  # Ann keeps her seat
        assert state["left"] > 0  # Bob's own clock runs now


def test_running_out_of_time_lets_the_others_end_the_game_if_the_host_chose_so(tmp_path: Path) -> None:
    with served(create_app(tmp_path, clock_hour=0.02)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        room = turn_based(ann, bob, clock=12, late="end")
        ann.say(room, "/end")  # nobody ends a game for their own time
        assert "ran out of time" in ann.expect("error")["message"]
        bob.expect("info", room=room, text="Ann's time is up: the others may end the game (/end), or wait")
        state = bob.latest  # the room, sent again with the news
        assert state is not None and state["plies"] == 0 and state["can_end"]
        assert state["seats"][0]["bot"] is None  # no computer player took the turn
        bob.say(room, "/end")
        ended = bob.expect("info", room=room)["text"]
        assert ended.startswith("Bob ends the game: Ann ran out of time and is placed last")
        final = bob.latest  # the finished room came before the news of it
        assert final is not None and final["status"] == "finished" and final["places"] == [2, 1]


def test_a_game_cannot_be_ended_before_the_late_players_time_is_up(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        room = turn_based(ann, bob, clock=12, late="end")
        bob.say(room, "/end")
        assert "ran out of time" in bob.expect("error")["message"]
        bob.send({"type": "sync", "room": room})
        assert bob.room()["status"] == "playing"


def game(player: Player, room: str) -> dict[str, Any]:
    player.send({"type": "sync", "room": room})
    return player.room(id=room)


def test_a_turn_based_clock_runs_out_across_a_restart_of_the_server(tmp_path: Path) -> None:
    port = free_port()
    hour = "clock_hour=0.5"  # a turn of twelve hours lasts six seconds here
    server = start_server(port, tmp_path, "--limit", hour)
    try:
        ann, bob = Player(port, "Ann"), Player(port, "Bob")
        ann.send({"type": "create", "edition": "board", "clock": 12, "late": "bot"})
        room = ann.room()["id"]
        bob.send({"type": "say", "room": room, "text": "/join"})
        while len(ann.room()["seats"]) < 2:
            pass
        ann.send({"type": "say", "room": room, "text": "/start"})
        started = ann.room(status="playing")
        assert started["plies"] == 0 and started["left"] > 0
        server.kill()  # the clock is running, and only the store knows it
        server.wait()
        while OPEN:
            OPEN.pop().close()
        store = SQLiteStore(tmp_path / "cafe.sqlite3")
        stored = store.load_room(room)
        store.close()
        assert stored is not None and stored.deadline is not None and stored.steps == ()
        server = start_server(port, tmp_path, "--limit", hour)
        bob = Player(port, token=bob.token)
        assert game(bob, room)["left"] <= started["left"]  # the same clock, not wound afresh
        state = game(bob, room)
        while state["view"]["current_player"] == 0:  # her turn is played for her after the restart
            state = bob.room(id=room)
        assert state["seats"][0] == {"seat": 0, "name": "Ann", "bot": None}
    finally:
        while OPEN:
            OPEN.pop().close()
        server.kill()
        server.wait()


def test_a_table_for_a_game_over_days_waits_for_players_longer_than_a_live_one(tmp_path: Path) -> None:
    with served(create_app(tmp_path, waiting_seconds=0.2, sweep_seconds=0.05)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        ann.send({"type": "create", "edition": "board", "name": "live"})
        live = ann.room()["id"]
        ann.send({"type": "create", "edition": "board", "name": "days", "clock": 24})
        days = ann.room()["id"]
        bob.send({"type": "lobby"})
        bob.expect("lobby")
        ann.close()  # nobody is at either table now
        listing = bob.expect("listing")["room"]
        while (listing["id"], listing["status"]) != (live, "closed"):  # the live table closes ...
            listing = bob.expect("listing")["room"]
        bob.send({"type": "lobby"})
        assert [room["id"] for room in bob.expect("lobby")["rooms"]] == [days]  # quiet as long, and still open
