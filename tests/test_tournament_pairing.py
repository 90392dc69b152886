"""Swiss pairing: everyone active seated once a round, at tables of 2 to 4 as even as the field allows, and no
repeat table-mates whenever a seating without them exists (checked against every seating of small fields)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cafe.tournament.model import Entry, GameResult, Settings
from cafe.tournament.pairing import meetings, repeats, swiss_tables, table_sizes
from cafe.tournament.tournament import Tournament


def seatings(people: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every way to seat ``people`` at tables of these sizes (each seating once)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for more in seatings(others, left):
                yield [[first, *mates], *more]


@pytest.mark.parametrize(
    ("entries", "size", "sizes"),
    [(5, 4, [3, 2]), (6, 4, [3, 3]), (7, 4, [4, 3]), (9, 4, [3, 3, 3]), (13, 4, [4, 3, 3, 3]), (2, 4, [2]),
     (3, 2, [3]), (7, 2, [3, 2, 2]), (8, 2, [2, 2, 2, 2]), (4, 3, [2, 2]), (5, 3, [3, 2]), (10, 3, [3, 3, 2, 2])],
)  # fmt: skip
def test_the_table_sizes_of_a_field(entries: int, size: int, sizes: list[int]) -> None:
    assert table_sizes(entries, size) == sizes


@pytest.mark.parametrize("size", [2, 3, 4])
def test_leftovers_sit_at_tables_one_smaller_wherever_the_field_allows(size: int) -> None:
    for n in range(2, 80):
        sizes = table_sizes(n, size)
        assert sum(sizes) == n and min(sizes) >= 2 and max(sizes) - min(sizes) <= 1
        tables = math.ceil(n / size)
        if n >= size and n >= tables * (size - 1) and size > 2:
            assert set(sizes) <= {size - 1, size}, n
        elif size == 2:
            assert sizes.count(3) == n % 2 and set(sizes) <= {2, 3}


history = st.lists(st.lists(st.integers(0, 9), min_size=2, max_size=4), max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), st.sampled_from([2, 3, 4]), history, st.randoms(use_true_random=False))
def test_a_swiss_round_avoids_repeats_whenever_it_can(
    n: int, size: int, past: list[list[int]], rng: random.Random
) -> None:
    people = [f"p{i}" for i in range(n)]
    rng.shuffle(people)  # the standings
    met = meetings([[f"p{i}" for i in set(table) if i < n] for table in past])
    tables = swiss_tables(people, size, met)
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(people)
    assert sorted(map(len, tables), reverse=True) == table_sizes(n, size)
    assert all(2 <= len(table) <= 4 for table in tables)
    fewest = min(repeats(seating, met) for seating in seatings(people, table_sizes(n, size)))
    assert repeats(tables, met) == fewest  # no repeat when a seating without one exists, else the fewest
    for table in tables:  # each table in standing order, the best placed entry's table first
        assert table == sorted(table, key=people.index)
    assert [t[0] for t in tables] == sorted((t[0] for t in tables), key=people.index)


def test_without_history_the_tables_follow_the_standings() -> None:
    people = [f"p{i}" for i in range(11)]
    assert swiss_tables(people, 4, Counter()) == [people[:4], people[4:8], people[8:]]


def test_a_large_field_is_paired_within_the_search_s_budget() -> None:
    people = [f"p{i}" for i in range(120)]
    rng = random.Random(5)
    past = []
    for _ in range(6):
        rng.shuffle(people)
        tables = swiss_tables(people, 4, meetings(past))
        assert repeats(tables, meetings(past)) == 0
        past += tables


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 14), st.sampled_from([2, 3, 4]), st.integers(0, 2**32))
def test_every_active_entry_is_seated_once_a_round(n: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    t = Tournament(Settings(rounds=5, table_size=size, seed=seed), [Entry(f"e{i}", f"E{i}") for i in range(n)])
    while not t.is_over():
        active = {e.id for e in t.entries if e.withdrawn is None}
        round_ = t.pair()
        seated = [e for table in round_.tables for e in table.seats]
        assert sorted(seated) == sorted(active)
        assert all(2 <= len(table.seats) <= 4 for table in round_.tables)
        for number, table in enumerate(round_.tables, start=1):
            scores = [rng.randrange(5) for _ in table.seats]
            places = [1 + sum(o > s for o in scores) for s in scores]
            t.record(round_.number, number, GameResult.played(scores, places))
        if rng.random() < 0.3:
            t.withdraw(rng.choice(sorted(active)))
