"""Bots from anywhere: an account that a program plays, signed in by an API token, invited to tables by people.

In the spirit of lichess's Bot API.  An account marked as a bot (:mod:`cafe.server.storage.bot_rows`) gets an API token
(shown once, kept hashed, revocable); a program says hello with it (``{"type": "hello", "bot_token": ...}``: the
first message, never the URL, which proxies log) and plays like any person, bound by the same rate of messages,
and by ``bot_tables`` tables at once.  A table's host invites a connected bot with ``/invite NAME``: the bot's
connections, on whichever server process, hear ``invited`` (through the broker, on the bot's own channel) and
may sit down with ``join``.  ``cafe bot`` (:mod:`cafe.botclient`) is such a program.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from cafe.i18n import T
from cafe.server.broker import Event
from cafe.server.fields import ProtocolError

if TYPE_CHECKING:
    from cafe.server.gateway import Connection, Gateway
    from cafe.server.rooms import Room

CHANNEL = "bot:"  # + an account's player: the broker's channel of its invitations (no room's id has a colon)
MAX_TOKEN = 100  # characters of a token worth looking up


def channel(player: int) -> str:
    return f"{CHANNEL}{player}"


def signed_in(gateway: Gateway, connection: Connection, message: dict[str, Any]) -> tuple[int, str, None]:
    """The bot account a hello's ``bot_token`` signs in (its player, name, and no guest's token); the connection
    hears the bot's invitations from now on."""
    token = message.get("bot_token")
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        raise ProtocolError("token", T("a bot's token is the string its account's page showed once"))
    found = gateway.store.bot_by_token(token)
    if found is None:
        raise ProtocolError("token", T("this bot token is not valid (any more): make a new one on the bot's account"))
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


def deliver(gateway: Gateway, event: Event) -> None:
    """An invitation, from this process or another, to this process's connections of the account (a bot's,
    or a person's)."""
    text = json.dumps({"type": event.kind, **event.body})
    for connection in list(gateway.connections.values()):
        if event.room in connection.rooms:
            connection.send(text)


def command(text: str) -> str | None:
    """The name a ``/invite NAME`` line names (None: another line)."""
    word, _, arg = text.partition(" ")
    return arg.strip() if word.lower() == "/invite" else None
