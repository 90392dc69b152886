"""Several games of :class:`cafe.envs.gymnasium.CafeEnv` stepped together, as a Gymnasium vector environment.

>>> from cafe.envs.vector import CafeVectorEnv
>>> envs = CafeVectorEnv(3, edition="cards", opponents=("random",))
>>> observations, infos = envs.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((3, 501), (3, 315))
>>> import numpy as np
>>> actions = [int(np.flatnonzero(mask)[0]) for mask in observations["action_mask"]]
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape
(3,)

All copies run in this process and write their observations and masks straight into one preallocated batch,
handed out as one copy per step; each copy takes the arguments of ``CafeEnv``.  A finished game starts afresh on
the next ``step``, which ignores that copy's action (Gymnasium's next-step autoreset).  ``infos["illegal"]`` says
why a copy's action was refused, where one was (the copy is unchanged and earns ``illegal_reward``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cafe.envs.gymnasium import CafeEnv


class CafeVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium's convention

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.num_envs = num_envs
        self.envs = [CafeEnv(**kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._observations = np.zeros((num_envs, first.observer.size), np.float32)
        self._masks = np.zeros((num_envs, first.space.n), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._restart = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else seed or [None] * self.num_envs
        if len(seeds) != self.num_envs:
            raise ValueError(f"give one seed per copy ({self.num_envs}), not {len(seeds)}")
        for i, (env, one) in enumerate(zip(self.envs, seeds, strict=True)):
            env.reset(seed=one)
            self._fill(i)
        self._restart[:] = False
        return self._batch(), {}

    def step(
        self, actions: Sequence[int] | np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        illegal: dict[int, str] = {}
        for i, env in enumerate(self.envs):
            if self._restart[i]:
                env.reset()
                self._rewards[i], self._terminations[i] = 0.0, False
            else:
                self._rewards[i], refused = env.play(int(actions[i]))
                self._terminations[i] = env.game.is_over()
                if refused is not None:
                    illegal[i] = refused
            self._fill(i)
        self._restart[:] = self._terminations
        infos: dict[str, Any] = {}
        if illegal:
            infos["illegal"] = np.array([illegal.get(i, "") for i in range(self.num_envs)], dtype=object)
            infos["_illegal"] = np.array([i in illegal for i in range(self.num_envs)])
        truncations = np.zeros(self.num_envs, np.bool_)
        return self._batch(), self._rewards.copy(), self._terminations.copy(), truncations, infos

    def _fill(self, i: int) -> None:
        env = self.envs[i]
        self._observations[i] = 0.0
        self._masks[i] = 0
        env.observer.fill(env.game, env.seat, self._observations[i], self._masks[i])

    def _batch(self) -> dict[str, np.ndarray]:
        """The batch as the caller keeps it: a copy, since the next step writes into the same arrays."""
        return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}
