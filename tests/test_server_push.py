"""Web Push through the real café: a person subscribes, the other person's turn in a game over days and its end
reach their device (a push service of the test's own, over HTTPS, decrypting as a browser does and checking the
café's VAPID signature); a gone endpoint is forgotten; bad subscriptions are refused and nothing is kept; the
café's key lasts across restarts.  Each failed before the café pushed anything."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.server.app import create_app
from cafe.server.push import KEY_FILE
from cafe.server.storage.push_rows import DEVICES, Subscription
from cafe.server.storage.store import Store
from push_service import Device, PushService, b64, vapid_claims
from servers import free_port, fresh_database, start_server
from test_scale import OPEN, Cluster, Player
from test_server import Person, make_account, served
from test_server_accounts import call
from test_server_days import turn_based


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PushService]:
    """The test's push service, whose certificate the café's requests trust."""
    with PushService(tmp_path) as running:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(running.ca))
        yield running


def subscribe(client: TestClient, session: str, device: Device, language: str = "en") -> Any:
    answer, _ = call(client, f"/push/subscribe?lang={language}", device.subscription(), session)
    return answer


def play_the_turn(person: Person, room: str, plies: int = 0) -> int:
    """The person whose turn it is after ``plies`` steps plays it out, the first legal step each time: the steps
    played by then."""
    state = person.at(plies)
    seat = state["view"]["current_player"]
    while state["view"]["current_player"] == seat and state["status"] == "playing":
        time.sleep(0.05)  # within the rate limit
        person.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
        state = person.at(state["plies"] + 1)
    return int(state["plies"])


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The café with its data folder, on a real SQLite file or on PostgreSQL (under scripts/with-services.sh)."""
    if request.param == "sqlite":
        with served(create_app(tmp_path)) as on_sqlite:
            yield on_sqlite
        return
    from cafe.server.storage.postgres import PostgresStore

    with fresh_database() as url, served(create_app(tmp_path, store=PostgresStore(url))) as on_postgresql:
        yield on_postgresql


def test_the_other_persons_turn_reaches_their_device_in_their_language(
    client: TestClient, service: PushService
) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    _, bob_session = make_account(client, ann, bob)
    public = client.get("/push/key").json()["key"]
    phone = service.device("bob-phone")
    assert subscribe(client, bob_session, phone, "de").json() == {"subscribed": True}
    room = turn_based(ann, bob)  # Ann's turn first: she has no device, nothing is sent
    plies = play_the_turn(ann, room)
    (message,) = service.wait(1)
    assert message.path == "/push/bob-phone"
    notice = phone.read(message)  # the table's name is the one its host gave it
    assert notice == {"title": "Café International", "body": "Du bist am Zug: Ann's table", "url": f"/#room={room}",
                      "tag": f"cafe-{room}"}  # fmt: skip
    claims = vapid_claims(message, public)
    assert claims["aud"] == service.origin and claims["exp"] > time.time() and claims["sub"].startswith("mailto:")
    assert int(message.headers["ttl"]) > 0
    plies = play_the_turn(bob, room, plies)  # Ann's turn now: she has no device, and Bob hears nothing of it
    assert ann.at(plies)["view"]["current_player"] == 0
    assert service.received == [message]


def test_the_end_of_a_game_over_days_reaches_everyone_who_played(tmp_path: Path, service: PushService) -> None:
    with served(create_app(tmp_path, clock_hour=0.02)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        sessions = make_account(client, ann, bob)
        devices = [service.device("ann"), service.device("bob")]
        for session, device in zip(sessions, devices, strict=True):
            subscribe(client, session, device)
        room = turn_based(ann, bob, clock=12, late="end")
        bob.expect("info", room=room, text="Ann's time is up: the others may end the game (/end), or wait")
        bob.say(room, "/end")
        bob.expect("info", room=room)
        heard: dict[str, list[str]] = {"/push/ann": [], "/push/bob": []}
        for message in service.wait(3):  # Ann's turn at the start, and the end for both
            heard[message.path].append(devices[message.path == "/push/bob"].read(message)["body"])
        assert sorted(heard["/push/ann"]) == ["The game at Ann's table is over", "Your turn at Ann's table"]
        assert heard["/push/bob"] == ["The game at Ann's table is over"]


def test_an_endpoint_that_is_gone_is_forgotten_and_the_others_still_hear(tmp_path: Path, service: PushService) -> None:
    with served(create_app(tmp_path)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        _, bob_session = make_account(client, ann, bob)
        old, new = service.device("old-laptop"), service.device("phone")
        service.answers["/push/old-laptop"] = 410
        subscribe(client, bob_session, old)
        subscribe(client, bob_session, new)
        room = turn_based(ann, bob)
        plies = play_the_turn(ann, room)
        assert sorted(m.path for m in service.wait(2)) == ["/push/old-laptop", "/push/phone"]
        store = client.app.state.gateway.store  # type: ignore[attr-defined]
        for _ in range(600):  # the café forgets it once the 410 is in
            if len(store.subscriptions(bob.player)) == 1:
                break
            time.sleep(0.01)
        assert [s.endpoint for s in store.subscriptions(bob.player)] == [new.endpoint]
        plies = play_the_turn(bob, room, plies)
        play_the_turn(ann, room, plies)  # Bob's turn again: only his phone hears of it
        assert [m.path for m in service.wait(3)[2:]] == ["/push/phone"]


def test_the_cafe_follows_no_redirection_of_a_push_service(tmp_path: Path, service: PushService) -> None:
    """An endpoint comes from a browser, so the café posts only to it: a redirection elsewhere is not followed (and
    the endpoint is not forgotten for it: it is not gone)."""
    with served(create_app(tmp_path)) as client:
        ann, bob = Person(client, "Ann"), Person(client, "Bob")
        _, bob_session = make_account(client, ann, bob)
        moved, phone = service.device("moved"), service.device("phone")
        service.answers["/push/moved"] = 307
        subscribe(client, bob_session, moved)
        subscribe(client, bob_session, phone)
        room = turn_based(ann, bob)
        plies = play_the_turn(ann, room)
        plies = play_the_turn(bob, room, plies)
        play_the_turn(ann, room, plies)  # Bob's turn twice: each time both devices are posted to, and that is all
        assert sorted(m.path for m in service.wait(4)) == ["/push/moved"] * 2 + ["/push/phone"] * 2
        assert len(client.app.state.gateway.store.subscriptions(bob.player)) == 2  # type: ignore[attr-defined]


AUTH = b64(b"1" * 16)
ENDPOINT = ("'endpoint' must be an https:// address", "« endpoint » doit être une adresse https://")
KEYS = ("'keys' must hold the browser's key 'p256dh' (65 bytes)", "« keys » doit contenir la clé « p256dh »")
BAD = [
    ({"endpoint": "http://push.example/1"}, ENDPOINT),
    ({"endpoint": "https://push.example/" + "x" * 1100}, ENDPOINT),
    ({"endpoint": "javascript:alert(1)"}, ENDPOINT),
    ({"endpoint": "https://"}, ENDPOINT),
    ({"endpoint": "https://[::1/x"}, ENDPOINT),
    ({"endpoint": "https://push.example:99999/x"}, ENDPOINT),
    ({"endpoint": "https://push.example/a b"}, ENDPOINT),
    ({"endpoint": 7}, ENDPOINT),
    ({"keys": {"p256dh": "abc", "auth": AUTH}}, KEYS),
    ({"keys": {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": AUTH}}, KEYS),  # not a point of the curve
    ({"keys": {"p256dh": b64(b"\x04" + b"\x01" * 64) + "!", "auth": AUTH}}, KEYS),
    ({"keys": {"auth": AUTH}}, KEYS),
    ({"keys": "secret"}, KEYS),
]


@pytest.mark.parametrize(("change", "said"), BAD)
def test_a_bad_subscription_is_refused_with_a_reason_in_the_readers_language_and_nothing_is_kept(
    tmp_path: Path, change: dict[str, Any], said: tuple[str, str]
) -> None:
    with served(create_app(tmp_path)) as client:
        (session,) = make_account(client, Person(client, "Ann"))
        sent = {**Device("https://push.example/ann").subscription(), **change}
        for language, words in zip(("en", "fr"), said, strict=True):
            answer, _ = call(client, f"/push/subscribe?lang={language}", sent, session)
            assert answer.status_code == 400 and answer.json()["error"].startswith(words), answer.json()
        assert client.app.state.gateway.store.subscriptions(1) == []  # type: ignore[attr-defined]


def test_only_a_signed_in_person_subscribes_and_only_from_the_cafes_page(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        (session,) = make_account(client, Person(client, "Ann"))
        device = Device("https://push.example/ann").subscription()
        answer, _ = call(client, "/push/subscribe", device)
        assert answer.status_code == 401 and answer.json()["error"] == "you are not signed in"
        answer, _ = call(client, "/push/subscribe", device, session, origin="https://evil.example")
        assert answer.status_code == 403
        assert client.app.state.gateway.store.subscriptions(1) == []  # type: ignore[attr-defined]
        assert call(client, "/push/subscribe", device, session)[0].status_code == 200
        assert call(client, "/push/unsubscribe", {"endpoint": device["endpoint"]}, session)[0].json() == {
            "subscribed": False
        }
        assert client.app.state.gateway.store.subscriptions(1) == []  # type: ignore[attr-defined]


def key_of(folder: Path) -> tuple[str, str]:
    """A `cafe serve` on ``folder``: its public key, and its service worker's content type."""
    port = free_port()
    server = start_server(port, folder)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/push/key") as answer:
            key = json.load(answer)["key"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/sw.js") as answer:
            return key, answer.headers["content-type"]
    finally:
        server.kill()
        server.wait()


def test_cafe_serve_makes_its_key_once_keeps_it_for_its_owner_alone_and_uses_it_after_a_restart(
    tmp_path: Path,
) -> None:
    first, worker = key_of(tmp_path)
    assert len(first) == 87 and worker.startswith("text/javascript")  # an uncompressed P-256 point, base64url
    assert stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode) == 0o600
    assert key_of(tmp_path)[0] == first  # restarted on the same folder
    assert key_of(tmp_path / "another")[0] != first


def test_a_persons_devices_are_bounded_and_follow_their_sign_in(store: Store) -> None:
    ann, bob = store.add_player("Ann", "ann-token"), store.add_player("Bob", "bob-token")
    store.add_session("ann-session", ann, 1.0)
    store.add_session("bob-session", bob, 1.0)
    for n in range(DEVICES + 2):
        store.subscribe(ann, "ann-session", Subscription(f"https://push.example/{n}", "k", "a", "en"), 10.0 + n)
    newest = [f"https://push.example/{n}" for n in range(2, DEVICES + 2)]
    assert [s.endpoint for s in store.subscriptions(ann)] == newest
    store.subscribe(bob, "bob-session", Subscription("https://push.example/5", "k", "a", "cs"), 50.0)  # Bob's now
    assert "https://push.example/5" not in {s.endpoint for s in store.subscriptions(ann)}
    assert store.subscriptions(bob) == [Subscription("https://push.example/5", "k", "a", "cs")]
    store.unsubscribe(ann, "https://push.example/5")  # not Ann's to take back
    store.forget_endpoint("https://push.example/2")
    assert len(store.subscriptions(ann)) == DEVICES - 2 and len(store.subscriptions(bob)) == 1
    store.end_sessions(ann)  # signed out everywhere: her devices hear nothing more
    assert store.subscriptions(ann) == [] and len(store.subscriptions(bob)) == 1


def post(port: int, path: str, body: dict[str, Any], session: str | None = None) -> tuple[Any, str | None]:
    """A POST to a `cafe serve` as its page sends it: the answer, and the session cookie it sets."""
    headers = {"content-type": "application/json", **({"cookie": f"cafe-session={session}"} if session else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as answer:
        cookie = answer.headers.get("set-cookie")
        return json.load(answer), cookie.split(";")[0].split("=", 1)[1] if cookie else None


def play_turns(ann: Player, bob: Player, turns: int) -> str:
    """Ann opens a table for a game over days, Bob joins, and they play this many turns (the first legal step each
    time, at a person's pace): the room."""
    ann.send({"type": "create", "edition": "board", "clock": 24})
    room = str(ann.room()["id"])
    bob.send({"type": "enter", "room": room})
    bob.room(id=room)
    bob.send({"type": "say", "room": room, "text": "/join"})
    while len(ann.room()["seats"]) < 2:
        pass
    ann.send({"type": "say", "room": room, "text": "/start"})
    people = {0: ann, 1: bob}
    for person in people.values():
        person.room(status="playing")
    while turns > 0:
        seat, plies = ann.state["view"]["current_player"], ann.state["plies"]
        mover = people[seat]
        mover.room(plies=plies) if mover.state.get("plies") != plies else None
        time.sleep(0.06)  # a person's pace: under the rate limit
        mover.send({"type": "step", "room": room, "step": mover.state["legal"][0], "plies": plies})
        turns -= ann.room(plies=plies + 1)["view"]["current_player"] != seat
    return room


@pytest.mark.services
def test_with_two_processes_each_turn_is_pushed_once(tmp_path: Path, service: PushService) -> None:
    """Both processes follow the game and sweep often (each sweep winds the turn's clock it has not wound yet):
    a notice goes out once all the same."""
    with fresh_database() as url:
        cluster = Cluster(url, tmp_path)  # one data folder: one key
        try:
            first, second = cluster.start("sweep_seconds=0.1"), cluster.start("sweep_seconds=0.1")
            ann, bob = Player(first, "Ann"), Player(second, "Bob")
            _, session = post(second, "/account/claim", {"token": bob.token, "password": "correct horse battery"})
            phone = service.device("bob")
            assert post(first, "/push/subscribe", phone.subscription(), session)[0] == {"subscribed": True}
            play_turns(ann, bob, 4)  # Ann, Bob, Ann, Bob: Bob's turn begins twice
            received = service.wait(2)
            assert [phone.read(m)["body"] for m in received] == ["Your turn at Ann's table"] * 2
            assert len(service.received) == 2  # after four turns' worth of sweeps on both processes
        finally:
            while OPEN:
                OPEN.pop().close()
            cluster.stop()


def test_cafe_serve_with_a_push_key_it_cannot_read_says_so_and_does_not_start(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("not a key\n")
    ran = subprocess.run([sys.executable, "-m", "cafe", "serve", "--data", str(tmp_path), "--port", str(free_port())],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.startswith(f"cafe serve: cannot use the push key {tmp_path / KEY_FILE}: ")
    assert (tmp_path / KEY_FILE).read_text() == "not a key\n"  # left as it was, for its owner to look at
