"""Where a machine's CPU time goes while a bench runs, by kind of process: the café's servers, the clients,
PostgreSQL and Redis (read from /proc, Linux only).

    sampler = CpuSampler({"servers": [pid, ...], "clients": [pid, ...]})   # the named pids, and by name the rest
    sampler.start(); ...; sampler.stop()
    sampler.seconds_between(t0, t1)   # {"servers": 12.3, "clients": 8.1, "postgresql": 5.0, "redis": 1.2}

A thread samples every process's CPU seconds (user + system) once a second; the time between two instants is
the difference of the samples nearest them.  PostgreSQL's and Redis's processes are found by their names
("postgres", "redis-server"), so a machine that runs other databases counts theirs too.
"""

from __future__ import annotations

import bisect
import os
import threading
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
BY_NAME = {"postgres": "postgresql", "redis-server": "redis"}


def cpu_seconds(pid: int) -> tuple[str, float] | None:
    """A process's name and CPU seconds so far (None: gone, or not readable)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    return name, (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


class CpuSampler:
    def __init__(self, named: dict[str, list[int]], every: float = 1.0) -> None:
        self.named = {pid: kind for kind, pids in named.items() for pid in pids}
        self.every = every
        self.samples: list[tuple[float, dict[str, float]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic(), self.sample()))
            self._stop.wait(self.every)

    def sample(self) -> dict[str, float]:
        """CPU seconds so far of each kind, over the processes alive now (by pid, so a kind's processes that end
        take their seconds with them: sample while they live)."""
        spent: dict[str, float] = {}
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            read = cpu_seconds(int(entry.name))
            if read is None:
                continue
            name, seconds = read
            kind = self.named.get(int(entry.name)) or BY_NAME.get(name)
            if kind is not None:
                spent[kind] = spent.get(kind, 0.0) + seconds
        return spent

    def seconds_between(self, start: float, end: float) -> dict[str, float]:
        """Each kind's CPU seconds between two instants (time.monotonic()), from the samples nearest them."""
        times = [at for at, _ in self.samples]
        first = self.samples[min(bisect.bisect_left(times, start), len(times) - 1)][1]
        last = self.samples[max(bisect.bisect_right(times, end) - 1, 0)][1]
        return {kind: round(last[kind] - first.get(kind, 0.0), 1) for kind in last}
