"""Holidays: a person with an account stops the clocks of their turn-based games for some days a year
(cafe.server.holidays).  Through the real application over a real SQLite file or PostgreSQL, and real server
processes for a restart (each case failed before holidays existed; that no turn is told to a person on holiday, by
e-mail or push, failed before notices minded holidays)."""

from __future__ import annotations

import contextlib
import datetime
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from websockets.sync.client import connect

import test_scale
from cafe.server.app import create_app
from cafe.server.holidays import year_start
from cafe.server.mail import Smtp
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import SQLiteStore, Store
from push_service import PushService
from servers import free_port, fresh_database, start_server
from smtp_box import smtp_server
from test_scale import OPEN, Player
from test_server import Person, served
from test_server_accounts import PASSWORD, Signed, claimed
from test_server_days import turn_based
from test_server_email import Cafe, verified
from test_server_push import play_the_turn, subscribe

cluster = test_scale.cluster  # server processes on one PostgreSQL database and the test Redis

HOUR = 0.05  # seconds in an hour of the clock here: a turn of twelve hours lasts 0.6 s, a day of holiday 1.2 s
DAY = 24 * HOUR


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def cafe(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, Store]]:
    """The café on a real SQLite file, or on PostgreSQL (under scripts/with-services.sh); and its store."""
    options: dict[str, Any] = {"clock_hour": HOUR, "bot_delay": 0.0, "holiday_days": 3}
    if request.param == "sqlite":
        with served(create_app(tmp_path, **options)) as client:
            yield client, SQLiteStore(tmp_path / "cafe.sqlite3")
        return
    with fresh_database() as url, served(create_app(store=PostgresStore(url), **options)) as client:
        yield client, PostgresStore(url)


def holiday(person: Person, **asked: Any) -> dict[str, Any]:
    person.send({"type": "holiday", **asked})
    return person.expect("holiday", "error")


def test_a_clock_that_would_run_out_during_a_holiday_runs_out_after_it_with_the_time_left(
    cafe: tuple[TestClient, Store],
) -> None:
    client, store = cafe
    ann, _ = claimed(client, "Ann")
    bob = Person(client, "Bob")
    room = turn_based(ann, bob, clock=12)  # Ann's turn: 0.6 s on her clock
    before = store.load_room(room)
    assert before is not None and before.deadline is not None
    answer = holiday(ann, days=1)
    assert answer["type"] == "holiday" and answer["used"] == 1 and answer["allowance"] == 3
    found = store.holiday(ann.player, time.time())
    assert found is not None and found[1] == answer["until"]
    starts, until = found
    after = store.load_room(room)
    assert after is not None and after.deadline == pytest.approx(before.deadline + (until - starts))
    seen = bob.room(holiday=[until, None])  # the others see until when (the page writes the date)
    assert seen["left"] > DAY / 2  # her time left is the holiday's and the turn's
    bob.expect("info", room=room, text="Ann's time is up: a computer player plays this turn")
    assert time.time() >= until  # not during the holiday: after it, with the time that was left
    while bob.room()["view"]["current_player"] == 0:
        pass


def test_ending_a_holiday_early_starts_the_clock_again_and_counts_the_days_begun(
    cafe: tuple[TestClient, Store],
) -> None:
    client, store = cafe
    ann, _ = claimed(client, "Ann")
    bob = Person(client, "Bob")
    room = turn_based(ann, bob, clock=48)  # 2.4 s on her clock: she ends the holiday long before that
    before = store.load_room(room)
    assert before is not None and before.deadline is not None
    until = holiday(ann, days=3)["until"]
    bob.room(holiday=[until, None])
    ended = holiday(ann, end=True)
    assert ended["until"] is None and ended["used"] == 1  # one day begun, two given back
    (starts, stopped), *_ = store.rows("SELECT starts, ends FROM holidays WHERE player = %s", ann.player)  # type: ignore[attr-defined]
    after = store.load_room(room)
    assert after is not None and after.deadline == pytest.approx(before.deadline + (stopped - starts))
    assert bob.room()["holiday"] == [None, None]  # back
    assert holiday(ann)["used"] == 1


def test_the_days_of_holiday_are_a_yearly_allowance(cafe: tuple[TestClient, Store]) -> None:
    client, store = cafe
    ann, _ = claimed(client, "Ann")
    last_year = year_start(time.time()) - 10 * DAY
    assert store.begin_holiday(ann.player, last_year, last_year + 3 * DAY, 3)  # all of last year's allowance
    assert holiday(ann)["used"] == 0  # a new year, a new allowance
    assert holiday(ann, days=2)["used"] == 2
    holiday(ann, end=True)  # one day begun
    refused = holiday(ann, days=3)
    assert refused["code"] == "holiday" and refused["message"] == "this year you have 2 days of holiday left (of 3)"
    assert holiday(ann, days=2)["used"] == 3
    assert holiday(ann, end=True)["used"] == 2
    assert holiday(ann, days=2)["message"] == "this year you have 1 day of holiday left (of 3)"
    assert holiday(ann, days=1)["used"] == 3
    assert holiday(ann, end=True)["used"] == 3  # the day begun counts
    assert holiday(ann, days=1)["message"] == "this year you have 0 days of holiday left (of 3)"


def test_the_year_of_a_holiday_is_the_calendar_year_in_utc() -> None:
    new_year = datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC).timestamp()
    assert year_start(new_year) == new_year
    assert year_start(new_year - 1) == datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC).timestamp()
    assert year_start(new_year + 86_399) == new_year


def test_every_wrong_holiday_is_refused_in_the_readers_language_and_changes_nothing(
    cafe: tuple[TestClient, Store],
) -> None:
    client, store = cafe
    guest = Person(client, "Cem")
    assert holiday(guest, days=1)["message"] == "holidays are for accounts: claim your name with a password first"
    ann, session = claimed(client, "Ann")
    for wrong in ({"days": -1}, {"days": 0}, {"days": "2"}, {"days": True}, {"days": 1.5}, {"days": 4}):
        refused = holiday(ann, **wrong)
        assert refused["code"] == "field" and refused["message"] == "'days' is a whole number of days, from 1 to 3"
    assert holiday(ann, end=True)["message"] == "you are not on holiday"
    assert holiday(ann, end="yes")["code"] == "field"
    assert holiday(ann, days=1, end=True)["code"] == "field"
    assert holiday(ann) == {"type": "holiday", "until": None, "used": 0, "allowance": 3}  # nothing changed
    assert holiday(ann, days=1)["used"] == 1
    again = Signed(client, session)  # the same account on another connection
    again.send({"type": "language", "lang": "de"})
    assert "Urlaub" in holiday(again, days=1)["message"]
    assert holiday(ann)["used"] == 1
    assert store.on_holiday([ann.player, guest.player], time.time()).keys() == {ann.player}


def test_a_live_game_is_not_stopped_by_a_holiday(tmp_path: Path) -> None:
    with served(create_app(tmp_path, turn_seconds=0.3, bot_delay=0.0)) as client:
        ann, _ = claimed(client, "Ann")
        bob = Person(client, "Bob")
        ann.send({"type": "create", "edition": "board"})
        room = ann.room()["id"]
        bob.send({"type": "enter", "room": room})
        bob.say(room, "/join")
        while len(ann.room()["seats"]) < 2:
            pass
        ann.say(room, "/start")
        assert "holiday" not in ann.room(status="playing")
        assert holiday(ann, days=1)["until"] is not None
        bob.expect("info", room=room, text="Ann's time is up: a computer player plays this turn")


def account(port: int, name: str) -> Player:
    """A person who claims their name on the server at ``port``, connected again with their sign-in cookie."""
    guest = Player(port, name)
    request = urllib.request.Request(f"http://127.0.0.1:{port}/account/claim", method="POST",
                                     data=json.dumps({"token": guest.token, "password": PASSWORD}).encode(),
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request) as answer:
        session = answer.headers["set-cookie"].split(";")[0]
    guest.ws = connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"cookie": session}).__enter__()
    OPEN.append(guest.ws)
    guest.send({"type": "hello"})
    guest.expect("welcome")
    return guest


def on_holiday(ann: Player, bob: Player, days: int = 1) -> tuple[str, float]:
    """Ann opens a table of twelve hours a turn, Bob joins, Ann starts and goes on holiday for ``days`` on her turn:
    the room, and until when."""
    ann.send({"type": "create", "edition": "board", "clock": 12})
    room = ann.room()["id"]
    bob.send({"type": "say", "room": room, "text": "/join"})
    while len(ann.room()["seats"]) < 2:
        pass
    ann.send({"type": "say", "room": room, "text": "/start"})
    ann.room(status="playing")
    ann.send({"type": "holiday", "days": days})
    return room, ann.expect("holiday")["until"]


@pytest.mark.services
def test_a_holiday_begun_on_one_process_holds_the_clock_on_another_after_the_first_is_killed(
    cluster: test_scale.Cluster,
) -> None:
    hour = "clock_hour=0.2"
    one, two = cluster.start(hour), cluster.start(hour)
    ann, bob = account(one, "Ann"), Player(two, "Bob")
    room, until = on_holiday(ann, bob)
    state = bob.room(id=room, holiday=[until, None])  # heard on the other process
    while state["left"] <= until - time.time():  # a state read between the holiday's start and its clock's move
        state = bob.room(id=room, holiday=[until, None])
    assert state["left"] > until - time.time()
    cluster.kill(one)  # the process where the holiday began is gone: the store and the due job keep it
    bob.expect("info", room=room, text="Ann's time is up: a computer player plays this turn")
    assert time.time() >= until


def test_a_holiday_holds_the_clock_across_a_restart_of_the_server(tmp_path: Path) -> None:
    port = free_port()
    hour = "clock_hour=0.2"  # a turn of twelve hours lasts 2.4 s, a day of holiday 4.8 s
    server = start_server(port, tmp_path, "--limit", hour)
    try:
        ann, bob = account(port, "Ann"), Player(port, "Bob")
        room, until = on_holiday(ann, bob, days=3)  # 14.4 s: longer than a restart on a busy machine
        server.kill()  # the holiday and the clock it moved: only the store knows them
        server.wait()
        while OPEN:
            OPEN.pop().close()
        server = start_server(port, tmp_path, "--limit", hour)
        bob = Player(port, token=bob.token)
        bob.send({"type": "sync", "room": room})
        state = bob.room(id=room)
        assert state["holiday"] == [until, None] and state["left"] > until - time.time()
        bob.expect("info", room=room, text="Ann's time is up: a computer player plays this turn")
        assert time.time() >= until  # the process that restarted kept the clock stopped
    finally:
        while OPEN:
            OPEN.pop().close()
        server.kill()
        server.wait()


def test_a_cafe_may_give_no_holidays(tmp_path: Path) -> None:
    with served(create_app(tmp_path, holiday_days=0)) as client:
        ann, _ = claimed(client, "Ann")
        assert holiday(ann, days=1)["message"] == "this café gives no holidays"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def noticing(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Cafe, PushService]]:
    """The café with e-mail (a real SMTP server on loopback) and Web Push (the tests' own push service), on a real
    SQLite file or on PostgreSQL (under scripts/with-services.sh)."""
    with smtp_server() as (box, url), PushService(tmp_path) as service:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(service.ca))  # the café trusts the tests' push service
        options: dict[str, Any] = {"mail": Smtp.parse(url, None, "http://testserver/"), "bot_delay": 0.0}
        with contextlib.ExitStack() as stack:
            if request.param == "postgresql":
                options["store"] = PostgresStore(stack.enter_context(fresh_database()))
            app = create_app(tmp_path, **options)
            with served(app) as client:
                yield Cafe(client, box, app), service


def test_a_person_on_holiday_hears_of_no_turn_of_theirs_until_the_holiday_ends(
    noticing: tuple[Cafe, PushService],
) -> None:
    cafe, service = noticing
    client = cafe.client
    ann, _ = claimed(client, "Ann")
    _, bob_session = claimed(client, "Bob")
    verified(cafe, bob_session, "bob@example.org")
    phone = service.device("bob")
    assert subscribe(client, bob_session, phone).json() == {"subscribed": True}
    bob = Signed(client, bob_session)
    room = turn_based(ann, bob)  # Ann's turn first
    until = holiday(bob, days=2)["until"]
    play_the_turn(ann, room)  # Bob's turn begins while he is on holiday
    waiting: list[tuple[Any, ...]] = []
    for _ in range(600):  # its notices wait for the end of his holiday, by e-mail and by push
        waiting = cafe.sql("SELECT kind, at FROM due WHERE kind IN ('mail-turn', 'push') ORDER BY kind")
        if [kind for kind, _ in waiting] == ["mail-turn", "push"]:
            break
        time.sleep(0.01)
    assert [(kind, pytest.approx(at, abs=0.01)) for kind, at in waiting] == [("mail-turn", until), ("push", until)]
    assert len(cafe.box.to("bob@example.org")) == 1 and service.received == []  # the link that verified it alone
    assert holiday(bob, end=True)["until"] is None  # back early: the notices go now
    mail = cafe.box.wait("bob@example.org", 2)
    assert mail.subject == "Your turn at Ann's table" and f"http://testserver/#room={room}" in mail.body
    (pushed,) = service.wait(1)
    assert phone.read(pushed)["body"] == "Your turn at Ann's table"


def test_a_turn_begun_during_a_holiday_is_mailed_when_the_holiday_ends_by_itself(tmp_path: Path) -> None:
    with smtp_server() as (box, url):
        mail = Smtp.parse(url, None, "http://testserver/")
        app = create_app(tmp_path, mail=mail, clock_hour=HOUR, holiday_days=3, bot_delay=0.0)
        with served(app) as client:
            ann, _ = claimed(client, "Ann")
            _, bob_session = claimed(client, "Bob")
            verified(Cafe(client, box, app), bob_session, "bob@example.org")
            bob = Signed(client, bob_session)
            room = turn_based(ann, bob, clock=72)  # 3.6 s on Ann's clock
            until = holiday(bob, days=2)["until"]  # 2.4 s
            play_the_turn(ann, room)  # Bob's turn begins during his holiday
            told = box.wait("bob@example.org", 2)
            assert time.time() >= until  # not during the holiday: once it is over
            assert told.subject == "Your turn at Ann's table" and f"http://testserver/#room={room}" in told.body
