"""Café International as a PettingZoo AEC environment (``pip install cafe-international[rl]``).

>>> from cafe.envs.pettingzoo import env
>>> e = env(edition="board", players=2, seed=1)
>>> e.reset(seed=1)
>>> agent = e.agent_selection
>>> observation = e.observe(agent)
>>> int(observation["action_mask"].sum()) > 0
True

Agents are ``player_0`` ... in seat order.  Actions are the numbers of
:mod:`cafe.envs.actions`; observations are dictionaries of ``observation``
(the vector of :mod:`cafe.envs.observation`, from that agent's view only) and
``action_mask`` (1 for the legal actions of the agent to move, all 0 for the
others).  A step's reward to each agent is the change of its score: the
points of the step for its player, and the end penalties when the game ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.envs.actions import ActionSpace, actions_of
from cafe.envs.numeric import Observer, observation_space
from cafe.text import view_text


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order-of-calls wrapper (the environment checks an action's bounds
    itself, which is cheaper than PettingZoo's wrapper for it)."""
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-of-calls wrapper, asking the environment directly where PettingZoo's goes through the
    wrapper's attribute forwarding (``last`` reads five answers so, which cost a tenth of a step)."""

    @property
    def agents(self) -> list[str]:  # read at every step of agent_iter
        agents: list[str] = self._after_reset("agents").agents
        return agents

    @property
    def agent_selection(self) -> str:
        agent: str = self._after_reset("agent_selection").agent_selection
        return agent

    def _after_reset(self, name: str) -> AECEnv:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")  # PettingZoo's words
        return self.env

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        answer: tuple[Any, float, bool, bool, dict[str, Any]] = self._after_reset("agent_selection").last(observe)
        return answer

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # PettingZoo's error before reset, or its warning after the end


class raw_env(AECEnv):  # PettingZoo's naming convention
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "cafe_international_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str = "board",
        players: int = 4,
        rules: Any = "printed",
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.edition, self.players, self.rules, self.render_mode = edition, players, rules, render_mode
        self._seed = seed
        self.game = self._new_game(seed or 0)
        self.space: ActionSpace = actions_of(self.game)
        self.observer = Observer(self.game, self.space)
        self.action_count = self.space.n
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.action_spaces = {a: spaces.Discrete(self.space.n) for a in self.possible_agents}
        self.observation_spaces = {a: observation_space(self.game, self.space) for a in self.possible_agents}

    def _new_game(self, seed: int) -> BoardGame | CardGame:
        if self.edition == "board":
            return BoardGame(self.players, rules=self.rules, seed=seed)
        return CardGame(self.players, rules=self.rules, seed=seed)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
        elif self._seed is None:
            self._seed = int(np.random.default_rng().integers(1 << 31))
        else:
            self._seed += 1  # a fresh deal on every reset without a seed
        self.game = self._new_game(self._seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.observer.observe(self.game, self.possible_agents.index(agent))

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not 0 <= action < self.action_count:
            raise ValueError(f"action {action} is outside the action space (0 to {self.action_count - 1})")
        game = self.game
        before = game.scores
        game.push(self.space.steps[int(action)])  # an illegal action raises, naming the rule it breaks
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        rewards: dict[str, float] = {}
        for name, score, earlier in zip(self.possible_agents, game.scores, before, strict=True):
            rewards[name] = float(score - earlier)
            cumulative[name] += rewards[name]
        self.rewards = rewards
        if game.is_over():
            self.terminations = {a: True for a in self.agents}
            places = game.places() or ()
            self.infos = {a: {"place": places[i]} for i, a in enumerate(self.possible_agents)}
            self.agent_selection = self._next_finished_agent(agent)
        else:
            self.agent_selection = self.possible_agents[game.current_player]

    def _next_finished_agent(self, agent: str) -> str:
        """After the end every agent is stepped once with None (PettingZoo's convention); start with the next."""
        order = self.possible_agents
        return order[(order.index(agent) + 1) % len(order)]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return view_text(self.game.view(None))
        return None

    def close(self) -> None:
        pass
