"""Accounts: a guest claims their name with a password, signs in on another connection, changes the password,
signs out everywhere, deletes the account; sign-ins bounded and telling nothing of who exists; names no guest may
take; rated games for accounts only.  Through the real application over a real SQLite file (each case failed
before accounts existed)."""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from cafe.server.app import DATABASE, create_app
from cafe.server.passwords import nobodys_hash
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import SQLiteStore, Store
from servers import free_port, fresh_database, start_server
from test_server import OPEN, Person, open_room, play_out, served

PASSWORD = "correct horse battery"
COOKIE = "cafe-session"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def cafe(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The café on a real SQLite file, or on PostgreSQL (under scripts/with-services.sh)."""
    options: dict[str, Any] = {"away_seconds": 0.2, "bot_delay": 0.0, "left_seconds": 0.05, "name_hold_seconds": 0.1}
    if request.param == "sqlite":
        with served(create_app(tmp_path, **options)) as client:
            yield client
        return
    with fresh_database() as url, served(create_app(store=PostgresStore(url), **options)) as client:
        yield client


def call(client: TestClient, path: str, body: dict[str, Any], session: str | None = None,
         **headers: str) -> tuple[httpx.Response, str | None]:  # fmt: skip
    """A POST as from its own browser (its session cookie, if any); the answer, and the session it sets."""
    client.cookies.clear()
    if session is not None:
        headers["cookie"] = f"{COOKIE}={session}"
    answer = client.post(path, content=json.dumps(body), headers={"content-type": "application/json", **headers})
    client.cookies.clear()
    return answer, answer.cookies.get(COOKIE)


def account(client: TestClient, session: str) -> dict[str, Any]:
    client.cookies.clear()
    found: dict[str, Any] = client.get("/account", headers={"cookie": f"{COOKIE}={session}"}).json()
    return found


def claimed(client: TestClient, name: str, password: str = PASSWORD) -> tuple[Person, str]:
    """A guest who says hello and claims their name: the person, and their session."""
    person = Person(client, name)
    answer, session = call(client, "/account/claim", {"token": person.token, "password": password})
    assert answer.status_code == 201 and session, answer.text
    return person, session


class Signed(Person):
    """A browser signed in to an account: its hello carries no token, the cookie says who it is."""

    def __init__(self, client: TestClient, session: str, **headers: str) -> None:
        self.socket = client.websocket_connect("/ws", headers={"cookie": f"{COOKIE}={session}", **headers}).__enter__()
        OPEN.append(self.socket)
        self.seen: list[dict[str, Any]] = []
        self.latest = None
        self.seqs: dict[str, int] = {}
        self.send({"type": "hello"})
        self.welcome = self.expect("welcome", "error")
        self.token, self.player = self.welcome.get("token"), self.welcome.get("player")


def test_a_guest_claims_their_name_and_signs_in_with_it_on_another_connection(cafe: TestClient) -> None:
    ann, session = claimed(cafe, "Ann")
    assert account(cafe, session) == {"player": ann.player, "name": "Ann", "account": True, "bot": False}
    ann.close()
    answer, second = call(cafe, "/account/sign-in", {"name": "ann", "password": PASSWORD})
    assert answer.status_code == 200 and second and second != session
    elsewhere = Signed(cafe, second)
    assert elsewhere.welcome == {"type": "welcome", "player": ann.player, "name": "Ann", "token": None,
                                 "account": True, "seated": [], "played": False, "bot": False}  # fmt: skip
    socket = cafe.websocket_connect("/ws").__enter__()  # the guest's token no longer signs anyone in
    OPEN.append(socket)
    socket.send_text(json.dumps({"type": "hello", "token": ann.token}))
    assert socket.receive_json()["code"] == "token"
    assert account(cafe, "made-up") == {"account": False}


def test_the_cookie_is_http_only_same_site_and_secure_over_https(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    cafe.cookies.clear()
    answer = cafe.post("/account/claim", content=json.dumps({"token": ann.token, "password": PASSWORD}),
                       headers={"content-type": "application/json", "x-forwarded-proto": "https"})  # fmt: skip
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # the application never reads X-Forwarded-Proto itself (uvicorn does, see below)
    cafe.cookies.clear()
    bob = Person(cafe, "Bob")
    answer = cafe.post("https://testserver/account/claim", content=json.dumps({"token": bob.token,
                       "password": PASSWORD}), headers={"content-type": "application/json"})  # fmt: skip
    assert answer.status_code == 201 and "secure" in answer.headers["set-cookie"].lower(), answer.text
    cafe.cookies.clear()


def test_behind_a_proxy_on_the_same_machine_the_cookie_is_secure_when_the_proxy_says_https(tmp_path: Path) -> None:
    """A real `cafe serve`: uvicorn believes X-Forwarded-Proto from 127.0.0.1 only (FORWARDED_ALLOW_IPS)."""
    from websockets.sync.client import connect

    port = free_port()
    server = start_server(port, tmp_path)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as socket:
            socket.send(json.dumps({"type": "hello", "name": "Ann"}))
            token = json.loads(socket.recv())["token"]
        body = json.dumps({"token": token, "password": PASSWORD}).encode()
        claim = urllib.request.Request(f"http://127.0.0.1:{port}/account/claim", data=body, headers={
            "content-type": "application/json", "x-forwarded-proto": "https"})  # fmt: skip
        with urllib.request.urlopen(claim) as answer:
            assert answer.status == 201 and "secure" in answer.headers["set-cookie"].lower()
    finally:
        server.kill()
        server.wait()


def test_a_wrong_password_and_a_name_without_an_account_get_the_same_answer(cafe: TestClient) -> None:
    claimed(cafe, "Ann")
    wrong, _ = call(cafe, "/account/sign-in", {"name": "Ann", "password": "not the one"})
    checked = nobodys_hash.cache_info()
    nobody, _ = call(cafe, "/account/sign-in", {"name": "Zed", "password": "not the one"})
    after = nobodys_hash.cache_info()
    assert after.hits + after.misses == checked.hits + checked.misses + 1  # Zed's password was hashed all the same
    guest = Person(cafe, "Cy")  # a guest's name has no password either
    unclaimed, _ = call(cafe, "/account/sign-in", {"name": "Cy", "password": "not the one"})
    assert guest.player
    assert wrong.status_code == nobody.status_code == unclaimed.status_code == 401
    assert wrong.json() == nobody.json() == unclaimed.json() == {"error": "wrong name or password", "code": "signin"}
    german, _ = call(cafe, "/account/sign-in?lang=de", {"name": "Zed", "password": "not the one"})
    assert german.json()["error"] == "falscher Name oder falsches Passwort"


def test_a_flood_of_sign_ins_is_refused_per_account_and_per_address(tmp_path: Path) -> None:
    with served(create_app(tmp_path, signins_per_account=3, signins_per_address=9)) as cafe:
        claimed(cafe, "Ann")
        for _ in range(3):
            assert call(cafe, "/account/sign-in", {"name": "Ann", "password": "guessing"})[0].status_code == 401
        refused, _ = call(cafe, "/account/sign-in", {"name": "ANN", "password": PASSWORD})  # the right one, too late
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
        assert refused.json()["code"] == "rate" and refused.json()["error"].startswith("too many attempts")
        # a name without an account is bounded alike: the bound tells nothing of who exists
        for _ in range(3):
            assert call(cafe, "/account/sign-in", {"name": "Zed", "password": "guessing"})[0].status_code == 401
        assert call(cafe, "/account/sign-in", {"name": "Zed", "password": "guessing"})[0].status_code == 429
        # the address has had 9 attempts (the claim's hashing counts): another name is refused too
        assert call(cafe, "/account/sign-in", {"name": "Bob", "password": "guessing"})[0].status_code == 429


@pytest.mark.parametrize(
    ("owner", "name"),
    [("Ann", "ANN"), ("Ann", "ann"), ("Ann", "\uff21nn"), ("Coco", "\u0421\u043e\u0441\u043e")],
    ids=["upper", "lower", "fullwidth", "cyrillic"],  # "Ann" in a fullwidth A; "Coco" in Cyrillic letters
)
def test_a_claimed_name_is_refused_to_a_guest_while_its_owner_is_away(cafe: TestClient, owner: str, name: str) -> None:
    person, _ = claimed(cafe, owner)
    person.close()
    time.sleep(0.2)  # gone
    socket = cafe.websocket_connect("/ws").__enter__()
    OPEN.append(socket)
    socket.send_text(json.dumps({"type": "hello", "name": name}))
    answer = socket.receive_json()
    assert answer["code"] == "name" and answer["message"] == (
        f"'{name}' belongs to an account: sign in with its password, or choose another name"
    )
    # the owner signs in by any of its forms, "Ann" with a Cyrillic A too
    for form in (name, owner.replace("A", "\u0410")):
        assert call(cafe, "/account/sign-in", {"name": form, "password": PASSWORD})[0].status_code == 200


def test_a_guest_whose_name_was_claimed_meanwhile_chooses_another_and_keeps_their_games(cafe: TestClient) -> None:
    older = Person(cafe, "ann")
    older.close()
    time.sleep(0.2)  # gone
    claimed(cafe, "Ann")
    socket = cafe.websocket_connect("/ws").__enter__()
    OPEN.append(socket)
    socket.send_text(json.dumps({"type": "hello", "token": older.token}))
    answer = socket.receive_json()
    assert answer["code"] == "name" and "an account's name now" in answer["message"]
    socket.send_text(json.dumps({"type": "hello", "token": older.token, "name": "\u0410NN"}))
    assert socket.receive_json()["code"] == "name"  # still the account's
    socket.send_text(json.dumps({"type": "hello", "token": older.token, "name": "Annie"}))
    welcome = socket.receive_json()
    assert welcome["type"] == "welcome" and welcome["player"] == older.player and welcome["name"] == "Annie"


def test_a_new_password_ends_every_session_and_the_old_password(cafe: TestClient) -> None:
    _, first = claimed(cafe, "Ann")
    _, second = call(cafe, "/account/sign-in", {"name": "Ann", "password": PASSWORD})
    assert second is not None
    elsewhere = Signed(cafe, second)
    wrong, _ = call(cafe, "/account/password", {"password": "not it at all", "new": "a new secret"}, first)
    assert wrong.status_code == 401 and account(cafe, first)["account"]  # nothing changed
    short, _ = call(cafe, "/account/password", {"password": PASSWORD, "new": "short"}, first)
    assert short.status_code == 400 and short.json()["error"] == "a password has at least 8 characters"
    answer, third = call(cafe, "/account/password", {"password": PASSWORD, "new": "a new secret"}, first)
    assert answer.status_code == 200 and third
    assert not account(cafe, first)["account"] and not account(cafe, second)["account"]
    assert account(cafe, third)["name"] == "Ann"
    assert elsewhere.expect("error")["code"] == "signed-out"  # its connection closed
    assert call(cafe, "/account/sign-in", {"name": "Ann", "password": PASSWORD})[0].status_code == 401
    assert call(cafe, "/account/sign-in", {"name": "Ann", "password": "a new secret"})[0].status_code == 200


def test_signing_out_everywhere_ends_every_session(cafe: TestClient) -> None:
    _, first = claimed(cafe, "Ann")
    _, second = call(cafe, "/account/sign-in", {"name": "Ann", "password": PASSWORD})
    assert second is not None
    on_phone = Signed(cafe, second)
    answer, _ = call(cafe, "/account/sign-out-everywhere", {}, first)
    assert answer.status_code == 200 and f"{COOKIE}=" in answer.headers["set-cookie"]
    assert not account(cafe, first)["account"] and not account(cafe, second)["account"]
    assert on_phone.expect("error")["code"] == "signed-out"
    again = Signed(cafe, second)  # the cookie signs nobody in any more
    assert again.welcome["type"] == "error"
    assert call(cafe, "/account/sign-out-everywhere", {}, first)[0].json()["code"] == "session"


def test_signing_out_ends_this_session_only(cafe: TestClient) -> None:
    _, first = claimed(cafe, "Ann")
    _, second = call(cafe, "/account/sign-in", {"name": "Ann", "password": PASSWORD})
    assert second is not None
    assert call(cafe, "/account/sign-out", {}, first)[0].status_code == 200
    assert not account(cafe, first)["account"] and account(cafe, second)["account"]


def test_requests_from_another_site_are_refused_and_change_nothing(cafe: TestClient) -> None:
    _, session = claimed(cafe, "Ann")
    forged, _ = call(cafe, "/account/sign-out-everywhere", {}, session, origin="https://evil.example")
    assert forged.status_code == 403 and forged.json()["code"] == "origin"
    cross, _ = call(cafe, "/account/sign-out-everywhere", {}, session, **{"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403
    cafe.cookies.clear()
    form_headers = {"content-type": "application/x-www-form-urlencoded", "cookie": f"{COOKIE}={session}"}
    form = cafe.post("/account/sign-out-everywhere", content="a=b", headers=form_headers)
    assert form.status_code == 400
    assert account(cafe, session)["account"]  # still signed in
    own, _ = call(cafe, "/account/sign-out", {}, session, origin="http://testserver")
    assert own.status_code == 200
    # a WebSocket opened by another site's page does not sign the account in by the cookie
    _, session = call(cafe, "/account/sign-in", {"name": "Ann", "password": PASSWORD})
    assert session is not None
    assert Signed(cafe, session, origin="https://evil.example").welcome["type"] == "error"
    assert Signed(cafe, session, origin="http://testserver").welcome["name"] == "Ann"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"token": 5, "password": PASSWORD}, "'token' must be a non-empty string"),
        ({"token": "x" * 101, "password": PASSWORD}, "'token' is too long (at most 100 characters)"),
        ({"token": "nobody's", "password": PASSWORD}, "unknown token: say hello with a name to start afresh"),
        ({"token": "t"}, "a password has at least 8 characters"),
        ({"token": "t", "password": ["x" * 9]}, "a password has at least 8 characters"),
        ({"token": "t", "password": "x" * 257}, "a password has at most 256 characters"),
        ({"token": "t", "password": "x" * 3000}, "message too long (at most 2048 bytes)"),
    ],
)
def test_every_field_is_checked_and_a_refusal_changes_nothing(cafe: TestClient, body: dict[str, Any],
                                                              said: str) -> None:  # fmt: skip
    ann = Person(cafe, "Ann")
    body = {**body, "token": ann.token} if body.get("token") == "t" else body
    answer, session = call(cafe, "/account/claim", body)
    assert answer.json()["error"] == said and answer.status_code in (400, 401, 413) and session is None
    assert Person(cafe, token=ann.token).player == ann.player  # still a guest, by the token


def test_two_accounts_cannot_have_names_that_look_alike(cafe: TestClient) -> None:
    claimed(cafe, "Ann")[0].close()
    time.sleep(0.2)
    store = cafe.app.state.gateway.store  # type: ignore[attr-defined]
    older = store.add_player("\u0410nn", "an-older-guest's-token")  # a guest made before Ann claimed her name
    answer, session = call(cafe, "/account/claim", {"token": "an-older-guest's-token", "password": PASSWORD})
    assert answer.status_code == 409 and answer.json()["error"] == "'\u0410nn' belongs to an account already"
    assert session is None and store.password_of(older) is None


def test_a_game_between_guests_is_not_rated_and_one_between_accounts_is(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe, "cards")
    play_out(ann, bob, room)
    assert cafe.get("/leaderboard").json() == []
    assert cafe.get(f"/players/{ann.player}.json").json()["games"][0]["rating_after"] is None
    sessions = []
    for person in (ann, bob):
        answer, session = call(cafe, "/account/claim", {"token": person.token, "password": PASSWORD})
        assert answer.status_code == 201 and session is not None
        sessions.append(session)
        person.close()
    ann, bob = Signed(cafe, sessions[0]), Signed(cafe, sessions[1])  # back, signed in
    ann.send({"type": "create", "edition": "cards"})
    again = ann.room()["id"]
    bob.send({"type": "enter", "room": again})
    bob.say(again, "/join")
    while len(ann.room()["seats"]) < 2:
        pass
    play_out(ann, bob, again)
    board = cafe.get("/leaderboard").json()
    assert sorted(row["name"] for row in board) == ["Ann", "Bob"] and all(row["games"] == 1 for row in board)
    games = cafe.get(f"/players/{ann.player}.json").json()["games"]  # the unrated guest's game stays hers
    assert [g["room"] for g in games] == [again, room] and games[0]["rating_after"] is not None


def test_deleting_an_account_leaves_only_a_nameless_seat_in_finished_games(cafe: TestClient) -> None:
    ann, bob, room = open_room(cafe, "cards")
    session = call(cafe, "/account/claim", {"token": ann.token, "password": PASSWORD})[1]
    assert session is not None and call(cafe, "/account/claim", {"token": bob.token, "password": PASSWORD})[1]
    ann.say(room, "Good luck!")
    play_out(ann, bob, room)
    assert cafe.get(f"/games/{room}.json").json()["players"] == ["Ann", "Bob"]  # replayed, and kept so
    ann.send({"type": "create", "edition": "board"})
    waiting = ann.room(status="waiting")["id"]
    playing, _ = call(cafe, "/account/delete", {"password": PASSWORD}, session)
    assert playing.status_code == 409 and "not over" in playing.json()["error"]
    wrong, _ = call(cafe, "/account/delete", {"password": "not the one"}, session)
    assert wrong.status_code == 401 and account(cafe, session)["account"]
    ann.say(waiting, "/leave")  # the table closes
    ann.room(status="closed")
    answer, _ = call(cafe, "/account/delete", {"password": PASSWORD}, session)
    assert answer.status_code == 200, answer.text
    assert ann.expect("error")["code"] == "signed-out"
    assert cafe.get(f"/games/{room}.json").json()["players"] == ["", "Bob"]
    assert cafe.get(f"/players/{bob.player}.json").json()["games"][0]["players"] == ["", "Bob"]
    assert cafe.get(f"/players/{ann.player}.json").status_code == 404
    assert [row["name"] for row in cafe.get("/leaderboard").json()] == ["Bob"]
    assert call(cafe, "/account/sign-in", {"name": "Ann", "password": PASSWORD})[0].status_code == 401
    store: Store = cafe.app.state.gateway.store  # type: ignore[attr-defined]
    listed = (
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        if isinstance(store, SQLiteStore)
        else "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    )
    everything = {table: store.rows(f"SELECT * FROM {table}") for (table,) in store.rows(listed)}
    assert "Ann" not in repr(everything) and "Good luck" not in repr(everything)
    assert store.rows("SELECT count(*) FROM players WHERE id = %s", ann.player) == [(0,)]
    for table in ("ratings", "results", "chat", "sessions"):
        assert store.rows(f"SELECT count(*) FROM {table} WHERE player = %s", ann.player) == [(0,)]
    assert store.rows("SELECT count(*) FROM seats WHERE player = %s OR left_by = %s", ann.player, ann.player) == [(0,)]
    assert store.rows("SELECT seat, player, name FROM seats WHERE room = %s ORDER BY seat", room) == [
        (0, None, ""), (1, bob.player, "Bob")]  # fmt: skip
    assert store.rows("SELECT host, name FROM rooms WHERE id = %s", room) == [(0, "")]
    assert Person(cafe, "ANN").welcome["name"] == "ANN"  # the name is free again


def test_a_database_of_the_schema_before_accounts_keeps_its_players_who_claim_their_names(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DATABASE) as db:  # made by the café before accounts, with two rated players
        db.executescript((Path(__file__).parent / "data" / "cafe-2026-12-01.sql").read_text())
    with served(create_app(tmp_path)) as cafe:
        ann = Person(cafe, token="ann-token-of-2026")
        assert ann.welcome["name"] == "Ann" and ann.welcome["account"] is False
        answer, session = call(cafe, "/account/claim", {"token": ann.token, "password": PASSWORD})
        assert answer.status_code == 201 and session is not None
        page = cafe.get(f"/players/{ann.player}.json").json()
        assert page["rating"]["games"] == 1 and [g["room"] for g in page["games"]] == ["r1"]
        bob = Person(cafe, token="bob-token-of-2026")  # Bob, still a guest, keeps his token
        assert bob.welcome["name"] == "Bob"
