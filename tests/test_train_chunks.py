"""What ``cafe train`` plays (cafe.train.chunks): each kind's deals, every fifth held out, and the chunks' results
put back in the order of their deals whichever worker finished first."""

from __future__ import annotations

from cafe.train.chunks import HELD_OUT, SETS, chunks, in_seed_order


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


def test_results_come_back_in_the_order_of_their_deals_whatever_order_they_finished_in() -> None:
    parts = [seeds for e, _, seeds, kept_out in chunks(20, 0, size=5) if e == "board" and not kept_out]
    assert len(parts) > 2
    finished = {seeds[0]: seeds for seeds in reversed(parts)}  # the last chunk finished first
    assert in_seed_order(finished) == parts
