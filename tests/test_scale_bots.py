"""A bot on one server process, invited from another or seated there by a tournament's round (PostgreSQL and
Redis of scripts/with-services.sh): the invitation, or the table, crosses the broker on the bot's own channel,
and the bot sits and plays the game to its end."""

from __future__ import annotations

import signal
import time
import urllib.error
from typing import Any

import pytest

from test_bot_client import Client, account, bot_account, cafe_bot, get, invited, play_out, post
from test_bot_tournament import until
from test_scale import Cluster, cluster  # noqa: F401 -- the fixture: processes sharing a database and Redis

pytestmark = pytest.mark.services


def test_a_bot_on_one_process_is_invited_from_another_and_plays_to_the_end(cluster: Cluster) -> None:  # noqa: F811
    here, there = cluster.start("bot_delay=0"), cluster.start("bot_delay=0")
    _, token = bot_account(there)
    bot = cafe_bot(there, token, "--player", "greedy")
    try:
        ann = Client(here, account(here, "Ann"))
        ann.send({"type": "create", "edition": "cards"})
        room = ann.expect("room")["room"]["id"]
        invited(ann, room)
        assert ann.state["seats"][1] == {"seat": 1, "name": "Robo", "bot": None, "bot_account": True}
        assert play_out(ann, room).state["status"] == "finished"
    finally:
        bot.send_signal(signal.SIGINT)
        bot.communicate(timeout=30)


def test_a_tournament_table_opened_on_one_process_reaches_a_bot_connected_to_another(
    cluster: Cluster,  # noqa: F811
) -> None:
    """The round starts on one process; the bot, connected all along to another, hears of its table on its
    account's channel and plays it (it says no hello again that would bring the table back)."""
    here, there = cluster.start("bot_delay=0"), cluster.start("bot_delay=0")
    ann = account(here, "Ann")
    _, token = bot_account(there)
    bot = cafe_bot(there, token, "--player", "greedy")
    try:
        assert bot.stdout is not None and "at the café as Robo" in bot.stdout.readline()
        status, opened, _ = post(here, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 1}, ann)
        cup = opened["id"]
        assert post(here, f"/tournaments/{cup}/enter", {"account": "Robo"}, ann)[0] == 200
        assert post(here, f"/tournaments/{cup}/enter", {"bot": "easy"}, ann)[0] == 200
        status, started, _ = post(here, f"/tournaments/{cup}/start", {}, ann)
        assert status == 200, started
        final = until(here, cup, lambda seen: seen["final"])
        table = final["played"][0]["tables"][0]
        seat = table["entries"].index(next(e["id"] for e in final["entries"] if e["bot_account"]))
        assert table["games"][0]["absent"][seat] is False
        assert any(step["seat"] == seat for step in replayed(here, table["rooms"][0])["steps"])
    finally:
        bot.send_signal(signal.SIGINT)
        bot.communicate(timeout=30)


def replayed(port: int, room: str) -> Any:
    """A game's replay, once this process knows that its round is over (it reads the tournaments every two
    seconds: another process may have ended the round)."""
    for _ in range(200):
        try:
            return get(port, f"/games/{room}.json")
        except urllib.error.HTTPError as refused:
            assert refused.code == 404
            time.sleep(0.05)
    raise AssertionError(f"the game {room} was not shown")
