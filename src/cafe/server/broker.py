"""How a room's news reaches every server process, and how their changes to one room take turns.

A :class:`Broker` gives each room event (a room changed, a chat line, news) its place in the
room's one sequence, and delivers it to every process (each sends it on to its own
connections), the process that made it included, so that all of them see a room's events in
the same order.  It also holds a room's lock while a process changes it, counts a room's
versions (a process whose copy is older reloads it from the store first), and knows who is
connected anywhere.

:class:`LocalBroker` is the one-process default.  :class:`RedisBroker` carries the same over
Redis: an atomic script numbers an event and publishes it on one channel, which every process
reads in publication order; a room's lock is a Redis lock with a lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger("cafe.server")


@dataclass(frozen=True)
class Event:
    room: str
    kind: str  # "changed" (the room's state), "chat" or "info"
    seq: int  # the event's place in its room's sequence
    version: int  # the room's version (changes so far) once this event is applied
    origin: str  # the process that made it
    body: dict[str, Any]  # a chat line's "from" and "text", news' "text"


Deliver = Callable[[Event], Awaitable[None]]


class Broker(Protocol):
    origin: str  # this process, as events name it

    async def start(self, deliver: Deliver) -> None: ...
    async def close(self) -> None: ...
    def lock(self, room: str) -> contextlib.AbstractAsyncContextManager[None]: ...
    async def publish(self, room: str, kind: str, body: dict[str, Any]) -> int:
        """Number the event, send it to every process; returns the room's version after it."""

    async def version(self, room: str) -> int: ...
    async def arrive(self, player: int) -> None: ...
    async def depart(self, player: int) -> None: ...
    async def present(self, player: int) -> bool: ...
    async def forget(self, room: str) -> None:
        """A room that will not change again (finished or closed): what is kept for it may go."""


class RoomLocks:
    """An asyncio lock per room (one process's share of keeping a room's changes in order)."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}

    def __call__(self, room: str) -> asyncio.Lock:
        lock = self._locks.get(room)
        if lock is None:
            lock = self._locks[room] = asyncio.Lock()
        return lock

    def forget(self, room: str) -> None:
        lock = self._locks.get(room)
        if lock is not None and not lock.locked():
            del self._locks[room]


class LocalBroker:
    """One server process: events go straight back to it, in the order they are made."""

    def __init__(self) -> None:
        self.origin = "local"
        self._deliver: Deliver | None = None
        self._seq: dict[str, int] = {}
        self._versions: dict[str, int] = {}
        self._present: dict[int, int] = {}
        self._locks = RoomLocks()

    async def start(self, deliver: Deliver) -> None:
        self._deliver = deliver

    async def close(self) -> None:
        self._deliver = None

    def lock(self, room: str) -> contextlib.AbstractAsyncContextManager[None]:
        return self._locks(room)

    async def publish(self, room: str, kind: str, body: dict[str, Any]) -> int:
        seq = self._seq[room] = self._seq.get(room, 0) + 1
        version = self._versions.get(room, 0) + (kind == "changed")
        self._versions[room] = version
        if self._deliver is not None:
            await self._deliver(Event(room, kind, seq, version, self.origin, body))
        return version

    async def version(self, room: str) -> int:
        return self._versions.get(room, 0)

    async def arrive(self, player: int) -> None:
        self._present[player] = self._present.get(player, 0) + 1

    async def depart(self, player: int) -> None:
        count = self._present.get(player, 1) - 1
        if count > 0:
            self._present[player] = count
        else:
            self._present.pop(player, None)

    async def present(self, player: int) -> bool:
        return self._present.get(player, 0) > 0

    async def forget(self, room: str) -> None:
        self._seq.pop(room, None)
        self._versions.pop(room, None)
        self._locks.forget(room)


LEASE = 10.0  # seconds a room's lock is held at most (a process that dies holding it frees it then)
CONNECTIONS = 32  # Redis connections a process uses at most (beside its subscription)
HEARTBEAT = 5.0  # seconds between a process's signs of life; its connections count as present while they last
KEEP = 86_400  # seconds a finished room's counters stay in Redis (a late event still gets the next number)
# KEYS: the room's sequence and version counters; ARGV: the event without them, whether it changes the room.
# Numbering and publishing in one script keeps the channel in sequence order.
PUBLISH = """
local seq = redis.call('INCR', KEYS[1])
local version = tonumber(redis.call('GET', KEYS[2]) or '0')
if ARGV[2] == '1' then version = redis.call('INCR', KEYS[2]) end
redis.call('PUBLISH', KEYS[3], '{"seq":' .. seq .. ',"version":' .. version .. ',' .. string.sub(ARGV[1], 2))
return version
"""


def namespace_for(database: str) -> str:
    """The prefix of a café's Redis keys and channel: cafés on other databases may share the Redis server.

    Player and room numbers are the database's, so two cafés must never read each other's presence or events.
    """
    parts = urllib.parse.urlsplit(database)
    where = f"{parts.hostname or ''}:{parts.port or ''}{parts.path}"  # no user name or password
    return "cafe:" + hashlib.sha256(where.encode()).hexdigest()[:12]


class RedisBroker:
    """Several server processes sharing one Redis: pub/sub for events, leased locks per room.

    Every key and the channel start with ``namespace`` (see :func:`namespace_for`).
    """

    def __init__(self, url: str, namespace: str = "cafe") -> None:
        from redis import asyncio as aioredis

        self._ns = namespace
        self._channel = f"{namespace}:events"
        self.origin = secrets.token_hex(6)
        # many requests at once wait for one of a bounded number of connections, rather than fail
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=LEASE, decode_responses=True
        )
        self._redis = aioredis.Redis(connection_pool=pool)
        self._publish = self._redis.register_script(PUBLISH)
        self._locks = RoomLocks()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None

    async def start(self, deliver: Deliver) -> None:
        self._pubsub = self._redis.pubsub()
        await self._pubsub.subscribe(self._channel)
        await self._redis.sadd(f"{self._ns}:processes", self.origin)
        self._tasks = [asyncio.create_task(self._read(deliver)), asyncio.create_task(self._beat())]

    async def _beat(self) -> None:
        """Say this process lives; a killed process's presence counts fade with its last sign of life."""
        while True:
            await self._redis.set(f"{self._ns}:alive:{self.origin}", "1", ex=int(3 * HEARTBEAT))
            await asyncio.sleep(HEARTBEAT)

    async def _read(self, deliver: Deliver) -> None:
        async for message in self._pubsub.listen():
            if message.get("type") != "message":
                continue
            data = json.loads(message["data"])
            event = Event(data["room"], data["kind"], data["seq"], data["version"], data["origin"], data["body"])
            try:
                await deliver(event)
            except Exception:  # one event that cannot be delivered must not stop the others
                log.exception("room event %r could not be delivered", event)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # gone already, or failed with Redis
                await task
        await self._redis.delete(f"{self._ns}:present:{self.origin}", f"{self._ns}:alive:{self.origin}")
        await self._redis.srem(f"{self._ns}:processes", self.origin)
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await self._redis.aclose()

    @contextlib.asynccontextmanager
    async def lock(self, room: str) -> AsyncIterator[None]:
        leased = self._redis.lock(f"{self._ns}:lock:{room}", timeout=LEASE, blocking_timeout=LEASE)
        async with self._locks(room), leased:
            yield

    async def publish(self, room: str, kind: str, body: dict[str, Any]) -> int:
        event = json.dumps({"room": room, "kind": kind, "origin": self.origin, "body": body})
        keys = [f"{self._ns}:seq:{room}", f"{self._ns}:version:{room}", self._channel]
        return int(await self._publish(keys=keys, args=[event, "1" if kind == "changed" else "0"]))

    async def version(self, room: str) -> int:
        return int(await self._redis.get(f"{self._ns}:version:{room}") or 0)

    async def arrive(self, player: int) -> None:
        await self._redis.hincrby(f"{self._ns}:present:{self.origin}", str(player), 1)

    async def depart(self, player: int) -> None:
        await self._redis.hincrby(f"{self._ns}:present:{self.origin}", str(player), -1)

    async def forget(self, room: str) -> None:
        self._locks.forget(room)
        await self._redis.expire(f"{self._ns}:seq:{room}", KEEP)
        await self._redis.expire(f"{self._ns}:version:{room}", KEEP)

    async def present(self, player: int) -> bool:
        for origin in await self._redis.smembers(f"{self._ns}:processes"):
            if not await self._redis.exists(f"{self._ns}:alive:{origin!s}"):  # gone without saying goodbye
                await self._redis.srem(f"{self._ns}:processes", origin)
                await self._redis.delete(f"{self._ns}:present:{origin!s}")
            elif int(await self._redis.hget(f"{self._ns}:present:{origin!s}", str(player)) or 0) > 0:
                return True
        return False
