"""Bot accounts in the store: which accounts are bots, and each bot's API token.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives (:class:`Rows`).  A bot is an
account (a name with a password) that a program plays; it is marked so wherever its name is shown and rated on a
leaderboard of its own.  An account becomes a bot, or a person again, only while it has no rated game: its rating
then stays a bot's or a person's for good (as on lichess).  Its API token is kept as the guests' tokens and the
sessions are: only a hash, so that a stolen database lets nobody play as the bot.
"""

from __future__ import annotations

from cafe.server.storage.account_rows import Rows, session_hash


class Rated(Exception):
    """The account has rated games: whether it is a bot can no longer change."""


# the rated players, best first by a cautious estimate, bots or people (both stores' SQL)
RANKED = (
    "SELECT players.id, name, mu, sigma, games FROM ratings JOIN players ON players.id = ratings.player "
    "WHERE (players.id IN (SELECT player FROM bots)) = %s ORDER BY mu - 3 * sigma DESC LIMIT %s"
)


class BotRows:
    """The bot methods of :class:`~cafe.server.storage.store.Store`, for a store that is also :class:`Rows`."""

    def bot_accounts(self: Rows, players: list[int]) -> set[int]:
        """Those of ``players`` whose accounts are bots."""
        if not players:
            return set()
        marks = ", ".join(["%s"] * len(players))
        return {int(row[0]) for row in self.rows(f"SELECT player FROM bots WHERE player IN ({marks})", *players)}

    def set_bot(self: Rows, player: int, bot: bool, now: float) -> None:
        """The account becomes a bot (or a person again); :class:`Rated` once it has a rated game."""
        with self.atomic():
            if self.rows("SELECT 1 FROM ratings WHERE player = %s", player):
                raise Rated
            self.rows("DELETE FROM bots WHERE player = %s", player)
            if bot:
                self.rows("INSERT INTO bots (player, token_hash, since) VALUES (%s, NULL, %s)", player, now)

    def set_bot_token(self: Rows, player: int, token: str | None) -> bool:
        """The bot's new API token (an older one signs nothing in any more), or none (revoked). False: the
        account is not a bot."""
        hashed = None if token is None else session_hash(token)
        return bool(self.rows("UPDATE bots SET token_hash = %s WHERE player = %s RETURNING player", hashed, player))

    def bot_by_token(self: Rows, token: str) -> tuple[int, str] | None:
        """The bot account an API token signs in: its player and name."""
        found = self.rows(
            "SELECT players.id, players.name FROM bots JOIN players ON players.id = bots.player "
            "WHERE bots.token_hash = %s AND players.password_hash IS NOT NULL",
            session_hash(token),
        )
        return (int(found[0][0]), str(found[0][1])) if found else None

    def ranked(self: Rows, limit: int, bots: bool) -> list[tuple[int, str, float, float, int]]:
        """The rated bots, or the rated people, best first: player, name, mu, sigma and rated games."""
        rows = self.rows(RANKED, bots, limit)
        return [(int(row[0]), str(row[1]), float(row[2]), float(row[3]), int(row[4])) for row in rows]

    def tables_of(self: Rows, player: int) -> int:
        """The tables, waiting or playing, where the player has a seat."""
        found = self.rows(
            "SELECT COUNT(*) FROM seats JOIN rooms ON rooms.id = seats.room "
            "WHERE seats.player = %s AND rooms.status IN ('waiting', 'playing')",
            player,
        )
        return int(found[0][0])
