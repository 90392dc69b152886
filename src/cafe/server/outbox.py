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
        self._queue: deque[tuple[str, int]] = deque()  # each message, and its size in UTF-8
        self._waiting = 0  # bytes in the queue
        self._ready = asyncio.Event()
        self.overflowed = asyncio.Event()  # set once the client fell too far behind

    def put(self, message: dict[str, Any] | str) -> None:
        """Queue a message, or one already encoded (never waits); past the limit the outbox closes instead."""
        if self.overflowed.is_set():
            return
        text = message if isinstance(message, str) else json.dumps(message)
        size = utf8_size(text)
        if self._waiting + size > self.limit:
            self._queue.clear()
            self._waiting = 0
            self.overflowed.set()
            return
        self._queue.append((text, size))
        self._waiting += size
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
                text, size = self._queue.popleft()
                self._waiting -= size
                await self._write(text)
            self._ready.clear()


def utf8_size(text: str) -> int:
    """The bytes a message takes on the wire: its length when it is ASCII (known to Python without a look at the
    text), else its UTF-8 encoding's (a room's state from orjson keeps "é" and "č" as they are, two bytes each)."""
    return len(text) if text.isascii() else len(text.encode())
