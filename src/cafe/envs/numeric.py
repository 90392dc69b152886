"""What the framework adapters hand out: the observation space, and one seat's observation and action mask filled
with numpy straight from the game, in arrays the caller may preallocate.

:func:`cafe.envs.observation.encode` defines the vector from a view (what a seat may see); :class:`Observer` fills
the same numbers from the game's state without building the view, reading only the hands that
``game.hands_shown(seat)`` allows.  The tests hold the two equal at thousands of positions of both editions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from cafe.board_game import BoardGame
from cafe.board_state import CLOSED
from cafe.card_game import CardGame
from cafe.envs.actions import ActionSpace
from cafe.envs.observation import (
    BOARD_CHAIR,
    CARD_TYPES,
    HIGH,
    LOW,
    NATIONS,
    TILE_TYPES,
    board_tail,
    card_tail,
    observation_size,
)


def observation_space(game: BoardGame | CardGame, actions: ActionSpace) -> spaces.Dict:
    """``observation`` (the vector of cafe.envs.observation) and ``action_mask`` (one entry per action)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(LOW, HIGH, (observation_size(game.view(0)),), np.float32),
            "action_mask": spaces.Box(0, 1, (actions.n,), np.int8),
        }
    )


class Observer:
    """Observations and masks of one edition on one board, as numpy arrays."""

    def __init__(self, game: BoardGame | CardGame, actions: ActionSpace) -> None:
        self.actions = actions
        self.size = observation_size(game.view(0))

    def observe(self, game: BoardGame | CardGame, seat: int) -> dict[str, Any]:
        """``seat``'s observation in fresh arrays; its mask marks the legal actions when it is to move."""
        observation = np.zeros(self.size, np.float32)
        mask = np.zeros(self.actions.n, np.int8)
        self.fill(game, seat, observation, mask)
        return {"observation": observation, "action_mask": mask}

    def fill(self, game: BoardGame | CardGame, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """Write ``seat``'s observation and mask into zeroed arrays of the right shapes."""
        fill_observation(game, seat, observation)
        if not game.is_over() and seat == game.current_player:
            mask[self.actions.numbers(game.legal_steps())] = 1


def fill_observation(game: BoardGame | CardGame, seat: int | None, out: np.ndarray) -> None:
    """Write what ``seat`` sees (None: a spectator) into a zeroed vector: ``encode(game.view(seat))``, faster."""
    if isinstance(game, BoardGame):
        _fill_board(game, seat, out)
    else:
        _fill_cards(game, seat, out)


def _fill_board(game: BoardGame, seat: int | None, out: np.ndarray) -> None:
    s = game.state
    # the ones of the chairs' block, then everything after it, each written with one numpy call (a numpy call costs
    # about a microsecond, a step of a list comprehension a few dozen nanoseconds)
    ones = [c * BOARD_CHAIR + t for c, t in enumerate(s.occ) if t >= 0]
    ones += [c * BOARD_CHAIR + TILE_TYPES + 1 + s.nat[c] for c in s.jokers]
    if game.rules.regulars:
        ones += [c * BOARD_CHAIR + TILE_TYPES for c, t in enumerate(s.occ) if t == CLOSED]
    out[ones] = 1.0
    out[len(s.occ) * BOARD_CHAIR :] = board_tail(game, seat)


def _fill_cards(game: CardGame, seat: int | None, out: np.ndarray) -> None:
    s = game.state
    at = len(s.occ) * CARD_TYPES
    ones = [p * CARD_TYPES + card for p, card in enumerate(s.occ) if card >= 0]
    ones += [at + slot * NATIONS + n for slot, n in enumerate(s.slot_nat)]
    out[ones] = 1.0
    at += len(s.slot_nat) * NATIONS
    out[at:] = card_tail(game, seat)
