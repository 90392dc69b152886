"""The café's connection to PostgreSQL: taken from a pool that replaces a broken connection by itself.

A PostgreSQL restart (or an administrator ending the café's sessions) breaks the connection the
café holds.  psycopg_pool notices a broken connection when it comes back to the pool, throws it
away and connects again in the background, with backoff, until the database answers.  A statement
that found its connection already broken never reached the database, so it is sent once more on
a fresh one; anything else that fails for want of the database raises :class:`Unavailable`, which
the café answers with "try again in a moment", and the next request tries anew.

The store is used from the event loop's thread only, so one connection is enough, and a
transaction keeps hold of its connection until it ends (:meth:`Database.transaction`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from cafe.server.storage.store import Unavailable

WAIT = 2.0  # seconds a statement waits for a connection while the database is away, before it is answered
FIRST_WAIT = 30.0  # seconds the café waits for the database as it starts
AWAY = WAIT  # seconds after a statement found the database away in which the next are answered at once


class Database:
    """``execute``, ``transaction`` and ``cursor`` as on a psycopg connection, over a pool of one."""

    def __init__(self, url: str) -> None:
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url, min_size=1, max_size=1, kwargs={"autocommit": True}, timeout=WAIT, name="cafe", open=False
        )
        self._pool.open(wait=True, timeout=FIRST_WAIT)
        self._held: psycopg.Connection[Any] | None = None  # the connection of the transaction in progress
        self._away_until = 0.0  # (time.monotonic()) the statements before then do not wait for the database

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection of the transaction in progress, or one from the pool for this use."""
        if self._held is not None:
            yield self._held
            return
        if time.monotonic() < self._away_until:  # each waits no more: the event loop is not held a second time
            raise Unavailable("the database does not answer")
        try:
            with self._pool.connection() as db:
                yield db
        except (PoolTimeout, psycopg.OperationalError) as exc:
            self._away_until = time.monotonic() + AWAY
            raise Unavailable("the database does not answer") from exc

    def execute(self, query: Any, params: Any = None) -> psycopg.Cursor[Any]:
        """Run one statement; its rows stay with the returned cursor."""
        for again in (False, True):
            with self.connection() as db:
                try:
                    return db.execute(query, params)
                except psycopg.OperationalError:
                    # a connection broken before the statement went (the database restarted meanwhile): the
                    # statement never reached it, and the pool replaces the connection as it comes back
                    if again or db is self._held or not db.broken:
                        raise
        raise AssertionError("unreachable")  # pragma: no cover - the second pass returns or raises

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Statements inside run on one connection, committed together at the end (or not at all)."""
        if self._held is not None:  # nested: a savepoint, as psycopg does
            with self._held.transaction():
                yield
            return
        with self.connection() as db:
            self._held = db
            try:
                with db.transaction():
                    yield
            finally:
                self._held = None

    @contextlib.contextmanager
    def cursor(self) -> Iterator[psycopg.Cursor[Any]]:
        with self.connection() as db, db.cursor() as cursor:
            yield cursor

    def reachable(self) -> bool:
        """Whether the database answers now (for /health): a round trip, waiting no longer than a moment."""
        if self._held is not None:
            return True
        try:
            with self._pool.connection(timeout=0.5) as db:
                db.execute("SELECT 1")
            self._away_until = 0.0
            return True
        except (PoolTimeout, psycopg.OperationalError):
            return False

    def close(self) -> None:
        self._pool.close()
