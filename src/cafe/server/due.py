"""The café's due work, kept where every server process sees it: computer players' steps, turn clocks and
absences.

A job (:class:`~cafe.server.storage.store.DueJob`) lives in the store's ``due`` table until it is done.  Every process
claims the jobs that are due, holding each with a lease that it renews while it works; a process that dies
lets its leases run out, and another takes its jobs up within a moment of that.  A job checks the room before
it acts (the steps a computer player was woken at, the turn a clock was wound for, the absent player still
absent), so that a job run twice acts once.

This module keeps the jobs and runs them; what each one does is :mod:`cafe.server.chores`'s.
A job scheduled here is claimed at once when due (the process wakes itself); jobs scheduled by other processes,
or left by a dead one, are found by looking every ``POLL`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from cafe.server.storage.store import DueJob, Store, Unavailable

log = logging.getLogger("cafe.server")

POLL = 0.5  # seconds between looks for jobs that other processes scheduled or left behind
BATCH = 20  # jobs claimed at one look at most
AGAIN = 1.0  # seconds before a job that found the store or the broker away is tried again

Run = Callable[[DueJob], Awaitable[None]]


class DueWork:
    """Schedules jobs in the store and runs those due, on any process: ``run`` does one job's work."""

    def __init__(self, store: Store, run: Run, lease: float, owner: str | None = None) -> None:
        self.store = store
        self.owner = owner or secrets.token_hex(6)
        self.lease = lease  # seconds a claimed job is held before another process may take it up
        self._run = run
        self._wake = asyncio.Event()
        self._next = float("inf")  # the earliest time a job scheduled here falls due
        self._running: dict[str, asyncio.Task[None]] = {}

    def schedule(self, job: DueJob, move: bool = True, replacing: bool = False) -> None:
        """Keep ``job`` until it is done (see :meth:`~cafe.server.storage.store.Store.schedule`)."""
        self.store.schedule(job, move, replacing)
        if job.at < self._next:
            self._next = job.at
            self._wake.set()

    def unschedule(self, room: str, kind: str, before: int) -> None:
        self.store.unschedule(room, kind, before)

    async def run_forever(self) -> None:
        while True:
            try:
                self._claim()
            except Unavailable as away:
                log.warning("due work waits: %s", away)
            except Exception:  # the next look tries again
                log.exception("due work could not be claimed")
            wait = min(POLL, max(0.0, self._next - time.time()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):  # asyncio.timeout, not wait_for: a cancel is never lost
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    def _claim(self) -> None:
        now = time.time()
        if self._next <= now:
            self._next = float("inf")
        for job in self.store.claim_due(self.owner, now, self.lease, BATCH):
            if job.key not in self._running:
                self._running[job.key] = asyncio.ensure_future(self._work(job))

    async def _work(self, job: DueJob) -> None:
        """One job: its lease renewed while it runs; done, or given back for a moment if the store or the broker
        is away."""
        renew = asyncio.ensure_future(self._renew(job))
        try:
            await self._run(job)
        except Unavailable as away:
            log.warning("%s waits: %s", job.key, away)
            with contextlib.suppress(Unavailable):  # the store away too: the lease runs out instead
                self.store.release(job, self.owner, time.time() + AGAIN)
            return
        except Exception:  # a job that fails is not tried again and again
            log.exception("%s failed", job.key)
        finally:
            renew.cancel()
            self._running.pop(job.key, None)
        with contextlib.suppress(Unavailable):
            if self.store.finish(job, self.owner):  # scheduled again while it ran: due once more now
                self._wake.set()

    async def _renew(self, job: DueJob) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(Unavailable):
                self.store.extend(job, self.owner, time.time() + self.lease)

    def close(self) -> None:
        for task in self._running.values():
            task.cancel()
