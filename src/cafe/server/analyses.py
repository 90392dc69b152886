"""Finished games analysed on request (docs/analysis.md): once per game, stored, in a bounded pool of processes.

A request becomes a job in the store's ``due`` table (kind ``analysis``, one per game), so that every server
process sees it: whichever process has its analysts free claims the next waiting game, holds it with a lease
that it renews while the search works (a game takes seconds to minutes), stores the analysis and finishes the
job.  A process that dies mid-analysis lets its lease run out, and another process analyses the game again.  A
request for a game analysed already, queued or running only reports where it stands.

Each process analyses one game at a time, its turns shared among the process's ``workers`` worker processes, so
that the event loop (and the games in progress) never think for it.  The worker processes end with the server:
closing the server ends them at once (and gives its game back to the others), and each watches that the server
that started it still lives, so that a killed server leaves none behind.

The queue is bounded: the table holds at most ``bound`` waiting games, each person and each address has at most
one game waiting in it, and the games' own players go before everyone else (their requests are dated
:data:`AHEAD` earlier; a full queue makes room for them by dropping the latest request of someone else).  A
refused request raises :class:`Refused`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cafe.ai.analysis import review_recorded_turn, summarise
from cafe.i18n import T, Text
from cafe.record import Record
from cafe.server.due import AGAIN, POLL
from cafe.server.limits import Limits
from cafe.server.storage.analysis_rows import KIND
from cafe.server.storage.store import DueJob, Store, Unavailable

ANALYSIS_SEED = 0  # every game is analysed with the same seed: the same record gives the same analysis
WATCH_SECONDS = 0.5  # how often a worker process checks that the server that started it still lives
RETRY_SECONDS = 60  # when a refused asker may try again (the Retry-After of the answer)
AHEAD = 1e6  # seconds by which a game's own player's request is dated earlier: it goes before everyone else's
log = logging.getLogger("cafe.server")


class Refused(Exception):
    """A request for an analysis that the queue does not take now: why, and the HTTP status that says it."""

    def __init__(self, status: int, why: Text) -> None:
        super().__init__(status, why)
        self.status, self.why = status, why


def job_of(room: str, at: float) -> DueJob:
    """A game's analysis job: one per game, whoever asked."""
    return DueJob(KIND, room, 0, at)


class Analyses:
    def __init__(self, store: Store, limits: Limits, counters: dict[str, int]) -> None:
        self.store, self.workers, self.budget = store, max(1, limits.analysts), limits.analysis_budget
        self.bound, self.lease = max(1, limits.analysis_queue), limits.lease_seconds
        self.counters = counters  # "analyses": the searches this process began (for /metrics)
        counters.setdefault("analyses", 0)
        self.owner = secrets.token_hex(6)
        self._job: DueJob | None = None  # the game this process analyses
        self._progress = (0, 0)  # its turns done, turns
        self._wake = asyncio.Event()
        self._pool: ProcessPoolExecutor | None = None  # started with the first analysis

    def status(self, room: str) -> dict[str, Any]:
        """Where a game's analysis stands: none, queued (with its place), running (turns done), or done."""
        stored = self.store.analysis(room)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        now = time.time()
        found = self.store.analysis_job(room, now)
        if found is None:
            return {"state": "none"}
        at, running, done = found
        if running:
            if self._job is not None and self._job.room == room:
                done, total = self._progress
            else:  # analysed by another process: it keeps the turns done in the job
                data = self.store.record(room)
                total = 0 if data is None else len(Record.from_json(data).turns)
            return {"state": "running", "done": done, "total": total}
        # the games before this one, those being analysed included
        return {"state": "queued", "position": self.store.analyses_before(room, at, now), "workers": self.workers}

    def request(self, room: str, player: int | None, address: str, played: bool) -> dict[str, Any]:
        """Queue a finished game's analysis (once), asked by ``player`` (None: someone without a token) from
        ``address``, who ``played`` in it or not; its status.  Raises :class:`Refused` when the queue has no room
        for it or the asker has a game waiting already."""
        known = self.status(room)
        if known["state"] != "none":
            return known
        # a player of the game is known by their token; anyone else by their address too (several people behind
        # one address, at home or at a club, can each ask for their own games)
        person = set() if player is None else {f"player:{player}"}
        askers = frozenset(person if played else person | {f"address:{address}"})
        now = time.time()
        if self.store.waits_for_analysis(askers, now):
            raise Refused(429, T("you have a game waiting for its analysis already: ask again once it begins"))
        # the game's own player goes first: the latest request of someone who did not play waits no more
        if self.store.analyses_waiting(now) >= self.bound and not (
            played and self.store.drop_latest_analysis(now - AHEAD / 2)
        ):
            raise Refused(503, T("the analyses are busy: try again later"))
        self.store.schedule(job_of(room, now - AHEAD if played else now), move=False)
        self.store.keep_askers(askers, room)
        self._wake.set()
        return self.status(room)

    async def run_forever(self) -> None:
        """Analyse the waiting games, one at a time, taking each when this process is free: those asked here
        at once, those asked elsewhere or left by a process that died within ``POLL`` seconds."""
        while True:
            try:
                job = self._claim()
                if job is not None:
                    await self._work(job)
                    continue
            except Unavailable as away:
                log.warning("the analyses wait: %s", away)
            except Exception:  # the next look tries again
                log.exception("no analysis could be claimed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):  # asyncio.timeout, not wait_for: a cancel is never lost
                async with asyncio.timeout(POLL):
                    await self._wake.wait()

    def _claim(self) -> DueJob | None:
        now = time.time()
        found = self.store.claim_analysis(self.owner, now, self.lease)
        return None if found is None else job_of(*found)

    async def _work(self, job: DueJob) -> None:
        """One game: its lease renewed while it is analysed; done, or given back if the store is away."""
        self._job, self._progress = job, (0, 0)
        renew = asyncio.ensure_future(self._renew(job))
        try:
            if self.store.analysis(job.room) is None:  # analysed once, whoever asked again meanwhile
                await self._analyse(job)
        except Unavailable as away:
            log.warning("the analysis of room %s waits: %s", job.room, away)
            with contextlib.suppress(Unavailable):  # the store away too: the lease runs out instead
                self.store.release(job, self.owner, time.time() + AGAIN)
            return
        except Exception:  # one game that cannot be analysed must not stop the others
            log.exception("the analysis of room %s failed", job.room)
        finally:
            renew.cancel()
            self._job = None
        with contextlib.suppress(Unavailable):
            self.store.finish(job, self.owner)

    async def _renew(self, job: DueJob) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(Unavailable):
                self._held(job)

    def _held(self, job: DueJob) -> None:
        """This process still analyses the game: its lease runs on, and the others see the turns done."""
        self.store.hold_analysis(job.room, self.owner, time.time() + self.lease, self._progress[0])

    async def _analyse(self, job: DueJob) -> None:
        data = self.store.record(job.room)
        if data is None:
            return
        record = Record.from_json(data)
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=spawn, initializer=watch_parent, initargs=(os.getpid(),)
            )
        self.counters["analyses"] += 1
        loop = asyncio.get_running_loop()
        total = len(record.turns)
        self._progress = (0, total)
        futures = [
            loop.run_in_executor(self._pool, review_recorded_turn, data, index, self.budget, ANALYSIS_SEED)
            for index in range(total)
        ]
        reviews = []
        try:
            for future in asyncio.as_completed(futures):
                reviews.append(await future)
                self._progress = (len(reviews), total)
                with contextlib.suppress(Unavailable):  # the renewal tries again
                    self._held(job)
        finally:  # stopped (the server closes) or failed: the other turns' answers are awaited no more
            for future in futures:
                future.cancel()
        reviews.sort(key=lambda review: review.turn)
        self.store.save_analysis(job.room, {
            "budget": self.budget, "seed": ANALYSIS_SEED,
            "turns": [review.to_json() for review in reviews],
            "players": [summary.to_json() for summary in summarise(record.players, reviews)],
        })  # fmt: skip

    def close(self) -> None:
        """Stop analysing: the worker processes end now, even in the middle of a turn, and the game being analysed
        goes back to the queue for another process (or this one after a restart)."""
        if self._job is not None:
            with contextlib.suppress(Unavailable):
                self.store.release(self._job, self.owner, self._job.at)  # in its place
        if self._pool is not None:
            workers = list(self._pool._processes.values())  # Python 3.14's terminate_workers() says this openly
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(timeout=5)


def watch_parent(parent: int) -> None:
    """In a worker process: end it once ``parent`` (the server) has gone, however it went (even by SIGKILL)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="cafe-parent-watch", daemon=True).start()
