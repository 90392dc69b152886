"""The analysis queue is bounded and fair, and its worker processes end with their server (real servers, real
SQLite files, real worker processes)."""

from __future__ import annotations

import contextlib
import http.client
import json
import multiprocessing
import os
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

from cafe.ai.levels import make_player
from cafe.arena.match import new_game
from cafe.record import Record
from cafe.server.app import DATABASE, create_app
from cafe.server.storage.store import Ending, RoomRow, SeatRow, SQLiteStore, Store
from servers import free_port, serving, start_server

SLOW = "100000"  # an analysis budget that keeps the first game's analysis running for the whole test


def finished_games(data: Path, games: int, played: int) -> str:
    """``games`` finished games, ``g0`` ... in the café's database in ``data``: Ann played game ``played``,
    computer players the others; Ann's token."""
    store = SQLiteStore(data / DATABASE)
    token = add_finished_games(store, games, played)
    store.close()
    return token


def add_finished_games(store: Store, games: int, played: int) -> str:
    """``games`` finished games, ``g0`` ... in ``store``: Ann played game ``played``, computer players the
    others; Ann's token."""
    token = "ann-token-" + "x" * 20
    ann = store.add_player("Ann", token)
    for k in range(games):
        game = new_game("board", ["P0", "P1"], k)
        bots = [make_player("greedy", seed=k), make_player("random", seed=k)]
        while not game.is_over():
            game.push(bots[game.current_player].choose(game.view(game.current_player), game.legal_steps()))
        seats = (SeatRow(0, "Ann", player=ann) if k == played else SeatRow(0, "Greedy", bot="greedy"),
                 SeatRow(1, "Random", bot="random"))  # fmt: skip
        store.add_room(RoomRow(f"g{k}", f"game {k}", "board", "printed", ann, "playing", k, seats, ()))
        store.finish_game(f"g{k}", Ending(Record.of(game).to_json(), {}))
    return token


def post(port: int, room: str, source: str, **headers: str) -> tuple[int, str | None, dict[str, Any]]:
    """POST /games/ROOM/analysis from the loopback address ``source``: the status, Retry-After and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", f"/games/{room}/analysis", headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.getheader("Retry-After"), json.loads(answer.read())
    finally:
        connection.close()


def status(port: int, room: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{room}/analysis", timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def analyses_begun(port: int) -> int:
    """The searches a café's process began (its /metrics)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        figures = dict(line.split() for line in answer.read().decode().splitlines())
    return int(figures["cafe_analyses_total"])


def until_done(port: int, room: str) -> dict[str, Any]:
    """The game's analysis, once stored (a bounded wait)."""
    for _ in range(3000):
        found = status(port, room)
        if found["state"] == "done":
            return found
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {room} never ended")


def until_running(port: int, room: str) -> None:
    for _ in range(600):
        if status(port, room)["state"] == "running":
            return
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {room} never began")


def test_the_analysis_queue_is_bounded_one_per_asker_and_players_first(tmp_path: Path) -> None:
    token = finished_games(tmp_path, 6, played=5)
    app = create_app(tmp_path, analysis_queue=2, analysis_budget=int(SLOW))
    with serving(app) as port:
        assert post(port, "g0", "127.0.0.2")[0] == 202
        until_running(port, "g0")
        code, _, answer = post(port, "g1", "127.0.0.2")
        assert code == 202 and answer == {"state": "queued", "position": 1, "workers": 1}
        code, retry, answer = post(port, "g2", "127.0.0.2", **{"Accept-Language": "de-AT,de;q=0.9"})
        assert (code, retry) == (429, "60")  # the same address has a game waiting already
        assert answer["error"].startswith("eine deiner Partien wartet schon auf ihre Analyse")
        assert post(port, "g2", "127.0.0.3")[0] == 202  # the queue is full now
        code, retry, answer = post(port, "g3", "127.0.0.4", **{"Accept-Language": "fr"})
        assert (code, retry) == (503, "60") and answer[
            "error"
        ] == "la file d'attente des analyses est pleine : réessayez plus tard"
        # Ann played game 5: she goes first, and the latest request of someone who did not play waits no more;
        # her address may have a game waiting already (people share addresses): she is known by her token
        code, _, answer = post(port, "g5", "127.0.0.2", **{"X-Cafe-Token": token})
        assert code == 202 and answer["position"] == 1
        assert status(port, "g1")["position"] == 2 and status(port, "g2") == {"state": "none"}
        assert post(port, "g4", "127.0.0.6", **{"X-Cafe-Token": token})[0] == 429  # one waiting game a person
        assert multiprocessing.active_children()  # the worker analysing game 0
    assert multiprocessing.active_children() == []  # the server closed: its worker has gone at once


def test_a_game_asked_twice_and_in_two_cafes_on_one_database_is_analysed_once(tmp_path: Path) -> None:
    finished_games(tmp_path, 1, played=0)
    first, second = create_app(tmp_path, analysis_budget=4), create_app(tmp_path, analysis_budget=4)
    with serving(first) as one, serving(second) as other:
        assert post(one, "g0", "127.0.0.2")[2]["state"] in ("queued", "running")
        assert post(one, "g0", "127.0.0.3")[2]["state"] in ("queued", "running")  # asked again: nothing more
        assert post(other, "g0", "127.0.0.4")[2]["state"] in ("queued", "running")  # the same game elsewhere
        assert until_done(one, "g0") == until_done(other, "g0")
        assert analyses_begun(one) + analyses_begun(other) == 1


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its parent to read its end has stopped)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def analysing_server(data: Path) -> tuple[Any, list[int]]:
    """A `cafe serve` process analysing a game; it and its worker processes."""
    finished_games(data, 1, played=0)
    port = free_port()
    server = start_server(port, data, "--limit", f"analysis_budget={SLOW}")
    post(port, "g0", "127.0.0.1")
    until_running(port, "g0")
    for _ in range(600):
        workers = [pid for pid in children(server.pid) if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        if workers:
            return server, workers
        time.sleep(0.05)
    raise AssertionError("no worker process analyses the game")


def test_analysis_workers_end_with_a_server_that_is_stopped(tmp_path: Path) -> None:
    server, workers = analysing_server(tmp_path)
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=120) in (0, -signal.SIGTERM)  # uvicorn ends by the signal it stopped for
    assert ended(workers, at_once=True)  # gone with it, not after


def ended(workers: list[int], at_once: bool = False) -> bool:
    """Whether the worker processes have ended (``at_once``: already; else within a bounded wait); those left are
    killed, so that a failing test leaves nothing behind either."""
    for _ in range(1 if at_once else 200):  # the workers look for their server twice a second
        if not any(alive(pid) for pid in workers):
            return True
        time.sleep(0.05)
    for pid in workers:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return False


def test_analysis_workers_end_with_a_server_that_is_killed(tmp_path: Path) -> None:
    server, workers = analysing_server(tmp_path)
    server.kill()
    server.wait()
    assert ended(workers)
