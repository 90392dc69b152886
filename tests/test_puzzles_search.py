"""A sample of the shipped puzzles, confirmed again by the search at four times the budget that confirmed them and with
a seed of its own: the accepted answer is still the best whole turn (all of them: bench/puzzles.py)."""

from __future__ import annotations

import random

import pytest

from cafe.learn.puzzles import EDITIONS, confirmed, shipped

pytestmark = pytest.mark.puzzles

SAMPLE = 6  # per edition


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sample_of_the_shipped_answers_is_the_best_turn_at_a_larger_budget(edition: str) -> None:
    puzzles = random.Random(2).sample(shipped(edition), SAMPLE)
    for puzzle in puzzles:
        agrees, ranked = confirmed(puzzle, 4 * puzzle.confirm_budget, seed=3)
        assert agrees, (puzzle.id, puzzle.answers, ranked[:3])
