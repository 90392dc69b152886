"""People invited to a table by name: ``/invite NAME`` for a person with an account (docs/protocol.md, "/invite").

The host of a waiting table names someone; their connections, on whichever server process, hear ``invited``
through the broker, on the account's own channel (the one bots hear theirs on, :mod:`cafe.server.bots`), and
away from the café they hear of it through :meth:`cafe.server.notices.Notices.send`: by e-mail if they want
invitations so, and by Web Push.  A host invites ``invites_per_minute`` people a minute at most, and a person is
invited to a table once: the store notes it, so that every process agrees.  A guest gets no notices (they have no
address nor subscription), so the host sends them the table's link instead.
"""

from __future__ import annotations

import time
import weakref
from typing import TYPE_CHECKING

from cafe.i18n import T
from cafe.server import bots
from cafe.server.fields import ProtocolError
from cafe.server.notices import Notice
from cafe.server.storage.email_rows import INVITED
from cafe.server.storage.sent_rows import PAGE
from cafe.server.throttle import Bound

if TYPE_CHECKING:
    from cafe.server.gateway import Connection, Gateway
    from cafe.server.rooms import Room

WINDOW = 60.0  # seconds in which a host invites invites_per_minute people at most

_bounds: weakref.WeakKeyDictionary[Gateway, Bound] = weakref.WeakKeyDictionary()


def listen(gateway: Gateway, connection: Connection, player: int, token: str | None) -> None:
    """A person signed in to an account hears their invitations from now on (a bot does already; a guest
    has none)."""
    if token is None and not connection.bot:
        gateway.tables.follow(connection, bots.channel(player))


async def invite(gateway: Gateway, connection: Connection, room: Room, name: str) -> None:
    """``/invite NAME``: the host asks an account to sit at their waiting table (a bot: :func:`bots.invite`).
    Refused, nothing changed: not the host, the game begun, a full table, a name that is no account's (a guest's:
    they are invited by the table's link)."""
    if room.host != connection.player:
        raise ProtocolError("refused", T("only the host can invite someone"))
    if room.status != "waiting":
        raise ProtocolError("refused", T("seats can be changed only before the start"))
    if len(room.seats) >= room.max_players:
        raise ProtocolError(
            "refused", T("every seat is taken ({max_players} players at most)", max_players=room.max_players)
        )
    found = gateway.store.account_named(name) if name else None
    if found is None:
        raise ProtocolError("refused", T("'{name}' has no account here: send a guest the table's invitation link "
                                         "instead (guests get no notices)", name=name[:40]))  # fmt: skip
    if gateway.store.bot_accounts([found[0]]):
        return await bots.invite(gateway, connection, room, found[0], found[1])
    await _person(gateway, connection, room, found[0], found[1])


async def _person(gateway: Gateway, connection: Connection, room: Room, player: int, name: str) -> None:
    """A person with an account is invited: refused, nothing changed, for oneself, someone seated or invited here
    already, or a host past their bound."""
    if player == connection.player:
        raise ProtocolError("refused", T("you cannot invite yourself"))
    if room.seat_of(player) is not None:
        raise ProtocolError("refused", T("{name} has a seat here already", name=name))
    bound = _bounds.get(gateway)
    if bound is None:
        bound = _bounds[gateway] = gateway.broker.bound("invite", gateway.limits.invites_per_minute, WINDOW)
    if not await bound.attempt(str(connection.player)):
        raise ProtocolError(
            "busy", T("you may invite {n} people a minute at most: wait a moment", n=gateway.limits.invites_per_minute)
        )
    if not gateway.store.note_sent(PAGE, player, room.id, INVITED, time.time()):
        raise ProtocolError("refused", T("{name} is invited to this table already", name=name))
    body = {"room": room.id, "from": connection.name, "code": room.invitation, "table": room.name}
    await gateway.broker.publish(bots.channel(player), "invited", body)
    gateway.chores.notices.send([Notice("invited", room.id, player, INVITED)])
    connection.send({"type": "info", "room": room.id, "text": T("{name} is invited", name=name).render(
        connection.language)})  # fmt: skip
