"""Where the café keeps what must survive a restart: players, rooms, seats, every accepted step, records.

:class:`Store` is the interface the server uses; :class:`SQLiteStore` is the
embedded default (one file, WAL mode).  A step is written and committed
before the server acknowledges or broadcasts it, so after a crash every room
continues from its last acknowledged step.  In WAL mode a commit is in the
operating system's hands when it returns, which survives the process being
killed (synchronous=NORMAL; a power cut may lose the last commits).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cafe.server.names import key as name_key
from cafe.server.storage.analysis_rows import ANALYSIS_ASKERS
from cafe.server.storage.analysis_rows import KIND as ANALYSIS
from cafe.server.storage.email_rows import EMAIL_INVITED, Email, Link
from cafe.server.storage.holiday_rows import HOLIDAYS_INDEX, HOLIDAYS_SQLITE
from cafe.server.storage.invitations import Offer
from cafe.server.storage.passkey_rows import Challenge, Passkey
from cafe.server.storage.push_rows import Subscription
from cafe.server.storage.sent_rows import MOVE_SENT, SENT_INDEX, SENT_SQLITE, split_part
from cafe.server.storage.shared_rows import SharedRows
from cafe.server.storage.tournament_rows import StateRow, TournamentListed, TournamentRow
from cafe.tournament.tournament import Tournament

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    name_key TEXT,
    password_hash TEXT
);
CREATE INDEX IF NOT EXISTS players_name_key ON players (name_key);
CREATE UNIQUE INDEX IF NOT EXISTS players_account ON players (name_key) WHERE password_hash IS NOT NULL;
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_player ON sessions (player);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    edition TEXT NOT NULL,
    rules TEXT NOT NULL,
    host INTEGER NOT NULL,
    status TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    record TEXT,
    match TEXT,
    hints INTEGER NOT NULL DEFAULT 0,
    clock INTEGER NOT NULL DEFAULT 0,
    late TEXT NOT NULL DEFAULT 'bot',
    deadline REAL
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player INTEGER,
    bot TEXT,
    name TEXT NOT NULL,
    left_by INTEGER,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS ratings (
    player INTEGER PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS analyses (
    room TEXT PRIMARY KEY,
    analysis TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    room TEXT NOT NULL,
    player INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    place INTEGER NOT NULL,
    rating_before REAL,
    rating_after REAL,
    at REAL NOT NULL,
    PRIMARY KEY (room, player)
);
CREATE INDEX IF NOT EXISTS results_player ON results (player, at);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    name TEXT NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_room ON chat (room, id);
CREATE TABLE IF NOT EXISTS steps (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    step TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE IF NOT EXISTS due (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    room TEXT NOT NULL,
    arg INTEGER NOT NULL,
    at REAL NOT NULL,
    owner TEXT,
    lease REAL,
    again INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS due_at ON due (at);
CREATE TABLE IF NOT EXISTS name_holds (
    name_key TEXT PRIMARY KEY,
    until REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_players (
    player INTEGER PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    tries INTEGER NOT NULL,
    streak INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    puzzle TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    tries INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_tries (
    player INTEGER NOT NULL,
    puzzle TEXT NOT NULL,
    solved INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (player, puzzle)
);
CREATE TABLE IF NOT EXISTS invitations (
    room TEXT PRIMARY KEY,
    code TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rematches (
    room TEXT PRIMARY KEY,
    accepted TEXT NOT NULL,
    until REAL NOT NULL,
    next TEXT
);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    host INTEGER NOT NULL,
    status TEXT NOT NULL,
    state TEXT NOT NULL,
    version INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created);
CREATE TABLE IF NOT EXISTS passkeys (
    id TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    public_key TEXT NOT NULL,
    sign_count INTEGER NOT NULL,
    created REAL NOT NULL,
    used REAL
);
CREATE INDEX IF NOT EXISTS passkeys_player ON passkeys (player);
CREATE TABLE IF NOT EXISTS passkey_challenges (
    challenge_hash TEXT PRIMARY KEY,
    purpose TEXT NOT NULL,
    player INTEGER,
    name_key TEXT,
    until REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS emails (
    player INTEGER PRIMARY KEY,
    address TEXT NOT NULL,
    verified INTEGER NOT NULL,
    language TEXT NOT NULL,
    turn INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    every INTEGER NOT NULL,
    invited INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS email_links (
    token_hash TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    purpose TEXT NOT NULL,
    address TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    session TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    language TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_player ON push_subscriptions (player);
CREATE TABLE IF NOT EXISTS bots (
    player INTEGER PRIMARY KEY,
    token_hash TEXT UNIQUE,
    since REAL NOT NULL
);
"""
    + HOLIDAYS_SQLITE
    + ";\n"
    + HOLIDAYS_INDEX
    + ";\n"
    + ANALYSIS_ASKERS
    + ";\n"
    + SENT_SQLITE
    + ";\n"
    + SENT_INDEX
    + ";\n"
)


# Each upgrades a database of the schema before it; SCHEMA is what they add up to.
MIGRATIONS = [
    "ALTER TABLE rooms ADD COLUMN match TEXT",
    "ALTER TABLE players ADD COLUMN name_key TEXT",
    "UPDATE players SET name_key = name_key(name)",
    "CREATE INDEX IF NOT EXISTS players_name_key ON players (name_key)",
    "CREATE TABLE IF NOT EXISTS analyses (room TEXT PRIMARY KEY, analysis TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS results (room TEXT NOT NULL, player INTEGER NOT NULL, seat INTEGER NOT NULL, "
    "place INTEGER NOT NULL, rating_before REAL, rating_after REAL, at REAL NOT NULL, PRIMARY KEY (room, player))",
    "CREATE INDEX IF NOT EXISTS results_player ON results (player, at)",
    "ALTER TABLE rooms ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",
    "UPDATE players SET name_key = name_key(name)",  # the key became the confusable skeleton (UTS #39)
    "ALTER TABLE seats ADD COLUMN left_by INTEGER",
    "CREATE TABLE IF NOT EXISTS chat (id INTEGER PRIMARY KEY, room TEXT NOT NULL, name TEXT NOT NULL, "
    "player INTEGER NOT NULL, text TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS chat_room ON chat (room, id)",
    "CREATE TABLE IF NOT EXISTS due (key TEXT PRIMARY KEY, kind TEXT NOT NULL, room TEXT NOT NULL, "
    "arg INTEGER NOT NULL, at REAL NOT NULL, owner TEXT, lease REAL, again INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS due_at ON due (at)",
    # accounts: a password makes a player's name theirs (one account per name key), and sessions sign them in
    "ALTER TABLE players ADD COLUMN password_hash TEXT",
    "CREATE UNIQUE INDEX IF NOT EXISTS players_account ON players (name_key) WHERE password_hash IS NOT NULL",
    "CREATE TABLE IF NOT EXISTS sessions (id_hash TEXT PRIMARY KEY, player INTEGER NOT NULL, created REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS sessions_player ON sessions (player)",
    "CREATE TABLE IF NOT EXISTS name_holds (name_key TEXT PRIMARY KEY, until REAL NOT NULL)",
    # games over days: a turn's clock in hours (0: a live game), what running out of it does, and when it runs out
    "ALTER TABLE rooms ADD COLUMN clock INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE rooms ADD COLUMN late TEXT NOT NULL DEFAULT 'bot'",
    "ALTER TABLE rooms ADD COLUMN deadline REAL",
    # private tables (their invitation code) and rematch offers (cafe.server.storage.invitations)
    "CREATE TABLE IF NOT EXISTS invitations (room TEXT PRIMARY KEY, code TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rematches (room TEXT PRIMARY KEY, accepted TEXT NOT NULL, until REAL NOT NULL, "
    "next TEXT)",
    # puzzles: each person's puzzle rating and streak, each puzzle's rating, and who tried which
    "CREATE TABLE IF NOT EXISTS puzzle_players (player INTEGER PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL, "
    "tries INTEGER NOT NULL, streak INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS puzzle_ratings (puzzle TEXT PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL, "
    "tries INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS puzzle_tries (player INTEGER NOT NULL, puzzle TEXT NOT NULL, solved INTEGER NOT NULL, "
    "at REAL NOT NULL, PRIMARY KEY (player, puzzle))",
    # tournaments: each one's whole state as JSON (cafe.server.storage.tournament_rows)
    "CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, name TEXT NOT NULL, host INTEGER NOT NULL, "
    "status TEXT NOT NULL, state TEXT NOT NULL, version INTEGER NOT NULL, created REAL NOT NULL, "
    "updated REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created)",
    # passkeys: each account's WebAuthn credentials, and the challenges of ceremonies under way (cafe.server.passkeys)
    "CREATE TABLE IF NOT EXISTS passkeys (id TEXT PRIMARY KEY, player INTEGER NOT NULL, public_key TEXT NOT NULL, "
    "sign_count INTEGER NOT NULL, created REAL NOT NULL, used REAL)",
    "CREATE INDEX IF NOT EXISTS passkeys_player ON passkeys (player)",
    "CREATE TABLE IF NOT EXISTS passkey_challenges (challenge_hash TEXT PRIMARY KEY, purpose TEXT NOT NULL, "
    "player INTEGER, name_key TEXT, until REAL NOT NULL)",
    # e-mail: a person's address and the notices they want, mailed links, notices sent (cafe.server.storage.email_rows)
    "CREATE TABLE IF NOT EXISTS emails (player INTEGER PRIMARY KEY, address TEXT NOT NULL, verified INTEGER NOT NULL, "
    "language TEXT NOT NULL, turn INTEGER NOT NULL, ended INTEGER NOT NULL, every INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS email_links (token_hash TEXT PRIMARY KEY, player INTEGER NOT NULL, "
    "purpose TEXT NOT NULL, address TEXT NOT NULL, expires REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS notices_sent (player INTEGER NOT NULL, room TEXT NOT NULL, turn INTEGER NOT NULL, "
    "at REAL NOT NULL, PRIMARY KEY (player, room, turn))",
    # holidays: a person's turn-based clocks stop (cafe.server.storage.holiday_rows)
    HOLIDAYS_SQLITE,
    HOLIDAYS_INDEX,
    # Web Push: the browsers that hear of a person's games, and the notices sent (cafe.server.storage.push_rows)
    "CREATE TABLE IF NOT EXISTS push_subscriptions (endpoint TEXT PRIMARY KEY, player INTEGER NOT NULL, "
    "session TEXT NOT NULL, p256dh TEXT NOT NULL, auth TEXT NOT NULL, language TEXT NOT NULL, created REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS push_subscriptions_player ON push_subscriptions (player)",
    "CREATE TABLE IF NOT EXISTS push_sent (key TEXT PRIMARY KEY, at REAL NOT NULL)",
    # bot accounts (cafe.server.storage.bot_rows): which accounts are bots, and each one's API token
    "CREATE TABLE IF NOT EXISTS bots (player INTEGER PRIMARY KEY, token_hash TEXT UNIQUE, since REAL NOT NULL)",
    # who asked for the games waiting for their analysis (cafe.server.storage.analysis_rows)
    ANALYSIS_ASKERS,
    # e-mail: whether the person wants to hear that a host invites them to a table (cafe.server.invites)
    EMAIL_INVITED,
    # the notices sent, by e-mail, by push and in the page: one table (cafe.server.storage.sent_rows)
    SENT_SQLITE,
    SENT_INDEX,
    *MOVE_SENT,
]


# Guests made long ago who never took a seat, hosted a room or were rated (both stores' SQL; accounts stay)
UNUSED_PLAYERS = (
    "DELETE FROM players WHERE created < %s AND password_hash IS NULL AND id NOT IN (SELECT player FROM ratings) "
    "AND id NOT IN (SELECT player FROM seats WHERE player IS NOT NULL) AND id NOT IN (SELECT host FROM rooms) "
    "AND id NOT IN (SELECT left_by FROM seats WHERE left_by IS NOT NULL) "
    "AND id NOT IN (SELECT player FROM puzzle_players)"
)


# A player's finished games, newest first (both stores' SQL)
PLAYED_GAMES = (
    "SELECT results.room, rooms.name, rooms.edition, results.seat, results.place, results.rating_before, "
    "results.rating_after, results.at FROM results JOIN rooms ON rooms.id = results.room "
    "WHERE results.player = %s ORDER BY results.at DESC LIMIT %s"
)


# A new guest's name held for a moment (a unique key, so that of two people asking for it at the same instant, in
# one process or two, one gets it); both stores' SQL
HOLD_NAME = (
    "INSERT INTO name_holds (name_key, until) VALUES (%s, %s) "
    "ON CONFLICT (name_key) DO UPDATE SET until = excluded.until WHERE name_holds.until < %s"
)
FORGET_HOLDS = "DELETE FROM name_holds WHERE until < %s"


# Due work (cafe.server.due), in both stores' SQL.  A job scheduled again moves to its new time; one that a process
# is doing meanwhile is marked to be done once more when it ends (what it checked may have changed since).  A job
# claimed is held by its owner until its lease ends.
SCHEDULE = (
    "INSERT INTO due (key, kind, room, arg, at) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (key) DO UPDATE SET at = excluded.at, again = (due.owner IS NOT NULL)"
)
SCHEDULE_ONCE = (
    "INSERT INTO due (key, kind, room, arg, at) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (key) DO UPDATE SET again = TRUE WHERE due.owner IS NOT NULL"
)
# Analyses are claimed apart (cafe.server.analyses): a process takes one only while its analysts are free.
DUE_NOW = (
    f"SELECT key FROM due WHERE at <= %s AND (owner IS NULL OR lease < %s) AND kind <> '{ANALYSIS}' "
    "ORDER BY at LIMIT %s"
)
CLAIM = "UPDATE due SET owner = %s, lease = %s, again = FALSE WHERE key IN ({due}) RETURNING kind, room, arg, at"
EXTEND = "UPDATE due SET lease = %s WHERE key = %s AND owner = %s"
RELEASE = "UPDATE due SET owner = NULL, lease = NULL, at = %s WHERE key = %s AND owner = %s"
FINISH = "DELETE FROM due WHERE key = %s AND owner = %s AND NOT again"
FINISH_AGAIN = "UPDATE due SET owner = NULL, lease = NULL, again = FALSE WHERE key = %s AND owner = %s"
UNSCHEDULE = "DELETE FROM due WHERE room = %s AND kind = %s AND arg < %s AND owner IS NULL"


# A room's chat keeps only its last lines: those before the newest ``kept`` go (both stores' SQL)
CHAT_TRIM = (
    "DELETE FROM chat WHERE room = %s AND id <= "
    "(SELECT id FROM chat WHERE room = %s ORDER BY id DESC LIMIT 1 OFFSET %s)"
)
# A room's last chat lines, oldest first (both stores' SQL)
CHAT_LINES = (
    "SELECT name, player, text, at FROM (SELECT id, name, player, text, at FROM chat WHERE room = %s "
    "ORDER BY id DESC LIMIT %s) "
    "AS last ORDER BY id"
)


@dataclass(frozen=True)
class DueJob:
    """Work due at a time, kept in the store so that any server process may do it (:mod:`cafe.server.due`)."""

    kind: str  # "bot" (a computer player's step), "clock" (a person's turn clock), "away" (a seat's absence)
    room: str
    arg: int  # bot: the room's steps when it was woken; clock: the turn; away: the player
    at: float  # when it is due (time.time())

    @property
    def key(self) -> str:
        """One job of a kind per room and argument: scheduling it again moves it."""
        return f"{self.kind}:{self.room}:{self.arg}"


def due_first(rows: list[Any]) -> list[DueJob]:
    """Claimed jobs, the earliest due first (RETURNING keeps no order)."""
    return sorted((DueJob(*row) for row in rows), key=lambda job: (job.at, job.key))


class Unavailable(Exception):
    """The database or the broker does not answer for now (restarting, or out of reach): try again in a moment."""


class StepConflict(Exception):
    """Step N of a room is already stored: another server process appended it first (optimistic concurrency)."""


def token_hash(token: str) -> str:
    """Only a hash of a player's token is stored: a stolen database does not let anyone act for them."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    """A seat of a started game: a person (``player``) or a computer player (``bot``, a player string)."""

    seat: int
    name: str
    player: int | None = None
    bot: str | None = None
    left_by: int | None = None  # the person a computer player took this seat over from (they left, or were away)

    @property
    def person(self) -> int | None:
        """The person this seat is rated for: who sits here, or who left it to a computer player in the game
        (as rated sites do, leaving a game loses nothing of its rating)."""
        return self.player if self.player is not None else self.left_by


@dataclass(frozen=True)
class Rating:
    """A player's OpenSkill rating (Plackett-Luce) and the rated games behind it."""

    mu: float
    sigma: float
    games: int = 0


@dataclass(frozen=True)
class PuzzleTry:
    """A person's first try at a puzzle, and both ratings after it (a try again is answered, never rated)."""

    player: int
    puzzle: str
    solved: bool
    person: Rating  # the person's puzzle rating after the try (games: puzzles tried)
    streak: int  # puzzles solved in a row, this one included
    rating: Rating  # the puzzle's rating after the try (games: tries)


@dataclass(frozen=True)
class RoomRow:
    id: str
    name: str
    edition: str
    rules: Any
    host: int
    status: str  # waiting, playing or finished
    seed: int
    seats: tuple[SeatRow, ...]
    steps: tuple[str, ...]
    match: dict[str, Any] | None = None  # a game of a match (cafe.server.matches)
    hints: bool = False  # the host allows hints to everyone (the game is then not rated)
    clock: int = 0  # hours on each turn's clock in a turn-based game; 0: a live game (Limits.turn_seconds)
    late: str = "bot"  # when a turn-based clock runs out: "bot" (a computer player plays the turn) or "end"
    deadline: float | None = None  # when the turn in progress runs out of time (turn-based games)


@dataclass(frozen=True)
class Result:
    """A person's result in a finished game: their place, and their rating (mu - 3 sigma) before and after."""

    player: int
    seat: int
    place: int
    rating_before: float | None = None  # None: not rated before, or the game was not rated
    rating_after: float | None = None


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as a player's page lists it."""

    room: str
    name: str
    edition: str
    seat: int
    place: int
    rating_before: float | None
    rating_after: float | None
    at: float  # when it finished (seconds since the epoch)


@dataclass(frozen=True)
class ChatLine:
    """A person's line of chat in a room, kept so that who enters or comes back reads the last ones."""

    name: str
    player: int  # the speaker's number, shown beside the name (names may look alike)
    text: str
    at: float  # when it was said (seconds since the epoch)


@dataclass(frozen=True)
class Ending:
    """Everything the end of a game writes, in one transaction: a kill cannot leave half of it behind."""

    record: dict[str, Any]
    ratings: dict[int, Rating]
    last_step: tuple[int, int, str] | None = None  # (n, seat, step) that ended it; None for an abandoned game
    match: dict[str, Any] | None = None  # the match after this game
    next_game: RoomRow | None = None  # the match's next game, stored as playing with its seats
    results: tuple[Result, ...] = ()  # each person's place and rating change


class Store(Protocol):
    """The storage behind the server (SQLite here; another backend implements the same methods)."""

    def add_player(self, name: str, token: str) -> int: ...
    def player_by_token(self, token: str) -> tuple[int, str] | None: ...
    def player_name(self, player: int) -> str | None: ...
    def players_named(self, name: str) -> list[int]:
        """The players whose name is ``name`` (by :func:`name_key`)."""

    def forget_players(self, created_before: float) -> int:
        """Remove players made before then who never sat, hosted or were rated; returns how many."""

    def hold_name(self, name: str, now: float, seconds: float) -> bool:
        """Hold a name (its key: look-alikes are one) for ``seconds``, unless it is held already: True if it is
        this caller's now."""

    def forget_holds(self, now: float) -> None:
        """Holds that ended go."""

    def add_room(self, room: RoomRow) -> None: ...
    def set_seats(self, room: str, seats: tuple[SeatRow, ...]) -> None: ...
    def start_room(self, room: str, deadline: float | None = None) -> None:
        """The game begins (``deadline``: when its first turn runs out of time, in a turn-based game)."""

    def set_match(self, room: str, match: dict[str, Any]) -> None: ...
    def replace_seat(self, room: str, seat: SeatRow) -> None: ...
    def set_host(self, room: str, player: int) -> None: ...
    def set_hints(self, room: str, allowed: bool) -> None: ...
    def add_step(self, room: str, n: int, seat: int, step: str, deadline: float | None = None) -> None:
        """Append step ``n``; raises :class:`StepConflict` if the room already has a step ``n``. ``deadline``: the
        next turn's, written with the step that began it (turn-based games)."""

    def remove_step(self, room: str, n: int) -> None: ...
    def finish_game(self, room: str, ending: Ending) -> None:
        """The game's end, all at once; raises :class:`StepConflict` if its last step is stored already."""

    def ratings(self, players: list[int]) -> dict[int, Rating]: ...
    def leaderboard(self, limit: int) -> list[tuple[int, str, Rating]]: ...
    def drop_room(self, room: str) -> None: ...
    def open_rooms(self) -> list[RoomRow]: ...
    def load_room(self, room: str) -> RoomRow | None:
        """One room as it is stored now (another process may have changed it)."""

    def record(self, room: str) -> dict[str, Any] | None: ...
    def games_of(self, player: int, limit: int) -> list[PlayedGame]:
        """A player's finished games, newest first."""

    def save_analysis(self, room: str, analysis: dict[str, Any]) -> None: ...
    def analysis(self, room: str) -> dict[str, Any] | None: ...
    def add_chat(self, room: str, line: ChatLine, kept: int) -> None:
        """Keep a line of a room's chat, and only the room's last ``kept`` lines."""

    def chat(self, room: str, limit: int) -> list[ChatLine]:
        """A room's last ``limit`` chat lines, oldest first."""

    def atomic(self) -> contextlib.AbstractContextManager[None]:
        """The statements inside are one transaction: all stored, or none."""

    def schedule(self, job: DueJob, move: bool = True, replacing: bool = False) -> None:
        """Keep a job until it is done; one of the same key already kept moves to the new time (``move``) or
        stays as it is.  ``replacing``: in the same write, the room's jobs of the kind with a smaller argument go,
        as :meth:`unschedule` (a new turn's clock replaces the last)."""

    def unschedule(self, room: str, kind: str, before: int) -> None:
        """A room's jobs of a kind, with an argument below ``before``, that no process holds go (a new turn's clock
        replaces the last)."""

    def claim_due(self, owner: str, now: float, lease: float, limit: int) -> list[DueJob]:
        """Up to ``limit`` jobs due by ``now`` that no process holds (or whose lease ended), held by ``owner``
        until ``now + lease``; each is claimed by one process only."""

    def extend(self, job: DueJob, owner: str, until: float) -> None:
        """The owner still works on the job: its lease runs until ``until``."""

    def release(self, job: DueJob, owner: str, at: float) -> None:
        """The owner could not do the job now: any process may, from ``at``."""

    def finish(self, job: DueJob, owner: str) -> bool:
        """The job is done (or had nothing left to do): it goes, unless it was scheduled again meanwhile; then it
        is due once more (True)."""

    def reachable(self) -> bool:
        """Whether the database answers now (for /health)."""

    # the analysis queue, in the due table (cafe.server.storage.analysis_rows)
    def analysis_job(self, room: str, now: float) -> tuple[float, bool, int] | None: ...
    def analyses_before(self, room: str, at: float, now: float) -> int: ...
    def analyses_waiting(self, now: float) -> int: ...
    def waits_for_analysis(self, askers: frozenset[str], now: float) -> bool: ...
    def keep_askers(self, askers: frozenset[str], room: str) -> None: ...
    def drop_latest_analysis(self, after: float) -> bool: ...
    def claim_analysis(self, owner: str, now: float, lease: float) -> tuple[str, float] | None: ...
    def hold_analysis(self, room: str, owner: str, until: float, done: int) -> None: ...

    # accounts (cafe.server.storage.account_rows)
    def account_named(self, name: str) -> tuple[int, str, str] | None: ...
    def password_of(self, player: int) -> str | None: ...
    def claim(self, player: int, password_hash: str) -> bool: ...
    def set_password(self, player: int, password_hash: str) -> None: ...
    def rename(self, player: int, name: str) -> None: ...
    def add_session(self, session: str, player: int, now: float) -> None: ...
    def session_player(self, session: str, since: float) -> tuple[int, str] | None: ...
    def end_session(self, session: str) -> None: ...
    def end_sessions(self, player: int) -> None: ...
    def forget_sessions(self, made_before: float) -> None: ...
    def accounts(self, players: list[int]) -> set[int]: ...
    def erase(self, player: int) -> list[str]: ...
    # e-mail (cafe.server.storage.email_rows)
    def email(self, player: int) -> Email | None: ...
    def set_email(self, player: int, address: str | None, language: str) -> None: ...
    def set_notices(self, player: int, turn: bool, ended: bool, every: bool, invited: bool, language: str) -> bool: ...
    def email_language(self, player: int, language: str) -> None: ...
    def verified_accounts(self, address: str) -> list[int]: ...
    def add_link(self, token: str, player: int, purpose: str, address: str, now: float, expires: float) -> None: ...
    def take_link(self, token: str, purpose: str) -> Link | None: ...
    def verify_email(self, player: int, address: str) -> bool: ...
    # the notices sent, by every channel (cafe.server.storage.sent_rows)
    def note_sent(self, channel: str, player: int, room: str, turn: int, at: float) -> bool: ...
    def unnote_sent(self, channel: str, player: int, room: str, turn: int) -> None: ...
    def last_sent(self, channel: str, player: int, room: str) -> float | None: ...
    def puzzle_player(self, player: int) -> tuple[Rating, int] | None:
        """A person's puzzle rating (games: puzzles tried) and streak; None before their first try."""

    def puzzle_ratings(self) -> dict[str, Rating]:
        """Every puzzle's rating that a try has moved (the others have their difficulty's rating)."""

    def puzzles_tried(self, player: int) -> set[str]: ...
    def try_puzzle(self, attempt: PuzzleTry) -> bool:
        """Keep a first try and both ratings after it, at once; False (and nothing changed) if the person had
        tried that puzzle already."""

    def invitation(self, room: str) -> str | None: ...
    def set_invitation(self, room: str, code: str | None) -> None: ...
    def rematch(self, room: str) -> Offer | None: ...
    def set_rematch(self, room: str, offer: Offer | None) -> None: ...
    def add_tournament(self, tournament_id: str, name: str, host: int, tournament: Tournament) -> None: ...
    def load_tournament(self, tournament_id: str) -> TournamentRow | None: ...
    def save_tournament(self, tournament_id: str, tournament: Tournament, status: str, version: int) -> bool: ...
    def tournaments(self, status: str | None = None, limit: int = 100) -> list[TournamentListed]: ...
    def add_tournament_state(self, tournament_id: str, name: str, host: int, state: dict[str, Any]) -> None: ...
    def tournament_state(self, tournament_id: str) -> StateRow | None: ...
    def save_tournament_state(self, tournament_id: str, state: dict[str, Any], status: str, version: int) -> bool: ...
    def drop_tournament(self, tournament_id: str) -> None: ...

    # passkeys (cafe.server.storage.passkey_rows)
    def keep_challenge(self, challenge: str, kept: Challenge, now: float) -> None: ...
    def take_challenge(self, challenge: str, now: float) -> Challenge | None: ...
    def passkeys_of(self, player: int) -> list[Passkey]: ...
    def passkey(self, credential: str) -> tuple[Passkey, str, str] | None: ...
    def add_passkey(self, key: Passkey, claim: bool = False) -> bool: ...
    def passkey_used(self, credential: str, sign_count: int, now: float) -> None: ...
    def remove_passkey(self, player: int, credential: str) -> bool: ...
    # holidays (cafe.server.storage.holiday_rows)
    def holiday(self, player: int, now: float) -> tuple[float, float] | None: ...
    def holiday_days(self, player: int, since: float) -> int: ...
    def begin_holiday(self, player: int, now: float, ends: float, days: int) -> bool: ...
    def end_holiday(self, player: int, now: float, days: int) -> bool: ...
    def on_holiday(self, players: list[int], now: float) -> dict[int, float]: ...
    def clock_rooms(self, player: int) -> list[str]: ...
    def set_deadline(self, room: str, deadline: float | None) -> None: ...
    def subscribe(self, player: int, session: str, subscription: Subscription, now: float) -> None: ...
    def unsubscribe(self, player: int, endpoint: str) -> None: ...
    def forget_endpoint(self, endpoint: str) -> None: ...
    def subscriptions(self, player: int) -> list[Subscription]: ...
    # bot accounts (cafe.server.storage.bot_rows)
    def bot_accounts(self, players: list[int]) -> set[int]: ...
    def set_bot(self, player: int, bot: bool, now: float) -> None: ...
    def set_bot_token(self, player: int, token: str | None) -> bool: ...
    def bot_by_token(self, token: str) -> tuple[int, str] | None: ...
    def ranked(self, limit: int, bots: bool) -> list[tuple[int, str, float, float, int]]: ...
    def tables_of(self, player: int) -> int: ...

    def close(self) -> None: ...


class SQLiteStore(SharedRows):
    """The embedded store: one SQLite file in WAL mode."""

    unique = sqlite3.IntegrityError

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.create_function("name_key", 1, name_key, deterministic=True)
        self._db.create_function("split_part", 3, split_part, deterministic=True)  # as PostgreSQL has it
        self._migrate()

    def _migrate(self) -> None:
        """Create the tables, or bring an older database up to this schema (PRAGMA user_version counts MIGRATIONS)."""
        fresh = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'rooms'").fetchone() is None
        version = 0 if fresh else int(self._db.execute("PRAGMA user_version").fetchone()[0])
        with self._transaction():
            for statement in SCHEMA.split(";") if fresh else MIGRATIONS[version:]:
                self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction (outside one, the connection commits each statement on its own)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _write(self, sql: str, *args: Any) -> sqlite3.Cursor:
        return self._db.execute(sql, args)  # a statement alone is a committed transaction

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Both stores' SQL (``%s`` placeholders) run here, its rows (none for a change)."""
        return self._db.execute(sql.replace("%s", "?"), args).fetchall()

    def atomic(self) -> contextlib.AbstractContextManager[None]:
        return self._transaction()

    def decoded(self, stored: Any) -> Any:
        return json.loads(stored)

    def encoded(self, value: Any) -> Any:
        return json.dumps(value)

    def add_player(self, name: str, token: str) -> int:
        cursor = self._write(
            "INSERT INTO players (name, token_hash, created, name_key) VALUES (?, ?, ?, ?)",
            name, token_hash(token), time.time(), name_key(name),
        )  # fmt: skip
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def player_name(self, player: int) -> str | None:
        row = self._db.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
        return str(row[0]) if row else None

    def players_named(self, name: str) -> list[int]:
        return [int(row[0]) for row in self._db.execute("SELECT id FROM players WHERE name_key = ?", (name_key(name),))]

    def forget_players(self, created_before: float) -> int:
        return self._write(UNUSED_PLAYERS.replace("%s", "?"), created_before).rowcount

    def hold_name(self, name: str, now: float, seconds: float) -> bool:
        return self._write(HOLD_NAME.replace("%s", "?"), name_key(name), now + seconds, now).rowcount == 1

    def forget_holds(self, now: float) -> None:
        self._write(FORGET_HOLDS.replace("%s", "?"), now)

    def player_by_token(self, token: str) -> tuple[int, str] | None:
        row = self._db.execute("SELECT id, name FROM players WHERE token_hash = ?", (token_hash(token),)).fetchone()
        return (int(row[0]), str(row[1])) if row else None

    def add_room(self, room: RoomRow) -> None:
        """A new room with its seats (the seats of a match's next game are known at once)."""
        with self._transaction():
            self._add_room(room)

    def _add_room(self, room: RoomRow) -> None:
        self._db.execute(
            "INSERT INTO rooms (id, name, edition, rules, host, status, seed, created, match, hints, clock, late, "
            "deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (room.id, room.name, room.edition, json.dumps(room.rules), room.host, room.status, room.seed, time.time(),
             None if room.match is None else json.dumps(room.match), int(room.hints), room.clock, room.late,
             room.deadline),
        )  # fmt: skip
        self._set_seats(room.id, room.seats)

    def set_seats(self, room: str, seats: tuple[SeatRow, ...]) -> None:
        """A waiting room's seats as they are now (someone joined, left, was kicked, or a bot sat down)."""
        with self._transaction():
            self._set_seats(room, seats)

    def _set_seats(self, room: str, seats: tuple[SeatRow, ...]) -> None:
        self._db.execute("DELETE FROM seats WHERE room = ?", (room,))
        self._db.executemany(
            "INSERT INTO seats (room, seat, player, bot, name, left_by) VALUES (?, ?, ?, ?, ?, ?)",
            [(room, s.seat, s.player, s.bot, s.name, s.left_by) for s in seats],
        )

    def start_room(self, room: str, deadline: float | None = None) -> None:
        self._write("UPDATE rooms SET status = 'playing', deadline = ? WHERE id = ?", deadline, room)

    def set_match(self, room: str, match: dict[str, Any]) -> None:
        self._write("UPDATE rooms SET match = ? WHERE id = ?", json.dumps(match), room)

    def replace_seat(self, room: str, seat: SeatRow) -> None:
        self._write(
            "UPDATE seats SET player = ?, bot = ?, name = ?, left_by = ? WHERE room = ? AND seat = ?",
            seat.player, seat.bot, seat.name, seat.left_by, room, seat.seat,
        )  # fmt: skip

    def set_host(self, room: str, player: int) -> None:
        self._write("UPDATE rooms SET host = ? WHERE id = ?", player, room)

    def set_hints(self, room: str, allowed: bool) -> None:
        self._write("UPDATE rooms SET hints = ? WHERE id = ?", int(allowed), room)

    def add_step(self, room: str, n: int, seat: int, step: str, deadline: float | None = None) -> None:
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO steps (room, n, seat, step, at) VALUES (?, ?, ?, ?, ?)",
                    (room, n, seat, step, time.time()),
                )
                if deadline is not None:
                    self._db.execute("UPDATE rooms SET deadline = ? WHERE id = ?", (deadline, room))
        except sqlite3.IntegrityError:
            raise StepConflict(f"step {n} of room {room} is already stored") from None

    def remove_step(self, room: str, n: int) -> None:
        """A step taken back (always the room's last)."""
        self._write("DELETE FROM steps WHERE room = ? AND n = ?", room, n)

    def finish_game(self, room: str, ending: Ending) -> None:
        """The last step, the record, the ratings, the match and its next game, in one transaction."""
        try:
            with self._transaction():
                if ending.last_step is not None:
                    n, seat, step = ending.last_step
                    self._db.execute(
                        "INSERT INTO steps (room, n, seat, step, at) VALUES (?, ?, ?, ?, ?)",
                        (room, n, seat, step, time.time()),
                    )
                match = None if ending.match is None else json.dumps(ending.match)
                self._db.execute(
                    "UPDATE rooms SET status = 'finished', record = ?, match = coalesce(?, match) WHERE id = ?",
                    (json.dumps(ending.record), match, room),
                )
                self._db.executemany(
                    "INSERT OR REPLACE INTO ratings (player, mu, sigma, games) VALUES (?, ?, ?, ?)",
                    [(player, r.mu, r.sigma, r.games) for player, r in ending.ratings.items()],
                )
                self._db.executemany(
                    "INSERT INTO results (room, player, seat, place, rating_before, rating_after, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(room, r.player, r.seat, r.place, r.rating_before, r.rating_after, time.time())
                     for r in ending.results],
                )  # fmt: skip
                if ending.next_game is not None:
                    self._add_room(ending.next_game)
        except sqlite3.IntegrityError:
            raise StepConflict(f"the last step of room {room} is already stored") from None

    def ratings(self, players: list[int]) -> dict[int, Rating]:
        marks = ", ".join("?" * len(players))
        rows = self._db.execute(f"SELECT player, mu, sigma, games FROM ratings WHERE player IN ({marks})", players)
        return {int(row[0]): Rating(row[1], row[2], row[3]) for row in rows}

    def leaderboard(self, limit: int) -> list[tuple[int, str, Rating]]:
        """The rated players, best first by a cautious estimate (mu - 3 sigma)."""
        rows = self._db.execute(
            "SELECT players.id, name, mu, sigma, games FROM ratings JOIN players ON players.id = ratings.player "
            "ORDER BY mu - 3 * sigma DESC LIMIT ?",
            (limit,),
        )
        return [(int(row[0]), row[1], Rating(row[2], row[3], row[4])) for row in rows]

    def drop_room(self, room: str) -> None:
        """A waiting room that closed before its game began."""
        with self._transaction():
            if self._db.execute("DELETE FROM rooms WHERE id = ? AND status = 'waiting'", (room,)).rowcount:
                self._db.execute("DELETE FROM seats WHERE room = ?", (room,))
                self._db.execute("DELETE FROM chat WHERE room = ?", (room,))

    def open_rooms(self) -> list[RoomRow]:
        """Every room still waiting or playing, with its seats and steps, to continue after a restart."""
        return self._rooms("status != 'finished'")

    def load_room(self, room: str) -> RoomRow | None:
        found = self._rooms("id = ?", room)
        return found[0] if found else None

    def _rooms(self, where: str, *args: Any) -> list[RoomRow]:
        rooms = []
        for row in self._db.execute(
            f"SELECT id, name, edition, rules, host, status, seed, match, hints, clock, late, deadline FROM rooms "
            f"WHERE {where} "
            "ORDER BY created",
            args,
        ).fetchall():
            seats = tuple(
                SeatRow(seat=s[0], player=s[1], bot=s[2], name=s[3], left_by=s[4])
                for s in self._db.execute(
                    "SELECT seat, player, bot, name, left_by FROM seats WHERE room = ? ORDER BY seat", (row[0],)
                )
            )
            steps = tuple(s[0] for s in self._db.execute("SELECT step FROM steps WHERE room = ? ORDER BY n", (row[0],)))
            match = None if row[7] is None else json.loads(row[7])
            rooms.append(
                RoomRow(
                    row[0],
                    row[1],
                    row[2],
                    json.loads(row[3]),
                    row[4],
                    row[5],
                    row[6],
                    seats,
                    steps,
                    match,
                    bool(row[8]),
                    row[9],
                    row[10],
                    row[11],
                )
            )
        return rooms

    def record(self, room: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT record FROM rooms WHERE id = ?", (room,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    def games_of(self, player: int, limit: int) -> list[PlayedGame]:
        rows = self._db.execute(PLAYED_GAMES.replace("%s", "?"), (player, limit))
        return [PlayedGame(*row) for row in rows]

    def save_analysis(self, room: str, analysis: dict[str, Any]) -> None:
        self._write("INSERT OR REPLACE INTO analyses (room, analysis) VALUES (?, ?)", room, json.dumps(analysis))

    def analysis(self, room: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT analysis FROM analyses WHERE room = ?", (room,)).fetchone()
        return json.loads(row[0]) if row else None

    def add_chat(self, room: str, line: ChatLine, kept: int) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT INTO chat (room, name, player, text, at) VALUES (?, ?, ?, ?, ?)",
                (room, line.name, line.player, line.text, line.at),
            )
            self._db.execute(CHAT_TRIM.replace("%s", "?"), (room, room, kept))

    def chat(self, room: str, limit: int) -> list[ChatLine]:
        return [ChatLine(*row) for row in self._db.execute(CHAT_LINES.replace("%s", "?"), (room, limit))]

    def schedule(self, job: DueJob, move: bool = True, replacing: bool = False) -> None:
        sql = SCHEDULE if move else SCHEDULE_ONCE
        with self._transaction() if replacing else contextlib.nullcontext():
            if replacing:
                self.unschedule(job.room, job.kind, job.arg)
            self._write(sql.replace("%s", "?"), job.key, job.kind, job.room, job.arg, job.at)

    def unschedule(self, room: str, kind: str, before: int) -> None:
        self._write(UNSCHEDULE.replace("%s", "?"), room, kind, before)

    def claim_due(self, owner: str, now: float, lease: float, limit: int) -> list[DueJob]:
        sql = CLAIM.format(due=DUE_NOW).replace("%s", "?")
        return due_first(self._write(sql, owner, now + lease, now, now, limit).fetchall())

    def extend(self, job: DueJob, owner: str, until: float) -> None:
        self._write(EXTEND.replace("%s", "?"), until, job.key, owner)

    def release(self, job: DueJob, owner: str, at: float) -> None:
        self._write(RELEASE.replace("%s", "?"), at, job.key, owner)

    def finish(self, job: DueJob, owner: str) -> bool:
        with self._transaction():
            self._write(FINISH.replace("%s", "?"), job.key, owner)
            return self._write(FINISH_AGAIN.replace("%s", "?"), job.key, owner).rowcount > 0

    def reachable(self) -> bool:
        return True  # a file of this process's own

    def puzzle_player(self, player: int) -> tuple[Rating, int] | None:
        row = self._db.execute(
            "SELECT mu, sigma, tries, streak FROM puzzle_players WHERE player = ?", (player,)
        ).fetchone()
        return None if row is None else (Rating(row[0], row[1], row[2]), int(row[3]))

    def puzzle_ratings(self) -> dict[str, Rating]:
        rows = self._db.execute("SELECT puzzle, mu, sigma, tries FROM puzzle_ratings")
        return {row[0]: Rating(row[1], row[2], row[3]) for row in rows}

    def puzzles_tried(self, player: int) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT puzzle FROM puzzle_tries WHERE player = ?", (player,))}

    def try_puzzle(self, attempt: PuzzleTry) -> bool:
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO puzzle_tries (player, puzzle, solved, at) VALUES (?, ?, ?, ?)",
                    (attempt.player, attempt.puzzle, int(attempt.solved), time.time()),
                )
                person, rating = attempt.person, attempt.rating
                self._db.execute(
                    "INSERT OR REPLACE INTO puzzle_players (player, mu, sigma, tries, streak) VALUES (?, ?, ?, ?, ?)",
                    (attempt.player, person.mu, person.sigma, person.games, attempt.streak),
                )
                self._db.execute(
                    "INSERT OR REPLACE INTO puzzle_ratings (puzzle, mu, sigma, tries) VALUES (?, ?, ?, ?)",
                    (attempt.puzzle, rating.mu, rating.sigma, rating.games),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def close(self) -> None:
        self._db.close()
