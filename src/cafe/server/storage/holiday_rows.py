"""Holidays in the store: when a person's holidays began and end, and the days each one counts.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives (:class:`Rows`).  A holiday is
a row (player, starts, ends, days); ending it early moves ``ends`` to then and counts only the days begun.  A
holiday counts against the allowance of the calendar year (UTC) in which it begins.
"""

from __future__ import annotations

from cafe.server.storage.account_rows import Rows

HOLIDAYS_SQLITE = (
    "CREATE TABLE IF NOT EXISTS holidays (player INTEGER NOT NULL, starts REAL NOT NULL, ends REAL NOT NULL, "
    "days INTEGER NOT NULL)"
)
HOLIDAYS_POSTGRES = (
    "CREATE TABLE IF NOT EXISTS holidays (player BIGINT NOT NULL, starts DOUBLE PRECISION NOT NULL, "
    "ends DOUBLE PRECISION NOT NULL, days INTEGER NOT NULL)"
)
HOLIDAYS_INDEX = "CREATE INDEX IF NOT EXISTS holidays_player ON holidays (player, starts)"
NOW = "player = %s AND starts <= %s AND ends > %s"  # the holiday going on at a time


class HolidayRows:
    """The holiday methods of :class:`~cafe.server.storage.store.Store`, for a store that is also
    :class:`~cafe.server.storage.account_rows.Rows`."""

    def holiday(self: Rows, player: int, now: float) -> tuple[float, float] | None:
        """The holiday the player is on now: when it began and when it ends."""
        found = self.rows(f"SELECT starts, ends FROM holidays WHERE {NOW}", player, now, now)
        return (float(found[0][0]), float(found[0][1])) if found else None

    def holiday_days(self: Rows, player: int, since: float) -> int:
        """The days counted by the player's holidays begun since then (the start of this year)."""
        found = self.rows("SELECT COALESCE(SUM(days), 0) FROM holidays WHERE player = %s AND starts >= %s", player,
                          since)  # fmt: skip
        return int(found[0][0])

    def begin_holiday(self: Rows, player: int, now: float, ends: float, days: int) -> bool:
        """A holiday from now; False (and nothing kept) if the player is on one already."""
        with self.atomic():
            # the player's row held until the end (PostgreSQL: a row lock; SQLite: one writer at a time), so that two
            # processes beginning a holiday for one person at the same instant take turns
            self.rows("UPDATE players SET id = id WHERE id = %s", player)
            if self.rows(f"SELECT 1 FROM holidays WHERE {NOW}", player, now, now):
                return False
            self.rows("INSERT INTO holidays (player, starts, ends, days) VALUES (%s, %s, %s, %s)", player, now, ends,
                      days)  # fmt: skip
            return True

    def end_holiday(self: Rows, player: int, now: float, days: int) -> bool:
        """The holiday going on ends now, counting ``days``; False if there is none."""
        changed = self.rows(f"UPDATE holidays SET ends = %s, days = %s WHERE {NOW} RETURNING player", now, days,
                            player, now, now)  # fmt: skip
        return bool(changed)

    def on_holiday(self: Rows, players: list[int], now: float) -> dict[int, float]:
        """Those of ``players`` on holiday now, and when each holiday ends."""
        if not players:
            return {}
        marks = ", ".join(["%s"] * len(players))
        found = self.rows(
            f"SELECT player, ends FROM holidays WHERE player IN ({marks}) AND starts <= %s AND ends > %s",
            *players, now, now,
        )  # fmt: skip
        return {int(player): float(ends) for player, ends in found}

    def clock_rooms(self: Rows, player: int) -> list[str]:
        """The turn-based games not finished (or tables waiting for their start) where the player has a seat."""
        found = self.rows(
            "SELECT rooms.id FROM seats JOIN rooms ON rooms.id = seats.room WHERE seats.player = %s "
            "AND rooms.clock > 0 AND rooms.status IN ('waiting', 'playing')",
            player,
        )
        return [str(row[0]) for row in found]

    def set_deadline(self: Rows, room: str, deadline: float | None) -> None:
        """The turn in progress runs out of time at another time (a holiday began or ended)."""
        self.rows("UPDATE rooms SET deadline = %s WHERE id = %s", deadline, room)
