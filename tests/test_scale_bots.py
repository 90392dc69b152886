"""A bot on one server process, invited from another (PostgreSQL and Redis of scripts/with-services.sh): the
invitation crosses the broker on the bot's own channel, and the bot sits and plays the game to its end."""

from __future__ import annotations

import signal

import pytest

from test_bot_client import Client, account, bot_account, cafe_bot, invited, play_out
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
