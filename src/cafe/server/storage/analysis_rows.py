"""The analysis queue in the store: finished games waiting for their analysis, or being analysed, as jobs of the
``due`` table (kind :data:`KIND`, one per game) that any server process may claim (:mod:`cafe.server.analyses`).

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives
(:class:`~cafe.server.storage.account_rows.Rows`).  A job is running while a process holds its lease, and its ``arg`` is
then the turns analysed so far; a job whose lease ran out waits again.  Who asked for each waiting game is kept
beside it, so that each person and each address has one game waiting in the whole café.  The due work's own
claims pass these jobs over: a process claims an analysis only while it has its analysts free, one game at a time.
"""

from __future__ import annotations

from cafe.server.storage.account_rows import Rows

KIND = "analysis"

# Who asked for each waiting game (``player:N``, ``address:A``): each has at most one game waiting in the café.
ANALYSIS_ASKERS = "CREATE TABLE IF NOT EXISTS analysis_askers (asker TEXT PRIMARY KEY, room TEXT NOT NULL)"
ASKER_WAITS = (
    "SELECT COUNT(*) FROM analysis_askers JOIN due ON due.key = %s || analysis_askers.room || ':0' "
    "WHERE analysis_askers.asker IN ({askers}) AND (due.owner IS NULL OR due.lease < %s)"
)
KEEP_ASKER = (
    "INSERT INTO analysis_askers (asker, room) VALUES (%s, %s) ON CONFLICT (asker) DO UPDATE SET room = excluded.room"
)
FORGET_ASKERS = "DELETE FROM analysis_askers WHERE room = %s"

JOB = "SELECT at, owner IS NOT NULL AND lease >= %s, arg FROM due WHERE key = %s"
BEFORE = "SELECT COUNT(*) FROM due WHERE kind = %s AND key <> %s AND (at < %s OR (owner IS NOT NULL AND lease >= %s))"
WAITING = "SELECT COUNT(*) FROM due WHERE kind = %s AND (owner IS NULL OR lease < %s)"
LATEST = "SELECT key, room FROM due WHERE kind = %s AND owner IS NULL AND at > %s ORDER BY at DESC LIMIT 1"
DROP = "DELETE FROM due WHERE key = %s AND owner IS NULL"
# the claim checks again, row by row, that no process holds the job: of two processes claiming at once, one has it
CLAIM = (
    "UPDATE due SET owner = %s, lease = %s, arg = 0, again = FALSE WHERE (owner IS NULL OR lease < %s) AND key IN "
    "(SELECT key FROM due WHERE kind = %s AND at <= %s AND (owner IS NULL OR lease < %s) ORDER BY at LIMIT 1) "
    "RETURNING room, at"
)
HELD = "UPDATE due SET lease = %s, arg = %s WHERE key = %s AND owner = %s"


def analysis_key(room: str) -> str:
    """The key of a game's analysis job (that of :class:`~cafe.server.storage.store.DueJob`): one per game."""
    return f"{KIND}:{room}:0"


class AnalysisRows:
    """The analysis queue's methods of :class:`~cafe.server.storage.store.Store`, for a store that is also
    :class:`~cafe.server.storage.account_rows.Rows`."""

    def analysis_job(self: Rows, room: str, now: float) -> tuple[float, bool, int] | None:
        """A game's analysis job: when it was asked (as dated), whether a process analyses it now, and the turns
        it has analysed; None if the game waits for none."""
        found = self.rows(JOB, now, analysis_key(room))
        return (found[0][0], bool(found[0][1]), found[0][2]) if found else None

    def analyses_before(self: Rows, room: str, at: float, now: float) -> int:
        """The games analysed before a waiting game dated ``at``: those dated earlier and those being analysed."""
        return int(self.rows(BEFORE, KIND, analysis_key(room), at, now)[0][0])

    def analyses_waiting(self: Rows, now: float) -> int:
        """The games waiting for their analysis (not being analysed)."""
        return int(self.rows(WAITING, KIND, now)[0][0])

    def waits_for_analysis(self: Rows, askers: frozenset[str], now: float) -> bool:
        """Whether one of ``askers`` asked for a game that still waits for its analysis (not begun yet)."""
        if not askers:
            return False
        sql = ASKER_WAITS.format(askers=", ".join(["%s"] * len(askers)))
        return bool(self.rows(sql, f"{KIND}:", *sorted(askers), now)[0][0])

    def keep_askers(self: Rows, askers: frozenset[str], room: str) -> None:
        """``askers`` asked for this game's analysis (a game they asked for before waits no more, or was dropped)."""
        for asker in sorted(askers):
            self.rows(KEEP_ASKER, asker, room)

    def drop_latest_analysis(self: Rows, after: float) -> bool:
        """The latest waiting game dated after ``after`` waits no more; whether there was one."""
        found = self.rows(LATEST, KIND, after)
        if found:
            self.rows(DROP, found[0][0])
            self.rows(FORGET_ASKERS, found[0][1])
        return bool(found)

    def claim_analysis(self: Rows, owner: str, now: float, lease: float) -> tuple[str, float] | None:
        """The first waiting game (room, as dated), held by ``owner`` until ``now + lease``; None if none waits."""
        found = self.rows(CLAIM, owner, now + lease, now, KIND, now, now)
        if not found:
            return None
        self.rows(FORGET_ASKERS, found[0][0])  # begun: its askers may ask for another
        return found[0][0], found[0][1]

    def hold_analysis(self: Rows, room: str, owner: str, until: float, done: int) -> None:
        """The owner still analyses the game: its lease runs until ``until``, with ``done`` turns analysed."""
        self.rows(HELD, until, done, analysis_key(room), owner)
