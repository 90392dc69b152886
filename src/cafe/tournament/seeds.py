"""Numbers drawn from a tournament's seed: each round's deal and each entry's lot, reproducibly and independently.

Each number is a hash of the seed and what it is for, so replaying a tournament from its JSON state draws the same
deals and lots, and learning one deal's seed tells nothing of another's (the seed itself stays secret: the bags'
order follows from it).
"""

from __future__ import annotations

import hashlib


def _drawn(seed: int, *parts: object) -> int:
    text = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2  # below 2**62, as a room's seed


def deal_seed(seed: int, round_number: int, game: int = 1) -> int:
    """The seed of the deal every table plays in game ``game`` (1 in Swiss and round robin) of round
    ``round_number``."""
    return _drawn(seed, "deal", round_number, game)


def lot(seed: int, entry: str, round_number: int = 0) -> int:
    """An entry's lot: its last tie-break in the standings (round 0), or for the seat order at a table."""
    return _drawn(seed, "lot", round_number, entry)
