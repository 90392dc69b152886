"""The café's thinking is shared fairly: hints and games of computer players only never hold up the games people play.

Times are compared as ratios to the same café's own baseline, never to a clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import threading
import time
from pathlib import Path

from starlette.testclient import TestClient

from cafe.server.app import create_app
from cafe.server.thinking import Hints, Kind, Pool
from test_server import Person, close_all, served

ASKS = 6  # hints each of the flood's connections asks for
FAST = {"bot_delay": 0.0, "rate": 1000.0, "burst": 1000}


def against_bot(person: Person, level: str) -> str:
    """``person`` opens a room against one computer player of ``level`` and starts; the room's id."""
    person.send({"type": "create", "edition": "board"})
    room = person.room(status="waiting")["id"]  # the person's other rooms are playing
    person.say(room, f"/bot {level}")
    person.say(room, "/start")
    person.room(id=room, status="playing")
    return room


def until_their_turn(person: Person, room: str) -> None:
    for _ in range(600):
        person.send({"type": "sync", "room": room})
        if person.room(id=room)["legal"]:
            return
        time.sleep(0.05)
    raise AssertionError("the computer player never ended its turn")


def spectacle(person: Person, level: str) -> str:
    """``person`` opens a room against a computer player of ``level``, starts it and leaves the seat to another:
    a game of computer players only, which they watch; the room's id."""
    room = against_bot(person, level)
    person.say(room, "/leave")
    return room


class AgainstBot:
    """``person``'s game against a computer player of ``level``, renewed whenever a game ends (one of twenty
    stools, a player gone out), so that a measurement always reaches its count."""

    def __init__(self, person: Person, level: str) -> None:
        self.person, self.level = person, level
        self.room = against_bot(person, level)

    def seconds_per_bot_step(self, turns: int) -> float:
        """The person plays on; the median time the computer player took per step over its next ``turns`` turns
        (from the end of the person's turn to their next). The first is left out, as its start may have been read
        late."""
        per_step: list[float] = []
        since: tuple[float, int] | None = None
        state = self.person.latest
        while len(per_step) <= turns:
            if state is None or state["id"] != self.room:
                state = self.person.room(id=self.room)
                continue
            if state["status"] != "playing":
                self.room, since = against_bot(self.person, self.level), None
                state = self.person.latest
                continue
            if state["legal"]:
                if since is not None:
                    per_step.append((time.monotonic() - since[0]) / max(1, state["plies"] - since[1]))
                    since = None
                self.person.send(
                    {"type": "step", "room": self.room, "step": state["legal"][0], "plies": state["plies"]}
                )
            elif since is None:
                since = (time.monotonic(), state["plies"])
            state = self.person.room(id=self.room)
        return statistics.median(per_step[1:])


def metric(client: TestClient, name: str) -> int:
    lines = dict(line.split() for line in client.get("/metrics").text.splitlines())
    return int(lines[f"cafe_{name}_total"])


def test_a_hint_flood_neither_slows_other_rooms_nor_thinks_twice(tmp_path: Path) -> None:
    with served(create_app(tmp_path, hint_seconds=0.5, **FAST)) as client:
        bob = Person(client, "Bob")
        ours = AgainstBot(bob, "hard")
        baseline = ours.seconds_per_bot_step(5)
        # Cid, on his turn in two rooms against computer players, asks for hints from ten connections at once
        cid = Person(client, "Cid")
        rooms = [against_bot(cid, "easy") for _ in range(2)]
        for room in rooms:
            until_their_turn(cid, room)
        flood = [Person(client, token=cid.token) for _ in range(10)]
        for i, asker in enumerate(flood):
            for k in range(ASKS):
                asker.send({"type": "hint", "room": rooms[(i + k) % 2]})
        flooded = ours.seconds_per_bot_step(5)
        answers: dict[str, set[str]] = {room: set() for room in rooms}
        busy = 0
        for asker in flood:
            for _ in range(ASKS):
                answer = asker.expect("hint", "error")
                if answer["type"] == "hint":
                    answers[answer["room"]].add(answer["step"])
                else:
                    assert answer["code"] == "busy" and "still being thought out" in answer["message"]
                    busy += 1
        assert flooded / baseline < 3, (baseline, flooded)
        thought, repeated, refused = (metric(client, f"hints_{how}") for how in ("thought", "repeated", "refused"))
        assert thought <= len(rooms) and thought + repeated + refused == ASKS * len(flood) and refused == busy >= 1
        assert all(len(steps) <= 1 for steps in answers.values())  # one position, one answer
        close_all()


def test_a_griefers_spectacles_are_bounded_and_yield_to_games_people_play(tmp_path: Path) -> None:
    with served(create_app(tmp_path, **FAST)) as client:
        bob = Person(client, "Bob")
        ours = AgainstBot(bob, "hard")
        baseline = ours.seconds_per_bot_step(5)
        griefers = [Person(client, name) for name in ("Eve", "Fay", "Gus")]
        for griefer in griefers:  # three games of computer players each, which they watch
            for _ in range(3):
                spectacle(griefer, "expert")
        watched = ours.seconds_per_bot_step(5)
        assert watched / baseline < 3, (baseline, watched)
        for griefer in griefers:  # and not a fourth table while those go on
            griefer.send({"type": "create", "edition": "board"})
            answer = griefer.expect("error", "room")
            while answer["type"] == "room" and answer["room"]["status"] != "waiting":  # news of the three games
                answer = griefer.expect("error", "room")
            assert answer["type"] == "error" and answer["code"] == "busy", answer
            assert "3 tables already" in answer["message"]
        close_all()


def test_the_pool_keeps_a_thread_for_the_games_people_play_and_forgets_whoever_gives_up() -> None:
    async def run() -> None:
        pool = Pool(2, 1)
        started: list[str] = []
        release = {name: threading.Event() for name in ("hint", "show", "show2", "bot", "gives-up")}

        def work(name: str) -> str:
            started.append(name)
            release[name].wait()
            return name

        async def until(count: int) -> None:
            for _ in range(1000):
                if len(started) >= count:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError(f"only {started} began")

        hint = asyncio.ensure_future(pool.run(Kind.HINT, work, "hint"))
        await until(1)
        shows = [asyncio.ensure_future(pool.run(Kind.SPECTACLE, work, name)) for name in ("show", "show2")]
        gives_up = asyncio.ensure_future(pool.run(Kind.HINT, work, "gives-up"))
        await asyncio.sleep(0.1)
        assert started == ["hint"]  # one thread for hints and spectacles: the other waits for a game of people
        bot = asyncio.ensure_future(pool.run(Kind.PLAYING, work, "bot"))
        await until(2)
        assert started == ["hint", "bot"]  # it goes before the three that came first
        gives_up.cancel()
        release["bot"].set()
        assert await bot == "bot"
        release["hint"].set()
        assert await hint == "hint"
        await until(3)
        assert started[2] == "show"  # the hint that gave up takes no thread
        release["show"].set()
        release["show2"].set()
        assert [await show for show in shows] == ["show", "show2"]
        assert started == ["hint", "bot", "show", "show2"] and gives_up.cancelled()
        pool.shutdown()

    asyncio.run(run())


def test_once_the_pool_is_shut_down_whoever_waits_for_a_thread_hears_so_instead_of_waiting_on() -> None:
    async def run() -> None:
        pool = Pool(1, 1)
        started, release = threading.Event(), threading.Event()

        def hold() -> bool:
            started.set()
            return release.wait()

        holding = asyncio.ensure_future(pool.run(Kind.PLAYING, hold))
        while not started.is_set():
            await asyncio.sleep(0.01)
        waiting = [asyncio.ensure_future(pool.run(Kind.PLAYING, str, n)) for n in range(2)]
        await asyncio.sleep(0.05)
        assert not any(w.done() for w in waiting)
        pool.shutdown()
        release.set()
        assert await holding is True
        for waiter in waiting:  # each in turn is given the thread, cannot use it, and passes it on
            with contextlib.suppress(RuntimeError):
                await waiter
                raise AssertionError("a shut-down pool ran new work")

    asyncio.run(asyncio.wait_for(run(), 60))


def test_a_waiter_who_gives_up_as_another_arrives_takes_no_thread() -> None:
    async def run() -> None:
        pool = Pool(1, 1)
        release = threading.Event()
        holding = asyncio.ensure_future(pool.run(Kind.HINT, release.wait))
        gives_up = asyncio.ensure_future(pool.run(Kind.HINT, str, "gives up"))
        await asyncio.sleep(0.05)
        arrives = asyncio.ensure_future(pool.run(Kind.HINT, str, "arrives"))  # its asking runs first, then the
        gives_up.cancel()  # one who gave up hears of it: meanwhile, the pool sees a cancelled waiter
        release.set()
        assert await holding is True
        assert await arrives == "arrives"
        assert gives_up.cancelled()
        assert await pool.run(Kind.HINT, str, "next") == "next"  # no thread was lost on the way
        pool.shutdown()

    asyncio.run(asyncio.wait_for(run(), 60))


def test_a_hint_that_fails_is_not_kept_and_its_asker_may_ask_again() -> None:
    async def run() -> None:
        counts: dict[str, int] = {}
        hints = Hints(counts)

        async def fails() -> list[str]:
            raise ValueError("the helper failed")

        async def thinks() -> list[str]:
            return ["USAm@a2"]

        with contextlib.suppress(ValueError):
            await hints.ask("room", "position", 7, fails)
            raise AssertionError("a failed hint was answered")
        assert await hints.ask("room", "position", 7, thinks) == ["USAm@a2"]  # thought out anew, not "busy"
        assert await hints.ask("room", "position", 8, fails) == ["USAm@a2"]  # kept now: served again
        assert counts == {"hints_thought": 1, "hints_repeated": 1, "hints_refused": 0}

    asyncio.run(run())
