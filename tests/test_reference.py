"""The fast engine agrees with the literal reference implementation on every step of 1,000 random games (``make
reference``; ``make test`` plays samples of them)."""

from __future__ import annotations

import os
import random

import pytest

from cafe import BoardGame, IllegalStepError, Nation, Step, Tile
from cafe.steps import PASS, STOP

import reference
from conftest import DUO_BOARD

pytestmark = pytest.mark.reference  # run apart, without coverage tracing (see the Makefile)

GAMES = int(os.environ.get("CAFE_REFERENCE_GAMES", 1000))  # make test: samples (the Makefile); make reference: all
CHUNKS = 40
RULE_MIX = [
    {},
    {"preset": "original-1989"},
    {"preset": "brettspielwelt"},
    {"regulars": True},
    {"regulars": True, "joker_to_bar": "when-unplaceable", "joker_exchange": "either-nation"},
    {"surprise_guests": True, "bar_values": "straight"},
    {"preset": "brettspielwelt", "regulars": True},
]


def game_for(number: int) -> BoardGame:
    rules = RULE_MIX[number % len(RULE_MIX)]
    board = DUO_BOARD if number % 25 == 24 else "classic"
    return BoardGame(2 + number % 3, seed=number, rules=rules, board=board)


def check_agrees_with_generation(game: BoardGame, rng: random.Random) -> None:
    """``check`` accepts every generated step and refuses sampled others with a rule id."""
    generated = set(game.legal_steps())
    for step in rng.sample(sorted(generated, key=str), min(len(generated), 8)):
        game.check(step)
    hand = sorted(set(game.hand(game.current_player)))
    chairs = game.board.chair_ids
    for _ in range(6):
        tile = rng.choice(hand) if hand else Tile.USAm
        nation = rng.choice(list(Nation)) if tile.is_joker else None
        for step in (
            Step.seat(tile, rng.choice(chairs), nation),
            Step.bar(tile),
            Step.exchange(tile, rng.choice(chairs)),
        ):
            if step not in generated:
                with pytest.raises(IllegalStepError) as info:
                    game.check(step)
                assert info.value.rule.startswith("R")
    for word in (PASS, STOP):
        assert game.is_legal(word) == (word in generated)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_agrees_with_the_reference(chunk: int) -> None:
    per_chunk = GAMES // CHUNKS
    for number in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        game = game_for(number)
        rng = random.Random(number)
        while not game.is_over():
            engine = {str(s) for s in game.legal_steps()}
            expected = reference.legal_steps(game)
            assert engine == expected, (
                f"game {number}, turn {game.turn_number + 1}, after {game.view().this_turn}: "
                f"engine only {sorted(engine - expected)}, reference only {sorted(expected - engine)}"
            )
            check_agrees_with_generation(game, rng)
            game.push(rng.choice(game.legal_steps()))
        assert reference.legal_steps(game) == set()
