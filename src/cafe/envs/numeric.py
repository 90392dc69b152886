"""What the framework adapters hand out: the observation space, and one seat's observation and action mask filled
with numpy straight from the game, in arrays the caller may preallocate.

:func:`cafe.envs.observation.encode` defines the vector from a view (what a seat may see); :class:`Observer` fills
the same numbers from the game's state without building the view, reading only the hands that
``game.hands_shown(seat)`` allows.  The tests hold the two equal at thousands of positions of both editions.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.envs.actions import ActionSpace
from cafe.envs.observation import HIGH, LOW, observation_size
from cafe.features import Numbers, write_board, write_cards


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
            marks = mask.data  # a dozen items written one by one cost less than numpy's fancy indexing
            for action in self.actions.numbers(game.legal_steps()):
                marks[action] = 1


def fill_observation(game: BoardGame | CardGame, seat: int | None, out: np.ndarray) -> None:
    """Write what ``seat`` sees (None: a spectator) into a zeroed float32 vector: ``encode(game.view(seat))``,
    faster."""
    numbers = cast(Numbers, out.data)  # the array's memoryview, which takes floats (typeshed knows bytes only)
    if isinstance(game, BoardGame):
        write_board(game, seat, numbers)
    else:
        write_cards(game, seat, numbers)
