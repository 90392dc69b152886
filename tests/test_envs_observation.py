"""The observation vectors: their size, what they hold, and that they hold nothing hidden."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cafe import BoardGame
from cafe.card_game import CardGame
from cafe.envs.actions import actions_of
from cafe.envs.numeric import Observer, fill_observation
from cafe.envs.observation import encode, observation_size
from cafe.features import BOARD_CHAIR


def test_sizes_follow_the_documented_layout() -> None:
    assert observation_size(BoardGame(2, seed=0).view(0)) == 68 * 39 + 3 + 4 * 32 + 1
    assert observation_size(CardGame(2, seed=0).view(0)) == 12 * 24 + 5 * 12 + 2 + 5 * 30 + 1


def test_a_seated_guest_and_the_observers_hand_are_where_the_layout_says() -> None:
    game = BoardGame(2, seed=1)
    hand = game.hand(0)
    first = next(s for s in game.legal_steps() if s.kind.value == "seat")
    game.push(first)
    vector = encode(game.view(0))
    chair = game.board.chair_index[str(first.place)]
    assert first.tile is not None and vector[chair * BOARD_CHAIR + int(first.tile)] == 1.0
    seats_at = 68 * BOARD_CHAIR + 3
    assert sum(vector[seats_at + 4 : seats_at + 30]) == len(hand) - 1
    assert vector[-1] == 0.25  # one step of the turn taken


def test_a_hidden_hand_shows_only_its_size() -> None:
    rng = random.Random(2)
    game = CardGame(3, seed=5)
    while game.turn_number < 3:
        game.push(game.random_step(rng))
    view = game.view(0)
    assert view.hands[1] is None
    vector = encode(view)
    seat_block = 12 * 24 + 5 * 12 + 2 + 30  # the second block: the next player
    assert vector[seat_block + 1] == game.state.hand_n[1] / 12
    assert vector[seat_block + 3] == 0.0  # not visible
    assert vector[seat_block + 4 : seat_block + 28] == [0.0] * 24
    own = encode(game.view(1))  # the same seat seen by itself
    assert sum(own[12 * 24 + 5 * 12 + 2 + 4 : 12 * 24 + 5 * 12 + 2 + 28]) == game.state.hand_n[1]


@pytest.mark.parametrize(
    ("edition", "rules"),
    [("board", "printed"), ("board", {"surprise_guests": True, "regulars": True}), ("cards", "printed")],
)
def test_the_observer_fills_exactly_the_views_encoding_for_every_seat(edition: str, rules: object) -> None:
    """The numpy fill from the game's state equals encode(view) at every position of random games, for every
    seat and a spectator: it shows nothing the view hides (surprise guests hide the others' hands)."""
    rng = random.Random(7)
    positions = 0
    for seed in range(6):
        game = BoardGame(4, seed=seed, rules=rules) if edition == "board" else CardGame(4, seed=seed, rules=rules)
        observer = Observer(game, actions_of(game))
        while True:
            for seat in (*range(4), None):
                out = np.zeros(observer.size, np.float32)
                fill_observation(game, seat, out)
                assert out.tolist() == np.asarray(encode(game.view(seat)), np.float32).tolist()
            got = observer.observe(game, game.current_player)
            assert np.flatnonzero(got["action_mask"]).tolist() == actions_of(game).legal(game)
            positions += 1
            if game.is_over():
                break
            game.push(game.random_step(rng))
    assert positions > 300
