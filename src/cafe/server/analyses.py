"""Finished games analysed on request (docs/analysis.md): once per game, stored, in a bounded pool of processes.

Requests wait in a queue and games are analysed one after another; a game's turns are shared among
the pool's worker processes, so the event loop (and the games in progress) never think for it.  A
request for a game analysed already, queued or running only reports where it stands.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cafe.ai.analysis import review_recorded_turn, summarise
from cafe.record import Record
from cafe.server.store import Store

ANALYSIS_SEED = 0  # every game is analysed with the same seed: the same record gives the same analysis
log = logging.getLogger("cafe.server")


class Analyses:
    def __init__(self, store: Store, workers: int, budget: int) -> None:
        self.store, self.workers, self.budget = store, max(1, workers), budget
        self._queue: deque[str] = deque()  # rooms waiting, the one being analysed first
        self._progress: dict[str, tuple[int, int]] = {}  # room -> (turns done, turns)
        self._pool: ProcessPoolExecutor | None = None  # started with the first request
        self._runner: asyncio.Task[None] | None = None

    def status(self, room: str) -> dict[str, Any]:
        """Where a game's analysis stands: none, queued (with its place), running (turns done), or done."""
        stored = self.store.analysis(room)
        if stored is not None:
            return {"state": "done", "analysis": stored}
        if room in self._progress:
            done, total = self._progress[room]
            return {"state": "running", "done": done, "total": total}
        if room in self._queue:
            return {"state": "queued", "position": self._queue.index(room), "workers": self.workers}
        return {"state": "none"}

    def request(self, room: str) -> dict[str, Any]:
        """Queue a finished game's analysis (once); its status."""
        if self.status(room)["state"] == "none":
            self._queue.append(room)
            if self._runner is None or self._runner.done():
                self._runner = asyncio.get_running_loop().create_task(self._run())
        return self.status(room)

    async def _run(self) -> None:
        while self._queue:
            room = self._queue[0]
            try:
                await self._analyse(room)
            except Exception:  # one game that cannot be analysed must not stop the others
                log.exception("the analysis of room %s failed", room)
            finally:
                self._queue.popleft()
                self._progress.pop(room, None)

    async def _analyse(self, room: str) -> None:
        data = self.store.record(room)
        if data is None:
            return
        record = Record.from_json(data)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        loop = asyncio.get_running_loop()
        total = len(record.turns)
        self._progress[room] = (0, total)
        futures = [
            loop.run_in_executor(self._pool, review_recorded_turn, data, index, self.budget, ANALYSIS_SEED)
            for index in range(total)
        ]
        reviews = []
        for future in asyncio.as_completed(futures):
            reviews.append(await future)
            self._progress[room] = (len(reviews), total)
        reviews.sort(key=lambda review: review.turn)
        self.store.save_analysis(room, {
            "budget": self.budget, "seed": ANALYSIS_SEED,
            "turns": [review.to_json() for review in reviews],
            "players": [summary.to_json() for summary in summarise(record.players, reviews)],
        })  # fmt: skip

    def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
