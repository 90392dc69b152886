"""A bound on attempts: at most so many in a window of time per key (an address, or an account's name key).

Sign-ins are counted by address and by name, whether the name has an account or not (so the bound tells nothing
of who exists).  The keys kept are bounded too: past ``keys``, those whose attempts have all aged out go; if
none has, a new key is refused until one does, so that a flood of made-up names costs memory only up to there.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


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

    def _prune(self, now: float) -> None:
        for key in [k for k, seen in self._seen.items() if not seen or now - seen[-1] >= self.window]:
            del self._seen[key]
