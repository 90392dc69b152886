"""Private tables and rematches in the store: a table's invitation code, and a finished game's rematch offer.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives (:class:`Rows`).  A private
table is one with a code: only a person who brings it (the link "Invite" copies) may sit.  The code is random,
has nothing to do with the room's id, and is compared in constant time; the seated may read it to invite others,
nobody else ever does.  A rematch offer is the people who accepted it so far and when it lapses; once everyone
has, it names the new game's room.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from cafe.server.storage.account_rows import Rows

CODE_BYTES = 12  # an invitation code's randomness: 96 bits, written in 16 URL-safe characters


def new_code() -> str:
    """A fresh invitation code, for a link."""
    return secrets.token_urlsafe(CODE_BYTES)


OPEN = "open"  # the code in the link of a public table's invitation by name: any code seats one there


def link(room: str, code: str | None) -> str:
    """The fragment of the café's address that seats an invited person at the table (``code``: a private one's)."""
    return f"room={room}&invite={code or OPEN}"


def code_matches(known: str, given: str) -> bool:
    """Whether ``given`` is the table's code, in a time that says nothing of how much of it was right."""
    return hmac.compare_digest(known.encode(), given.encode())


@dataclass(frozen=True)
class Offer:
    """A rematch offered at the end of a game: who accepted it so far, and until when it stands."""

    accepted: tuple[int, ...]  # players, in the order they accepted
    until: float  # when it lapses (time.time())
    next: str | None = None  # the rematch's room, once everyone accepted


class InvitationRows:
    """The invitation and rematch methods of :class:`~cafe.server.storage.store.Store`, for a store that is also
    :class:`~cafe.server.storage.account_rows.Rows`."""

    def invitation(self: Rows, room: str) -> str | None:
        """The table's invitation code (None: it is not private)."""
        found = self.rows("SELECT code FROM invitations WHERE room = %s", room)
        return str(found[0][0]) if found else None

    def set_invitation(self: Rows, room: str, code: str | None) -> None:
        """Make the table private with ``code``, or public again (None)."""
        with self.atomic():
            self.rows("DELETE FROM invitations WHERE room = %s", room)
            if code is not None:
                self.rows("INSERT INTO invitations (room, code) VALUES (%s, %s)", room, code)

    def rematch(self: Rows, room: str) -> Offer | None:
        """The rematch offered at the end of this room's game, if any."""
        found = self.rows("SELECT accepted, until, next FROM rematches WHERE room = %s", room)
        if not found:
            return None
        accepted, until, following = found[0]
        return Offer(tuple(int(p) for p in str(accepted).split(",") if p), float(until), following)

    def set_rematch(self: Rows, room: str, offer: Offer | None) -> None:
        """Keep the rematch offer as it is now (None: it was declined, or lapsed)."""
        with self.atomic():
            self.rows("DELETE FROM rematches WHERE room = %s", room)
            if offer is not None:
                accepted = ",".join(str(p) for p in offer.accepted)
                self.rows(
                    "INSERT INTO rematches (room, accepted, until, next) VALUES (%s, %s, %s, %s)",
                    room, accepted, offer.until, offer.next,
                )  # fmt: skip
