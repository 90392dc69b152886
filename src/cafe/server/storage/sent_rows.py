"""The notices sent, by every channel, in the store: what keeps each one to once however many processes come upon it.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives
(:class:`~cafe.server.storage.account_rows.Rows`).  A notice sent is a row (channel, player, room, turn, at): the
channel is :data:`MAIL` (:mod:`cafe.server.notices`), :data:`PUSH` (:mod:`cafe.server.push`) or :data:`PAGE` (an
invitation heard in the café's page, :mod:`cafe.server.invites`); the turn is the one that began, or
:data:`~cafe.server.storage.email_rows.ENDED` (the game's end) or :data:`~cafe.server.storage.email_rows.INVITED`
(an invitation to the table).  Whoever notes it first sends it; the others find it noted and send nothing.  The
notices of turns go after :data:`KEPT_SECONDS` (no turn lasts that long); those of a game's end and of invitations
stay, one a game or table and person, until the person's account goes.
"""

from __future__ import annotations

from cafe.server.storage.account_rows import Rows
from cafe.server.storage.email_rows import ENDED, INVITED

MAIL = "mail"  # an e-mail
PUSH = "push"  # a Web Push message, to each of the person's devices
PAGE = "page"  # an invitation by name, heard in the café's page
KEPT_SECONDS = 30 * 86_400  # how long the notice of a turn is kept

SENT_SQLITE = (
    "CREATE TABLE IF NOT EXISTS sent_notices (channel TEXT NOT NULL, player INTEGER NOT NULL, room TEXT NOT NULL, "
    "turn INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (player, room, turn, channel))"
)
SENT_POSTGRES = (
    "CREATE TABLE IF NOT EXISTS sent_notices (channel TEXT NOT NULL, "
    "player BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE, room TEXT NOT NULL, turn INTEGER NOT NULL, "
    "at DOUBLE PRECISION NOT NULL, PRIMARY KEY (player, room, turn, channel))"
)
SENT_INDEX = "CREATE INDEX IF NOT EXISTS sent_notices_at ON sent_notices (at)"

# The upgrade of a database that kept e-mails sent in `notices_sent` and pushes in `push_sent` (by a key: "turn:ROOM:
# TURN" and "end:ROOM" for whoever sat at the table, "invited:ROOM:PLAYER" pushed, "invite:ROOM:PLAYER" heard in the
# page): their rows move here, then they go.  Both stores' SQL (SQLite is given split_part, as PostgreSQL has it); a
# database that never had those tables (as the tests of older databases make) gets empty ones to move nothing from.
MOVE_SENT = [
    "CREATE TABLE IF NOT EXISTS notices_sent (player BIGINT, room TEXT, turn INTEGER, at DOUBLE PRECISION)",
    "CREATE TABLE IF NOT EXISTS push_sent (key TEXT, at DOUBLE PRECISION)",
    f"INSERT INTO sent_notices (channel, player, room, turn, at) SELECT '{MAIL}', player, room, turn, at "
    "FROM notices_sent WHERE true ON CONFLICT DO NOTHING",
    f"INSERT INTO sent_notices (channel, player, room, turn, at) SELECT '{PUSH}', people.player, pushed.room, "
    "pushed.turn, pushed.at FROM (SELECT split_part(key, ':', 2) AS room, CASE WHEN key LIKE 'end:%' "
    f"THEN {ENDED} ELSE CAST(split_part(key, ':', 3) AS INTEGER) END AS turn, at FROM push_sent "
    "WHERE key LIKE 'turn:%' OR key LIKE 'end:%') AS pushed JOIN (SELECT room, player FROM seats "
    "WHERE player IS NOT NULL UNION SELECT room, left_by FROM seats WHERE left_by IS NOT NULL) AS people "
    "ON people.room = pushed.room WHERE true ON CONFLICT DO NOTHING",
    f"INSERT INTO sent_notices (channel, player, room, turn, at) SELECT CASE WHEN key LIKE 'invited:%' "
    f"THEN '{PUSH}' ELSE '{PAGE}' END, players.id, split_part(key, ':', 2), {INVITED}, at FROM push_sent "
    "JOIN players ON players.id = CAST(split_part(key, ':', 3) AS BIGINT) "
    "WHERE key LIKE 'invited:%' OR key LIKE 'invite:%' ON CONFLICT DO NOTHING",
    "DROP TABLE notices_sent",
    "DROP TABLE push_sent",
]


def split_part(text: str, separator: str, n: int) -> str:
    """PostgreSQL's split_part, for SQLite: the ``n``-th field (from 1) of ``text``, '' if it has fewer."""
    fields = text.split(separator)
    return fields[n - 1] if 0 < n <= len(fields) else ""


class SentRows:
    """The methods of :class:`~cafe.server.storage.store.Store` for the notices sent, for a store that is also
    :class:`~cafe.server.storage.account_rows.Rows`."""

    def note_sent(self: Rows, channel: str, player: int, room: str, turn: int, at: float) -> bool:
        """Note the notice of this turn of the game (or its end, or an invitation to its table) to this person by
        this channel: True once, for whoever sends it; False if it was noted already."""
        self.rows("DELETE FROM sent_notices WHERE at < %s AND turn >= 0", at - KEPT_SECONDS)
        noted = self.rows(
            "INSERT INTO sent_notices (channel, player, room, turn, at) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT DO NOTHING RETURNING player",
            channel, player, room, turn, at,
        )  # fmt: skip
        return bool(noted)

    def unnote_sent(self: Rows, channel: str, player: int, room: str, turn: int) -> None:
        """The notice could not be sent after all."""
        self.rows(
            "DELETE FROM sent_notices WHERE channel = %s AND player = %s AND room = %s AND turn = %s",
            channel, player, room, turn,
        )  # fmt: skip

    def last_sent(self: Rows, channel: str, player: int, room: str) -> float | None:
        """When this person last had a notice of a turn of this game by this channel."""
        found = self.rows(
            "SELECT max(at) FROM sent_notices WHERE channel = %s AND player = %s AND room = %s AND turn >= 0",
            channel, player, room,
        )  # fmt: skip
        return None if not found or found[0][0] is None else float(found[0][0])
