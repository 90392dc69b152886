"""How a room's news reaches every server process, and how their changes to one room take turns.

A :class:`Broker` gives each room event (a room changed, a chat line, news) its place in the
room's one sequence, and delivers it to every process (each sends it on to its own
connections), the process that made it included, so that all of them see a room's events in
the same order.  It also holds a room's lock while a process changes it, counts a room's
versions (a process whose copy is older reloads it from the store first), and knows who is
connected anywhere.

:class:`LocalBroker` is the one-process default.  :class:`RedisBroker` carries the same over
Redis: an atomic script numbers an event and publishes it on one channel, which every process
reads in publication order; a room's lock is a Redis lock with a lease.  When Redis goes away (a
restart), a request that needs it is answered "try again in a moment" (:class:`Unavailable`), and
the process connects again with backoff, subscribes again and says it lives; then the café reads
every room again from the store and sends its whole state, as events may have been missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from cafe.server.storage.store import Unavailable
from cafe.server.tasks import cancel_all
from cafe.server.throttle import Bound, SharedThrottle, Throttle

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
Resync = Callable[[], Awaitable[None]]  # after events may have been missed: every room read again and sent whole


class Broker(Protocol):
    origin: str  # this process, as events name it
    connected: bool  # whether events reach this process now (for /health)

    async def start(self, deliver: Deliver, resync: Resync) -> None: ...
    async def close(self) -> None: ...
    def lock(self, room: str) -> contextlib.AbstractAsyncContextManager[int]:
        """Hold the room: no other change to it, here or in another process, until the block ends.  Yields the
        room's version as it was taken (the number of its ``changed`` events)."""

    async def publish(self, room: str, kind: str, body: dict[str, Any], floor: int = 0) -> int:
        """Number the event, send it to every process; returns the room's version after it.  ``floor``: the
        highest number this process has seen in the room; the event's is above it, even where the counter was
        lost (an emptied Redis after a restart), so that a room's numbers never go back."""

    async def number_above(self, room: str, seq: int) -> None:
        """The room's next events are numbered above ``seq`` (a process's rooms after Redis came back empty)."""

    async def version(self, room: str) -> int: ...
    async def arrive(self, player: int) -> None: ...
    async def depart(self, player: int) -> None: ...
    async def present(self, player: int) -> bool: ...
    async def follow(self, room: str) -> None:
        """Someone here hears the room's events (the first of this process's connections to)."""

    async def unfollow(self, room: str) -> None:
        """Nobody here hears the room's events any more."""

    async def followed(self, room: str) -> bool:
        """Someone hears the room's events in any process."""

    async def forget(self, room: str) -> None:
        """A room that will not change again (finished or closed): what is kept for it may go."""

    def bound(self, name: str, attempts: int, window: float) -> Bound:
        """At most ``attempts`` per key in ``window`` seconds, counted for every process that shares this broker
        (sign-ins, cafe.server.throttle)."""


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
        self.connected = True
        self._deliver: Deliver | None = None
        self._seq: dict[str, int] = {}
        self._versions: dict[str, int] = {}
        self._present: dict[int, int] = {}
        self._following: set[str] = set()
        self._locks = RoomLocks()

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        self._deliver = deliver

    async def close(self) -> None:
        self._deliver = None

    @contextlib.asynccontextmanager
    async def lock(self, room: str) -> AsyncIterator[int]:
        async with self._locks(room):
            yield self._versions.get(room, 0)

    async def publish(self, room: str, kind: str, body: dict[str, Any], floor: int = 0) -> int:
        seq = self._seq[room] = max(self._seq.get(room, 0), floor) + 1
        version = self._versions.get(room, 0) + (kind == "changed")
        self._versions[room] = version
        if self._deliver is not None:
            await self._deliver(Event(room, kind, seq, version, self.origin, body))
        return version

    async def number_above(self, room: str, seq: int) -> None:
        self._seq[room] = max(self._seq.get(room, 0), seq)

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

    async def follow(self, room: str) -> None:
        self._following.add(room)

    async def unfollow(self, room: str) -> None:
        self._following.discard(room)

    async def followed(self, room: str) -> bool:
        return room in self._following

    async def forget(self, room: str) -> None:
        self._seq.pop(room, None)
        self._versions.pop(room, None)
        self._locks.forget(room)

    def bound(self, name: str, attempts: int, window: float) -> Bound:
        return Throttle(attempts, window)  # one process: its memory


LEASE = 10.0  # seconds a room's lock is held at most (a process that dies holding it frees it then)
CONNECTIONS = 32  # Redis connections a process uses at most (beside its subscription)
HEARTBEAT = 5.0  # seconds between a process's signs of life; its connections count as present while they last
KEEP = 86_400  # seconds a finished room's counters stay in Redis (a late event still gets the next number)
RETRY = (0.1, 5.0)  # seconds before connecting again to a Redis gone away: the first wait, and the longest
TRIES = (0.002, 0.05)  # seconds between tries for a room another process holds: the first wait, and the longest
# KEYS: the room's lock and version counter; ARGV: the holder's token, the lease in ms.  The version as the lock
# is taken, or -1 while another holds it: taking and reading in one round trip.
TAKE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return tonumber(redis.call('GET', KEYS[2]) or '0')
end
return -1
"""
# KEYS: the room's lock; ARGV: the holder's token (a lease that ran out may be another holder's by now).
GIVE_BACK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# KEYS: the room's sequence and version counters; ARGV: the event without them, whether it changes the room, the
# highest number the publisher has seen in the room.  Numbering and publishing in one script keeps the channel in
# sequence order.
PUBLISH = """
local seq = redis.call('INCR', KEYS[1])
local floor = tonumber(ARGV[3])
if seq <= floor then
  seq = floor + 1
  redis.call('SET', KEYS[1], seq)
end
local version = tonumber(redis.call('GET', KEYS[2]) or '0')
if ARGV[2] == '1' then version = redis.call('INCR', KEYS[2]) end
redis.call('PUBLISH', KEYS[3], '{"seq":' .. seq .. ',"version":' .. version .. ',' .. string.sub(ARGV[1], 2))
return version
"""
# KEYS: the room's sequence counter; ARGV: the number it must not be below.
NUMBER_ABOVE = """
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 0
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
        self.connected = False
        # many requests at once wait for one of a bounded number of connections, rather than fail
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=LEASE, decode_responses=True
        )
        self._redis = aioredis.Redis(connection_pool=pool)
        self._publish = self._redis.register_script(PUBLISH)
        self._number_above = self._redis.register_script(NUMBER_ABOVE)
        self._take = self._redis.register_script(TAKE)
        self._give_back = self._redis.register_script(GIVE_BACK)
        self._tokens = itertools.count()  # this process's lock holders, each told apart from all others
        self._locks = RoomLocks()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._mine: dict[int, int] = {}  # this process's connections per player, said again after a Redis restart
        self._following: set[str] = set()  # the rooms someone follows here, said again after a Redis restart

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        await self._connect()
        self._tasks = [asyncio.create_task(self._listen(deliver, resync)), asyncio.create_task(self._beat())]

    async def _connect(self) -> None:
        """Subscribe to the events, and say that this process lives and who is connected to it."""
        self._pubsub = self._redis.pubsub()
        await self._pubsub.subscribe(self._channel)
        await self._say_alive()
        self.connected = True

    async def _say_alive(self) -> None:
        """This process and its connections, as Redis should know them (a restarted Redis has forgotten them)."""
        await self._redis.sadd(f"{self._ns}:processes", self.origin)
        await self._redis.set(f"{self._ns}:alive:{self.origin}", "1", ex=int(3 * HEARTBEAT))
        present = f"{self._ns}:present:{self.origin}"
        await self._redis.delete(present)
        if self._mine:
            await self._redis.hset(present, mapping={str(p): n for p, n in self._mine.items()})
        following = f"{self._ns}:following:{self.origin}"
        await self._redis.delete(following)
        if self._following:
            await self._redis.sadd(following, *self._following)

    async def _beat(self) -> None:
        """Say this process lives; a killed process's presence counts fade with its last sign of life."""
        while True:
            with contextlib.suppress(*GONE):  # Redis away: the next beat, or connecting again, says it
                await self._redis.set(f"{self._ns}:alive:{self.origin}", "1", ex=int(3 * HEARTBEAT))
            await asyncio.sleep(HEARTBEAT)

    async def _listen(self, deliver: Deliver, resync: Resync) -> None:
        """Read the events as long as Redis is there; when it goes, connect again with backoff.

        Every subscription after the first (made here, or by redis-py itself after a short loss of its
        connection) means events may have been missed: the café resyncs."""
        subscribed = False
        while True:
            try:
                async for message in self._pubsub.listen():
                    if message.get("type") == "subscribe":
                        if subscribed:
                            log.warning("Redis is back: every room is read again")
                            await self._say_alive()
                            try:
                                await resync()
                            except Exception:  # the store away too, say: the next subscription tries again
                                log.exception("the rooms could not be read again")
                        subscribed = True
                    elif message.get("type") == "message":
                        await self._deliver_one(deliver, message["data"])
            except GONE as exc:
                self.connected = False
                log.warning("Redis went away (%s): connecting again", exc)
            with contextlib.suppress(*GONE):
                await self._pubsub.aclose()
            wait = RETRY[0]
            while not self.connected:
                await asyncio.sleep(wait)
                wait = min(2 * wait, RETRY[1])
                try:
                    await self._connect()
                except GONE as exc:
                    log.warning("Redis still away (%s): trying again in %.1f s", exc, wait)

    @staticmethod
    async def _deliver_one(deliver: Deliver, data: str) -> None:
        f = json.loads(data)
        event = Event(f["room"], f["kind"], f["seq"], f["version"], f["origin"], f["body"])
        try:
            await deliver(event)
        except Exception:  # one event that cannot be delivered must not stop the others
            log.exception("room event %r could not be delivered", event)

    async def close(self) -> None:
        await cancel_all(self._tasks)
        await self._redis.delete(*(f"{self._ns}:{kind}:{self.origin}" for kind in ("present", "alive", "following")))
        await self._redis.srem(f"{self._ns}:processes", self.origin)
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await self._redis.aclose()

    @contextlib.asynccontextmanager
    async def lock(self, room: str) -> AsyncIterator[int]:
        """The room's lock in Redis, leased for ``LEASE`` seconds (a process that dies holding it frees it then);
        this process's own requests for the room queue on an asyncio lock before it, so only other processes
        ever find it taken."""
        keys = [f"{self._ns}:lock:{room}", f"{self._ns}:version:{room}"]
        token = f"{self.origin}:{next(self._tokens)}"
        async with self._locks(room):
            with reaching_redis():
                version = await self._taken(room, keys, token)
            try:
                yield version
            finally:
                with contextlib.suppress(*GONE):  # gone with Redis: the lease ends it anyway
                    await self._give_back(keys=keys[:1], args=[token])

    async def _taken(self, room: str, keys: list[str], token: str) -> int:
        """Take the room's lock, trying again a moment later while another process holds it; the room's version."""
        until = time.monotonic() + LEASE
        wait = TRIES[0]
        while (version := int(await self._take(keys=keys, args=[token, int(LEASE * 1000)]))) < 0:
            if time.monotonic() > until:
                raise Unavailable(f"room {room} stayed locked")
            await asyncio.sleep(wait)
            wait = min(2 * wait, TRIES[1])
        return version

    async def publish(self, room: str, kind: str, body: dict[str, Any], floor: int = 0) -> int:
        event = json.dumps({"room": room, "kind": kind, "origin": self.origin, "body": body})
        keys = [f"{self._ns}:seq:{room}", f"{self._ns}:version:{room}", self._channel]
        with reaching_redis():
            return int(await self._publish(keys=keys, args=[event, "1" if kind == "changed" else "0", floor]))

    async def number_above(self, room: str, seq: int) -> None:
        with reaching_redis():
            await self._number_above(keys=[f"{self._ns}:seq:{room}"], args=[seq])

    async def version(self, room: str) -> int:
        with reaching_redis():
            return int(await self._redis.get(f"{self._ns}:version:{room}") or 0)

    async def arrive(self, player: int) -> None:
        self._mine[player] = self._mine.get(player, 0) + 1
        with contextlib.suppress(*GONE):  # said again when Redis comes back
            await self._redis.hincrby(f"{self._ns}:present:{self.origin}", str(player), 1)

    async def depart(self, player: int) -> None:
        count = self._mine.get(player, 1) - 1
        if count > 0:
            self._mine[player] = count
        else:
            self._mine.pop(player, None)
        with contextlib.suppress(*GONE):
            await self._redis.hincrby(f"{self._ns}:present:{self.origin}", str(player), -1)

    async def forget(self, room: str) -> None:
        self._locks.forget(room)
        with contextlib.suppress(*GONE):  # the counters outlive the room by a day at most, or Redis's restart
            await self._redis.expire(f"{self._ns}:seq:{room}", KEEP)
            await self._redis.expire(f"{self._ns}:version:{room}", KEEP)

    def bound(self, name: str, attempts: int, window: float) -> Bound:
        return SharedThrottle(self._redis, f"{self._ns}:bound:{name}", attempts, window)

    async def present(self, player: int) -> bool:
        """Connected to any process; while Redis is away, to this one."""
        try:
            for origin in await self._live():
                if int(await self._redis.hget(f"{self._ns}:present:{origin}", str(player)) or 0) > 0:
                    return True
            return False
        except GONE:
            return self._mine.get(player, 0) > 0

    async def follow(self, room: str) -> None:
        self._following.add(room)
        with contextlib.suppress(*GONE):  # said again when Redis comes back
            await self._redis.sadd(f"{self._ns}:following:{self.origin}", room)

    async def unfollow(self, room: str) -> None:
        self._following.discard(room)
        with contextlib.suppress(*GONE):
            await self._redis.srem(f"{self._ns}:following:{self.origin}", room)

    async def followed(self, room: str) -> bool:
        """Followed in any process; while Redis is away, in this one."""
        try:
            for origin in await self._live():
                if await self._redis.sismember(f"{self._ns}:following:{origin}", room):
                    return True
            return False
        except GONE:
            return room in self._following

    async def _live(self) -> list[str]:
        """The processes alive now; what those gone without saying goodbye left behind is cleared away."""
        live = []
        for origin in await self._redis.smembers(f"{self._ns}:processes"):
            if await self._redis.exists(f"{self._ns}:alive:{origin!s}"):
                live.append(str(origin))
                continue
            await self._redis.srem(f"{self._ns}:processes", origin)
            await self._redis.delete(f"{self._ns}:present:{origin!s}", f"{self._ns}:following:{origin!s}")
        return live


def _redis_errors() -> tuple[type[Exception], ...]:
    """What Redis raises when it is out of reach (redis is an extra: imported only where it is there)."""
    try:
        from redis.exceptions import ConnectionError as Refused
        from redis.exceptions import TimeoutError as Late
    except ModuleNotFoundError:  # pragma: no cover - RedisBroker cannot be made without it either
        return (OSError,)
    return (Refused, Late, OSError)


GONE = _redis_errors()


@contextlib.contextmanager
def reaching_redis() -> Iterator[None]:
    """A request that Redis cannot answer now: :class:`Unavailable`, answered "try again in a moment"."""
    try:
        yield
    except GONE as exc:
        raise Unavailable("Redis does not answer") from exc
