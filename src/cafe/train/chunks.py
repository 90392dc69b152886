"""What ``cafe train`` plays, in both its forms: the kinds of game, their seeds, and the chunks a worker plays,
every fifth game of a kind held out of the fit to measure it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

R = TypeVar("R")

SETS = (("board", 2), ("board", 4), ("cards", 2))  # what is played: edition and players
HELD_OUT = 5  # every fifth game (the first of five) is kept out of the fit to measure it


def chunks(games: int, seed: int, size: int) -> Iterator[tuple[str, int, list[int], bool]]:
    """Each chunk's edition, players, seeds (at most ``size``), and whether it is held out; game *g* of kind *k*
    is played on the bag of seed ``seed + k * games + g``."""
    for k, (edition, players) in enumerate(SETS):
        seeds = [seed + k * games + g for g in range(games)]
        for kept_out in (False, True):
            part = [s for g, s in enumerate(seeds) if (g % HELD_OUT == 0) == kept_out]
            for i in range(0, len(part), size):
                yield edition, players, part[i : i + size], kept_out


def in_seed_order(results_by_seed: dict[int, R]) -> list[R]:
    """The chunks' results in the order of their first seeds, whichever worker finished first: a fit depends on
    the order of its rows, and the same settings must give the same model."""
    return [results_by_seed[seed] for seed in sorted(results_by_seed)]
