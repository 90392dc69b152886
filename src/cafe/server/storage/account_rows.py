"""Accounts in the store: a password that makes a player's name theirs, sessions, and erasing a person.

Written once for both stores (SQLite and PostgreSQL), over the few things a store gives: its rows, a transaction,
the exception of a broken unique key, and how it keeps JSON.  Only hashes are kept: the password's (Argon2id,
:mod:`cafe.server.passwords`) and the session's (SHA-256 of a random cookie, as tokens are).  One account per
name: the unique index ``players_account`` on the name key of players with a password, so that two people
claiming look-alike names at the same instant cannot both get them.
"""

from __future__ import annotations

import hashlib
import secrets
from contextlib import AbstractContextManager
from typing import Any, Protocol

from cafe.server.names import key as name_key

# a seat of a person, or a game they host, not finished yet: an account taking part cannot be erased
TAKING_PART = (
    "SELECT 1 FROM seats JOIN rooms ON rooms.id = seats.room WHERE rooms.status <> 'finished' "
    "AND (seats.player = %s OR seats.left_by = %s) "
    "UNION ALL SELECT 1 FROM rooms WHERE host = %s AND status <> 'finished'"
)
ERASED = ""  # a deleted person's name in finished games: shown as "deleted player" in the reader's language


class NameTaken(Exception):
    """Another account has this name, or one that looks like it."""


class StillPlaying(Exception):
    """The person has a seat in a game not finished (or left one that goes on, or hosts one)."""


class Rows(Protocol):
    """What a store gives for accounts (both stores' SQL is written with %s)."""

    unique: type[Exception]

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]: ...
    def atomic(self) -> AbstractContextManager[None]: ...
    def decoded(self, stored: Any) -> Any: ...
    def encoded(self, value: Any) -> Any: ...


def session_hash(session: str) -> str:
    """Sessions are stored as tokens are: a hash, so that a stolen database signs nobody in."""
    return hashlib.sha256(session.encode()).hexdigest()


class AccountRows:
    """The account methods of :class:`~cafe.server.storage.store.Store`, for a store that is also :class:`Rows`."""

    def account_named(self: Rows, name: str) -> tuple[int, str, str] | None:
        """The account whose name is ``name`` or looks like it: its player, name and password hash."""
        found = self.rows(
            "SELECT id, name, password_hash FROM players WHERE name_key = %s AND password_hash IS NOT NULL",
            name_key(name),
        )
        return (int(found[0][0]), str(found[0][1]), str(found[0][2])) if found else None

    def password_of(self: Rows, player: int) -> str | None:
        """The player's password hash (None: a guest, or nobody)."""
        found = self.rows("SELECT password_hash FROM players WHERE id = %s", player)
        return None if not found or found[0][0] is None else str(found[0][0])

    def claim(self: Rows, player: int, password_hash: str) -> bool:
        """A guest's name becomes theirs, with this password; their token no longer signs them in (a password
        does). False: the player is not a guest (an account already, or nobody); :class:`NameTaken`: another
        account has the name."""
        try:
            changed = self.rows(
                "UPDATE players SET password_hash = %s, token_hash = %s WHERE id = %s AND password_hash IS NULL "
                "RETURNING id",
                password_hash, session_hash(secrets.token_urlsafe(32)), player,
            )  # fmt: skip
        except self.unique:
            raise NameTaken from None
        return bool(changed)

    def set_password(self: Rows, player: int, password_hash: str) -> None:
        """A new password, and every session of the account ended."""
        with self.atomic():
            self.rows("UPDATE players SET password_hash = %s WHERE id = %s", password_hash, player)
            self.rows("DELETE FROM sessions WHERE player = %s", player)

    def rename(self: Rows, player: int, name: str) -> None:
        """A guest's new name (theirs was claimed by an account meanwhile)."""
        self.rows(
            "UPDATE players SET name = %s, name_key = %s WHERE id = %s AND password_hash IS NULL",
            name, name_key(name), player,
        )  # fmt: skip

    def add_session(self: Rows, session: str, player: int, now: float) -> None:
        self.rows("INSERT INTO sessions (id_hash, player, created) VALUES (%s, %s, %s)", session_hash(session), player,
                  now)  # fmt: skip

    def session_player(self: Rows, session: str, since: float) -> tuple[int, str] | None:
        """The account a session made since then signs in: its player and name."""
        found = self.rows(
            "SELECT players.id, players.name FROM sessions JOIN players ON players.id = sessions.player "
            "WHERE sessions.id_hash = %s AND sessions.created >= %s AND players.password_hash IS NOT NULL",
            session_hash(session), since,
        )  # fmt: skip
        return (int(found[0][0]), str(found[0][1])) if found else None

    def end_session(self: Rows, session: str) -> None:
        self.rows("DELETE FROM sessions WHERE id_hash = %s", session_hash(session))

    def end_sessions(self: Rows, player: int) -> None:
        """Sign the account out everywhere."""
        self.rows("DELETE FROM sessions WHERE player = %s", player)

    def forget_sessions(self: Rows, made_before: float) -> None:
        """Sessions too old to sign anyone in go."""
        self.rows("DELETE FROM sessions WHERE created < %s", made_before)

    def accounts(self: Rows, players: list[int]) -> set[int]:
        """Those of ``players`` who have an account."""
        if not players:
            return set()
        marks = ", ".join(["%s"] * len(players))
        found = self.rows(f"SELECT id FROM players WHERE password_hash IS NOT NULL AND id IN ({marks})", *players)
        return {int(row[0]) for row in found}

    def erase(self: Rows, player: int) -> list[str]:
        """Everything of a person gone: their player, password, passkeys, sessions, rating, results and chat; in
        finished games their seats keep no name (:data:`ERASED`) and no number, in the record and its analysis too,
        and the tables they hosted lose their name (it may be theirs: "Ann's table"). Returns the finished games
        changed; :class:`StillPlaying` if they take part in a game not over."""
        with self.atomic():
            if self.rows(TAKING_PART, player, player, player):
                raise StillPlaying
            seats = self.rows("SELECT room, seat FROM seats WHERE player = %s OR left_by = %s", player, player)
            rooms: dict[str, list[int]] = {}
            for room, seat in seats:
                rooms.setdefault(str(room), []).append(int(seat))
            for room, taken in rooms.items():
                _forget_in(self, room, taken)
            self.rows(
                "UPDATE seats SET player = NULL, name = %s WHERE player = %s", ERASED, player
            )  # a seat they left keeps the computer player's name
            self.rows("UPDATE seats SET left_by = NULL WHERE left_by = %s", player)
            hosted = [str(row[0]) for row in self.rows("SELECT id FROM rooms WHERE host = %s", player)]
            self.rows("UPDATE rooms SET host = 0, name = %s WHERE host = %s", ERASED, player)
            for table in (
                "chat",
                "results",
                "ratings",
                "push_subscriptions",
                "sessions",
                "passkeys",
                "puzzle_tries",
                "puzzle_players",
                "emails",
                "email_links",
                "sent_notices",
                "holidays",
                "bots",
            ):
                self.rows(f"DELETE FROM {table} WHERE player = %s", player)
            self.rows("DELETE FROM players WHERE id = %s", player)
        return sorted(set(rooms) | set(hosted))


def _forget_in(store: Rows, room: str, seats: list[int]) -> None:
    """A finished game's record and analysis without the names of these seats."""
    record = store.rows("SELECT record FROM rooms WHERE id = %s", room)
    if record and record[0][0] is not None:
        kept = store.decoded(record[0][0])
        kept["players"] = [ERASED if n in seats else name for n, name in enumerate(kept["players"])]
        store.rows("UPDATE rooms SET record = %s WHERE id = %s", store.encoded(kept), room)
    analysis = store.rows("SELECT analysis FROM analyses WHERE room = %s", room)
    if analysis:
        kept = store.decoded(analysis[0][0])
        for n, summary in enumerate(kept.get("players", [])):
            if n in seats:
                summary["name"] = ERASED
        store.rows("UPDATE analyses SET analysis = %s WHERE room = %s", store.encoded(kept), room)
