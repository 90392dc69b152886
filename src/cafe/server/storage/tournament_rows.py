"""Tournaments in the store: each one's whole state as JSON (:mod:`cafe.tournament`), kept across restarts.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives (:class:`Rows`).  A row holds the
tournament's name, host and status beside its state, so that a list of tournaments needs no state read.  Several
processes may serve one café, so a state is saved only over the version it was read at (:meth:`save_tournament`
says whether it was): a round paired twice, or a result lost to another process's save, cannot happen.  The state
holds the tournament's seed, so it never leaves the server as it is stored.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from cafe.server.storage.account_rows import Rows
from cafe.tournament.tournament import Tournament

STATUSES = ("open", "playing", "finished")  # taking entries, under way, over


@dataclass(frozen=True)
class TournamentRow:
    """A stored tournament: ``version`` counts its saves (the one to give back to :meth:`save_tournament`)."""

    id: str
    name: str
    host: int
    status: str
    version: int
    tournament: Tournament


@dataclass(frozen=True)
class TournamentListed:
    """What a list of tournaments shows of each: no state."""

    id: str
    name: str
    host: int
    status: str
    created: float


@dataclass(frozen=True)
class StateRow:
    """A stored tournament's state as JSON, not yet read as a :class:`Tournament` (the café's own tournaments keep
    more beside it, and take entries before there are two)."""

    id: str
    name: str
    host: int
    status: str
    version: int
    state: dict[str, Any]


class TournamentRows:
    """The tournament methods of :class:`~cafe.server.storage.store.Store`, for a store that is also :class:`Rows`."""

    def add_tournament(self: Rows, tournament_id: str, name: str, host: int, tournament: Tournament) -> None:
        """A new tournament, open for entries, at version 0."""
        TournamentRows.add_tournament_state(self, tournament_id, name, host, tournament.to_json())

    def add_tournament_state(self: Rows, tournament_id: str, name: str, host: int, state: dict[str, Any]) -> None:
        """A new tournament from its JSON state, open for entries, at version 0."""
        now = time.time()
        self.rows(
            "INSERT INTO tournaments (id, name, host, status, state, version, created, updated) "
            "VALUES (%s, %s, %s, 'open', %s, 0, %s, %s)",
            tournament_id, name, host, self.encoded(state), now, now,
        )  # fmt: skip

    def load_tournament(self: Rows, tournament_id: str) -> TournamentRow | None:
        """The tournament as it is stored now (another process may have saved it); its state is read as
        :meth:`Tournament.from_json` reads it, refused with a message if it is not one."""
        row = TournamentRows.tournament_state(self, tournament_id)
        if row is None:
            return None
        return TournamentRow(row.id, row.name, row.host, row.status, row.version, Tournament.from_json(row.state))

    def tournament_state(self: Rows, tournament_id: str) -> StateRow | None:
        """The tournament's row with its state as stored now, as JSON."""
        found = self.rows("SELECT id, name, host, status, version, state FROM tournaments WHERE id = %s", tournament_id)
        if not found:
            return None
        row_id, name, host, status, version, state = found[0]
        return StateRow(row_id, name, int(host), status, int(version), self.decoded(state))

    def save_tournament(self: Rows, tournament_id: str, tournament: Tournament, status: str, version: int) -> bool:
        """Store the tournament's state and status over ``version`` (the one it was read at), making it
        ``version + 1``; False, with nothing written, if another save came first (read it again)."""
        return TournamentRows.save_tournament_state(self, tournament_id, tournament.to_json(), status, version)

    def save_tournament_state(self: Rows, tournament_id: str, state: dict[str, Any], status: str, version: int) -> bool:
        """As :meth:`save_tournament`, for a state given as JSON."""
        if status not in STATUSES:
            raise ValueError(f"unknown tournament status {status!r}")  # a programming error, never a person's
        changed = self.rows(
            "UPDATE tournaments SET state = %s, status = %s, version = version + 1, updated = %s "
            "WHERE id = %s AND version = %s RETURNING id",
            self.encoded(state), status, time.time(), tournament_id, version,
        )  # fmt: skip
        return bool(changed)

    def tournaments(self: Rows, status: str | None = None, limit: int = 100) -> list[TournamentListed]:
        """The newest tournaments first, of one status or all."""
        columns = "SELECT id, name, host, status, created FROM tournaments"
        order = "ORDER BY created DESC, id LIMIT %s"
        if status is None:
            found = self.rows(f"{columns} {order}", limit)
        else:
            found = self.rows(f"{columns} WHERE status = %s {order}", status, limit)
        return [TournamentListed(i, n, int(h), s, float(c)) for i, n, h, s, c in found]

    def drop_tournament(self: Rows, tournament_id: str) -> None:
        self.rows("DELETE FROM tournaments WHERE id = %s", tournament_id)
