"""Finished games analysed on request (docs/analysis.md): once per game, stored, in a bounded pool of processes.

Requests wait in a queue and games are analysed one after another; a game's turns are shared among
the pool's worker processes, so the event loop (and the games in progress) never think for it.  A
request for a game analysed already, queued or running only reports where it stands.

The worker processes end with the server: closing the server ends them at once, and each watches that the
server that started it still lives, so that a killed server leaves none behind.

The queue is bounded: it holds at most ``bound`` games, each person and each address has at most one
game waiting in it (a game's own player counts as a person only, by their token), and the games' own
players go before everyone else (a full queue makes room for them by dropping the latest request of
someone else).  A refused request raises :class:`Refused`.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cafe.ai.analysis import review_recorded_turn, summarise
from cafe.i18n import T, Text
from cafe.record import Record
from cafe.server.store import Store

ANALYSIS_SEED = 0  # every game is analysed with the same seed: the same record gives the same analysis
WATCH_SECONDS = 0.5  # how often a worker process checks that the server that started it still lives
RETRY_SECONDS = 60  # when a refused asker may try again (the Retry-After of the answer)
log = logging.getLogger("cafe.server")


class Refused(Exception):
    """A request for an analysis that the queue does not take now: why, and the HTTP status that says it."""

    def __init__(self, status: int, why: Text) -> None:
        super().__init__(status, why)
        self.status, self.why = status, why


@dataclass(order=True)
class _Waiting:
    """A game waiting for its analysis, in the queue's order: the games' players' requests first, then by time."""

    outsider: bool  # asked by someone who did not play in the game
    order: int
    room: str = field(compare=False)
    askers: frozenset[str] = field(compare=False)  # who asked: ``player:N`` and, for outsiders, ``address:A``


class Analyses:
    def __init__(self, store: Store, workers: int, budget: int, bound: int = 20) -> None:
        self.store, self.workers, self.budget, self.bound = store, max(1, workers), budget, max(1, bound)
        self._waiting: list[_Waiting] = []  # in the order they will be analysed
        self._running: str | None = None  # the room being analysed
        self._order = itertools.count()
        self._progress: dict[str, tuple[int, int]] = {}  # room -> (turns done, turns)
        self._pool: ProcessPoolExecutor | None = None  # started with the first request
        self._runner: asyncio.Task[None] | None = None

    def status(self, room: str) -> dict[str, Any]:
        """Where a game's analysis stands: none, queued (with its place), running (turns done), or done."""
        stored = self.store.analysis(room)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        if room == self._running:
            done, total = self._progress.get(room, (0, 0))
            return {"state": "running", "done": done, "total": total}
        place = next((k for k, waiting in enumerate(self._waiting) if waiting.room == room), None)
        if place is not None:  # the games before this one, the one being analysed included
            return {"state": "queued", "position": place + (self._running is not None), "workers": self.workers}
        return {"state": "none"}

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
        if any(waiting.askers & askers for waiting in self._waiting):
            raise Refused(429, T("you have a game waiting for its analysis already: ask again once it begins"))
        if len(self._waiting) >= self.bound:
            outsiders = [waiting for waiting in self._waiting if waiting.outsider]
            if not played or not outsiders:
                raise Refused(503, T("the analyses are busy: try again later"))
            self._waiting.remove(max(outsiders))  # the game's own player goes first: the latest outsider waits
        bisect.insort(self._waiting, _Waiting(not played, next(self._order), room, askers))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())
        return self.status(room)

    async def _run(self) -> None:
        while self._waiting:
            room = self._running = self._waiting.pop(0).room
            try:
                await self._analyse(room)
            except Exception:  # one game that cannot be analysed must not stop the others
                log.exception("the analysis of room %s failed", room)
            finally:
                self._running = None
                self._progress.pop(room, None)

    async def _analyse(self, room: str) -> None:
        data = self.store.record(room)
        if data is None:
            return
        record = Record.from_json(data)
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=spawn, initializer=watch_parent, initargs=(os.getpid(),)
            )
        loop = asyncio.get_running_loop()
        total = len(record.turns)
        self._progress[room] = (0, total)
        futures = [
            loop.run_in_executor(self._pool, review_recorded_turn, data, index, self.budget, ANALYSIS_SEED)
            for index in range(total)
        ]
        reviews = []
        try:
            for future in asyncio.as_completed(futures):
                reviews.append(await future)
                self._progress[room] = (len(reviews), total)
        finally:  # stopped (the server closes) or failed: the other turns' answers are awaited no more
            for future in futures:
                future.cancel()
        reviews.sort(key=lambda review: review.turn)
        self.store.save_analysis(room, {
            "budget": self.budget, "seed": ANALYSIS_SEED,
            "turns": [review.to_json() for review in reviews],
            "players": [summary.to_json() for summary in summarise(record.players, reviews)],
        })  # fmt: skip

    def close(self) -> None:
        """Stop analysing: the worker processes end now, even in the middle of a turn (its game is analysed again
        when someone asks after a restart)."""
        if self._runner is not None:
            self._runner.cancel()
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
