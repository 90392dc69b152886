"""The café's connection to PostgreSQL (cafe.server.storage.database) over a PostgreSQL of the test's own that restarts:
while it is away, /health's question is answered "no" and a request "try again"; once it is back, the first statement
goes through although the connection it found was broken, and nothing stored was lost."""

from __future__ import annotations

import time

import pytest

from cafe.server.app import create_app
from cafe.server.broker import Event
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import Unavailable
from own_services import OwnPostgres
from test_server import Person, served

pytestmark = pytest.mark.services


def test_a_restarted_database_is_answered_away_meanwhile_and_used_again_after() -> None:
    postgres = OwnPostgres()
    try:
        store = PostgresStore(postgres.url)
        ann = store.add_player("Ann", "ann's token")
        assert store.reachable()
        postgres.stop()
        assert not store.reachable()
        with pytest.raises(Unavailable):
            store.player_by_token("ann's token")
        postgres.start()
        for _ in range(100):  # the pool connects again in the background
            if store.reachable():
                break
        assert store.player_by_token("ann's token") == (ann, "Ann")
        postgres.stop()
        postgres.start()  # the pool's connection is broken now, and it does not know yet
        assert store.player_by_token("ann's token") == (ann, "Ann")  # sent again on a fresh connection
        store.close()
    finally:
        postgres.remove()


def test_while_the_database_is_away_a_request_is_answered_try_again_and_the_connection_lives() -> None:
    postgres = OwnPostgres()
    try:
        with served(create_app(store=PostgresStore(postgres.url), bot_delay=0.0)) as client:
            ann = Person(client, "Ann")
            postgres.stop()
            ann.send({"type": "create", "edition": "board"})
            said = ann.expect("error", code="unavailable")["message"]
            assert said == "the café is reconnecting; try again in a moment"
            postgres.start()
            for _ in range(300):  # "a moment": each try is answered at once while the database is away
                ann.send({"type": "create", "edition": "board"})
                if ann.expect("room", "error")["type"] == "room":
                    break
                time.sleep(0.2)
            assert ann.latest is not None and ann.latest["status"] == "waiting" and ann.latest["you"] == 0
    finally:
        postgres.remove()


def test_news_of_a_room_that_came_while_the_database_was_away_reaches_its_followers_once_it_is_back() -> None:
    """Another process changed a room and said so just as the database went away: this process cannot read the
    change then, and reads it once the database answers again, so that its followers are not left a step behind
    (a game stalled on the turn they never saw)."""
    postgres = OwnPostgres()
    try:
        with served(create_app(store=PostgresStore(postgres.url), bot_delay=0.0)) as client:
            ann = Person(client, "Ann")
            ann.send({"type": "create", "edition": "board"})
            room = ann.expect("room")["room"]
            gateway = client.app.state.gateway  # type: ignore[attr-defined]
            held = gateway.tables.rooms[room["id"]]
            postgres.stop()
            news = Event(room["id"], "changed", held.seq + 1, held.version + 1, "another process", {})
            client.portal.call(gateway.deliver, news)  # type: ignore[union-attr]  # not lost: read again later
            postgres.start()
            again = ann.expect("room")["room"]
            assert again["id"] == room["id"] and again["status"] == "waiting"
    finally:
        postgres.remove()
