"""The PettingZoo environment: PettingZoo's own API and seed tests, and whole games played through it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cafe.envs.pettingzoo import env

CASES = [("board", 2), ("board", 4), ("cards", 2), ("cards", 4)]


@pytest.mark.parametrize(("edition", "players"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(edition: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dict observations with an action mask, as in classic games
        api_test(env(edition=edition, players=players, seed=1), num_cycles=300)
        seed_test(lambda: env(edition=edition, players=players), num_cycles=100)


@pytest.mark.parametrize(("edition", "players"), CASES)
def test_whole_games_rewards_add_up_to_the_final_scores(edition: str, players: int) -> None:
    e = env(edition=edition, players=players)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))
    game = e.unwrapped.game
    assert game.is_over()
    assert [totals[a] for a in e.possible_agents] == list(map(float, game.scores))


def test_an_illegal_action_is_refused_with_its_rule() -> None:
    e = env(edition="board", players=2)
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=r"R\d"):
        e.step(illegal)
    for outside in (-1, len(mask)):
        with pytest.raises(ValueError, match="outside the action space"):
            e.step(outside)


def test_last_before_reset_is_refused_as_pettingzoo_refuses_it() -> None:
    e = env(edition="cards", players=3)
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    with pytest.raises(AttributeError, match="agents cannot be accessed before reset"):
        e.agents  # noqa: B018
    e.reset(seed=2)
    observation, reward, termination, truncation, info = e.last()
    assert info == {}
    assert observation["action_mask"].sum() > 0 and reward == 0.0 and not termination and not truncation
