"""`cafe bot` against a real `cafe serve` process: the example engine in JavaScript (examples/bot.js, driven with
cmd:node) plays a whole game against a person as a bot account, comes back after the server was killed and
restarted, and sees nothing but its own seat's view; a revoked token, a wrong address and a café that is not
there are refused with a clear message.  Each case failed before `cafe bot` existed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from cafe.ai.levels import make_player
from cafe.bot.client import Bot
from cafe.cli import main
from servers import free_port, start_server

ROOT = Path(__file__).parent.parent
ENGINE = f"cmd:node {ROOT / 'examples' / 'bot.js'}"
PASSWORD = "correct horse battery"


def post(port: int, path: str, body: dict[str, Any], session: str | None = None) -> tuple[int, dict[str, Any], str]:
    """A JSON POST: its status, its answer, and the session cookie it set (if any)."""
    headers = {"content-type": "application/json"} | ({"cookie": f"cafe-session={session}"} if session else {})
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request) as answer:
            cookie = answer.headers.get("set-cookie", "")
            return answer.status, json.loads(answer.read()), cookie.split(";")[0].partition("=")[2]
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read()), ""


def get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as answer:
        return json.loads(answer.read())


class Client:
    """A person's browser, signed in with its session cookie."""

    def __init__(self, port: int, session: str) -> None:
        self.socket: ClientConnection = connect(
            f"ws://127.0.0.1:{port}/ws", additional_headers={"cookie": f"cafe-session={session}"}
        ).__enter__()
        self.send({"type": "hello"})
        self.state: dict[str, Any] = {}
        self.expect("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        while True:
            message = json.loads(self.socket.recv(timeout=60))
            if message["type"] == "room":
                self.state = message["room"]
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    def say(self, room: str, text: str) -> None:
        self.send({"type": "say", "room": room, "text": text})


def account(port: int, name: str) -> str:
    """A guest who claims their name: the account's session."""
    with connect(f"ws://127.0.0.1:{port}/ws") as socket:
        socket.send(json.dumps({"type": "hello", "name": name}))
        token = json.loads(socket.recv())["token"]
    status, _, session = post(port, "/account/claim", {"token": token, "password": PASSWORD})
    assert status == 201
    return session


def bot_account(port: int, name: str = "Robo") -> tuple[str, str]:
    """An account made a bot: its session and API token."""
    session = account(port, name)
    assert post(port, "/account/bot", {"bot": True}, session)[0] == 200
    status, answer, _ = post(port, "/account/bot-token", {"password": PASSWORD}, session)
    assert status == 201
    return session, answer["token"]


def cafe_bot(port: int, token: str, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cafe", "bot", "--server", f"http://127.0.0.1:{port}", *options],
        env={**os.environ, "CAFE_BOT_TOKEN": token},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def cafe(tmp_path: Path) -> Iterator[tuple[int, list[subprocess.Popen[Any]]]]:
    """A real café on a free port, and the processes of the test (the server first), all ended afterwards."""
    port = free_port()
    processes: list[subprocess.Popen[Any]] = [start_server(port, tmp_path, "--limit", "bot_delay=0")]
    try:
        yield port, processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def invited(ann: Client, room: str) -> None:
    """Ann invites Robo until the bot's program has connected, and it sits down."""
    for _ in range(200):
        ann.say(room, "/invite Robo")
        while True:
            message = json.loads(ann.socket.recv(timeout=60))
            if message["type"] == "room":
                ann.state = message["room"]
            if message["type"] == "error" or "invited" in message.get("text", ""):
                break
        if message["type"] == "info":
            break
        assert "not connected" in message["message"], message
        time.sleep(0.1)
    while len(ann.state.get("seats", [])) < 2:
        ann.expect("room")


def play_out(ann: Client, room: str, meanwhile: Callable[[dict[str, Any]], Client | None] = lambda _: None) -> Client:
    """Ann starts the game and plays her first legal step each turn to the end (``meanwhile`` may give her a new
    connection after a state of the game); her last connection."""
    ann.say(room, "/start")
    while ann.state.get("status") != "finished":
        state = ann.expect("room")["room"]
        if state["status"] != "playing":
            continue
        again = meanwhile(state)
        if again is not None:
            ann = again
        elif state["legal"] and state["you"] == 0:
            ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
    return ann


def test_cafe_bot_with_a_javascript_engine_plays_a_game_to_its_end_across_a_restart(
    cafe: tuple[int, list[subprocess.Popen[Any]]], tmp_path: Path
) -> None:
    port, processes = cafe
    ann_session = account(port, "Ann")
    _, token = bot_account(port)
    transcript = tmp_path / "frames.jsonl"
    bot = cafe_bot(port, token, "--player", ENGINE, "--transcript", str(transcript))
    processes.append(bot)
    ann = Client(port, ann_session)
    ann.send({"type": "create", "edition": "cards"})  # hands hidden (the board game's are open by default)
    room = ann.expect("room")["room"]["id"]
    invited(ann, room)
    assert ann.state["seats"][1] == {"seat": 1, "name": "Robo", "bot": None, "bot_account": True}
    restarted = False

    def cut(state: dict[str, Any]) -> Client | None:
        """After 12 steps, the server is killed and started again: every connection is cut."""
        nonlocal restarted
        if state["plies"] < 12 or restarted:
            return None
        processes[0].kill()
        processes[0].wait()
        processes[0] = start_server(port, tmp_path, "--limit", "bot_delay=0")
        restarted = True
        return Client(port, ann_session)  # the bot comes back by itself

    ann = play_out(ann, room, cut)
    assert restarted and ann.state["plies"] > 12
    assert [row["name"] for row in get(port, "/leaderboard")] == ["Ann"]
    assert [row["name"] for row in get(port, "/leaderboard/bots")] == ["Robo"]
    record = get(port, f"/games/{room}.json")
    assert len(record["steps"]) == ann.state["plies"]
    bot_steps = [s for s in record["steps"] if s["seat"] == 1]
    assert bot_steps  # the engine played its turns, before and after the restart
    frames = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [f["type"] for f in frames].count("welcome") >= 2  # it said hello again after the restart
    views = [f["room"] for f in frames if f["type"] == "room" and f["room"]["status"] == "playing"]
    assert views and all(v["you"] == 1 and v["view"]["seat"] == 1 for v in views)
    for state in views:  # its own hand, and never Ann's (until the end shows every hand)
        assert state["view"]["hands"][0] is None and state["view"]["hands"][1] is not None
        assert state["legal"] == [] or state["view"]["current_player"] == 1
    assert all(f'"{secret}":' not in line for line in transcript.read_text().splitlines()
               for secret in ("bag", "seed", "token_hash"))  # fmt: skip


def test_a_revoked_token_a_wrong_address_and_an_absent_cafe_are_refused_clearly(
    cafe: tuple[int, list[subprocess.Popen[Any]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port, processes = cafe
    session, token = bot_account(port)
    bot = cafe_bot(port, token, "--player", "greedy")
    processes.append(bot)
    ann = Client(port, account(port, "Ann"))
    ann.send({"type": "create", "edition": "cards"})
    invited(ann, ann.expect("room")["room"]["id"])
    assert post(port, "/account/bot-token/revoke", {}, session)[0] == 200
    _, said = bot.communicate(timeout=60)
    assert bot.returncode == 1 and "signed out" in said
    again = cafe_bot(port, token, "--player", "greedy")
    _, said = again.communicate(timeout=60)
    assert again.returncode == 1 and "not valid" in said
    nowhere = cafe_bot(free_port(), token)
    _, said = nowhere.communicate(timeout=60)
    assert nowhere.returncode == 1 and "cannot reach the café" in said
    # the command line as it runs here: its refusals before any connection
    assert main(["bot", "--server", "ftp://example", "--token", "x"]) == 1
    assert "no café's address" in capsys.readouterr().err
    monkeypatch.setenv("CAFE_BOT_TOKEN", "")
    assert main(["bot", "--server", f"http://127.0.0.1:{port}"]) == 1
    assert "CAFE_BOT_TOKEN" in capsys.readouterr().err


def test_an_engine_that_asks_for_the_legal_steps_gets_them_before_each_go() -> None:
    """examples/bot.js knows no rules: it plays whole games from the legal steps the driver gives it."""
    from cafe import BoardGame, CardGame
    from cafe.engine.client import EnginePlayer

    engine = EnginePlayer(ENGINE.removeprefix("cmd:"))
    try:
        assert engine.wants_legal and engine.engine_name == "example-js-bot"
        for game in (BoardGame(3, seed=4), CardGame(2, seed=4)):
            while not game.is_over():
                game.push(engine.choose(game.view(game.current_player), game.legal_steps()))
    finally:
        engine.close()


def test_the_bot_client_in_this_process_plays_a_board_game_to_its_end_for_a_level(
    cafe: tuple[int, list[subprocess.Popen[Any]]],
) -> None:
    """The same client as `cafe bot`, run here in a thread with the greedy level: it sits where it is invited and
    plays each of its turns until the game ends; what it says goes to its ``say``."""
    port, _ = cafe
    ann_session = account(port, "Ann")
    _, token = bot_account(port)
    said: list[str] = []
    finished = threading.Event()
    bot = Bot(f"http://127.0.0.1:{port}/", token, lambda: make_player("greedy"), lambda text: said.append(str(text)))
    thread = threading.Thread(target=bot.run, kwargs={"stop": finished.is_set}, daemon=True)
    thread.start()
    ann = Client(port, ann_session)
    ann.send({"type": "create", "edition": "board"})
    room = ann.expect("room")["room"]["id"]
    invited(ann, room)
    ann = play_out(ann, room)
    for _ in range(600):  # the game's end reaches the bot a moment after Ann: then it lets the table go
        if room not in bot.tables:
            break
        time.sleep(0.05)
    finished.set()
    thread.join(timeout=60)
    record = get(port, f"/games/{room}.json")
    assert len(record["steps"]) == ann.state["plies"] and not thread.is_alive()
    assert any(step["seat"] == 1 for step in record["steps"])  # the bot played its turns
    assert room not in bot.tables  # a finished table is let go


def test_ctrl_c_asks_the_bot_to_stop_between_messages_and_a_second_stops_it_at_once() -> None:
    from cafe.bot.command import stop_on_interrupt

    before = signal.getsignal(signal.SIGINT)
    with stop_on_interrupt() as stopping:
        assert not stopping()
        os.kill(os.getpid(), signal.SIGINT)  # no KeyboardInterrupt inside whatever the bot was doing
        time.sleep(0.01)  # the handler runs in the main thread, between two of its bytecodes
        assert stopping()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
    assert signal.getsignal(signal.SIGINT) is before
