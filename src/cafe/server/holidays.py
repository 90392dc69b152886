"""Holidays: a person with an account stops the clocks of their turn-based games for some days a year.

While a person is on holiday, the clock of their turn stands still: a turn of theirs in progress when the holiday
begins keeps the time it had left, and runs out that long after the holiday's end; a turn that begins during the
holiday has its whole clock from the holiday's end.  Ending the holiday early starts those clocks again at once,
with the same time left.  The new deadline is stored with the room and its clock's due job moves with it, so
that every process and a restart see the same (docs/protocol.md, ``holiday``).  Live games are not affected.

A holiday of N days takes N days of the yearly allowance (``Limits.holiday_days``) of the calendar year (UTC) in
which it begins; ended early, it takes only the days begun.  A day is 24 hours of the clock
(``Limits.clock_hour``).
"""

from __future__ import annotations

import datetime
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cafe.i18n import NT, T
from cafe.server.fields import ProtocolError
from cafe.server.notices import turn_begins
from cafe.server.rooms import Outcome
from cafe.server.storage.store import DueJob

if TYPE_CHECKING:
    from cafe.server.gateway import Connection, Gateway


def year_start(now: float) -> float:
    """The start of the calendar year (UTC) that ``now`` is in."""
    moment = datetime.datetime.fromtimestamp(now, datetime.UTC)
    return moment.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0).timestamp()


async def handle(gateway: Gateway, connection: Connection, message: dict[str, Any]) -> None:
    """``{"type": "holiday"}`` asks, ``"days": N`` begins a holiday now, ``"end": true`` ends it; each answered
    with the holiday as it is then.  Anything wrong is refused and nothing changes."""
    player = connection.player
    assert player is not None
    store, now, day = gateway.store, time.time(), 24 * gateway.limits.clock_hour
    if store.password_of(player) is None:
        raise ProtocolError("holiday", T("holidays are for accounts: claim your name with a password first"))
    allowance = gateway.limits.holiday_days
    if allowance <= 0:
        raise ProtocolError("holiday", T("this café gives no holidays"))
    used = store.holiday_days(player, year_start(now))
    current = store.holiday(player, now)
    days, end = message.get("days"), message.get("end", False)
    if end not in (True, False) or (end and days is not None):
        raise ProtocolError("field", T("a holiday message has either 'days' or 'end': true"))
    if days is not None:
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= allowance:
            raise ProtocolError("field", T("'days' is a whole number of days, from 1 to {most}", most=allowance))
        if current is not None:
            raise ProtocolError("holiday", T("you are on holiday already: end this holiday before you begin another"))
        if used + days > allowance:
            left = NT("this year you have {n} day of holiday left (of {allowance})",
                      "this year you have {n} days of holiday left (of {allowance})", allowance - used,
                      allowance=allowance)  # fmt: skip
            raise ProtocolError("holiday", left)
        until = now + days * day
        if not store.begin_holiday(player, now, until, days):  # begun meanwhile, in another process
            raise ProtocolError("holiday", T("you are on holiday already: end this holiday before you begin another"))
        await _move_clocks(gateway, player, lambda deadline: deadline + (until - now) if deadline > now else deadline)
        used, current = used + days, (now, until)
    elif end:
        if current is None:
            raise ProtocolError("holiday", T("you are not on holiday"))
        starts, planned = current
        taken = min(math.ceil((now - starts) / day), round((planned - starts) / day))  # the days begun
        if store.end_holiday(player, now, taken):  # (else it ended meanwhile, in another process)
            back = planned - now  # the clocks go on this much sooner than they were to
            await _move_clocks(gateway, player, lambda deadline: deadline - back if deadline >= planned else deadline)
        used, current = store.holiday_days(player, year_start(now)), store.holiday(player, now)
    connection.send({"type": "holiday", "until": None if current is None else current[1], "used": used,
                     "allowance": allowance})  # fmt: skip


async def _move_clocks(gateway: Gateway, player: int, moved: Callable[[float], float]) -> None:
    """The clock of the player's turn in progress, in each of their turn-based games, runs out at ``moved(its
    deadline)``, and the notice of that turn waits for the holiday's end (or goes now, when it ended); every table
    of theirs hears that they are on holiday (or back)."""
    for room_id in gateway.store.clock_rooms(player):
        room = gateway.tables.get(room_id)
        if room is None:
            continue
        async with gateway.tables.changing(room):
            room.load_holidays()
            game = room.game
            theirs = game is not None and not game.is_over() and room.seats[game.current_player].player == player
            if room.status == "playing" and theirs and room.deadline is not None and game is not None:
                room.deadline = moved(room.deadline)
                gateway.store.set_deadline(room.id, room.deadline)
                gateway.chores.due.schedule(DueJob("clock", room.id, game.turn_number, room.deadline))
                gateway.chores.notices.send(turn_begins(room))  # "your turn" waits for the holiday's end, or goes now
            await gateway.tables.after(room, Outcome(changed=True))
