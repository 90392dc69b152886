"""What ``cafe train`` plays, in all its forms: the kinds of game, their seeds, and the chunks a worker plays,
every fifth game of a kind held out of the fit to measure it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

R = TypeVar("R")
Chunk = tuple[str, int, list[int], bool]  # edition, players, seeds, held out

SETS = (("board", 2), ("board", 4), ("cards", 2))  # what is played: edition and players
HELD_OUT = 5  # every fifth game (the first of five) is kept out of the fit to measure it


def chunks(games: int, seed: int, size: int) -> Iterator[Chunk]:
    """Each chunk's edition, players, seeds (at most ``size``), and whether it is held out; game *g* of kind *k*
    is played on the bag of seed ``seed + k * games + g``."""
    for k, (edition, players) in enumerate(SETS):
        seeds = [seed + k * games + g for g in range(games)]
        for kept_out in (False, True):
            part = [s for g, s in enumerate(seeds) if (g % HELD_OUT == 0) == kept_out]
            for i in range(0, len(part), size):
                yield edition, players, part[i : i + size], kept_out


def play_chunks(
    function: Callable[..., R], parts: list[Chunk], settings: tuple[Any, ...], jobs: int | None
) -> list[tuple[Chunk, R]]:
    """``function(edition, players, seeds, *settings)`` for every chunk over ``jobs`` processes, with a bar of the
    games played; each chunk with its result, in the order of ``parts`` whichever finished first: a fit depends on
    the order of its rows, and the same settings must give the same model."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cafe.i18n import _
    from cafe.parallel import in_call_order

    calls = [(edition, players, seeds, *settings) for edition, players, seeds, _kept_out in parts]
    columns = (TextColumn(_("games")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task("games", total=sum(len(seeds) for _e, _p, seeds, _k in parts))
        results = in_call_order(function, calls, jobs, lambda i: progress.advance(bar, len(parts[i][2])))
    return list(zip(parts, results, strict=True))
