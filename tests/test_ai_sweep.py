"""Every bot, at thousands of positions of every variant, answers with a legal step (a slow check)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from cafe.ai.levels import make_player
from test_ai import VARIANTS, positions

pytestmark = pytest.mark.sweep

POSITIONS = 500  # per variant: 2,500 positions for each bot (every other one for the search)


BOTS = [("random", 1), ("greedy", 1), ("easy", 1), ("mcts:8", 2), ("learned:8", 2)]  # the searches: every other one


@pytest.mark.parametrize(("edition", "rules"), VARIANTS)
@pytest.mark.parametrize(("spec", "every"), BOTS)
def test_every_bot_answers_legally_everywhere(edition: str, rules: Any, spec: str, every: int) -> None:
    bots: dict[int, Any] = {}
    rng = random.Random(5)
    asked = 0
    for game in itertools.islice(positions(edition, rules, games=40, seed=11), 0, POSITIONS * every, every):
        seat = game.current_player
        bot = bots.setdefault(id(game) * 10 + seat, make_player(spec, seed=rng.randrange(1000)))
        legal = game.legal_steps()
        step = bot.choose(game.view(seat), legal)
        assert step in legal, f"{spec} chose {step} at turn {game.turn_number}"
        asked += 1
    assert asked == POSITIONS
