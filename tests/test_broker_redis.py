"""The Redis broker itself, two "processes" in this one (two brokers) on a Redis of the test's own that goes away
and comes back: presence and following are shared, a process answers from what it knows while Redis is away and says
it all again once Redis is back, and one event that cannot be delivered does not stop the next."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from cafe.server.app import create_app
from cafe.server.broker import Event, RedisBroker, namespace_for
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import Unavailable
from own_services import OwnRedis
from servers import fresh_database
from test_server import Person, close_all

pytestmark = pytest.mark.services


async def until(condition: Callable[[], object], what: str) -> None:
    """Wait (a minute at most) until ``condition()`` holds."""
    for _ in range(1200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def test_presence_is_shared_answered_alone_while_redis_is_away_and_said_again_once_it_is_back() -> None:
    redis = OwnRedis()
    resyncs: list[str] = []

    async def deliver(event: Event) -> None:
        pass

    async def run() -> None:
        here, there = RedisBroker(redis.url, "t"), RedisBroker(redis.url, "t")

        async def resync() -> None:
            resyncs.append("here")

        async def fails() -> None:
            resyncs.append("there")
            raise Unavailable("the database does not answer either")

        await here.start(deliver, resync)
        await there.start(deliver, fails)
        try:
            await here.arrive(5)
            await here.arrive(5)
            await here.depart(5)  # one of Ann's two tabs closes: she is still connected
            await here.follow("r1")
            assert await there.present(5) and await there.followed("r1")
            assert not await there.present(6) and not await there.followed("r2")
            redis.kill()
            assert await here.present(5) and not await here.present(6)  # what this process knows itself
            assert await here.followed("r1") and not await here.followed("r2")
            await here.arrive(7)  # counted here, said once Redis is back
            with pytest.raises(Unavailable):
                await here.version("r1")
            await until(lambda: not here.connected, "the broker heard that Redis went away")
            redis.start()  # an empty Redis, as after a crash
            await until(lambda: here.connected and "here" in resyncs, "the broker came back and read every room again")
            await until(lambda: there.connected and "there" in resyncs, "the other came back, though its rooms failed")
            assert await there.present(7) and await there.present(5) and await there.followed("r1")
            assert await here.version("r1") == 0
        finally:
            await there.close()
            await here.close()

    try:
        asyncio.run(run())
    finally:
        redis.remove()


def test_an_event_that_cannot_be_delivered_does_not_stop_the_next() -> None:
    redis = OwnRedis()
    delivered: list[str] = []

    async def deliver(event: Event) -> None:
        if event.kind == "broken":
            raise ValueError("this event's room is gone")
        delivered.append(event.kind)

    async def run() -> None:
        broker = RedisBroker(redis.url, "t")
        await broker.start(deliver, lambda: asyncio.sleep(0))
        try:
            await broker.publish("r1", "broken", {})
            await broker.publish("r1", "chat", {"text": "hello"})
            await until(lambda: delivered, "the second event was delivered")
            assert delivered == ["chat"]
        finally:
            await broker.close()

    try:
        asyncio.run(run())
    finally:
        redis.remove()


def test_two_cafes_whose_redis_restarts_read_every_room_again_and_go_on_together() -> None:
    from starlette.testclient import TestClient

    redis = OwnRedis()
    try:
        with fresh_database() as url:
            one, two = (create_app(store=PostgresStore(url), broker=RedisBroker(redis.url, namespace_for(url)),
                                   bot_delay=0.0) for _ in range(2))  # fmt: skip
            with TestClient(one) as a, TestClient(two) as b:
                try:
                    ann = Person(a, "Ann")
                    ann.send({"type": "create", "edition": "board"})
                    room = ann.room()["id"]
                    ann.say(room, "Who plays?")
                    before = ann.expect("chat")["seq"]
                    redis.kill()
                    ann.say(room, "/bot easy")
                    assert "reconnecting" in ann.expect("error", code="unavailable")["message"]
                    redis.start()  # empty: each process subscribes again and reads every room again
                    again = ann.room(id=room)  # the whole room, sent by the reading again (nothing else happened)
                    assert again["status"] == "waiting" and [s["name"] for s in again["seats"]] == ["Ann"]
                    # an empty Redis numbers the room's messages on from the highest the process saw: never back
                    bob = Person(b, "Bob")  # on the other process
                    bob.send({"type": "enter", "room": room})
                    bob.say(room, "/join")
                    while len(ann.room(id=room)["seats"]) < 2:  # heard through Redis again
                        pass
                    assert ann.seqs[room] > before  # numbered on, where an emptied Redis counted from 1 again
                    ann.say(room, "/start")
                    assert bob.room(id=room, status="playing")["you"] == 1
                finally:
                    close_all()
    finally:
        redis.remove()
