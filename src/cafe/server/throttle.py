"""A bound on attempts: at most so many in a window of time per key (an address, or an account's name key).

Sign-ins are counted by address and by name, whether the name has an account or not (so the bound tells nothing
of who exists).  One process alone counts in its memory (:class:`Throttle`); processes sharing a broker count in
Redis (:class:`SharedThrottle`), so that N processes allow the attempts of one, not N times as many.  The keys
kept are bounded too: in memory, past ``keys``, those whose attempts have all aged out go; if none has, a new key
is refused until one does, so that a flood of made-up names costs memory only up to there; in Redis, each key
expires with its window.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

# KEYS: the key's sorted set of attempts; ARGV: attempts, window (ms), a name for this attempt.  Redis's own clock
# times the attempts, so that the processes' clocks need not agree.
ATTEMPT = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""


class Bound(Protocol):
    async def attempt(self, key: str) -> bool:
        """Count an attempt for ``key``; False (and not counted) when it has had its attempts in the window."""


class Throttle:
    def __init__(
        self, attempts: int, window: float, keys: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.attempts = attempts
        self.window = window
        self.keys = keys
        self.clock = clock  # seconds, only ever compared with each other
        self._seen: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Count an attempt for ``key``; False (and not counted) when it has had ``attempts`` in the window."""
        now = self.clock()
        seen = self._seen.get(key)
        if seen is None:
            if len(self._seen) >= self.keys:
                self._prune(now)
                if len(self._seen) >= self.keys:
                    return False
            seen = self._seen[key] = deque()
        while seen and now - seen[0] >= self.window:
            seen.popleft()
        if len(seen) >= self.attempts:
            return False
        seen.append(now)
        return True

    async def attempt(self, key: str) -> bool:
        return self.allow(key)

    def _prune(self, now: float) -> None:
        for key in [k for k, seen in self._seen.items() if not seen or now - seen[-1] >= self.window]:
            del self._seen[key]


class SharedThrottle:
    """The same bound, counted in Redis for every process that shares it (``prefix``: the café's and the
    bound's)."""

    def __init__(self, redis: Any, prefix: str, attempts: int, window: float) -> None:
        self.prefix = prefix
        self.attempts = attempts
        self.window_ms = max(1, round(window * 1000))
        self._script = redis.register_script(ATTEMPT)

    async def attempt(self, key: str) -> bool:
        keys = [f"{self.prefix}:{key}"]
        return bool(await self._script(keys=keys, args=[self.attempts, self.window_ms, secrets.token_hex(8)]))
