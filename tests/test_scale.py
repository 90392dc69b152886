"""Several `cafe serve` processes sharing one PostgreSQL database and one Redis broker.

People connected to different processes play one game; a process killed mid-game loses nothing
acknowledged and its players go on from another; two processes racing to apply steps to one
room never corrupt it.  Real servers, started by scripts/with-services.sh.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from cafe.arena.match import new_game
from cafe.server.storage.postgres import PostgresStore
from servers import free_port, fresh_database, start_server

pytestmark = pytest.mark.services


class Cluster:
    """Server processes on their own ports, sharing a fresh database and the test Redis."""

    def __init__(self, url: str, data: Path) -> None:
        self.url, self.data = url, data
        self.servers: dict[int, subprocess.Popen[bytes]] = {}

    def start(self, *limits: str) -> int:
        """A process; ``limits``: ``NAME=VALUE`` as `cafe serve --limit` takes them."""
        port = free_port()
        broker = os.environ["CAFE_TEST_BROKER"]
        options = [option for limit in limits for option in ("--limit", limit)]
        self.servers[port] = start_server(port, self.data, "--database", self.url, "--broker", broker, *options)
        return port

    def kill(self, port: int) -> None:
        os.kill(self.servers[port].pid, signal.SIGKILL)
        self.servers.pop(port).wait()

    def stop(self) -> None:
        for server in self.servers.values():
            server.kill()
            server.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with fresh_database() as url:
        started = Cluster(url, tmp_path)
        try:
            yield started
        finally:
            while OPEN:
                OPEN.pop().close()
            started.stop()


OPEN: list[ClientConnection] = []  # the running test's connections, closed at its end


class Player:
    def __init__(self, port: int, name: str | None = None, token: str | None = None) -> None:
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{port}/ws").__enter__()
        OPEN.append(self.ws)
        self.send({"type": "hello", "name": name} if token is None else {"type": "hello", "token": token})
        welcome = self.expect("welcome")
        self.token, self.player = welcome["token"], welcome["player"]
        self.state: dict[str, Any] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "room":
                self.state = message["room"]
            assert message["type"] != "error" or kind == "error", message
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    def refusals_before_help(self, room: str) -> list[dict[str, Any]]:
        """The refusals of this connection's requests so far: a connection's requests are answered in order, so
        every refusal comes before the answer to a /help sent now."""
        self.send({"type": "say", "room": room, "text": "/help"})
        refusals = []
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "room":
                self.state = message["room"]
            elif message["type"] == "error":
                refusals.append(message)
            elif message["type"] == "info" and "seq" not in message and message["text"].startswith("/join"):
                return refusals

    def room(self, **wanted: Any) -> dict[str, Any]:
        while True:
            state = self.expect("room")["room"]
            if all(state.get(k) == v for k, v in wanted.items()):
                return state


def replayed(url: str, room: str) -> list[str]:
    """The room's steps as stored, checked by replaying them into a fresh game."""
    store = PostgresStore(url)
    row = store.load_room(room)
    store.close()
    assert row is not None
    game = new_game(row.edition, [s.name for s in row.seats], row.seed, row.rules)
    for step in row.steps:
        game.push(step)  # raises if a stored step was illegal
    return list(row.steps)


def test_people_on_different_processes_play_one_game_to_its_end(cluster: Cluster) -> None:
    first, second = cluster.start(), cluster.start()
    ann, bob = Player(first, "Ann"), Player(second, "Bob")
    ann.send({"type": "create", "edition": "cards"})
    room = ann.room()["id"]
    bob.send({"type": "enter", "room": room})  # a room made by the other process
    bob.room(id=room)
    bob.send({"type": "say", "room": room, "text": "/join"})
    while len(ann.room()["seats"]) < 2:
        pass
    bob.send({"type": "say", "room": room, "text": "Hello from the other server"})
    assert ann.expect("chat")["text"] == "Hello from the other server"
    ann.send({"type": "say", "room": room, "text": "/start"})
    people = {0: ann, 1: bob}
    for person in people.values():
        person.room(status="playing")
    while ann.state["status"] == "playing":
        mover = people[ann.state["view"]["current_player"]]
        plies = ann.state["plies"]
        mover.room(plies=plies) if mover.state.get("plies") != plies else None
        time.sleep(0.06)  # a person's pace: under the rate limit
        mover.send({"type": "step", "room": room, "step": mover.state["legal"][0], "plies": plies})
        ann.room(plies=plies + 1)
    final = bob.room(status="finished")
    assert final["view"]["scores"] == ann.state["view"]["scores"] and final["plies"] == ann.state["plies"]
    assert len(replayed(cluster.url, room)) == final["plies"]


def begin_with_a_bot(ann: Player, bob: Player, level: str = "easy") -> tuple[str, dict[int, Player]]:
    """Ann opens a board game, Bob joins it, a computer player of ``level`` too, and it begins: the room and the
    people by seat."""
    ann.send({"type": "create", "edition": "board"})
    room = ann.room()["id"]
    bob.send({"type": "say", "room": room, "text": "/join"})
    ann.send({"type": "say", "room": room, "text": f"/bot {level}"})
    while len(ann.room()["seats"]) < 3:
        pass
    ann.send({"type": "say", "room": room, "text": "/start"})
    ann.room(status="playing")
    return room, {0: ann, bob.room(status="playing")["you"]: bob}


def play_to(people: dict[int, Player], room: str, watcher: Player, plies: int | None = None) -> None:
    """The people whose turn it is play their first legal step until ``plies`` steps (or the end); the computer
    players play theirs.  ``watcher`` follows every step."""
    while watcher.state["status"] == "playing" and (plies is None or watcher.state["plies"] < plies):
        current = watcher.state["view"]["current_player"]
        at = watcher.state["plies"]
        if current not in people:
            watcher.room()  # a computer player's step
            continue
        mover = people[current]
        while mover.state.get("plies") != at:
            mover.room()
        time.sleep(0.06)
        mover.send({"type": "step", "room": room, "step": mover.state["legal"][0], "plies": at})
        while watcher.state["plies"] == at:
            watcher.room()


def test_a_killed_process_loses_nothing_and_its_players_go_on_from_another(cluster: Cluster) -> None:
    first, second, third = cluster.start(), cluster.start(), cluster.start()
    ann, bob = Player(first, "Ann"), Player(second, "Bob")
    room, people = begin_with_a_bot(ann, bob)
    seat = next(seat for seat, person in people.items() if person is bob)
    play_to(people, room, ann, plies=15)
    acknowledged = bob.state["plies"]
    seen_turns = bob.state["view"]["turns"]
    cluster.kill(second)  # Bob's process, mid-game
    bob = Player(third, token=bob.token)  # Bob comes back through another process
    again = bob.room(id=room)
    assert again["you"] == seat and again["plies"] >= acknowledged
    assert again["view"]["turns"][: len(seen_turns)] == seen_turns
    play_to({0: ann, seat: bob}, room, ann)
    assert bob.room(status="finished")["plies"] == ann.state["plies"]
    assert len(replayed(cluster.url, room)) == ann.state["plies"]


def test_two_processes_racing_on_one_room_never_corrupt_it(cluster: Cluster) -> None:
    first, second = cluster.start(), cluster.start()
    ann = Player(first, "Ann")
    ann.send({"type": "create", "edition": "board"})
    room = ann.room()["id"]
    ann.send({"type": "say", "room": room, "text": "/bot easy"})
    ann.room(status="waiting", plies=0)
    ann.send({"type": "say", "room": room, "text": "/start"})
    ann.room(status="playing")
    twin = Player(second, token=ann.token)  # Ann again, through the other process
    twin.room(id=room)
    refused = accepted = 0
    while ann.state["status"] == "playing" and accepted < 25:
        if ann.state["view"]["current_player"] != 0:
            ann.room()
            continue
        at = ann.state["plies"]
        while twin.state.get("plies") != at:
            twin.room()
        legal = ann.state["legal"]
        steps = (legal[0], legal[-1])  # different steps, when there is a choice
        time.sleep(0.12)  # two messages each round: under the rate limit
        racers = [
            threading.Thread(target=person.send, args=({"type": "step", "room": room, "step": step, "plies": at},))
            for person, step in zip((ann, twin), steps, strict=True)
        ]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        errors = [person.refusals_before_help(room) for person in (ann, twin)]
        assert sorted(len(e) for e in errors) == [0, 1], errors  # exactly one of the two won, the other was told
        accepted += 1
        refused += 1
        while ann.state["plies"] <= at:
            ann.room()
    # 25 races, or as many as the game lasted (steps that fill the bar may end it sooner)
    status = ann.state["status"]
    assert accepted == refused and (accepted == 25 or status == "finished"), (accepted, status)
    stored = replayed(cluster.url, room)
    for person in (ann, twin):
        person.send({"type": "sync", "room": room})
        state = person.room(id=room)
        assert state["plies"] == len(stored)


def test_cafes_on_different_databases_keep_apart_in_one_redis() -> None:
    """Player numbers are a database's own: a café must not take another café's player 2 as present."""
    from cafe.server.broker import namespace_for

    here = namespace_for("postgresql://cafe:one@db.internal:5432/cafe")
    assert here == namespace_for("postgresql://other:two@db.internal:5432/cafe")  # credentials play no part
    assert here != namespace_for("postgresql://cafe:one@db.internal:5432/club")
    assert here != namespace_for("postgresql://cafe:one@db2.internal:5432/cafe")


def test_two_applications_share_rooms_chat_steps_and_presence_through_redis() -> None:
    """The same as above inside one test process (two applications, each with its own broker connection)."""
    from starlette.testclient import TestClient

    from cafe.server.app import create_app
    from cafe.server.broker import RedisBroker, namespace_for
    from test_server import Person, close_all

    broker = os.environ["CAFE_TEST_BROKER"]
    quick = {"bot_delay": 0.0, "away_seconds": 0.3, "left_seconds": 0.05}
    with fresh_database() as url:
        one, two = (
            create_app(store=PostgresStore(url), broker=RedisBroker(broker, namespace_for(url)), **quick)
            for _ in range(2)
        )
        with TestClient(one) as a, TestClient(two) as b:
            try:
                ann, bob = Person(a, "Ann"), Person(b, "Bob")
                ann.send({"type": "create", "edition": "board"})
                room = ann.room()["id"]
                assert bob.expect("listing")["room"]["id"] == room  # the other process's lobby hears of it
                bob.send({"type": "enter", "room": room})
                bob.room(id=room)
                bob.say(room, "/join")
                while len(ann.room()["seats"]) < 2:  # Bob's seat, taken through the other process
                    pass
                ann.say(room, "/bot easy")
                ann.say(room, "/start")
                state = ann.room(status="playing")
                bob.say(room, "Good luck!")
                assert ann.expect("chat")["text"] == "Good luck!"
                people = {seat["seat"]: {"Ann": ann, "Bob": bob}.get(seat["name"]) for seat in state["seats"]}
                while ann.latest["plies"] < 20:
                    mover = people[ann.latest["view"]["current_player"]]
                    if mover is None:
                        ann.expect("room")
                        continue
                    at = ann.latest["plies"]
                    mine = mover.at(at)
                    mover.send({"type": "step", "room": room, "step": mine["legal"][0], "plies": at})
                    ann.at(at + 1)
                plies = ann.latest["plies"]
                assert bob.at(plies)["view"]["turns"] == ann.at(plies)["view"]["turns"]
                bob_seat = bob.latest["you"]
                bob.close()  # Bob leaves for good: once he is connected nowhere, a computer player takes over
                assert ann.expect("presence", room=room)["text"] == "Bob has left"  # heard through the other process
                while "computer player takes over" not in ann.expect("info", room=room)["text"]:
                    pass
                assert ann.latest["seats"][bob_seat]["bot"] == "medium"  # the room changed before the news
            finally:
                close_all()


# Due work survives the process that scheduled it (cafe.server.due): one process killed with work pending, and the
# others do it.
QUICK = ("lease_seconds=2", "sweep_seconds=1", "bot_delay=0")


def game_of_two(cluster: Cluster, *limits: str) -> tuple[list[int], Player, Player, str]:
    """Ann (on the first process) and Bob (on the second) at a board game that has begun; a third process idle."""
    ports = [cluster.start(*QUICK, *limits) for _ in range(3)]
    ann, bob = Player(ports[0], "Ann"), Player(ports[1], "Bob")
    ann.send({"type": "create", "edition": "board"})
    room = ann.room()["id"]
    bob.send({"type": "say", "room": room, "text": "/join"})
    while len(ann.room()["seats"]) < 2:
        pass
    return ports, ann, bob, room


def test_a_turn_clock_wound_by_a_killed_process_runs_out_on_another(cluster: Cluster) -> None:
    ports, ann, bob, room = game_of_two(cluster, "turn_seconds=3")
    ann.send({"type": "say", "room": room, "text": "/start"})  # Ann's process winds the first turn's clock
    first = bob.room(status="playing")
    assert first["view"]["current_player"] == 0 and first["plies"] == 0
    cluster.kill(ports[0])  # with Ann's clock in it
    while "time is up" not in bob.expect("info")["text"]:
        pass
    while bob.room()["plies"] == 0:  # her turn is played for her, on another process
        pass


def test_a_computer_players_step_left_by_a_killed_process_is_played_by_another(cluster: Cluster) -> None:
    ports, ann, bob, room = game_of_two(cluster)
    bob.send({"type": "say", "room": room, "text": "/leave"})
    while len(ann.room()["seats"]) > 1:
        pass
    ann.send({"type": "say", "room": room, "text": "/bot expert"})  # a second a turn: killed while it thinks
    while len(ann.room()["seats"]) < 2:
        pass
    bob.send({"type": "enter", "room": room})  # Bob watches from the second process
    bob.room(id=room)
    ann.send({"type": "say", "room": room, "text": "/start"})
    state = ann.room(status="playing")
    while state["view"]["current_player"] != 0:
        state = ann.room()
    while state["view"]["current_player"] == 0:  # Ann's whole turn: its last step wakes the computer player
        ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        state = ann.room(plies=state["plies"] + 1)
    bob.room(plies=state["plies"])
    cluster.kill(ports[0])  # Ann's process, where the computer player was woken
    bot_moved = bob.room(plies=state["plies"] + 1)  # played on another process
    assert bot_moved["view"]["turns"][: len(state["view"]["turns"])] == state["view"]["turns"]


def test_a_job_run_twice_acts_once(cluster: Cluster) -> None:
    """Two processes that both come to a computer player's step (its job claimed anew after a lease ran out)
    store it once: the room's steps as stored agree with what everyone saw."""
    first, second = (cluster.start(*QUICK, "lease_seconds=0.2") for _ in range(2))  # leases run out as bots think
    ann, bob = Player(first, "Ann"), Player(second, "Bob")
    room, people = begin_with_a_bot(ann, bob, "hard")
    play_to(people, room, ann, plies=30)
    seen = ann.state["plies"]
    stored = replayed(cluster.url, room)  # replays every stored step: none twice, none illegal
    assert len(stored) >= seen
    ann.send({"type": "sync", "room": room})
    assert json.dumps(ann.room(id=room)["plies"]) == json.dumps(len(stored))


def test_a_spectator_on_another_process_keeps_a_game_of_computer_players_going(cluster: Cluster) -> None:
    first, second = (cluster.start("bot_delay=0") for _ in range(2))  # no sweeps: the steps must not wait for one
    ann = Player(first, "Ann")
    ann.send({"type": "create", "edition": "board"})
    room = ann.room()["id"]
    ann.send({"type": "say", "room": room, "text": "/bot easy"})
    while len(ann.room()["seats"]) < 2:
        pass
    ann.send({"type": "say", "room": room, "text": "/start"})
    ann.room(status="playing")
    ann.send({"type": "say", "room": room, "text": "/leave"})  # a computer player takes her seat
    while any(seat.get("bot") is None for seat in ann.room()["seats"]):
        pass
    bob = Player(second, "Bob")
    bob.send({"type": "enter", "room": room})
    watched = bob.room(id=room)["plies"]
    ann.ws.close()  # nobody on the first process follows the game any more
    OPEN.remove(ann.ws)
    went_on = watched + 4
    while watched < went_on:  # the computer players go on, whichever process their steps fall to
        watched = max(watched, bob.room()["plies"])


def test_two_hellos_with_one_new_name_at_the_same_instant_on_two_processes_give_it_to_one(cluster: Cluster) -> None:
    from concurrent.futures import ThreadPoolExecutor

    ports = [cluster.start(), cluster.start()]

    def hello(port: int, name: str) -> str:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "name": name}))
            return str(json.loads(ws.recv(timeout=30))["type"])

    with ThreadPoolExecutor(2) as pool:
        for n in range(20):
            answers = sorted(pool.map(hello, ports, [f"Twin{n}", f"TWIN{n}"]))
            assert answers == ["error", "welcome"], (n, answers)
