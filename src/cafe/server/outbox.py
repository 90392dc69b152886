"""One connection's way out: a bounded queue of messages and a writer of its own.

The gateway (:mod:`cafe.server.gateway`) never waits for a client: it puts a message in the connection's outbox
and goes on.  The outbox's writer sends them in order.  A client that stops reading lets its outbox fill; once
more than the limit waits, the outbox closes and the connection is dropped (the client can come
back with its token and ``sync``).  Nobody else ever waits for it.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any


class Outbox:
    def __init__(self, write: Callable[[str], Awaitable[None]], limit: int) -> None:
        self._write = write
        self.limit = limit  # bytes waiting at most
        self._queue: deque[str] = deque()
        self._waiting = 0  # bytes in the queue
        self._ready = asyncio.Event()
        self.overflowed = asyncio.Event()  # set once the client fell too far behind

    def put(self, message: dict[str, Any] | str) -> None:
        """Queue a message, or one already encoded (never waits); past the limit the outbox closes instead."""
        if self.overflowed.is_set():
            return
        text = message if isinstance(message, str) else json.dumps(message)  # ASCII: always encodable
        if self._waiting + len(text) > self.limit:
            self._queue.clear()
            self._waiting = 0
            self.overflowed.set()
            return
        self._queue.append(text)
        self._waiting += len(text)
        self._ready.set()

    @property
    def waiting(self) -> int:
        """Bytes queued and not yet handed to the connection."""
        return self._waiting

    async def run(self) -> None:
        """Send what comes, in order, until cancelled."""
        while True:
            await self._ready.wait()
            while self._queue:
                text = self._queue.popleft()
                self._waiting -= len(text)
                await self._write(text)
            self._ready.clear()
