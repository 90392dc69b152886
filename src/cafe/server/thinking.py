"""The café's thinking: a few threads shared by computer players and hints, handed out so that people never wait
for someone else's spectacle (docs/deploy.md, ``thinkers`` and ``side_thinkers``).

Three kinds of work ask for a thread, in this order: a computer player in a game where a person plays; a person's
hint; a computer player in a game of computer players only (a spectacle).  Hints and spectacles together use at most
``side`` threads at once, so that with two threads one always stays free for the games people play.  A thread is held
for as long as the thinking runs, even when whoever asked stops waiting for it.

Hints are bounded too (:class:`Hints`): a hint's answer is kept until the position changes and served again, the
same position asked twice at once is thought out once, and a person gets one hint thought out at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TypeVar

R = TypeVar("R")


class Kind(IntEnum):
    """What a thread thinks for, the most urgent first."""

    PLAYING = 0  # a computer player in a game with a person in a seat
    HINT = 1  # a person's hint
    SPECTACLE = 2  # a computer player in a game of computer players only


class Busy(Exception):
    """A person asks for a second hint while their first is being thought out."""


@dataclass(order=True)
class _Waiter:
    kind: Kind
    order: int
    granted: asyncio.Future[None] = field(compare=False)


class Pool:
    """``workers`` threads; hints and spectacles share at most ``side`` of them; the most urgent waiter goes first."""

    def __init__(self, workers: int, side: int) -> None:
        self.workers = max(1, workers)
        self.side = min(max(1, side), self.workers)
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="cafe-bot")
        self._busy = 0
        self._side_busy = 0
        self._waiting: list[_Waiter] = []
        self._order = itertools.count()

    async def run(self, kind: Kind, work: Callable[..., R], *args: object) -> R:
        """``work(*args)`` in a thread of the pool, once one is free for this kind."""
        loop = asyncio.get_running_loop()
        await self._acquire(kind)
        try:
            running = self._executor.submit(work, *args)
        except BaseException:
            self._release(kind)
            raise
        running.add_done_callback(lambda _: self._finished(loop, kind))
        return await asyncio.wrap_future(running)

    def _finished(self, loop: asyncio.AbstractEventLoop, kind: Kind) -> None:
        """A thread is free again (said from that thread, to the loop, unless the server has closed meanwhile)."""
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._release, kind)

    async def _acquire(self, kind: Kind) -> None:
        waiter = _Waiter(kind, next(self._order), asyncio.get_running_loop().create_future())
        self._waiting.append(waiter)
        self._grant()
        try:
            await waiter.granted
        except asyncio.CancelledError:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
            elif waiter.granted.done() and not waiter.granted.cancelled():
                self._release(kind)  # granted just as the asker gave up: the thread goes to the next
            raise

    def _may_start(self, kind: Kind) -> bool:
        return self._busy < self.workers and (kind == Kind.PLAYING or self._side_busy < self.side)

    def _grant(self) -> None:
        """Free threads to the most urgent waiters that may have one."""
        for waiter in sorted(self._waiting):
            if waiter.granted.cancelled():  # its asker gave up and has not heard yet: it takes nothing
                self._waiting.remove(waiter)
                continue
            if not self._may_start(waiter.kind):
                continue
            self._waiting.remove(waiter)
            self._busy += 1
            self._side_busy += waiter.kind != Kind.PLAYING
            waiter.granted.set_result(None)

    def _release(self, kind: Kind) -> None:
        self._busy -= 1
        self._side_busy -= kind != Kind.PLAYING
        self._grant()

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class Hints:
    """Hints thought out once per position, and one at a time per person; ``counts`` (the gateway's counters, which
    /metrics shows) says how each was served."""

    def __init__(self, counts: dict[str, int]) -> None:
        self._answers: dict[str, tuple[Hashable, list[str]]] = {}  # room -> (its position when asked, the hint)
        self._thinking: dict[Hashable, asyncio.Future[list[str]]] = {}  # position -> the hint being thought out
        self._askers: set[int] = set()  # people whose hint is being thought out
        self.counts = counts
        counts.update(hints_thought=0, hints_repeated=0, hints_refused=0)

    async def ask(
        self, room: str, position: Hashable, player: int, think: Callable[[], Awaitable[list[str]]]
    ) -> list[str]:
        """The hint for ``position`` in ``room``: kept, joined while being thought out, or thought out now.

        Raises :class:`Busy` when ``player`` already waits for another hint being thought out."""
        known = self._answers.get(room)
        if known is not None and known[0] == position:
            self.counts["hints_repeated"] += 1
            return known[1]
        running = self._thinking.get(position)
        if running is not None:
            self.counts["hints_repeated"] += 1
            return await asyncio.shield(running)
        if player in self._askers:
            self.counts["hints_refused"] += 1
            raise Busy
        self._askers.add(player)
        running = self._thinking[position] = asyncio.ensure_future(think())
        running.add_done_callback(lambda done: self._thought(room, position, player, done))
        return await asyncio.shield(running)  # an asker who goes away leaves the hint to be kept for the next

    def _thought(self, room: str, position: Hashable, player: int, done: asyncio.Future[list[str]]) -> None:
        self._askers.discard(player)
        self._thinking.pop(position, None)
        if not done.cancelled() and done.exception() is None:
            self.counts["hints_thought"] += 1
            self._answers[room] = (position, done.result())

    def forget(self, room: str) -> None:
        """A room left memory: its kept hint goes too."""
        self._answers.pop(room, None)
