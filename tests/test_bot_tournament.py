"""A Swiss tournament of eight through a real `cafe serve` process: seven of the café's computer players and one
bot account, played by a real `cafe bot` process with the example engine in JavaScript (examples/bot.js) that
enters the tournament itself (`--enter`), at tables of two over three rounds, each round started by the director
over HTTP.  In the middle of the second round the server is killed (SIGKILL) and started again on the same data
folder: the bot comes back by itself, and the tournament finishes with nothing lost.  It failed before bot
accounts could enter tournaments."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from cafe.bot.client import Refused
from cafe.bot.entries import enter
from cafe.record import Record
from cafe.server.app import DATABASE
from cafe.server.storage.store import SQLiteStore
from servers import start_server
from test_bot_client import ENGINE, account, bot_account, cafe, cafe_bot, get, post  # noqa: F401 -- cafe: the fixture
from tournament_checks import check_finished

LOOKS = 6000  # reads of the tournament while its games are played (a count, not a time)
PAUSE = 0.05  # seconds between two reads
MIDDLE = 8  # steps of the bot's game of round 2 after which the server is killed

pytestmark = pytest.mark.tournament


def shown(port: int, cup: str) -> dict[str, Any]:
    found: dict[str, Any] = get(port, f"/tournaments/{cup}.json")
    assert '"seed"' not in json.dumps(found)
    return found


def until(port: int, cup: str, done: Any) -> dict[str, Any]:
    """The tournament once ``done`` holds of it."""
    for _ in range(LOOKS):
        seen = shown(port, cup)
        if done(seen):
            return seen
        time.sleep(PAUSE)
    raise AssertionError(f"the tournament did not get there: {seen}")


def round_over(port: int, cup: str, number: int) -> dict[str, Any]:
    return until(port, cup, lambda seen: len(seen["played"]) >= number and seen["played"][number - 1]["over"])


def watched_until(port: int, session: str, room: str, plies: int) -> None:
    """The director (no entrant, so she may watch) watches the room until it has had ``plies`` steps."""
    with connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"cookie": f"cafe-session={session}"}) as socket:
        socket.send(json.dumps({"type": "hello"}))
        socket.send(json.dumps({"type": "enter", "room": room}))
        while True:
            message = json.loads(socket.recv(timeout=120))
            assert message["type"] != "error", message
            if message["type"] == "room" and message["room"]["id"] == room and message["room"]["plies"] >= plies:
                return


def test_a_swiss_tournament_with_a_cafe_bot_process_survives_a_killed_server(
    cafe: tuple[int, list[subprocess.Popen[Any]]],  # noqa: F811
    tmp_path: Path,
) -> None:
    port, processes = cafe
    ann = account(port, "Ann")
    _, token = bot_account(port)
    status, opened, _ = post(port, "/tournaments/open", {"name": "Cup", "table_size": 2, "rounds": 3}, ann)
    assert status == 201
    cup = opened["id"]
    for _ in range(7):
        assert post(port, f"/tournaments/{cup}/enter", {"bot": "easy"}, ann)[0] == 200
    bot = cafe_bot(port, token, "--player", ENGINE, "--enter", cup)
    processes.append(bot)
    entries = until(port, cup, lambda seen: len(seen["entries"]) == 8)["entries"]
    robo = next(entry for entry in entries if entry["name"] == "Robo")
    assert robo["bot_account"] and [e["bot_account"] for e in entries].count(True) == 1

    for number in (1, 2, 3):
        status, started, _ = post(port, f"/tournaments/{cup}/start", {}, ann)
        assert status == 200, started
        if number == 2:  # in the middle of the bot's game, the server dies at once and comes back
            table = next(t for t in started["played"][1]["tables"] if robo["id"] in t["entries"])
            watched_until(port, ann, table["rooms"][0], MIDDLE)
            assert not shown(port, cup)["played"][1]["over"]
            processes[0].kill()
            processes[0].wait()
            processes[0] = start_server(port, tmp_path, "--limit", "bot_delay=0")
        round_over(port, cup, number)
    final = until(port, cup, lambda seen: seen["final"])

    games = get(port, f"/tournaments/{cup}/games.json")["games"]
    assert len(final["played"]) == 3 and len(games) == 12
    assert [row["games"] for row in final["standings"]] == [3] * 8
    assert [row["bot_account"] for row in final["standings"]].count(True) == 1
    mine = [game for game in games if robo["id"] in game["seats"]]
    assert len(mine) == 3
    for game in mine:  # the bot played its own seat of every game, to the end, across the restart
        seat = game["seats"].index(robo["id"])
        played = next(t for t in final["played"][game["round"] - 1]["tables"] if t["number"] == game["table"])
        assert played["games"][0]["absent"][seat] is False
        assert Record.from_json(game["record"]).replay().is_over()
        replay = get(port, f"/games/{game['room']}.json")
        assert seat in replay["bots"] and any(step["seat"] == seat for step in replay["steps"])
    store = SQLiteStore(tmp_path / DATABASE)
    try:
        check_finished(store, cup, final)
    finally:
        store.close()

    server = f"http://127.0.0.1:{port}"  # `--enter` again: the entry made before is no error, a wrong id is
    assert "already" in str(enter(server, token, cup, "en"))
    with pytest.raises(Refused, match="there is no tournament 'nosuch'"):
        enter(server, token, "nosuch", "en")
    bot.send_signal(signal.SIGINT)
    said, _ = bot.communicate(timeout=60)
    assert "entered the tournament Cup" in said and "lost the connection" in said
