"""What both framework adapters hand out: the observation space and one seat's observation as arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.envs.actions import ActionSpace
from cafe.envs.observation import HIGH, LOW, encode, observation_size


def observation_space(game: BoardGame | CardGame, actions: ActionSpace) -> spaces.Dict:
    """``observation`` (the vector of cafe.envs.observation) and ``action_mask`` (one entry per action)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(LOW, HIGH, (observation_size(game.view(0)),), np.float32),
            "action_mask": spaces.Box(0, 1, (actions.n,), np.int8),
        }
    )


def observe(game: BoardGame | CardGame, actions: ActionSpace, seat: int) -> dict[str, Any]:
    """``seat``'s observation; its mask marks the legal actions when it is to move, else nothing."""
    mask = np.zeros(actions.n, np.int8)
    if not game.is_over() and seat == game.current_player:
        mask[:] = actions.mask(game)
    return {"observation": np.asarray(encode(game.view(seat)), np.float32), "action_mask": mask}
