"""The server's background work (computer players thinking, timers, the sweeper, the broker told who follows what):
each piece kept until it ends, so that closing the server cancels it, and its failure logged, never lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterable
from typing import Any

log = logging.getLogger("cafe.server")

AGAIN = 1.0  # seconds for a cancelled task to end before it is cancelled again


class Tasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Future[None]] = set()

    def spawn(self, work: Awaitable[None]) -> asyncio.Future[None]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    async def stop(self) -> None:
        """Cancel every task and wait until each has ended (none goes on using what closes next: the store)."""
        await cancel_all(self._tasks)


async def cancel_all(tasks: Iterable[asyncio.Future[Any]]) -> None:
    """Cancel the tasks and wait until each has ended.  One still running a moment later has lost its cancel on the
    way and is cancelled again, until it ends: on Python 3.11, asyncio.wait_for returns the result of what it waited
    for when that ends as the cancel comes, and forgets the cancel, and redis-py sends every command under a
    wait_for (a café stopped under load hung on its sweeper, which had lost its cancel so and slept on)."""
    pending = set(tasks)
    for task in pending:
        task.cancel()
    while pending:
        _, pending = await asyncio.wait(pending, timeout=AGAIN)
        if pending:  # expected now and then on Python 3.11: said, not warned of
            log.info("%d pieces of background work went on after their cancel: cancelled again", len(pending))
        for task in pending:
            task.cancel()
