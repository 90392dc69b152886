"""The café's storage on PostgreSQL (psycopg 3), for several server processes sharing one database.

The same :class:`~cafe.server.storage.store.Store` as SQLite.  Each room's steps are an append-only log
keyed by (room, n): two processes can never both store step N, the second gets a
:class:`~cafe.server.storage.store.StepConflict` and must re-read the room before it tries again.  The
schema is created and upgraded by numbered migrations, applied under an advisory lock so that
processes starting together do not race.  The connection comes back by itself after the database
restarts (:mod:`cafe.server.storage.database`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from cafe.server.names import key as name_key
from cafe.server.storage.analysis_rows import ANALYSIS_ASKERS
from cafe.server.storage.database import Database
from cafe.server.storage.email_rows import EMAIL_INVITED
from cafe.server.storage.holiday_rows import HOLIDAYS_INDEX, HOLIDAYS_POSTGRES
from cafe.server.storage.sent_rows import MOVE_SENT, SENT_INDEX, SENT_POSTGRES
from cafe.server.storage.shared_rows import SharedRows
from cafe.server.storage.store import (
    CHAT_LINES,
    CHAT_TRIM,
    CLAIM,
    DUE_NOW,
    EXTEND,
    FINISH,
    FINISH_AGAIN,
    FORGET_HOLDS,
    HOLD_NAME,
    PLAYED_GAMES,
    RELEASE,
    SCHEDULE,
    SCHEDULE_ONCE,
    UNSCHEDULE,
    UNUSED_PLAYERS,
    ChatLine,
    DueJob,
    Ending,
    PlayedGame,
    PuzzleTry,
    Rating,
    RoomRow,
    SeatRow,
    StepConflict,
    due_first,
    token_hash,
)


def rekey(db: psycopg.Connection[Any]) -> None:
    """Every player's name key computed anew (:func:`~cafe.server.storage.store.name_key`)."""
    players = db.execute("SELECT id, name FROM players").fetchall()
    with db.cursor() as cursor:
        cursor.executemany("UPDATE players SET name_key = %s WHERE id = %s", [(name_key(n), i) for i, n in players])


# Each entry upgrades the schema of the one before (SQL, or Python where SQL cannot); a database records how many
# it has had.
MIGRATIONS: list[str | Callable[[psycopg.Connection[Any]], None]] = [
    """
    CREATE TABLE players (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        edition TEXT NOT NULL,
        rules JSONB NOT NULL,
        host BIGINT NOT NULL,
        status TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        record JSONB,
        match JSONB
    );
    CREATE INDEX rooms_open ON rooms (created) WHERE status <> 'finished';
    CREATE TABLE seats (
        room TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player BIGINT,
        bot TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (room, seat)
    );
    CREATE TABLE ratings (
        player BIGINT PRIMARY KEY REFERENCES players (id),
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL
    );
    CREATE TABLE steps (
        room TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        step TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (room, n)
    );
    """,
    """
    ALTER TABLE players ADD COLUMN name_key TEXT;
    UPDATE players SET name_key = lower(name);
    CREATE INDEX players_name_key ON players (name_key);
    """,
    """
    CREATE TABLE analyses (room TEXT PRIMARY KEY REFERENCES rooms (id) ON DELETE CASCADE, analysis JSONB NOT NULL);
    CREATE TABLE results (
        room TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        player BIGINT NOT NULL,
        seat INTEGER NOT NULL,
        place INTEGER NOT NULL,
        rating_before DOUBLE PRECISION,
        rating_after DOUBLE PRECISION,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (room, player)
    );
    CREATE INDEX results_player ON results (player, at);
    """,
    "ALTER TABLE rooms ADD COLUMN hints BOOLEAN NOT NULL DEFAULT false",
    rekey,  # the key became the confusable skeleton (UTS #39), which only Python computes
    "ALTER TABLE seats ADD COLUMN left_by BIGINT",
    """
    CREATE TABLE chat (
        id BIGSERIAL PRIMARY KEY,
        room TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        player BIGINT NOT NULL,
        text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX chat_room ON chat (room, id);
    """,
    """
    CREATE TABLE due (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        room TEXT NOT NULL,
        arg BIGINT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        owner TEXT,
        lease DOUBLE PRECISION,
        again BOOLEAN NOT NULL DEFAULT false
    );
    CREATE INDEX due_at ON due (at);
    """,
    """
    ALTER TABLE players ADD COLUMN password_hash TEXT;
    CREATE UNIQUE INDEX players_account ON players (name_key) WHERE password_hash IS NOT NULL;
    CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        player BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX sessions_player ON sessions (player);
    """,
    "CREATE TABLE name_holds (name_key TEXT PRIMARY KEY, until DOUBLE PRECISION NOT NULL)",
    # games over days: a turn's clock in hours (0: a live game), what running out of it does, and when it runs out
    """
    ALTER TABLE rooms ADD COLUMN clock INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rooms ADD COLUMN late TEXT NOT NULL DEFAULT 'bot';
    ALTER TABLE rooms ADD COLUMN deadline DOUBLE PRECISION;
    """,
    """
    CREATE TABLE invitations (
        room TEXT PRIMARY KEY REFERENCES rooms (id) ON DELETE CASCADE,
        code TEXT NOT NULL
    );
    CREATE TABLE rematches (
        room TEXT PRIMARY KEY REFERENCES rooms (id) ON DELETE CASCADE,
        accepted TEXT NOT NULL,
        until DOUBLE PRECISION NOT NULL,
        next TEXT
    );
    """,
    # puzzles: each person's puzzle rating and streak, each puzzle's rating, and who tried which
    """
    CREATE TABLE IF NOT EXISTS puzzle_players (
        player BIGINT PRIMARY KEY REFERENCES players (id),
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        tries INTEGER NOT NULL,
        streak INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS puzzle_ratings (
        puzzle TEXT PRIMARY KEY,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        tries INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS puzzle_tries (
        player BIGINT NOT NULL,
        puzzle TEXT NOT NULL,
        solved BOOLEAN NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player, puzzle)
    );
    """,
    # tournaments: each one's whole state as JSON (cafe.server.storage.tournament_rows)
    """
    CREATE TABLE IF NOT EXISTS tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        host BIGINT NOT NULL,
        status TEXT NOT NULL,
        state JSONB NOT NULL,
        version INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments (created);
    """,
    # passkeys: each account's WebAuthn credentials, and the challenges of ceremonies under way (cafe.server.passkeys)
    """
    CREATE TABLE IF NOT EXISTS passkeys (
        id TEXT PRIMARY KEY,
        player BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        public_key TEXT NOT NULL,
        sign_count BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION
    );
    CREATE INDEX IF NOT EXISTS passkeys_player ON passkeys (player);
    CREATE TABLE IF NOT EXISTS passkey_challenges (
        challenge_hash TEXT PRIMARY KEY,
        purpose TEXT NOT NULL,
        player BIGINT,
        name_key TEXT,
        until DOUBLE PRECISION NOT NULL
    );
    """,
    # e-mail: a person's address and the notices they want, mailed links, notices sent (cafe.server.storage.email_rows)
    """
    CREATE TABLE IF NOT EXISTS emails (
        player BIGINT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
        address TEXT NOT NULL,
        verified INTEGER NOT NULL,
        language TEXT NOT NULL,
        turn INTEGER NOT NULL,
        ended INTEGER NOT NULL,
        every INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS email_links (
        token_hash TEXT PRIMARY KEY,
        player BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        purpose TEXT NOT NULL,
        address TEXT NOT NULL,
        expires DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE IF NOT EXISTS notices_sent (
        player BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        room TEXT NOT NULL,
        turn INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player, room, turn)
    );
    """,
    # holidays: a person's turn-based clocks stop (cafe.server.storage.holiday_rows)
    f"{HOLIDAYS_POSTGRES}; {HOLIDAYS_INDEX}",
    # Web Push: the browsers that hear of a person's games, and the notices sent (cafe.server.storage.push_rows)
    """
    CREATE TABLE IF NOT EXISTS push_subscriptions (
        endpoint TEXT PRIMARY KEY,
        player BIGINT NOT NULL,
        session TEXT NOT NULL,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        language TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX IF NOT EXISTS push_subscriptions_player ON push_subscriptions (player);
    CREATE TABLE IF NOT EXISTS push_sent (key TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL);
    """,
    # bot accounts (cafe.server.storage.bot_rows): which accounts are bots, and each one's API token
    """
    CREATE TABLE IF NOT EXISTS bots (
        player BIGINT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
        token_hash TEXT UNIQUE,
        since DOUBLE PRECISION NOT NULL
    );
    """,
    # who asked for the games waiting for their analysis (cafe.server.storage.analysis_rows)
    ANALYSIS_ASKERS,
    # e-mail: whether the person wants to hear that a host invites them to a table (cafe.server.invites)
    EMAIL_INVITED.replace("ADD COLUMN", "ADD COLUMN IF NOT EXISTS"),  # (run again by tests of older databases)
    # the notices sent, by e-mail, by push and in the page: one table (cafe.server.storage.sent_rows)
    "; ".join([SENT_POSTGRES, SENT_INDEX, *MOVE_SENT]),
]
MIGRATION_LOCK = 0x_CAFE_1989  # the advisory lock held while migrating


def migrate(db: psycopg.Connection[Any]) -> int:
    """Bring the database up to the newest schema; returns its version (the number of migrations applied)."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS cafe_schema (version INTEGER NOT NULL)")
        row = db.execute("SELECT version FROM cafe_schema").fetchone()
        version = 0 if row is None else int(row[0])
        for migration in MIGRATIONS[version:]:
            if isinstance(migration, str):
                db.execute(migration.encode())
            else:
                migration(db)
        if row is None:
            db.execute("INSERT INTO cafe_schema (version) VALUES (%s)", (len(MIGRATIONS),))
        else:
            db.execute("UPDATE cafe_schema SET version = %s", (len(MIGRATIONS),))
    return len(MIGRATIONS)


class PostgresStore(SharedRows):
    """Rooms, seats, players, ratings and every room's step log in PostgreSQL."""

    unique = psycopg.errors.UniqueViolation

    def __init__(self, url: str) -> None:
        self._db = Database(url)
        with self._db.connection() as db:
            migrate(db)

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        cursor = self._db.execute(sql.encode(), args)
        return cursor.fetchall() if cursor.description is not None else []

    def atomic(self) -> AbstractContextManager[None]:
        return self._db.transaction()

    def decoded(self, stored: Any) -> Any:
        return stored  # psycopg reads JSONB as Python values

    def encoded(self, value: Any) -> Any:
        return Jsonb(value)

    def add_player(self, name: str, token: str) -> int:
        row = self._db.execute(
            "INSERT INTO players (name, token_hash, created, name_key) VALUES (%s, %s, %s, %s) RETURNING id",
            (name, token_hash(token), time.time(), name_key(name)),
        ).fetchone()
        assert row is not None
        return int(row[0])

    def player_name(self, player: int) -> str | None:
        row = self._db.execute("SELECT name FROM players WHERE id = %s", (player,)).fetchone()
        return str(row[0]) if row else None

    def players_named(self, name: str) -> list[int]:
        rows = self._db.execute("SELECT id FROM players WHERE name_key = %s", (name_key(name),)).fetchall()
        return [int(row[0]) for row in rows]

    def forget_players(self, created_before: float) -> int:
        return self._db.execute(UNUSED_PLAYERS.encode(), (created_before,)).rowcount

    def hold_name(self, name: str, now: float, seconds: float) -> bool:
        return self._db.execute(HOLD_NAME.encode(), (name_key(name), now + seconds, now)).rowcount == 1

    def forget_holds(self, now: float) -> None:
        self._db.execute(FORGET_HOLDS.encode(), (now,))

    def player_by_token(self, token: str) -> tuple[int, str] | None:
        row = self._db.execute("SELECT id, name FROM players WHERE token_hash = %s", (token_hash(token),)).fetchone()
        return (int(row[0]), str(row[1])) if row else None

    def add_room(self, room: RoomRow) -> None:
        with self._db.transaction():
            self._add_room(room)

    def _add_room(self, room: RoomRow) -> None:
        self._db.execute(
            "INSERT INTO rooms (id, name, edition, rules, host, status, seed, created, match, hints, clock, late, "
            "deadline) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (room.id, room.name, room.edition, Jsonb(room.rules), room.host, room.status, room.seed, time.time(),
             None if room.match is None else Jsonb(room.match), room.hints, room.clock, room.late, room.deadline),
        )  # fmt: skip
        self._set_seats(room.id, room.seats)

    def set_seats(self, room: str, seats: tuple[SeatRow, ...]) -> None:
        with self._db.transaction():
            self._set_seats(room, seats)

    def _set_seats(self, room: str, seats: tuple[SeatRow, ...]) -> None:
        self._db.execute("DELETE FROM seats WHERE room = %s", (room,))
        with self._db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO seats (room, seat, player, bot, name, left_by) VALUES (%s, %s, %s, %s, %s, %s)",
                [(room, s.seat, s.player, s.bot, s.name, s.left_by) for s in seats],
            )

    def start_room(self, room: str, deadline: float | None = None) -> None:
        self._db.execute("UPDATE rooms SET status = 'playing', deadline = %s WHERE id = %s", (deadline, room))

    def set_match(self, room: str, match: dict[str, Any]) -> None:
        self._db.execute("UPDATE rooms SET match = %s WHERE id = %s", (Jsonb(match), room))

    def replace_seat(self, room: str, seat: SeatRow) -> None:
        self._db.execute(
            "UPDATE seats SET player = %s, bot = %s, name = %s, left_by = %s WHERE room = %s AND seat = %s",
            (seat.player, seat.bot, seat.name, seat.left_by, room, seat.seat),
        )

    def set_host(self, room: str, player: int) -> None:
        self._db.execute("UPDATE rooms SET host = %s WHERE id = %s", (player, room))

    def set_hints(self, room: str, allowed: bool) -> None:
        self._db.execute("UPDATE rooms SET hints = %s WHERE id = %s", (allowed, room))

    def add_step(self, room: str, n: int, seat: int, step: str, deadline: float | None = None) -> None:
        # one statement, so one round trip and no transaction around it, with the deadline or without
        params: tuple[Any, ...] = (room, n, seat, step, time.time())
        sql = "INSERT INTO steps (room, n, seat, step, at) VALUES (%s, %s, %s, %s, %s)"
        if deadline is not None:
            sql = f"WITH stepped AS ({sql}) UPDATE rooms SET deadline = %s WHERE id = %s"
            params = (*params, deadline, room)
        try:
            self._db.execute(sql.encode(), params)
        except psycopg.errors.UniqueViolation:
            raise StepConflict(f"step {n} of room {room} is already stored") from None

    def remove_step(self, room: str, n: int) -> None:
        self._db.execute("DELETE FROM steps WHERE room = %s AND n = %s", (room, n))

    def finish_game(self, room: str, ending: Ending) -> None:
        try:
            with self._db.transaction():
                if ending.last_step is not None:
                    n, seat, step = ending.last_step
                    self._db.execute(
                        "INSERT INTO steps (room, n, seat, step, at) VALUES (%s, %s, %s, %s, %s)",
                        (room, n, seat, step, time.time()),
                    )
                match = None if ending.match is None else Jsonb(ending.match)
                self._db.execute(
                    "UPDATE rooms SET status = 'finished', record = %s, match = coalesce(%s, match) WHERE id = %s",
                    (Jsonb(ending.record), match, room),
                )
                with self._db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO ratings (player, mu, sigma, games) VALUES (%s, %s, %s, %s) ON CONFLICT (player) "
                        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
                        [(player, r.mu, r.sigma, r.games) for player, r in ending.ratings.items()],
                    )
                with self._db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO results (room, player, seat, place, rating_before, rating_after, at) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        [(room, r.player, r.seat, r.place, r.rating_before, r.rating_after, time.time())
                         for r in ending.results],
                    )  # fmt: skip
                if ending.next_game is not None:
                    self._add_room(ending.next_game)
        except psycopg.errors.UniqueViolation:
            raise StepConflict(f"the last step of room {room} is already stored") from None

    def ratings(self, players: list[int]) -> dict[int, Rating]:
        rows = self._db.execute(
            "SELECT player, mu, sigma, games FROM ratings WHERE player = ANY(%s)", (players,)
        ).fetchall()
        return {int(row[0]): Rating(row[1], row[2], row[3]) for row in rows}

    def leaderboard(self, limit: int) -> list[tuple[int, str, Rating]]:
        rows = self._db.execute(
            "SELECT players.id, name, mu, sigma, games FROM ratings JOIN players ON players.id = ratings.player "
            "ORDER BY mu - 3 * sigma DESC LIMIT %s",
            (limit,),
        ).fetchall()
        return [(int(row[0]), row[1], Rating(row[2], row[3], row[4])) for row in rows]

    def drop_room(self, room: str) -> None:
        self._db.execute("DELETE FROM rooms WHERE id = %s AND status = 'waiting'", (room,))

    def open_rooms(self) -> list[RoomRow]:
        return self._rooms("rooms.status <> 'finished'")

    def load_room(self, room: str) -> RoomRow | None:
        found = self._rooms("rooms.id = %s", room)
        return found[0] if found else None

    def _rooms(self, where: str, *args: Any) -> list[RoomRow]:
        """The rooms matching ``where``, each with its seats and steps (three queries in all)."""
        columns = "id, name, edition, rules, host, status, seed, match, hints, clock, late, deadline"
        rooms = self._db.execute(
            f"SELECT {columns} FROM rooms WHERE {where} ORDER BY created".encode(), args
        ).fetchall()
        seats: dict[str, list[SeatRow]] = {}
        for room, seat, player, bot, name, left_by in self._db.execute(
            "SELECT seats.room, seat, player, bot, seats.name, left_by FROM seats JOIN rooms ON rooms.id = seats.room "
            f"WHERE {where} ORDER BY seats.room, seat".encode(),
            args,
        ):
            seats.setdefault(room, []).append(SeatRow(seat, name, player, bot, left_by))
        steps: dict[str, list[str]] = {}
        for room, step in self._db.execute(
            f"SELECT steps.room, step FROM steps JOIN rooms ON rooms.id = steps.room WHERE {where} "
            "ORDER BY steps.room, n".encode(),
            args,
        ):
            steps.setdefault(room, []).append(step)
        return [
            RoomRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], tuple(seats.get(r[0], ())), tuple(steps.get(r[0], ())),
                    r[7], r[8], r[9], r[10], r[11])
            for r in rooms
        ]  # fmt: skip

    def record(self, room: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT record FROM rooms WHERE id = %s", (room,)).fetchone()
        return row[0] if row and row[0] is not None else None

    def games_of(self, player: int, limit: int) -> list[PlayedGame]:
        rows = self._db.execute(PLAYED_GAMES.encode(), (player, limit)).fetchall()
        return [PlayedGame(*row) for row in rows]

    def save_analysis(self, room: str, analysis: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO analyses (room, analysis) VALUES (%s, %s) ON CONFLICT (room) DO UPDATE SET analysis = "
            "excluded.analysis",
            (room, Jsonb(analysis)),
        )

    def analysis(self, room: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT analysis FROM analyses WHERE room = %s", (room,)).fetchone()
        return row[0] if row else None

    def add_chat(self, room: str, line: ChatLine, kept: int) -> None:
        with self._db.transaction():
            self._db.execute(
                "INSERT INTO chat (room, name, player, text, at) VALUES (%s, %s, %s, %s, %s)",
                (room, line.name, line.player, line.text, line.at),
            )
            self._db.execute(CHAT_TRIM.encode(), (room, room, kept))

    def chat(self, room: str, limit: int) -> list[ChatLine]:
        return [ChatLine(*row) for row in self._db.execute(CHAT_LINES.encode(), (room, limit)).fetchall()]

    def schedule(self, job: DueJob, move: bool = True, replacing: bool = False) -> None:
        sql = SCHEDULE if move else SCHEDULE_ONCE
        params: tuple[Any, ...] = (job.key, job.kind, job.room, job.arg, job.at)
        if replacing:  # one statement, one round trip: the older jobs go as this one comes
            sql, params = f"WITH gone AS ({UNSCHEDULE}) {sql}", (job.room, job.kind, job.arg, *params)
        self._db.execute(sql.encode(), params)

    def unschedule(self, room: str, kind: str, before: int) -> None:
        self._db.execute(UNSCHEDULE.encode(), (room, kind, before))

    def claim_due(self, owner: str, now: float, lease: float, limit: int) -> list[DueJob]:
        # rows another process is claiming at this instant are passed over, not waited for
        sql = CLAIM.format(due=DUE_NOW + " FOR UPDATE SKIP LOCKED")
        return due_first(self._db.execute(sql.encode(), (owner, now + lease, now, now, limit)).fetchall())

    def extend(self, job: DueJob, owner: str, until: float) -> None:
        self._db.execute(EXTEND.encode(), (until, job.key, owner))

    def release(self, job: DueJob, owner: str, at: float) -> None:
        self._db.execute(RELEASE.encode(), (at, job.key, owner))

    def finish(self, job: DueJob, owner: str) -> bool:
        with self._db.transaction():
            self._db.execute(FINISH.encode(), (job.key, owner))
            return self._db.execute(FINISH_AGAIN.encode(), (job.key, owner)).rowcount > 0

    def reachable(self) -> bool:
        return self._db.reachable()

    def puzzle_player(self, player: int) -> tuple[Rating, int] | None:
        row = self._db.execute(
            "SELECT mu, sigma, tries, streak FROM puzzle_players WHERE player = %s", (player,)
        ).fetchone()
        return None if row is None else (Rating(row[0], row[1], row[2]), int(row[3]))

    def puzzle_ratings(self) -> dict[str, Rating]:
        rows = self._db.execute("SELECT puzzle, mu, sigma, tries FROM puzzle_ratings").fetchall()
        return {row[0]: Rating(row[1], row[2], row[3]) for row in rows}

    def puzzles_tried(self, player: int) -> set[str]:
        rows = self._db.execute("SELECT puzzle FROM puzzle_tries WHERE player = %s", (player,)).fetchall()
        return {row[0] for row in rows}

    def try_puzzle(self, attempt: PuzzleTry) -> bool:
        person, rating = attempt.person, attempt.rating
        try:
            with self._db.transaction():
                self._db.execute(
                    "INSERT INTO puzzle_tries (player, puzzle, solved, at) VALUES (%s, %s, %s, %s)",
                    (attempt.player, attempt.puzzle, attempt.solved, time.time()),
                )
                self._db.execute(
                    "INSERT INTO puzzle_players (player, mu, sigma, tries, streak) VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT (player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "tries = excluded.tries, streak = excluded.streak",
                    (attempt.player, person.mu, person.sigma, person.games, attempt.streak),
                )
                self._db.execute(
                    "INSERT INTO puzzle_ratings (puzzle, mu, sigma, tries) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (puzzle) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "tries = excluded.tries",
                    (attempt.puzzle, rating.mu, rating.sigma, rating.games),
                )
        except psycopg.errors.UniqueViolation:
            return False
        return True

    def close(self) -> None:
        self._db.close()
