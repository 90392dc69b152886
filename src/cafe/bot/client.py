"""A bot account at a café: says hello with its API token, sits where it is invited, plays its turns from its
own seat's view (exactly what the server sends that seat), and comes back after a lost connection.

One connection, read and answered in order; the player thinks between two messages, which the server's own
outbox holds meanwhile.  A lost connection is made again with a growing pause (1, 2, 4 ... 30 seconds); the hello
brings back every table where the bot has a seat, in full, so nothing is missed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from cafe.ai.base import Player
from cafe.errors import CafeError
from cafe.i18n import T, Text
from cafe.steps import parse_step
from cafe.view import view_from_json

FIRST_PAUSE = 1.0  # seconds before the first reconnection ...
LONGEST_PAUSE = 30.0  # ... doubled each time, up to this
OPEN_SECONDS = 10.0  # to open the WebSocket
GAP = 0.1  # seconds between two messages at least: half the café's default rate (20 a second), bursts and all


class Refused(CafeError):
    """The café will not have the bot (a wrong or revoked token, a wrong address): trying again is no use."""


def _split(server: str) -> tuple[bool, str, str]:
    """A café's address, its page's or its WebSocket's: whether it is secure, its host, and the path below which
    the café is."""
    parts = urlsplit(server.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise Refused(T("'{url}' is no café's address: give one like http://localhost:8000", url=server))
    return parts.scheme in ("https", "wss"), parts.netloc, parts.path.rstrip("/").removesuffix("/ws")


def socket_url(server: str) -> str:
    """The café's WebSocket address from the address of its page: ``http://host:8000`` → ``ws://host:8000/ws``."""
    secure, host, path = _split(server)
    return urlunsplit(("wss" if secure else "ws", host, path + "/ws", "", ""))


def page_url(server: str, path: str, query: str = "") -> str:
    """An address of the café's HTTP requests (``path``), from its page's or its WebSocket's."""
    secure, host, below = _split(server)
    return urlunsplit(("https" if secure else "http", host, below + path, query, ""))


@dataclass
class Table:
    """A table where the bot has a seat: its player, and the position it answered last (not twice)."""

    player: Player
    answered: int = -1


@dataclass
class Bot:
    """The bot's connection to one café: ``make`` gives a new player for each table."""

    server: str
    token: str
    make: Callable[[], Player]
    say: Callable[[Text], None]
    language: str = "en"
    tables: dict[str, Table] = field(default_factory=dict)
    transcript: TextIO | None = None  # where every message received is written, one a line
    _sent: float = 0.0  # when the last message went (time.monotonic())

    def run(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Play until ``stop()``: after a lost connection, connect again. The first connection failing, or a
        refusal of the token, raises :class:`Refused` (waiting would not help)."""
        url = socket_url(self.server)
        pause, connected = FIRST_PAUSE, False
        while not stop():
            try:
                with connect(url, open_timeout=OPEN_SECONDS, max_size=2**22) as socket:
                    self._hello(socket)
                    connected, pause = True, FIRST_PAUSE
                    self._play(socket, stop)
            except (InvalidURI, InvalidHandshake, OSError, TimeoutError, ConnectionClosed) as error:
                if not connected and isinstance(error, InvalidURI | InvalidHandshake):
                    raise Refused(T("'{url}' is no café: {reason}", url=url, reason=str(error))) from None
                if not connected:
                    raise Refused(T("cannot reach the café at {url}: {reason}", url=url, reason=str(error))) from None
                self.say(T("lost the connection ({reason}); connecting again in {seconds:g} s", reason=str(error),
                           seconds=pause))  # fmt: skip
                _pause(pause, stop)
                pause = min(2 * pause, LONGEST_PAUSE)

    def _hello(self, socket: ClientConnection) -> None:
        self._send(socket, {"type": "hello", "bot_token": self.token, "lang": self.language})
        answer = self._receive(socket)
        if answer["type"] != "welcome":
            raise Refused(T("the café refused the bot: {message}", message=str(answer.get("message", answer))))
        if not answer.get("bot"):
            raise Refused(T("the café does not know this as a bot's token"))
        self.say(T("at the café as {name} (bot)", name=answer["name"]))
        for table in self.tables.values():  # a step sent just before the connection was lost may never have arrived
            table.answered = -1

    def _send(self, socket: ClientConnection, message: dict[str, Any]) -> None:
        """A message, no sooner than GAP after the last: the bot keeps well within the café's rate."""
        time.sleep(max(0.0, self._sent + GAP - time.monotonic()))
        socket.send(json.dumps(message))
        self._sent = time.monotonic()

    def _receive(self, socket: ClientConnection, timeout: float | None = None) -> dict[str, Any]:
        text = socket.recv(timeout=timeout)
        text = text if isinstance(text, str) else text.decode()
        if self.transcript is not None:
            self.transcript.write(text + "\n")
            self.transcript.flush()
        found: dict[str, Any] = json.loads(text)
        return found

    def _play(self, socket: ClientConnection, stop: Callable[[], bool]) -> None:
        while not stop():
            try:
                message = self._receive(socket, timeout=1.0)
            except TimeoutError:
                continue
            kind = message["type"]
            if kind == "invited":
                self._accept(socket, message)
            elif kind == "room":
                self._turn(socket, message["room"])
            elif kind == "error":
                self._refused(socket, message)

    def _accept(self, socket: ClientConnection, invitation: dict[str, Any]) -> None:
        """Sit at the table it is invited to: with the code of a private table's link, or as anyone may."""
        room, code = invitation["room"], invitation.get("code")
        self.say(T("{name} invites the bot to table {room}", name=str(invitation.get("from", "")), room=room))
        if code:
            self._send(socket, {"type": "join", "room": room, "code": code})
        else:
            self._send(socket, {"type": "enter", "room": room})
            self._send(socket, {"type": "say", "room": room, "text": "/join"})

    def _turn(self, socket: ClientConnection, state: dict[str, Any]) -> None:
        """A table's state: on the bot's turn, its next step, chosen from its own view only."""
        room = state["id"]
        if state.get("you") is None:
            return
        if state["status"] in ("finished", "closed"):
            table = self.tables.pop(room, None)
            if table is not None:
                self.say(T("the game at table {room} is over", room=room))
                close_player(table.player)
            return
        if state["status"] != "playing" or not state.get("legal"):
            return
        table = self.tables.get(room)
        if table is None:
            table = self.tables[room] = Table(self.make())
        if table.answered >= state["plies"]:
            return
        view = view_from_json(state["view"])
        legal = [parse_step(text) for text in state["legal"]]
        try:
            step = table.player.choose(view, legal)
        except CafeError as error:  # an outside engine that failed: a computer player of the café takes over
            self.say(T("the player failed at table {room}: {error}; the bot leaves it", room=room, error=str(error)))
            self.tables.pop(room, None)
            close_player(table.player)
            self._send(socket, {"type": "say", "room": room, "text": "/leave"})
            return
        table.answered = state["plies"]
        self._send(socket, {"type": "step", "room": room, "step": str(step), "plies": state["plies"]})

    def _refused(self, socket: ClientConnection, error: dict[str, Any]) -> None:
        """A request the café refused: said; a step refused is chosen again from a fresh state."""
        self.say(T("the café refused: {message}", message=str(error.get("message", ""))))
        if error.get("code") in ("token", "signed-out"):
            raise Refused(T("the café refused the bot: {message}", message=str(error.get("message", ""))))
        if error.get("code") == "rate":  # too fast all the same: a pause, and every table afresh
            time.sleep(1.0)
            again = list(self.tables)
        else:
            again = [room for room in [error.get("room")] if isinstance(room, str) and room in self.tables]
        for room in again:
            self.tables[room].answered = -1
            self._send(socket, {"type": "sync", "room": room})

    def close(self) -> None:
        for table in self.tables.values():
            close_player(table.player)
        self.tables.clear()


def close_player(player: Player) -> None:
    """An outside engine's process ends with its table."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


def _pause(seconds: float, stop: Callable[[], bool]) -> None:
    """Wait before connecting again, or less if asked to stop meanwhile (a look every tenth of a second)."""
    until = time.monotonic() + seconds
    while not stop() and time.monotonic() < until:
        time.sleep(min(0.1, until - time.monotonic()))
