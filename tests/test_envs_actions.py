"""The fixed action numbering: every step has one number, and the mask marks exactly the legal steps."""

from __future__ import annotations

import random

import pytest

from cafe import BoardGame
from cafe.card_game import CardGame
from cafe.envs.actions import actions_of, board_actions, card_actions
from cafe.errors import NotationError
from cafe.layout import load_board, load_card_board
from cafe.steps import parse_step


def test_sizes_are_as_documented() -> None:
    assert board_actions(load_board("classic")).n == 24 * 68 + 2 * 68 * 2 + 26 + 24 * 68 + 2 == 3564
    assert card_actions(load_card_board("cards-x")).n == 24 * 12 + 1 + 24 + 2 == 315


@pytest.mark.parametrize(
    "game",
    [
        BoardGame(4, seed=1, rules={"preset": "brettspielwelt", "regulars": True}),
        BoardGame(2, seed=2, rules={"surprise_guests": True}),
        CardGame(3, seed=3, rules={"tribe_and_circle": True}),
    ],
    ids=["board-regulars", "board-surprise", "cards-tribes"],
)
def test_every_legal_step_has_a_number_and_the_mask_marks_exactly_them(game: BoardGame | CardGame) -> None:
    space = actions_of(game)
    assert len(set(space.steps)) == space.n  # no step twice
    rng = random.Random(0)
    while not game.is_over():
        legal = game.legal_steps()
        mask = space.mask(game)
        assert sum(mask) == len(legal)
        assert {space.steps[i] for i, m in enumerate(mask) if m} == set(legal)
        game.push(rng.choice(legal))


def test_an_unknown_step_is_refused() -> None:
    space = actions_of(BoardGame(2, seed=0))
    assert space.steps[space.index(parse_step("USAm@h3"))] == parse_step("USAm@h3")
    with pytest.raises(NotationError, match="not a step of this game's action space"):
        space.index(parse_step("draw"))
