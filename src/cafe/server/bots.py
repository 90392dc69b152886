"""Bots from anywhere: an account that a program plays, signed in by an API token, invited to tables by people.

In the spirit of lichess's Bot API.  An account marked as a bot (:mod:`cafe.server.storage.bot_rows`) gets an API token
(shown once, kept hashed, revocable); a program says hello with it (``{"type": "hello", "bot_token": ...}``: the
first message, never the URL, which proxies log) and plays like any person, bound by the same rate of messages,
and by ``bot_tables`` tables at once.  A table's host invites a connected bot with ``/invite NAME``: the bot's
connections, on whichever server process, hear ``invited`` (through the broker, on the bot's own channel) and
may sit down with ``join``.  A bot enters a tournament with its token over HTTP (:mod:`cafe.server.cup_routes`),
or its director enters it by name; a round's table reaches its connections on the same channel, seated already.
``cafe bot`` (:mod:`cafe.bot`) is such a program.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from cafe.i18n import T
from cafe.server.broker import Event
from cafe.server.fields import ProtocolError

if TYPE_CHECKING:
    from cafe.server.broker import Broker
    from cafe.server.gateway import Connection, Gateway
    from cafe.server.rooms import Room
    from cafe.server.storage.store import Store

CHANNEL = "bot:"  # + an account's player: the broker's channel of its invitations (no room's id has a colon)
MAX_TOKEN = 100  # characters of a token worth looking up
TABLE = "table"  # an event on an account's channel: a table where it has a seat has opened


def channel(player: int) -> str:
    return f"{CHANNEL}{player}"


def account_of(store: Store, token: Any) -> tuple[int, str]:
    """The bot account an API token signs in (its player and name), on the WebSocket or over HTTP; refused
    (``token``) when it is no token or no longer one."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        raise ProtocolError("token", T("a bot's token is the string its account's page showed once"))
    found = store.bot_by_token(token)
    if found is None:
        raise ProtocolError("token", T("this bot token is not valid (any more): make a new one on the bot's account"))
    return found


def named(store: Store, name: Any) -> tuple[int, str]:
    """The bot account of that name (its player and name), for a tournament's director to enter: a person's
    account is refused, since people enter a tournament themselves."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_TOKEN:
        raise ProtocolError("field", T("'account' is the name of a bot account"))
    found = store.account_named(name.strip())
    if found is None:
        raise ProtocolError("account", T("there is no account '{name}'", name=name.strip()[:40]))
    if not store.bot_accounts([found[0]]):
        raise ProtocolError("person", T("{name} is a person, not a bot: people enter a tournament themselves",
                                        name=found[1]))  # fmt: skip
    return found[0], found[1]


def signed_in(gateway: Gateway, connection: Connection, message: dict[str, Any]) -> tuple[int, str, None]:
    """The bot account a hello's ``bot_token`` signs in (its player, name, and no guest's token); the connection
    hears the bot's invitations from now on."""
    found = account_of(gateway.store, message.get("bot_token"))
    connection.bot = True
    gateway.tables.follow(connection, channel(found[0]))
    return *found, None


def may_sit(gateway: Gateway, connection: Connection) -> None:
    """A bot sits at ``bot_tables`` tables (waiting or playing) at most."""
    if connection.bot and gateway.store.tables_of(connection.player or 0) >= gateway.limits.bot_tables:
        raise ProtocolError(
            "busy", T("a bot plays at {n} tables at once at most: wait until a game ends", n=gateway.limits.bot_tables)
        )


async def invite(gateway: Gateway, connection: Connection, room: Room, bot: int, bot_name: str) -> None:
    """``/invite NAME`` of a bot (:func:`cafe.server.invites.invite` checked the table): the host asks it to sit,
    if it is connected and has a free table. Refused, nothing changed: a bot away or at its limit."""
    if room.seat_of(bot) is not None:
        raise ProtocolError("refused", T("{name} has a seat here already", name=bot_name))
    if not await gateway.broker.present(bot):
        raise ProtocolError("refused", T("{name} is not connected now: try again later", name=bot_name))
    if gateway.store.tables_of(bot) >= gateway.limits.bot_tables:
        raise ProtocolError("busy", T("{name} plays at as many tables as it may: try again later", name=bot_name))
    body = {"room": room.id, "from": connection.name, "code": room.invitation, "table": room.name}
    await gateway.broker.publish(channel(bot), "invited", body)
    connection.send({"type": "info", "room": room.id, "text": T("{name} is invited", name=bot_name).render(
        connection.language)})  # fmt: skip


async def seated(broker: Broker, room: Room) -> None:
    """A table opened with accounts seated at it (a tournament's): their connections on every process follow it
    and get its state (:func:`deliver`), not only those of the process that opened it."""
    for seat in room.seats:
        if seat.player is not None:
            await broker.publish(channel(seat.player), TABLE, {"room": room.id})


def deliver(gateway: Gateway, event: Event) -> None:
    """An invitation, from this process or another, to this process's connections of the account (a bot's,
    or a person's); or a table opened where the account has a seat."""
    if event.kind == TABLE:
        return _follow_table(gateway, event.room, str(event.body["room"]))
    text = json.dumps({"type": event.kind, **event.body})
    for connection in gateway.followers(event.room):
        connection.send(text)


def _follow_table(gateway: Gateway, account: str, room_id: str) -> None:
    room = gateway.tables.get(room_id)
    if room is None:  # over already
        return
    for connection in gateway.followers(account):
        if room_id not in connection.rooms:
            gateway.tables.follow(connection, room_id)
            gateway._send_room(connection, room)


def command(text: str) -> str | None:
    """The name a ``/invite NAME`` line names (None: another line)."""
    word, _, arg = text.partition(" ")
    return arg.strip() if word.lower() == "/invite" else None
