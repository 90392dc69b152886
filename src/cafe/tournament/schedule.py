"""The round robin's schedule, fixed when the tournament starts: every pair of entries meets exactly once.

Round robin is played at tables of two (the circle method: ``n - 1`` rounds for an even field, ``n`` for an odd one,
in each of which one entry sits out), or with the whole field of three or four at one table.  Tables of three or
four within a larger field are not offered: such a schedule cannot in general meet every pair the same number of
times, so it would not be a round robin (Swiss does that job).
"""

from __future__ import annotations

from collections.abc import Sequence


def round_robin(order: Sequence[str], size: int) -> list[list[list[str]]]:
    """Each round's tables (entry ids), for ``order`` (the entries in the order of their lots)."""
    if size == len(order):
        return [[list(order)]]
    circle: list[str | None] = list(order) + ([None] if len(order) % 2 else [])
    n = len(circle)
    rounds = []
    for _ in range(n - 1):
        pairs = [(circle[i], circle[n - 1 - i]) for i in range(n // 2)]
        rounds.append([[one, other] for one, other in pairs if one is not None and other is not None])
        circle = [circle[0], circle[-1], *circle[1:-1]]  # the first stays; the others turn one place
    return rounds
