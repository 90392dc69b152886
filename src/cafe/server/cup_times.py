"""When a tournament's rounds start by themselves (docs/tournaments.md, "In the café"): the first at a time the
director set, each next one a pause after the last one is over.

The next start is kept in the tournament's state (``next_at`` in its café part, seconds since the epoch; None:
the director starts the next round) and, as a due job of kind :data:`KIND` whose argument is the round's number,
in the store's ``due`` table (:mod:`cafe.server.due`): whichever process claims it starts the round, after a
restart too.  A round already started (by the director, early, or by another process) is not started again.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from cafe.i18n import T
from cafe.server.fields import ProtocolError
from cafe.server.storage.store import DueJob

KIND = "cup"  # a due job: start round ``arg`` of the tournament named in its ``room``
MOST_AHEAD = 366 * 86_400  # seconds ahead a first round may be set to start at most
MOST_PAUSE = 7 * 24 * 60  # minutes between rounds at most (a week)
EXAMPLE = "2027-01-31T18:00:00Z"


def start_of(message: dict[str, Any], now: float) -> float | None:
    """The first round's start the director asked for (``start``: an ISO 8601 date and time with its offset), as
    seconds since the epoch; None when absent (the director starts it)."""
    asked = message.get("start")
    if asked is None:
        return None
    try:
        when = datetime.fromisoformat(asked) if isinstance(asked, str) and len(asked) <= 40 else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise ProtocolError("field", T("'start' is a date and time with its offset from UTC, as {example}",
                                       example=EXAMPLE))  # fmt: skip
    at = when.timestamp()
    if at <= now:
        raise ProtocolError("field", T("the first round's start has passed: choose a time to come"))
    if at > now + MOST_AHEAD:
        raise ProtocolError("field", T("the first round starts a year from now at the latest"))
    return at


def pause_of(message: dict[str, Any]) -> int | None:
    """The minutes after a round's end when the next one starts by itself (``pause``); None when absent (the
    director starts each round)."""
    pause = message.get("pause")
    if pause is not None and (type(pause) is not int or not 0 <= pause <= MOST_PAUSE):
        raise ProtocolError("field", T("'pause' is the minutes between rounds: a whole number from 0 to {most}, "
                                       "or null to start each round by hand", most=MOST_PAUSE))  # fmt: skip
    return pause


def job(cup: str, number: int, at: float) -> DueJob:
    """Round ``number`` of tournament ``cup`` starts at ``at``."""
    return DueJob(KIND, cup, number, at)


def after_round(pause: int | None, minute: float) -> float | None:
    """When the next round starts, a round having just ended: ``pause`` minutes of ``minute`` seconds from now."""
    return None if pause is None else time.time() + pause * minute


def iso(at: float | None) -> str | None:
    """A start as the wire says it: UTC, to the second (``2027-01-31T18:00:00Z``)."""
    if at is None:
        return None
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
