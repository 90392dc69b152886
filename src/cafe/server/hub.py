"""The hub: connections, the lobby and the rooms, and the messages between them (docs/protocol.md).

A connection sends JSON objects with a ``type``; the hub answers the sender
and fans room changes out to every member, each getting its own view.  The
hub is the only place that talks to connections; rooms only decide.  Room
events go out through a :class:`~cafe.server.broker.Broker`, which numbers
them and brings them back to every server process (this one included), so
that with several processes on one database everyone sees the same game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cafe.errors import CafeError
from cafe.server.broker import Broker, Event, LocalBroker
from cafe.server.matches import BEST_OF
from cafe.server.rooms import Outcome, Room
from cafe.server.store import Store

MAX_MESSAGE = 4096  # bytes of one message from a client
MAX_NAME = 24
MAX_CHAT = 500
RATE = 20.0  # messages a second a connection may send on average ...
BURST = 40.0  # ... and at most this many at once
BOT_DELAY = 0.3  # seconds a computer player waits before its step, so that people can follow
AWAY_SECONDS = 120.0  # a seated player gone this long from a game in progress is replaced by a computer player

Send = Callable[[dict[str, Any]], Awaitable[None]]
log = logging.getLogger("cafe.server")


@dataclass
class Connection:
    id: int
    send: Send
    player: int | None = None
    name: str = ""
    rooms: set[str] = field(default_factory=set)
    in_lobby: bool = False  # follows the lobby: gets a `listing` whenever a room changes
    pictures: bool = False  # wants the café drawn in SVG with every room state (browsers)
    allowance: float = BURST
    checked: float = field(default_factory=time.monotonic)

    def allow(self) -> bool:
        """A token bucket: RATE messages a second, BURST at once."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class ProtocolError(Exception):
    """A message that cannot be served; its text goes back to the sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Hub:
    def __init__(
        self,
        store: Store,
        broker: Broker | None = None,
        away_seconds: float = AWAY_SECONDS,
        bot_delay: float = BOT_DELAY,
    ) -> None:
        self.store = store
        self.broker: Broker = broker or LocalBroker()
        self.away_seconds, self.bot_delay = away_seconds, bot_delay
        self.rooms: dict[str, Room] = {}
        self.connections: dict[int, Connection] = {}
        self._next_id = 0
        self.counters = {"steps": 0, "rejected": 0, "messages": 0}
        self._tasks: set[asyncio.Future[None]] = set()  # computer players thinking, away timers
        self._thinking: set[str] = set()  # rooms where one of this process's computer players is thinking
        self._listed: dict[str, dict[str, Any]] = {}  # each room's line as the lobby last heard it
        for row in store.open_rooms():
            self.rooms[row.id] = Room.restore(store, row)

    async def start(self) -> None:
        """Begin hearing room events; computer players whose turn it is go on (after a restart)."""
        await self.broker.start(self.deliver)
        for room in self.rooms.values():
            self._wake_bot(room)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.broker.close()

    # ------------------------------------------------------------------ connections

    def connect(self, send: Send) -> Connection:
        self._next_id += 1
        connection = self.connections[self._next_id] = Connection(self._next_id, send)
        return connection

    def disconnect(self, connection: Connection) -> None:
        """A connection closed: its player's seats in games go to computer players unless they come back in time.

        Nothing here waits: a closing connection's handler may be cancelled, and this must happen all the same."""
        self.connections.pop(connection.id, None)
        player = connection.player
        if player is None:
            return
        self._spawn(self.broker.depart(player))
        for room_id in connection.rooms:
            room = self.rooms.get(room_id)
            seat = room.seat_of(player) if room is not None else None
            if room is not None and seat is not None and room.status == "playing":
                self._spawn(self._replace_if_away(room, seat, player))

    async def _replace_if_away(self, room: Room, seat: int, player: int) -> None:
        await asyncio.sleep(self.away_seconds)
        async with self._changing(room):
            if await self.broker.present(player) or room.status != "playing" or room.seat_of(player) != seat:
                return
            name = room.seats[seat].name
            room.replace_by_bot(seat)
            await self._after(room, Outcome(announce=f"{name} is away: a computer player takes over", changed=True))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    async def receive(self, connection: Connection, text: str) -> None:
        """One message from a client: served, or answered with an error; never an exception."""
        self.counters["messages"] += 1
        try:
            if not connection.allow():
                raise ProtocolError("rate", "too many messages: slow down")
            if len(text.encode()) > MAX_MESSAGE:
                raise ProtocolError("size", f"message too long (at most {MAX_MESSAGE} bytes)")
            try:
                message = json.loads(text)
            except ValueError:
                raise ProtocolError("json", "not a JSON object") from None
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                raise ProtocolError("json", "a message is a JSON object with a 'type'")
            handler = HANDLERS.get(message["type"])
            if handler is None:
                raise ProtocolError("type", f"unknown message type '{message['type']}' (see docs/protocol.md)")
            if message["type"] != "hello" and connection.player is None:
                raise ProtocolError("hello", 'say hello first: {"type": "hello", "name": ...}')
            await handler(self, connection, message)
        except ProtocolError as error:
            self.counters["rejected"] += 1
            await connection.send({"type": "error", "code": error.code, "message": str(error)})
        except Exception:  # a fault of the server's own: logged, answered, and the connection lives on
            log.exception("message %r failed", text[:200])
            self.counters["rejected"] += 1
            await connection.send({"type": "error", "code": "internal", "message": "the server failed; try again"})

    # ------------------------------------------------------------------ handlers

    async def hello(self, connection: Connection, message: dict[str, Any]) -> None:
        token = message.get("token")
        if token is not None:
            if not isinstance(token, str):
                raise ProtocolError("token", "a token is a string")
            known = self.store.player_by_token(token)
            if known is None:
                raise ProtocolError("token", "unknown token: say hello with a name to start afresh")
            connection.player, connection.name = known
        else:
            name = _text(message, "name", MAX_NAME)
            token = secrets.token_urlsafe(24)
            connection.player, connection.name = self.store.add_player(name, token), name
        connection.pictures = message.get("svg") is True
        await self.broker.arrive(connection.player)
        await connection.send({"type": "welcome", "player": connection.player, "name": connection.name, "token": token})
        await self.lobby(connection, {})
        for room in list(self.rooms.values()):  # back in the rooms where this player has a seat
            if room.seat_of(connection.player) is not None:
                connection.rooms.add(room.id)
                await self._send_room(connection, room)
                self._wake_bot(room)  # in case the process that woke it has gone

    async def lobby(self, connection: Connection, message: dict[str, Any]) -> None:
        connection.in_lobby = True
        await connection.send({"type": "lobby", "rooms": [room.summary() for room in self.rooms.values()]})

    async def create(self, connection: Connection, message: dict[str, Any]) -> None:
        edition = message.get("edition", "board")
        rules = message.get("rules", "printed")
        name = _text(message, "name", 40) if "name" in message else f"{connection.name}'s table"
        best_of = message.get("match")
        if best_of is not None and best_of not in BEST_OF:
            raise ProtocolError("field", f"'match' is the number of games of a match: {' or '.join(map(str, BEST_OF))}")
        assert connection.player is not None
        try:
            room = Room.create(self.store, secrets.token_hex(4), name, str(edition), rules, connection.player, best_of)
        except CafeError as error:
            raise ProtocolError("rules", str(error)) from None
        self.rooms[room.id] = room
        connection.rooms.add(room.id)
        connection.in_lobby = False
        player, name = connection.player, connection.name
        await self._apply(connection, room, lambda: room.command(player, name, "/join"))

    async def enter(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        connection.rooms.add(room.id)
        connection.in_lobby = False
        await self._send_room(connection, room)
        self._wake_bot(room)

    async def sync(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        await self._send_room(connection, room)

    async def say(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        text = _text(message, "text", MAX_CHAT)
        connection.rooms.add(room.id)  # whoever talks in a room follows it, and no longer the lobby
        connection.in_lobby = False
        assert connection.player is not None
        if text.startswith("/"):
            player, name = connection.player, connection.name
            await self._apply(connection, room, lambda: room.command(player, name, text))
        else:
            await self.broker.publish(room.id, "chat", {"from": connection.name, "text": text})

    async def step(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        text = _text(message, "step", 40)
        plies = _plies(message)
        assert connection.player is not None
        player = connection.player
        await self._apply(connection, room, lambda: room.step(player, text, plies))

    async def undo(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        plies = _plies(message)
        assert connection.player is not None
        player, name = connection.player, connection.name
        await self._apply(connection, room, lambda: room.take_back(player, name, plies))

    # ------------------------------------------------------------------ changes and their news

    @contextlib.asynccontextmanager
    async def _changing(self, room: Room) -> AsyncIterator[None]:
        """Hold the room (no other request, here or in another process, changes it meanwhile), up to date."""
        async with self.broker.lock(room.id):
            stored = await self.broker.version(room.id)
            if stored != room.version:  # another process changed it since this copy last heard
                self._reload(room, stored)
            yield

    def _reload(self, room: Room, version: int) -> None:
        """This copy of a room brought up to the store, where another process changed it (to ``version``)."""
        room.refresh(self.store.load_room(room.id))
        room.version = version

    def _load(self, room_id: str) -> Room | None:
        """A room this process has not heard of yet (another process made it), from the store."""
        row = self.store.load_room(room_id)
        if row is None or row.status == "finished":
            return None
        room = self.rooms[row.id] = Room.restore(self.store, row)
        previous = room.match.previous if room.match else None
        for connection in self.connections.values():  # the next game of a match is followed like the last
            if previous in connection.rooms:
                connection.rooms.add(room.id)
        return room

    async def _apply(self, connection: Connection, room: Room, request: Callable[[], Outcome]) -> None:
        async with self._changing(room):
            await self._answer(connection, room, request())

    async def _answer(self, connection: Connection, room: Room, outcome: Outcome) -> None:
        if outcome.error is not None:
            self.counters["rejected"] += 1
            reply = {"type": "error", "code": "refused", "room": room.id, "message": outcome.error}
            if outcome.rule:
                reply["rule"] = outcome.rule
            await connection.send(reply)
            return
        if outcome.answer is not None:
            await connection.send({"type": "info", "room": room.id, "text": outcome.answer})
        await self._after(room, outcome)

    async def _after(self, room: Room, outcome: Outcome) -> None:
        """Tell everyone what changed (the room is held)."""
        self.counters["steps"] += outcome.stepped
        news = [] if outcome.announce is None else [("info", {"text": outcome.announce})]
        if outcome.changed:  # a closing room's last news goes first: once closed it is forgotten
            state: list[tuple[str, dict[str, Any]]] = [("changed", {})]
            news = news + state if room.status == "closed" else state + news
        for kind, body in news:
            version = await self.broker.publish(room.id, kind, body)
            if kind == "changed":
                room.version = version
        if outcome.next_game:
            await self._open_next_game(room)
        self._wake_bot(room)

    async def deliver(self, event: Event) -> None:
        """A room event from the broker (made here or in another process): to this process's connections."""
        room = self.rooms.get(event.room)
        if room is None:
            room = self._load(event.room)
            if room is None:  # gone, or finished before this process heard of it: nobody here follows it
                return
            room.version = event.version  # read just now: as new as this event
        room.seq = max(room.seq, event.seq)
        followers = [c for c in self.connections.values() if room.id in c.rooms]
        if event.kind != "changed":
            message = {"type": event.kind, "room": room.id, **event.body, "seq": event.seq}
            for connection in followers:
                await connection.send(message)
            return
        if event.origin != self.broker.origin and event.version > room.version:
            self._reload(room, event.version)
        for connection in followers:
            await self._send_room(connection, room, event.seq)
        await self._list(room)
        if room.status == "closed":  # its last person left before the start: forgotten
            self.rooms.pop(room.id, None)
            self._listed.pop(room.id, None)
            for connection in self.connections.values():
                connection.rooms.discard(room.id)

    async def _open_next_game(self, room: Room) -> None:
        """A match goes on: everyone following this game's room follows the next game's."""
        following = room.next_game(secrets.token_hex(4))
        self.rooms[following.id] = following
        for connection in self.connections.values():
            if room.id in connection.rooms:
                connection.rooms.add(following.id)
        async with self._changing(following):
            await self._after(following, Outcome(announce=f"Game {following.match and following.match.game} of the "
                                                 "match begins", changed=True))  # fmt: skip

    def _wake_bot(self, room: Room) -> None:
        """A computer player whose turn it is starts thinking (once per room in this process)."""
        turn = room.bot_to_move()
        if turn is not None and room.id not in self._thinking:
            self._thinking.add(room.id)
            self._spawn(self._bot_turn(room, *turn))

    async def _bot_turn(self, room: Room, seat: int, bot: Any) -> None:
        try:
            await asyncio.sleep(self.bot_delay)
            game = room.game
            if game is None or room.bot_to_move() != (seat, bot):
                return
            plies = room.plies
            try:
                step = await asyncio.to_thread(bot.choose, game.view(seat), game.legal_steps())
            except Exception:  # a failing computer player must not stop the room: a legal step instead
                log.exception("computer player %s failed in room %s; it plays a legal step instead", bot.name, room.id)
                step = game.legal_steps()[0]
        finally:
            self._thinking.discard(room.id)
        async with self._changing(room):
            if room.plies == plies and room.bot_to_move() == (seat, bot):  # nothing else happened meanwhile
                await self._after(room, room.play(seat, str(step)))

    async def _send_room(self, connection: Connection, room: Room, seq: int | None = None) -> None:
        assert connection.player is not None
        message = {"type": "room", "seq": room.seq if seq is None else seq, "room": room.state_for(connection.player)}
        if connection.pictures:
            message["svg"] = room.picture()
        await connection.send(message)

    async def _list(self, room: Room) -> None:
        """A room's new line in the lobby, if it changed, to the connections following the lobby."""
        summary = room.summary()
        if self._listed.get(room.id) == summary:
            return
        self._listed[room.id] = summary
        message = {"type": "listing", "room": summary}
        for connection in list(self.connections.values()):
            if connection.in_lobby:
                await connection.send(message)

    def _room(self, message: dict[str, Any]) -> Room:
        room_id = str(message.get("room"))
        room = self.rooms.get(room_id) or (self._load(room_id) if len(room_id) <= 16 else None)
        if room is None:
            raise ProtocolError("room", f"no room '{message.get('room')}'")
        return room


def _plies(message: dict[str, Any]) -> int | None:
    """The number of steps the client has seen, if it says (a step or an undo on an older position is stale)."""
    plies = message.get("plies")
    if plies is not None and not isinstance(plies, int):
        raise ProtocolError("step", "'plies' is the number of steps seen, an integer")
    return plies


def _text(message: dict[str, Any], key: str, limit: int) -> str:
    value = message.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("field", f"'{key}' must be a non-empty string")
    if len(value) > limit:
        raise ProtocolError("field", f"'{key}' is too long (at most {limit} characters)")
    return value.strip()


Handler = Callable[[Hub, Connection, dict[str, Any]], Awaitable[None]]
HANDLERS: dict[str, Handler] = {
    "hello": Hub.hello,
    "lobby": Hub.lobby,
    "create": Hub.create,
    "enter": Hub.enter,
    "sync": Hub.sync,
    "say": Hub.say,
    "step": Hub.step,
    "undo": Hub.undo,
}
