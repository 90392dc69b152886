"""The single-agent Gymnasium environment: Gymnasium's own checker, whole games, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cafe.envs.gymnasium import CafeEnv


@pytest.mark.parametrize(("edition", "opponents"), [("board", ("greedy",)), ("cards", ("random", "easy"))])
def test_gymnasiums_checker_passes(edition: str, opponents: tuple[str, ...]) -> None:
    check_env(CafeEnv(edition=edition, opponents=opponents), skip_render_check=True)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_whole_game_rewards_add_up_to_the_agents_final_score(seat: int) -> None:
    env = CafeEnv(edition="board", opponents=("greedy",), seat=seat)
    observation, info = env.reset(seed=2)
    total, done = 0.0, False
    rng = np.random.default_rng(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, _, info = env.step(action)
        total += reward
    assert env.game.is_over()
    assert total == env.game.scores[seat]
    assert info["legal"] == [] and observation["action_mask"].sum() == 0


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    env = CafeEnv(edition="cards", opponents=("greedy",))
    observation, _ = env.reset(seed=1)
    before = env.game.state.key()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, truncated, info = env.step(illegal)
    assert reward == -1.0 and not done and not truncated
    assert info["illegal"].startswith("R")
    assert env.game.state.key() == before


def test_a_seat_outside_the_game_is_refused() -> None:
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        CafeEnv(opponents=("greedy",), seat=2)
