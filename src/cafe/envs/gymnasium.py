"""Café International as a single-agent Gymnasium environment: one seat against computer players.

>>> from cafe.envs.gymnasium import CafeEnv
>>> env = CafeEnv(edition="board", opponents=("greedy",), seat=0)
>>> observation, info = env.reset(seed=3)
>>> int(observation["action_mask"].sum()) == len(info["legal"])
True

The agent plays ``seat``; the other seats are bots named as in
:mod:`cafe.ai.levels` (``random``, ``greedy``, ``easy`` ... ``expert``), which
move between the agent's steps.  Actions and observations are those of
:mod:`cafe.envs.actions` and :mod:`cafe.envs.observation`.  The reward of a
step is the change of the agent's score from its step through the bots'
answers (end penalties included when the game ends).  An illegal action
changes nothing: it earns ``illegal_reward`` and ``info["illegal"]`` says why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cafe.ai.base import Player
from cafe.ai.levels import make_player
from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.envs.actions import actions_of
from cafe.envs.numeric import Observer, observation_space
from cafe.errors import IllegalStepError
from cafe.text import view_text


class CafeEnv(gym.Env[dict[str, Any], Any]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        edition: str = "board",
        opponents: Sequence[str] = ("greedy", "greedy", "greedy"),
        seat: int = 0,
        rules: Any = "printed",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.edition, self.rules, self.render_mode = edition, rules, render_mode
        self.opponent_specs = tuple(opponents)
        self.players = len(opponents) + 1
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat}")
        self.seat = seat
        self.illegal_reward = illegal_reward
        self.game = self._new_game(0)
        self.space = actions_of(self.game)
        self.observer = Observer(self.game, self.space)
        self.action_space = spaces.Discrete(self.space.n)
        self.observation_space = observation_space(self.game, self.space)
        self.bots: dict[int, Player] = {}

    def _new_game(self, seed: int) -> BoardGame | CardGame:
        if self.edition == "board":
            return BoardGame(self.players, rules=self.rules, seed=seed)
        return CardGame(self.players, rules=self.rules, seed=seed)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(1 << 31))
        self.game = self._new_game(deal)
        rng = random.Random(deal)
        others = [p for p in range(self.players) if p != self.seat]
        self.bots = {
            p: make_player(spec, rng.randrange(1 << 30)) for p, spec in zip(others, self.opponent_specs, strict=True)
        }
        self._let_bots_move()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        reward, illegal = self.play(action)
        info = self._info() if illegal is None else {**self._info(), "illegal": illegal}
        return self._observe(), reward, self.game.is_over(), False, info

    def play(self, action: int) -> tuple[float, str | None]:
        """The agent's action and the bots' answers: the reward, and why the action was refused (None if it was
        not, else nothing changed)."""
        before = self.game.scores[self.seat]
        try:
            self.game.push(self.space.steps[int(action)])
        except IllegalStepError as error:
            return self.illegal_reward, str(error)
        self._let_bots_move()
        return float(self.game.scores[self.seat] - before), None

    def _let_bots_move(self) -> None:
        game = self.game
        while not game.is_over() and game.current_player != self.seat:
            seat = game.current_player
            game.push(self.bots[seat].choose(game.view(seat), game.legal_steps()))

    def _observe(self) -> dict[str, Any]:
        return self.observer.observe(self.game, self.seat)  # between the agent's steps, the agent is to move

    def _info(self) -> dict[str, Any]:
        legal = [] if self.game.is_over() else [str(s) for s in self.game.legal_steps()]
        return {"legal": legal, "scores": list(self.game.scores), "turn": self.game.turn_number}

    def render(self) -> str | None:
        return view_text(self.game.view(self.seat)) if self.render_mode == "ansi" else None
