"""The card-game engine agrees with the literal reference on every step of 1,000 random games (``make reference``;
``make test`` plays samples of them)."""

from __future__ import annotations

import os
import random

import pytest

import reference_cards
from cafe.card_game import CardGame

pytestmark = pytest.mark.reference

GAMES = int(os.environ.get("CAFE_REFERENCE_GAMES", 1000))  # make test: samples (the Makefile); make reference: all
CHUNKS = 20


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_card_engine_agrees_with_the_reference(chunk: int) -> None:
    per_chunk = GAMES // CHUNKS
    for number in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        game = CardGame(2 + number % 4, seed=number, rules={"tribe_and_circle": number % 2 == 1})
        rng = random.Random(number)
        while not game.is_over():
            engine = {str(s) for s in game.legal_steps()}
            expected = reference_cards.legal_steps(game)
            assert engine == expected, (
                f"game {number}, turn {game.turn_number + 1}, after {game.view().this_turn}: "
                f"engine only {sorted(engine - expected)}, reference only {sorted(expected - engine)}"
            )
            for step in game.legal_steps():
                game.check(step)
            game.push(rng.choice(game.legal_steps()))
