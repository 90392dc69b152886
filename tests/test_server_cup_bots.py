"""Bot accounts in the café's tournaments through the real application over a real store (SQLite, and PostgreSQL
under scripts/with-services.sh): a bot enters and withdraws with its API token over HTTP (a wrong or revoked one
is refused clearly), the director enters one by its name but never a person, its entry is marked as a bot's; its
table reaches its connection when the round opens, or its hello when it connects only afterwards, and a round
opens even for a bot at its bound of tables.  Each case failed before bots could enter tournaments."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cafe.bot.client import Refused
from cafe.bot.entries import enter
from cafe.server.app import create_app
from servers import free_port, serving
from test_bot_client import account, bot_account
from test_bot_client import post as posted
from test_server import Person
from test_server_accounts import call, claimed
from test_server_bots import BotSocket, cafe, made_bot, table  # noqa: F401 -- cafe: the fixture

STEP_PAUSE = 0.06  # seconds between two steps of one connection: within the messages a second it may send


def post(client: TestClient, path: str, body: dict[str, Any], status: int, **headers: str) -> dict[str, Any]:
    answer = client.post(path, json=body, headers=headers)
    assert answer.status_code == status, answer.text
    return answer.json()  # type: ignore[no-any-return]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_bot_enters_with_its_token_and_the_director_enters_bots_but_never_people(cafe: TestClient) -> None:  # noqa: F811
    ann = Person(cafe, "Ann")
    director = {"x-cafe-token": ann.token}
    robo_session, robo_token, robo = made_bot(cafe)
    _, zed_token, zed = made_bot(cafe, "Zed")
    claimed(cafe, "Bob")[0].close()
    cup = post(cafe, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 1}, 201, **director)["id"]
    enter = f"/tournaments/{cup}/enter"

    wrong = post(cafe, enter, {}, 401, **bearer("not-a-token"))
    assert wrong == {"code": "token", "error": "this bot token is not valid (any more): make a new one on the "
                     "bot's account"}  # fmt: skip
    assert post(cafe, f"{enter}?lang=de", {}, 401, authorization="Bearer ")["code"] == "token"
    entered = post(cafe, enter, {}, 200, **bearer(robo_token))
    assert entered["you"] == f"p{robo}"
    assert entered["entries"] == [{"id": f"p{robo}", "name": "Robo", "bot": None, "bot_account": True,
                                   "withdrawn": None}]  # fmt: skip
    assert post(cafe, enter, {}, 400, **bearer(robo_token))["code"] == "entered"
    assert post(cafe, f"/tournaments/{cup}/withdraw", {}, 200, **bearer(robo_token))["entries"] == []

    post(cafe, enter, {"account": "Robo"}, 200, **director)  # the director enters a bot by its name
    assert post(cafe, enter, {"account": "Robo"}, 400, **director)["error"] == "Robo has entered already"
    person = post(cafe, enter, {"account": "Bob"}, 403, **director)
    assert person == {"code": "person", "error": "Bob is a person, not a bot: people enter a tournament themselves"}
    assert post(cafe, enter, {"account": "Nobody"}, 400, **director)["code"] == "account"
    assert post(cafe, enter, {"account": "Zed"}, 403, **bearer(robo_token))["code"] == "director"
    assert post(cafe, enter, {"account": "Zed", "bot": "easy"}, 400, **director)["code"] == "field"
    before = cafe.get(f"/tournaments/{cup}.json").json()
    assert [e["name"] for e in before["entries"]] == ["Robo"]  # nothing changed by a refusal

    post(cafe, enter, {"bot": "easy"}, 200, **director)
    post(cafe, enter, {}, 200, **bearer(zed_token))
    answer, _ = call(cafe, "/account/bot-token/revoke", {}, robo_session)
    assert answer.status_code == 200
    assert post(cafe, f"/tournaments/{cup}/withdraw", {}, 401, **bearer(robo_token))["code"] == "token"
    started = post(cafe, f"/tournaments/{cup}/start", {}, 200, **director)
    marked = {row["name"]: row["bot_account"] for row in started["standings"]}
    assert marked == {"Robo": True, "Zed": True, "Easy bot 1": False}
    assert [e["bot_account"] for e in started["entries"]] == [True, False, True]
    assert cafe.get(f"/tournaments/{cup}.json", headers=bearer(zed_token)).json()["you"] == f"p{zed}"


def at(bot: BotSocket, room: str, plies: int) -> dict[str, Any]:
    """The bot's latest state of the room once it has seen ``plies`` steps there."""
    state = bot.latest
    while state is None or state["id"] != room or state["plies"] < plies:
        state = bot.expect("room")["room"]
    return state


def play(bots: list[BotSocket], room: str) -> dict[str, Any]:
    """The bots play their table to its end, each its first legal step: the last state."""
    plies = 0
    while (states := [at(bot, room, plies) for bot in bots])[0]["status"] == "playing":
        mover, state = next((bot, state) for bot, state in zip(bots, states, strict=True) if state["legal"])
        time.sleep(STEP_PAUSE)
        mover.send({"type": "step", "room": room, "step": state["legal"][0], "plies": plies})
        plies += 1
    return states[0]


def test_a_bots_table_reaches_it_at_the_round_start_or_at_its_hello_even_at_its_bound(cafe: TestClient) -> None:  # noqa: F811
    ann, bob = Person(cafe, "Ann"), Person(cafe, "Bob")
    _, robo_token, _ = made_bot(cafe)
    _, zed_token, _ = made_bot(cafe, "Zed")
    robo = BotSocket(cafe, robo_token)
    for host in (ann, bob):  # Robo sits at as many tables as a bot may (bot_tables: 2)
        room = table(cafe, host)
        host.say(room, "/invite Robo")
        robo.accept(room)
    director = {"x-cafe-token": ann.token}
    cup = post(cafe, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 1}, 201, **director)["id"]
    post(cafe, f"/tournaments/{cup}/enter", {}, 200, **bearer(robo_token))
    post(cafe, f"/tournaments/{cup}/enter", {"account": "Zed"}, 200, **director)
    started = post(cafe, f"/tournaments/{cup}/start", {}, 200, **director)
    room = started["played"][0]["tables"][0]["rooms"][0]  # the round opened all the same
    assert robo.room(id=room, status="playing")["you"] is not None  # at once, to the connected bot
    zed = BotSocket(cafe, zed_token)  # connected only now: its hello brings its table back
    assert zed.welcome["seated"] == [room] and zed.room(id=room)["you"] is not None
    assert play([robo, zed], room)["status"] == "finished"
    for _ in range(200):
        final = cafe.get(f"/tournaments/{cup}.json").json()
        if final["final"]:
            break
        time.sleep(0.05)
    assert final["final"] and [row["games"] for row in final["standings"]] == [1, 1]
    record = cafe.get(f"/games/{room}.json").json()
    assert {step["seat"] for step in record["steps"]} == {0, 1} and record["bots"] == [0, 1]


def test_cafe_bots_enter_enters_once_and_says_why_it_cannot(tmp_path: Path) -> None:
    """`cafe bot --enter`'s request, to a café served on a real port: an entry made before is no error; a wrong
    tournament, a wrong token and a café that is not there are refused in words."""
    with serving(create_app(tmp_path)) as port:
        ann = account(port, "Ann")
        _, token = bot_account(port)
        status, opened, _ = posted(port, "/tournaments/open", {"name": "Spring cup", "table_size": 2}, ann)
        assert status == 201
        server = f"ws://127.0.0.1:{port}/ws"  # the WebSocket's address does as well as the page's
        entered = str(enter(server, token, opened["id"], "en"))
        assert entered == f"the bot entered the tournament Spring cup ({opened['id']})"
        assert "already" in str(enter(server, token, opened["id"], "en"))
        with pytest.raises(Refused, match="there is no tournament 'nosuch'"):
            enter(server, token, "nosuch", "en")
        with pytest.raises(Refused, match="token bota není"):  # the café's words, in the bot's language
            enter(server, "wrong", opened["id"], "cs")
    with pytest.raises(Refused, match="cannot reach the café"):
        enter(f"http://127.0.0.1:{free_port()}", token, opened["id"], "en")
