"""Swiss pairing: the field split into tables of 2 to 4 by standing, avoiding repeat table-mates where it can.

The tables' sizes come first (:func:`table_sizes`); then a depth-first search seats the entries in standing order,
trying at each table the next entries who have not met those already there before those who have, and keeps the
seating with the fewest repeat meetings, the first found (the closest to the standings) among equals.  The search
is exhaustive for small fields and stops after a fixed number of steps for large ones, keeping the best so far.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

SEARCH_STEPS = 50_000  # placements tried before the search keeps what it has (a count, the same on any machine)


def table_sizes(entries: int, size: int) -> list[int]:
    """The sizes of a round's tables, largest first: ``ceil(entries / size)`` tables as even as can be, so a field
    that does not divide sits its leftovers at tables of ``size - 1``; never a table of one (two entries per table
    at least: an odd field at tables of 2 has one table of 3).  Five entries at tables of 4 sit 3 + 2."""
    tables = max(1, min(math.ceil(entries / size), entries // 2))
    base, bigger = divmod(entries, tables)
    return [base + 1] * bigger + [base] * (tables - bigger)


def meetings(tables: Sequence[Sequence[str]]) -> Counter[frozenset[str]]:
    """How often each pair of entries has sat at one table."""
    met: Counter[frozenset[str]] = Counter()
    for table in tables:
        for i, one in enumerate(table):
            for other in table[i + 1 :]:
                met[frozenset((one, other))] += 1
    return met


def repeats(tables: Sequence[Sequence[str]], met: Counter[frozenset[str]]) -> int:
    """The repeat meetings a seating makes: over its pairs at one table, how often each had met before."""
    return sum(
        met[frozenset((one, other))] for table in tables for i, one in enumerate(table) for other in table[i + 1 :]
    )


def swiss_tables(order: Sequence[str], size: int, met: Counter[frozenset[str]]) -> list[list[str]]:
    """The tables of a Swiss round for ``order`` (the active entries, best standing first), each listed in standing
    order, the table of the best standing first."""
    search = _Search(list(order), met)
    search.run(sorted(table_sizes(len(order), size), reverse=True))
    assert search.best is not None
    return [[order[i] for i in table] for table in search.best]


class _Search:
    """Branch and bound over the seatings of a field into tables of given sizes: each table is opened by the best
    placed entry not yet seated (so every seating is met once), its size any of those left."""

    def __init__(self, order: list[str], met: Counter[frozenset[str]]) -> None:
        n = len(order)
        self.cost = [[met[frozenset((order[i], order[j]))] for j in range(n)] for i in range(n)]
        self.free = [True] * n
        self.tables: list[list[int]] = []
        self.best: list[list[int]] | None = None
        self.best_cost = math.inf
        self.steps = 0

    def run(self, sizes: list[int]) -> None:
        self._open(sizes, 0)

    def _done(self) -> bool:
        return self.best_cost == 0 or (self.best is not None and self.steps >= SEARCH_STEPS)

    def _open(self, sizes: list[int], cost: int) -> None:
        """Start the next table (or keep the seating, if everyone is seated)."""
        if not sizes:
            if cost < self.best_cost:
                self.best, self.best_cost = [list(t) for t in self.tables], cost
            return
        first = self.free.index(True)
        self.free[first] = False
        for size in sorted(set(sizes), reverse=True):
            rest = list(sizes)
            rest.remove(size)
            self.tables.append([first])
            self._fill(rest, size, first, cost)
            self.tables.pop()
            if self._done():
                break
        self.free[first] = True

    def _fill(self, sizes: list[int], size: int, last: int, cost: int) -> None:
        """Add the next member to the open table: after ``last`` in standing order, new table-mates first."""
        table = self.tables[-1]
        if len(table) == size:
            self._open(sizes, cost)
            return
        need = size - len(table)
        candidates = [i for i in range(last + 1, len(self.free)) if self.free[i]]
        added = {i: sum(self.cost[i][j] for j in table) for i in candidates}
        for i in sorted(candidates[: len(candidates) - need + 1], key=lambda i: added[i]):
            if cost + added[i] >= self.best_cost:
                continue
            self.steps += 1
            self.free[i] = False
            table.append(i)
            self._fill(sizes, size, i, cost + added[i])
            table.pop()
            self.free[i] = True
            if self._done():
                return


def seat_order(table: Sequence[str], starts: Counter[str], lots: dict[str, int]) -> list[str]:
    """Who sits in which seat: seat 1 (which begins) to whoever has begun fewest games so far, and so on; equal
    counts by the round's lot."""
    return sorted(table, key=lambda entry: (starts[entry], lots[entry]))
