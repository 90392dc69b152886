"""Bot accounts through the real application over a real store (SQLite, and PostgreSQL under
scripts/with-services.sh): a person makes their account a bot and gets its API token, which signs a program in
until it is revoked; a host invites a connected bot, which sits and is marked as a bot wherever its seat is shown;
its games are rated on the bots' leaderboard, not on people's; a bot sits at `bot_tables` tables at most.  Each
case failed before bot accounts existed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.server.app import create_app
from cafe.server.storage.postgres import PostgresStore
from servers import fresh_database
from test_server import OPEN, Person, play_out, served
from test_server_accounts import PASSWORD, call, claimed

OPTIONS: dict[str, Any] = {"away_seconds": 5.0, "bot_delay": 0.0, "left_seconds": 0.05, "name_hold_seconds": 0.1,
                           "bot_tables": 2}  # fmt: skip


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def cafe(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    if request.param == "sqlite":
        with served(create_app(tmp_path, **OPTIONS)) as client:
            yield client
        return
    with fresh_database() as url, served(create_app(store=PostgresStore(url), **OPTIONS)) as client:
        yield client


class BotSocket(Person):
    """A program signed in with a bot account's API token (in its hello: no cookie)."""

    def __init__(self, client: TestClient, token: str) -> None:
        self.socket = client.websocket_connect("/ws").__enter__()
        OPEN.append(self.socket)
        self.seen: list[dict[str, Any]] = []
        self.latest = None
        self.seqs: dict[str, int] = {}
        self.send({"type": "hello", "bot_token": token})
        self.welcome = self.expect("welcome", "error")
        self.token, self.player = self.welcome.get("token"), self.welcome.get("player")

    def accept(self, room: str) -> dict[str, Any]:
        """Sit where it was invited, as `cafe bot` does; the invitation."""
        invitation = self.expect("invited", room=room)
        if invitation["code"]:
            self.send({"type": "join", "room": room, "code": invitation["code"]})
        else:
            self.send({"type": "enter", "room": room})
            self.say(room, "/join")
        return invitation


def made_bot(client: TestClient, name: str = "Robo") -> tuple[str, str, int]:
    """An account made a bot, and its API token: (session, token, player)."""
    person, session = claimed(client, name)
    person.close()
    answer, _ = call(client, "/account/bot", {"bot": True}, session)
    assert answer.status_code == 200 and answer.json() == {"player": person.player, "bot": True}, answer.text
    answer, _ = call(client, "/account/bot-token", {"password": PASSWORD}, session)
    assert answer.status_code == 201, answer.text
    return session, answer.json()["token"], person.player


def table(client: TestClient, host: Person, private: bool = False) -> str:
    host.send({"type": "create", "edition": "cards", "private": private})
    room: str = host.room()["id"]
    return room


def test_a_bots_token_signs_a_program_in_until_it_is_revoked(cafe: TestClient) -> None:
    ann, ann_session = claimed(cafe, "Ann")
    refused, _ = call(cafe, "/account/bot-token", {"password": PASSWORD}, ann_session)
    assert refused.status_code == 409 and refused.json()["code"] == "bot"  # a person's account has no token
    session, token, robo = made_bot(cafe)
    bot = BotSocket(cafe, token)
    assert bot.welcome["type"] == "welcome" and bot.welcome["bot"] is True and bot.welcome["player"] == robo
    assert bot.welcome["token"] is None and bot.welcome["account"] is True and bot.welcome["name"] == "Robo"
    assert BotSocket(cafe, "made-up").welcome["code"] == "token"
    assert BotSocket(cafe, ann.token).welcome["code"] == "token"  # a guest's token is no bot's
    answer, _ = call(cafe, "/account/bot-token/revoke", {}, session)
    assert answer.status_code == 200
    assert bot.expect("error")["code"] == "signed-out"  # the connection closes with the revocation
    assert BotSocket(cafe, token).welcome["code"] == "token"
    answer, _ = call(cafe, "/account/bot-token", {"password": PASSWORD}, session)
    assert BotSocket(cafe, answer.json()["token"]).welcome["bot"] is True  # a new one works, shown this once
    wrong, _ = call(cafe, "/account/bot-token", {"password": "not the one"}, session)
    assert wrong.status_code == 401


def test_a_host_invites_a_connected_bot_which_sits_marked_as_a_bot(cafe: TestClient) -> None:
    ann = Person(cafe, "Ann")
    room = table(cafe, ann)
    _, token, robo = made_bot(cafe)
    ann.say(room, "/invite Robo")
    assert "not connected" in ann.expect("error")["message"]
    bot = BotSocket(cafe, token)
    ann.say(room, "/invite Ann")
    assert "no account" in ann.expect("error")["message"]  # a guest: invited by link
    watcher = Person(cafe, "Zoe")
    watcher.say(room, "/invite Robo")  # only the host invites
    assert watcher.expect("error")["code"] == "refused"
    ann.say(room, "/invite robo")  # any form of the name
    assert "Robo" in ann.expect("info", room=room)["text"]
    bot.accept(room)
    seats = ann.room(id=room, status="waiting", seats=[{"seat": 0, "name": "Ann", "bot": None},
                     {"seat": 1, "name": "Robo", "bot": None, "bot_account": True}])["seats"]  # fmt: skip
    assert seats[1]["bot_account"] is True and "bot_account" not in seats[0]
    lobby = Person(cafe, "Lou")
    listed = next(r for r in lobby.expect("lobby")["rooms"] if r["id"] == room)
    assert listed["seats"][1] == {"seat": 1, "name": "Robo", "bot": None, "bot_account": True}
    assert cafe.get(f"/players/{robo}.json").json()["bot"] is True
    ann.say(room, "/invite Robo")
    assert "has a seat here already" in ann.expect("error")["message"]
    private = table(cafe, ann, private=True)
    ann.say(private, "/invite Robo")
    assert bot.accept(private)["code"]  # a private table's code comes with the invitation
    assert [s["name"] for s in ann.room(id=private, status="waiting", private=True)["seats"]][-1] == "Robo"


def test_a_bot_is_rated_on_the_bots_leaderboard_and_not_on_peoples(cafe: TestClient) -> None:
    ann, ann_session = claimed(cafe, "Ann")
    session, token, robo = made_bot(cafe)
    bot = BotSocket(cafe, token)
    room = table(cafe, ann)
    ann.say(room, "/invite Robo")
    bot.accept(room)
    ann.room(id=room, status="waiting", seats=[{"seat": 0, "name": "Ann", "bot": None},
             {"seat": 1, "name": "Robo", "bot": None, "bot_account": True}])  # fmt: skip
    play_out(ann, bot, room)
    assert cafe.get(f"/games/{room}.json").json()["bots"] == [1]  # its seat in the game's replay
    assert [row["name"] for row in cafe.get("/leaderboard").json()] == ["Ann"]
    (rated,) = cafe.get("/leaderboard/bots").json()
    assert rated["name"] == "Robo" and rated["player"] == robo and rated["games"] == 1
    for account in (session, ann_session):  # what it is, it stays once rated
        answer, _ = call(cafe, "/account/bot", {"bot": account == ann_session}, account)
        assert answer.status_code == 409 and answer.json()["code"] == "rated"


def test_a_bot_sits_at_bot_tables_tables_at_most(cafe: TestClient) -> None:
    ann, bob = Person(cafe, "Ann"), Person(cafe, "Bob")
    _, token, _ = made_bot(cafe)
    bot = BotSocket(cafe, token)
    rooms = [table(cafe, ann), table(cafe, bob)]
    for room, host in zip(rooms, (ann, bob), strict=True):
        host.say(room, "/invite Robo")
        bot.accept(room)
        host.room(id=room, status="waiting", seats=[{"seat": 0, "name": host.welcome["name"], "bot": None},
                  {"seat": 1, "name": "Robo", "bot": None, "bot_account": True}])  # fmt: skip
    third = table(cafe, ann)
    ann.say(third, "/invite Robo")
    assert ann.expect("error")["code"] == "busy"  # at its limit, it is not even asked
    bot.send({"type": "enter", "room": third})
    bot.say(third, "/join")  # nor does it sit by itself
    refusal = bot.expect("error")
    assert refusal["code"] == "busy" and "2" in refusal["message"]
    ann.say(rooms[0], "/kick Robo")
    ann.room(id=rooms[0], seats=[{"seat": 0, "name": "Ann", "bot": None}])
    bot.say(third, "/join")
    assert [s["name"] for s in ann.room(id=third, status="waiting")["seats"]] == ["Ann", "Robo"]
