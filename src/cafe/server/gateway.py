"""The gateway: the café's connections, and the messages between them and the tables (docs/protocol.md).

A connection sends JSON objects with a ``type``; its hello signs it in, and :data:`HANDLERS` serve the rest.  A
request that changes a room is made by the tables (:mod:`cafe.server.tables`), which hold the rooms, lock them,
store their changes and publish the news through a :class:`~cafe.server.broker.Broker`; the broker numbers the
news and brings it back to every server process (this one included), and :meth:`Gateway.deliver` fans it out to
the connections here, each getting its own view.  The gateway is the only part that talks to connections; rooms
only decide, the tables only change and tell, the due work (:mod:`cafe.server.chores`) plays computer players and
runs clocks, and the storage (:mod:`cafe.server.storage`) only keeps.

Sending never waits: each connection has its own bounded outbox (:mod:`cafe.server.outbox`), and a client that
falls too far behind is dropped.  Who is here and who has left (presence) is told to their tables from here too.

The gateway is also where the parts are wired together: it makes the tables, the tournaments, the due work and
the analyses over one store and one broker, and gives each lower part the hooks it calls back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, cast

from cafe.ai.base import Player
from cafe.ai.levels import strongest
from cafe.arena.match import Game
from cafe.errors import CafeError
from cafe.i18n import DEFAULT, T, Text, pick
from cafe.options import make_rules, rules_from
from cafe.server import bots, cup_times, fields, holidays, invites, names
from cafe.server.analyses import Analyses
from cafe.server.broker import Broker, Event, LocalBroker
from cafe.server.chores import Chores
from cafe.server.cups import Cups
from cafe.server.encoding import dumps
from cafe.server.fields import ProtocolError
from cafe.server.limits import Limits
from cafe.server.matches import BEST_OF
from cafe.server.rooms import CLOCKS, LATE, Outcome, Room, table_name
from cafe.server.storage.store import ChatLine, Store, Unavailable
from cafe.server.tables import Tables
from cafe.server.tasks import Tasks
from cafe.server.thinking import Busy, Hints, Kind

MAX_MESSAGE = 4096  # bytes of one message from a client
MAX_CHAT = 500
CATCH_UP = 1.0  # seconds between tries to read again the rooms whose news came while the database was away

Send = Callable[[dict[str, Any] | str], None]  # a message, or one already encoded as JSON
log = logging.getLogger("cafe.server")


@dataclass
class Connection:
    id: int
    send: Send  # queues a message for this client; never waits
    address: str = ""
    player: int | None = None
    name: str = ""
    rooms: set[str] = field(default_factory=set)
    in_lobby: bool = False  # follows the lobby: gets a `listing` whenever a room changes
    pictures: bool = False  # wants the café drawn in SVG with every room state (browsers)
    language: str = "en"  # of the messages meant for this person (cafe.i18n.LANGUAGES)
    session: str | None = None  # the sign-in cookie the WebSocket came with (its hello signs the account in)
    end: Callable[[], None] = lambda: None  # closes the connection (signed out, or the account deleted)
    bot: bool = False  # signed in with a bot account's API token (cafe.server.bots)
    rate: float = 20.0  # messages a second on average ...
    burst: float = 40.0  # ... and at most this many at once
    allowance: float = 0.0
    checked: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.allowance = self.burst

    def allow(self) -> bool:
        """A token bucket: ``rate`` messages a second, ``burst`` at once."""
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Gateway:
    def __init__(
        self, store: Store, broker: Broker | None = None, limits: Limits | None = None, **overrides: Any
    ) -> None:
        self.store = store
        self.broker: Broker = broker or LocalBroker()
        self.limits = replace(limits or Limits(), **overrides)
        self.connections: dict[int, Connection] = {}
        self._next_id = 0
        self._addresses: Counter[str] = Counter()
        self.counters = {"steps": 0, "rejected": 0, "messages": 0, "dropped": 0}
        self.tasks = Tasks()  # the broker told who follows what, people leaving, the background loops
        self.tables = Tables(store, self.broker, self.limits, self.counters, self.connections, self.tasks)
        self.chores = Chores(self.tables, store, self.broker, self.limits, held=lambda room: self.cups.holds(room))
        self.cups = Cups(self.tables, self.chores.due)  # tournaments: their tables are rooms here
        self.chores.jobs[cup_times.KIND] = self.cups.due  # a tournament's round starts on time
        self.analyses = Analyses(store, self.limits, self.counters)
        self._hints = Hints(self.counters)
        self._listed: dict[str, dict[str, Any]] = {}  # each room's line as the lobby last heard it
        self._lobby: str | None = None  # the lobby message, encoded, while no room has changed
        self._away: dict[int, float] = {}  # seated people gone from every connection, since when (time.time())
        self._departing: set[int] = set()  # people whose last connection closed, not yet said to have left
        self._behind: set[str] = set()  # rooms whose news came while the database was away: read again later
        self.tables.on_change(self.chores.changed)  # a change wakes computer players and winds clocks, and then
        self.tables.on_change(lambda room, _: self.cups.after(room))  # a tournament's table's result goes in
        self.tables.on_forget(self.chores.forgotten)
        self.tables.on_forget(self._forgotten)

    async def start(self) -> None:
        """Begin hearing room events; computer players whose turn it is go on (after a restart)."""
        await self.broker.start(self.deliver, self.resync)
        for room in self.tables.rooms.values():
            self.chores.wake_bot(room)
        self.tasks.spawn(self.chores.due.run_forever())
        self.tasks.spawn(self.analyses.run_forever())
        self.tasks.spawn(self.chores.sweeper())
        self.tasks.spawn(self.cups.run_forever())

    async def close(self) -> None:
        await self.tasks.stop()
        self.chores.close()
        self.analyses.close()
        await self.broker.close()

    def _forgotten(self, room: str) -> None:
        """A room left this process: the lobby no longer lists it, and its hints are forgotten."""
        self._listed.pop(room, None)
        self._lobby = None
        self._hints.forget(room)

    # ------------------------------------------------------------------ connections

    def connect(
        self, send: Send, address: str = "", language: str = DEFAULT, session: str | None = None
    ) -> Connection | None:
        """A new connection, or None when its address has as many open as it may.

        ``language``: of its messages until its ``hello`` says otherwise (the browser's Accept-Language);
        ``session``: the sign-in cookie it came with."""
        if address and self._addresses[address] >= self.limits.per_address:
            return None
        self._next_id += 1
        self._addresses[address] += 1
        connection = Connection(
            self._next_id,
            send,
            address,
            language=language,
            session=session,
            rate=self.limits.rate,
            burst=self.limits.burst,
        )
        self.connections[self._next_id] = connection
        return connection

    def disconnect(self, connection: Connection, dropped: bool = False) -> None:
        """A connection closed (or was dropped for falling behind): its player's seats in games go to computer
        players unless they come back in time.

        Nothing here waits: a closing connection's handler may be cancelled, and this must happen all the same."""
        if self.connections.pop(connection.id, None) is None:
            return
        self.counters["dropped"] += dropped
        self._addresses[connection.address] -= 1
        if self._addresses[connection.address] <= 0:
            del self._addresses[connection.address]
        for room_id in connection.rooms:
            self.tables.unfollow(connection, room_id)
        player = connection.player
        if player is None:
            return
        self.tasks.spawn(self._depart(player, connection.name))
        for room_id in connection.rooms:
            room = self.tables.rooms.get(room_id)
            seat = room.seat_of(player) if room is not None else None
            if room is not None and seat is not None and room.status == "playing" and not room.clock:
                self.chores.expect_back(room, player, move=True)  # leaving a turn-based game's page is normal

    async def _depart(self, player: int, name: str) -> None:
        """A connection of this player closed: if it was their last anywhere, their tables hear that they left
        (once, however many of their connections closed meanwhile)."""
        await self.broker.depart(player)
        if await self.broker.present(player) or player in self._departing or player in self._away:
            return
        self._departing.add(player)
        try:
            gone = time.time()
            await asyncio.sleep(self.limits.left_seconds)  # a reload, or a moment offline, is no leaving
            if not await self.broker.present(player):
                await self._presence(player, name, gone)
        finally:
            self._departing.discard(player)

    async def _presence(self, player: int, name: str, away: float | None) -> None:
        """Tell the rooms where the player is seated that they left (``away``: since when) or are back (None)."""
        said = T("{name} has left", name=name) if away is not None else T("{name} is back", name=name)
        for room in self.tables.seated(player):
            seat = room.seat_of(player)
            gone_for = None if away is None else round(time.time() - away, 1)  # the readers' clocks may differ
            body = {"player": player, "seat": seat, "away": away, "for": gone_for, "message": said.to_json()}
            await self.broker.publish(room.id, "presence", body, room.seq)
        if away is not None:  # a rematch offered to them is off: they are gone
            for room in [r for r in self.tables.rooms.values() if r.offer is not None and r.offer.next is None]:
                if room.seat_of(player) is not None:
                    async with self.tables.changing(room):
                        left = T("{name} has left: the rematch is off", name=name)
                        await self.tables.after(room, room.withdraw(left))

    async def receive(self, connection: Connection, text: str) -> None:
        """One message from a client: served, or answered with an error; never an exception."""
        self.counters["messages"] += 1
        try:
            if not connection.allow():
                raise ProtocolError("rate", T("too many messages: slow down"))
            message = fields.parse(text, MAX_MESSAGE)
            handler = HANDLERS.get(message["type"])
            if handler is None:
                shown = message["type"][:40]
                raise ProtocolError("type", T("unknown message type '{shown}' (see docs/protocol.md)", shown=shown))
            if message["type"] != "hello" and connection.player is None:
                raise ProtocolError("hello", T('say hello first: {{"type": "hello", "name": ...}}'))
            self.cups.may_follow(connection.player, message.get("room"))  # not another table of one's round
            await handler(self, connection, message)
        except ProtocolError as error:
            self.counters["rejected"] += 1
            said = error.text.render(error.language or connection.language)
            about = {} if error.room is None else {"room": error.room}
            connection.send({"type": "error", "code": error.code, "message": said, **about})
        except Unavailable as away:  # the database or the broker, for a moment: nothing was acknowledged
            log.warning("message %r not answered: %s", text[:200], away)
            self.counters["rejected"] += 1
            said = T("the café is reconnecting; try again in a moment").render(connection.language)
            connection.send({"type": "error", "code": "unavailable", "message": said})
        except Exception:  # a fault of the server's own: logged, answered, and the connection lives on
            log.exception("message %r failed", text[:200])
            self.counters["rejected"] += 1
            failed = T("the server failed; try again").render(connection.language)
            connection.send({"type": "error", "code": "internal", "message": failed})

    # ------------------------------------------------------------------ handlers

    async def hello(self, connection: Connection, message: dict[str, Any]) -> None:
        """Sign the connection in. Every field is checked before anything changes: a refused hello leaves the
        connection unsigned and takes no name."""
        if connection.player is not None:
            raise ProtocolError("hello", T("this connection has said hello already"))
        language = _language(message)
        try:
            player, name, token = await self._who(connection, message)
        except ProtocolError as error:
            error.language = language  # refused in the language the hello asked for
            raise
        connection.player, connection.name = player, name
        connection.pictures = message.get("svg") is True
        connection.language = language or connection.language
        self.chores.notices.seen(player, connection.language)
        back = player in self._away and not await self.broker.present(player)
        await self.broker.arrive(player)
        if back:
            await self._presence(player, name, None)
            self._away.pop(player, None)  # heard back here, even where no table of theirs is left to tell
        invites.listen(self, connection, player, token)
        seated = self.tables.seated(player)
        ids = [room.id for room in seated]
        played = bool(self.store.games_of(player, 1))  # a person who never finished a game is offered the tutorial
        connection.send({"type": "welcome", "player": player, "name": name, "token": token, "account": token is None,
                         "seated": ids, "played": played, "bot": connection.bot})  # fmt: skip
        await self.lobby(connection, {})
        for room in seated:  # back in the rooms where this player has a seat
            self.tables.follow(connection, room.id)
            self._send_room(connection, room)
            self._send_history(connection, room)
            self.chores.wake_bot(room)  # in case the process that woke it has gone, or nobody was there

    async def _who(self, connection: Connection, message: dict[str, Any]) -> tuple[int, str, str | None]:
        """The player a hello names: the account its sign-in cookie holds; else a guest by its token, or a new
        guest with a name nobody here has now and no account has (made only once everything is checked). The
        player, their name and their token (None for an account: its cookie signs it in)."""
        if "bot_token" in message:
            return bots.signed_in(self, connection, message)
        if connection.session is not None:
            since = time.time() - self.limits.session_days * 86_400
            signed = self.store.session_player(connection.session, since)
            if signed is not None:
                return *signed, None
        token = message.get("token")
        if token is not None:
            if not isinstance(token, str) or len(token) > 100:
                raise ProtocolError("token", T("a token is the string the server gave you"))
            known = self.store.player_by_token(token)
            if known is None:
                raise ProtocolError("token", T("unknown token: say hello with a name to start afresh"))
            player, name = known
            owner = self.store.account_named(name)
            if owner is None or owner[0] == player:
                return player, name, token
            if "name" not in message:  # an account took this guest's name meanwhile: the guest chooses another
                raise ProtocolError("name", T("'{name}' is an account's name now: choose another name", name=name))
            name = await self._free_name(message)
            self.store.rename(player, name)
            return player, name, token
        name = await self._free_name(message)
        token = secrets.token_urlsafe(24)
        return self.store.add_player(name, token), name, token

    async def _free_name(self, message: dict[str, Any]) -> str:
        """The hello's name, if a guest may take it: no account has it and nobody here has it now."""
        name = names.name(message)
        if self.store.account_named(name) is not None:
            taken = T("'{name}' belongs to an account: sign in with its password, or choose another name", name=name)
            raise ProtocolError("name", taken)
        if await self._name_in_use(name) or not self.store.hold_name(name, time.time(), self.limits.name_hold_seconds):
            raise ProtocolError("name", T("'{name}' is someone else's name here now: choose another", name=name))
        return name

    def sign_out(self, player: int) -> None:
        """The account's connections here close (signed out everywhere, a new password, or deleted); their seats
        wait for them as after any closed connection."""
        for connection in [c for c in self.connections.values() if c.player == player]:
            connection.end()

    def end_bot(self, player: int) -> None:
        """The bot's connections here close (its token was revoked or replaced); a browser signed in to the
        account stays."""
        for connection in [c for c in self.connections.values() if c.player == player and c.bot]:
            connection.end()

    async def erased(self, player: int, rooms: list[str]) -> None:
        """A deleted person's connections close, and the finished games they played leave memory (the store
        keeps them without their name)."""
        self.sign_out(player)
        for room_id in rooms:
            room = self.tables.rooms.get(room_id)
            if room is not None and room.status == "finished":
                await self.tables.forget(room)

    async def holiday(self, connection: Connection, message: dict[str, Any]) -> None:
        await holidays.handle(self, connection, message)

    async def language(self, connection: Connection, message: dict[str, Any]) -> None:
        """The language of this person's messages (a tag like ``de`` or ``cs-CZ``; English if none is ours)."""
        connection.language = _language(message) or connection.language

    async def _name_in_use(self, name: str) -> bool:
        """Whether a person with this name is connected, or holds a seat in a room here."""
        seated = {s.player for room in self.tables.rooms.values() for s in room.seats if s.player is not None}
        for player in self.store.players_named(name):
            if player in seated or await self.broker.present(player):
                return True
        return False

    async def lobby(self, connection: Connection, message: dict[str, Any]) -> None:
        connection.in_lobby = True
        if self._lobby is None:  # encoded once until a room changes: asking again and again costs little
            listed = [room for room in reversed(self.tables.rooms.values()) if room.status in ("waiting", "playing")]
            listed.sort(key=lambda room: room.status != "waiting")  # waiting rooms first, each kind newest first
            rooms = [room.summary() for room in listed[: self.limits.lobby_rooms]]
            self._lobby = dumps({"type": "lobby", "rooms": rooms, "total": len(listed)})
        connection.send(self._lobby)

    async def create(self, connection: Connection, message: dict[str, Any]) -> None:
        edition = message.get("edition", "board")
        if edition not in ("board", "cards"):
            raise ProtocolError("rules", T("'edition' is board or cards"))
        name = (
            fields.text(message, "name", 40) if "name" in message else table_name(connection.name, connection.language)
        )
        best_of = message.get("match")
        if best_of is not None and (best_of not in BEST_OF or isinstance(best_of, bool)):
            raise ProtocolError(
                "field",
                T("'match' is the number of games of a match: {choices}", choices=" or ".join(map(str, BEST_OF))),
            )
        clock = _clock(message)
        private = message.get("private", False)
        if not isinstance(private, bool):
            raise ProtocolError("field", T("'private' is true or false"))
        assert connection.player is not None
        try:
            asked = message.get("rules", "printed")
            made = make_rules(edition, asked)  # checked first: a preset that is not known is refused
            preset = asked if isinstance(asked, str) else asked.get("preset", "printed")
            rules = rules_from(preset, made)  # the host's preset, and what differs from it
        except CafeError as error:
            raise ProtocolError("rules", error.text) from None
        if len(json.dumps(rules)) > self.limits.rules_bytes:
            raise ProtocolError(
                "rules", T("the rules object is too long (at most {n} bytes)", n=self.limits.rules_bytes)
            )
        open_rooms = [room for room in self.tables.rooms.values() if room.status in ("waiting", "playing")]
        if len(open_rooms) >= self.limits.max_rooms:
            raise ProtocolError("busy", T("the café is full: join a table in the lobby, or try again later"))
        hosting = sum(room.host == connection.player for room in open_rooms)  # games in progress count too
        if hosting >= self.limits.rooms_per_player:
            raise ProtocolError(
                "busy",
                T("you host {hosting} tables already (waiting or playing): wait until one ends", hosting=hosting),
            )
        room = Room.create(self.store, secrets.token_hex(4), name, edition, rules, connection.player, best_of,
                           (*clock, self.limits.clock_hour))  # fmt: skip
        if private:
            room.set_private(True)
        self.tables.rooms[room.id] = room
        self.tables.follow(connection, room.id)
        connection.in_lobby = False
        player, name = connection.player, connection.name
        await self._apply(connection, room, lambda: room.command(player, name, "/join"))

    async def enter(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        self.tables.follow(connection, room.id)
        connection.in_lobby = False
        self._send_room(connection, room)
        self._send_history(connection, room)
        self.chores.wake_bot(room)

    async def join(self, connection: Connection, message: dict[str, Any]) -> None:
        """A person opened a table's invitation link: they follow the room and, if the code is right, sit down."""
        code = fields.text(message, "code", 40)
        room_id = message.get("room")
        room = None
        if isinstance(room_id, str) and len(room_id) <= 16:
            room = self.tables.get(room_id)
        if room is None or room.status not in ("waiting", "playing"):
            raise ProtocolError("invitation", T("this invitation has expired: its table is closed or its game over"))
        self.tables.follow(connection, room.id)
        connection.in_lobby = False
        self._send_room(connection, room)
        self._send_history(connection, room)
        player, name = player_of(connection), connection.name
        bots.may_sit(self, connection)
        await self._apply(connection, room, lambda: room.join_invited(player, name, code))

    async def rematch(self, connection: Connection, message: dict[str, Any]) -> None:
        """Ask for a rematch at the end of a game, accept one (``accept``, by default), or decline it."""
        room = self.tables.rooms.get(str(message.get("room"))[:16])
        if room is None:  # a finished game stays in memory a while; after that, the table is gone
            raise ProtocolError("room", T("no room '{room}'", room=str(message.get("room"))[:16]))
        accept = message.get("accept", True)
        if not isinstance(accept, bool):
            raise ProtocolError("field", T("'accept' is true or false"))
        player, name = player_of(connection), connection.name
        async with self.tables.changing(room):
            outcome, following = room.rematch(player, name, accept, self.limits.rematch_seconds)
            await self._answer(connection, room, outcome)
            if following is not None:
                await self.tables.open_rematch(room, following)
            elif room.offer is not None and outcome.error is None:  # it lapses unless everyone accepts in time
                self.chores.lapse_later(room)

    async def sync(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        self._send_room(connection, room)

    async def say(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        text = fields.text(message, "text", MAX_CHAT)
        self.tables.follow(connection, room.id)  # whoever talks in a room follows it, and no longer the lobby
        connection.in_lobby = False
        player, name = player_of(connection), connection.name
        if (invited := bots.command(text)) is not None:
            await invites.invite(self, connection, room, invited)
        elif text.startswith("/"):
            if text.lower().startswith("/join"):
                bots.may_sit(self, connection)
            await self._apply(connection, room, lambda: room.command(player, name, text, connection.language))
        else:  # kept first: whoever enters or comes back, even after a restart, reads the room's last lines
            self.store.add_chat(room.id, ChatLine(name, player, text, time.time()), self.limits.chat_kept)
            await self.broker.publish(room.id, "chat", {"from": name, "player": player, "text": text}, room.seq)

    async def step(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        text = fields.text(message, "step", 40)
        plies = fields.plies(message)
        player = player_of(connection)
        await self._apply(connection, room, lambda: room.step(player, text, plies))

    async def hint(self, connection: Connection, message: dict[str, Any]) -> None:
        """The step the strongest computer player would make now, for a person playing computer players only."""
        room = self._room(message)
        seat = room.seat_of(player_of(connection))
        game = room.game
        if game is None or room.status != "playing" or seat is None or game.current_player != seat:
            raise ProtocolError("refused", T("a hint is for the player whose turn it is"))
        if not room.hints_allowed():
            refusal = T("no hints in a game against other people, unless the host allowed them before the start")
            raise ProtocolError("refused", refusal)
        turn = game.turn_number
        position = (room.id, seat, tuple(str(result.step) for result in game.results))
        helper = strongest(room.seed + turn, self.limits.hint_seconds)

        async def think() -> list[str]:
            probe = game.copy()  # the rest of the turn is played out on a copy, never on the room's game
            try:
                return await self.chores.thinkers.run(Kind.HINT, plan_turn, helper, probe, seat)
            except Exception:  # a failing helper gives no hint, and the room goes on
                log.exception("the hint failed in room %s", room.id)
                raise ProtocolError("refused", T("no hint could be found; try again")) from None

        try:
            steps = await self._hints.ask(room.id, position, player_of(connection), think)
        except Busy:
            raise ProtocolError("busy", T("your last hint is still being thought out: wait for it")) from None
        async with self.tables.changing(room):
            if room.game is not game or game.turn_number != turn:
                raise ProtocolError("refused", T("the turn is over: no hint for it"))
            if turn not in room.hinted:  # said once a turn: asking again tells the others nothing new
                room.hinted.add(turn)
                announce = T("{name} asks for a hint", name=connection.name)
                await self.tables.after(room, Outcome(announce=announce, changed=True))
        connection.send({"type": "hint", "room": room.id, "step": steps[0], "steps": steps})

    async def undo(self, connection: Connection, message: dict[str, Any]) -> None:
        room = self._room(message)
        plies = fields.plies(message)
        player, name = player_of(connection), connection.name
        await self._apply(connection, room, lambda: room.take_back(player, name, plies))

    # ------------------------------------------------------------------ answers, and the news to every connection

    async def _apply(self, connection: Connection, room: Room, request: Callable[[], Outcome]) -> None:
        async with self.tables.changing(room):
            await self._answer(connection, room, request())

    async def _answer(self, connection: Connection, room: Room, outcome: Outcome) -> None:
        if outcome.error is not None:
            self.counters["rejected"] += 1
            reply = {"type": "error", "code": "refused", "room": room.id,
                     "message": outcome.error.render(connection.language)}  # fmt: skip
            if outcome.rule:
                reply["rule"] = outcome.rule
            connection.send(reply)
            return
        if outcome.answer is not None:
            connection.send({"type": "info", "room": room.id, "text": outcome.answer.render(connection.language)})
        await self.tables.after(room, outcome)

    async def deliver(self, event: Event) -> None:
        """A room event from the broker (made here or in another process): to this process's connections."""
        if event.room.startswith(bots.CHANNEL):
            return bots.deliver(self, event)
        try:
            await self._deliver_room(event)
        except Unavailable:  # the news of a change the database cannot give now: not lost, read once it is back
            if not self._behind:
                self.tasks.spawn(self._catch_up())
            self._behind.add(event.room)

    async def _catch_up(self) -> None:
        """The rooms whose news came while the database was away, read again once it answers, and shown whole to
        their followers here (as after the broker was away, :meth:`resync`)."""
        while self._behind:
            await asyncio.sleep(CATCH_UP)
            for room_id in list(self._behind):
                try:
                    room = self.tables.get(room_id)
                    if room is not None:
                        async with self.tables.rereading(room):
                            await self._show(room, self.followers(room_id),
                                             room.seq)  # fmt: skip
                except Unavailable:
                    break  # still away: the next round tries again
                self._behind.discard(room_id)

    async def _deliver_room(self, event: Event) -> None:
        room = self.tables.rooms.get(event.room)
        if room is None:
            room = self.tables.load(event.room)
            if room is None:  # gone, or finished before this process heard of it: nobody here follows it
                return
            room.version = event.version  # read just now: as new as this event
        room.seq = max(room.seq, event.seq)
        followers = self.followers(room.id)
        if event.kind == "presence":  # every process keeps who is away, for the room states it sends
            if event.body["away"] is None:
                self._away.pop(event.body["player"], None)
            else:
                self._away[event.body["player"]] = event.body["away"]
        if event.kind != "changed":  # the same for everyone who reads its language: encoded once for each
            said = Text.from_json(event.body["message"]) if "message" in event.body else None
            body = {k: v for k, v in event.body.items() if k != "message"}
            lines: dict[str, str] = {}
            for connection in followers:
                language = connection.language if said is not None else ""
                if language not in lines:
                    words = {"text": said.render(language)} if said is not None else {}
                    lines[language] = dumps({"type": event.kind, "room": room.id, **body, **words, "seq": event.seq})
                connection.send(lines[language])
            return
        if event.origin != self.broker.origin and event.version > room.version:
            self.tables.reload(room, event.version)
        await self._show(room, followers, event.seq)

    def followers(self, room: str) -> list[Connection]:
        """This process's connections that follow the room (or an account's channel, cafe.server.bots)."""
        return cast(list[Connection], self.tables.following(room))

    async def _show(self, room: Room, followers: list[Connection], seq: int) -> None:
        """The room's whole state to its followers here, and its line in the lobby."""
        encoded: dict[tuple[int | None, bool], str] = {}  # the same state for every follower in the same seat
        for connection in followers:
            key = (room.seat_of(player_of(connection)), connection.pictures)
            if key not in encoded:
                encoded[key] = dumps(self._room_message(connection, room, seq))
            connection.send(encoded[key])
        self._list(room)
        if room.status == "closed":  # its last person left before the start: forgotten
            await self.tables.forget(room)
        elif room.status == "finished":
            self.chores.finished(room)

    async def resync(self) -> None:
        """The broker was away and events may have been missed: every room is read again from the store (rooms
        other processes opened meanwhile too), its followers get its whole state, and its computer players and
        clocks go on.  A broker that lost its counters (an emptied Redis) numbers each room's events on from the
        highest number heard here, never from 1 again."""
        self.tables.add_opened()
        for room in list(self.tables.rooms.values()):
            if room.status not in ("waiting", "playing"):
                continue
            await self.broker.number_above(room.id, room.seq)
            async with self.tables.rereading(room):
                await self._show(room, self.followers(room.id), room.seq)
            self.chores.wake_bot(room)
            self.chores.wind_clock(room)

    def _send_room(self, connection: Connection, room: Room) -> None:
        connection.send(self._room_message(connection, room, room.seq))

    def _send_history(self, connection: Connection, room: Room) -> None:
        """The room's last chat lines, for a person entering it or coming back."""
        lines = self.store.chat(room.id, self.limits.chat_kept)
        said = [{"from": line.name, "player": line.player, "text": line.text, "at": line.at} for line in lines]
        connection.send({"type": "history", "room": room.id, "lines": said})

    def _room_message(self, connection: Connection, room: Room, seq: int) -> dict[str, Any]:
        """The room as this connection's player may see it (and the café drawn, if it asked)."""
        state = room.state_for(player_of(connection))
        now = time.time()  # each seated person away: for how many seconds (a clock the browser runs on)
        state["away"] = [
            None if s.player is None or s.player not in self._away else round(now - self._away[s.player], 1)
            for s in room.seats
        ]
        if room.deadline is not None and room.status == "playing":  # the turn's time left (the readers' clocks differ)
            state["left"] = round(room.deadline - now, 1)
        message = {"type": "room", "seq": seq, "room": state}
        if connection.pictures:
            message["svg"] = room.picture()
        return message

    def _list(self, room: Room) -> None:
        """A room's new line in the lobby, if it changed, to the connections following the lobby."""
        summary = room.summary()
        if self._listed.get(room.id) == summary:
            return
        self._listed[room.id] = summary
        self._lobby = None
        text = dumps({"type": "listing", "room": summary})  # encoded once for every follower of the lobby
        for connection in list(self.connections.values()):
            if connection.in_lobby:
                connection.send(text)

    def _room(self, message: dict[str, Any]) -> Room:
        room_id = message.get("room")
        room = None
        if isinstance(room_id, str) and len(room_id) <= 16:
            room = self.tables.get(room_id)
        if room is None and isinstance(room_id, str) and self.tables.over(room_id):
            # a finished game no longer kept in memory (a restart, or a while after its end): its record is kept
            raise ProtocolError("over", T("this game is over: here is its replay"), room_id)
        if room is None:
            raise ProtocolError("room", T("no room '{room}'", room=str(room_id)[:16]))
        return room


def _language(message: dict[str, Any]) -> str | None:
    """The language a message asks for in ``lang`` (None: it does not say), or a ProtocolError."""
    return None if message.get("lang") is None else pick([fields.text(message, "lang", 35)])


def _clock(message: dict[str, Any]) -> tuple[int, str]:
    """A new table's clock: the hours of each turn (0: a live game) and what running out of them does."""
    hours = message.get("clock", 0)
    if hours not in CLOCKS or isinstance(hours, bool):
        choices = ", ".join(map(str, CLOCKS))
        said = T("'clock' is the hours on each turn's clock: {choices} (0: a live game)", choices=choices)
        raise ProtocolError("field", said)
    late = message.get("late", "bot")
    if late not in LATE:
        raise ProtocolError("field", T("'late' is what running out of time does: bot or end"))
    return hours, late


HINT_STEPS = 12  # a hint's steps at most (a turn is rarely longer)


def plan_turn(helper: Player, game: Game, seat: int) -> list[str]:
    """The steps the helper would play from here to the end of ``seat``'s turn, played out on ``game`` (a copy):
    up to a step that draws, since what comes after one depends on what is drawn, which nobody may know yet."""
    steps: list[str] = []
    while len(steps) < HINT_STEPS and not game.is_over() and game.current_player == seat:
        step = helper.choose(game.view(seat), game.legal_steps())
        steps.append(str(step))
        result = game.push(step)
        if result.turn_over or result.drawn:
            break
    return steps


def player_of(connection: Connection) -> int:
    """The player behind a connection that has said hello."""
    assert connection.player is not None
    return connection.player


Handler = Callable[[Gateway, Connection, dict[str, Any]], Awaitable[None]]
HANDLERS: dict[str, Handler] = {
    "hello": Gateway.hello,
    "lobby": Gateway.lobby,
    "create": Gateway.create,
    "enter": Gateway.enter,
    "sync": Gateway.sync,
    "say": Gateway.say,
    "step": Gateway.step,
    "undo": Gateway.undo,
    "hint": Gateway.hint,
    "language": Gateway.language,
    "join": Gateway.join,
    "rematch": Gateway.rematch,
    "holiday": Gateway.holiday,
}
