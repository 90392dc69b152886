"""What ``cafe train`` plays (cafe.train.chunks): each kind's deals, every fifth held out, and the chunks' results
in the order of their deals whichever worker finished first (cafe.parallel.in_call_order)."""

from __future__ import annotations

import time

from cafe.parallel import in_call_order
from cafe.train.chunks import HELD_OUT, SETS, chunks, play_chunks


def test_every_kind_plays_its_own_deals_and_every_fifth_is_held_out() -> None:
    games, seed = 12, 100
    parts = list(chunks(games, seed, size=5))
    for k, (edition, players) in enumerate(SETS):
        mine = [(seeds, kept_out) for e, n, seeds, kept_out in parts if (e, n) == (edition, players)]
        dealt = sorted(s for seeds, _ in mine for s in seeds)
        assert dealt == list(range(seed + k * games, seed + (k + 1) * games))
        held = sorted(s for seeds, kept_out in mine if kept_out for s in seeds)
        assert held == [seed + k * games + g for g in range(0, games, HELD_OUT)]
        assert all(len(seeds) <= 5 for seeds, _ in mine)


def the_first_last(edition: str, players: int, seeds: list[int], last: int) -> tuple[str, int, list[int]]:
    """A chunk's work that takes longer the earlier its deals: the first chunks finish last."""
    time.sleep(0.01 * (last - seeds[0]))
    return edition, players, seeds


def test_each_chunk_comes_back_with_its_own_result_in_the_order_of_the_chunks() -> None:
    parts = list(chunks(10, 0, size=2))
    last = max(seeds[0] for _e, _p, seeds, _k in parts)
    played = play_chunks(the_first_last, parts, (last,), jobs=2)
    assert [part for part, _result in played] == parts
    assert all(result == part[:3] for part, result in played)


def test_results_come_in_the_order_of_the_calls_and_each_call_is_reported_as_it_finishes() -> None:
    calls = [("board", 2, [seed], 7) for seed in range(8)]
    reported: list[int] = []
    results = in_call_order(the_first_last, calls, 2, reported.append)
    assert results == [call[:3] for call in calls]
    assert sorted(reported) == list(range(len(calls)))
    assert in_call_order(the_first_last, calls, 1) == results  # in this process, the same
