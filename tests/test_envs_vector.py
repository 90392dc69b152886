"""The vectorised Gymnasium environment: the same games as separate CafeEnvs, batched, with next-step autoreset."""

from __future__ import annotations

import numpy as np
import pytest

from cafe.envs.gymnasium import CafeEnv
from cafe.envs.vector import CafeVectorEnv


def _last_legal(masks: np.ndarray) -> list[int]:
    """An action per copy: its last legal one (0 for a finished game, whose action the next step ignores)."""
    return [int(np.flatnonzero(mask)[-1]) if mask.any() else 0 for mask in masks]


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_copies_play_the_games_of_single_environments_and_restart_when_one_ends(edition: str) -> None:
    envs = CafeVectorEnv(3, edition=edition, opponents=("greedy",))
    singles = [CafeEnv(edition=edition, opponents=("greedy",)) for _ in range(3)]
    batch, _ = envs.reset(seed=10)
    alone = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    assert batch["observation"].shape == (3, singles[0].observer.size) and batch["action_mask"].shape == (
        3,
        envs.single_action_space.n,
    )
    finished = [False] * 3
    restarted = False
    for _ in range(400):
        for i in range(3):
            assert np.array_equal(batch["observation"][i], alone[i]["observation"])
            assert np.array_equal(batch["action_mask"][i], alone[i]["action_mask"])
        actions = _last_legal(batch["action_mask"])
        batch, rewards, terminations, truncations, _ = envs.step(actions)
        assert not truncations.any()
        for i, env in enumerate(singles):
            if finished[i]:  # the vector restarted this copy and ignored its action: follow with a fresh game
                alone[i] = env.reset()[0]
                finished[i], restarted = False, True
                assert rewards[i] == 0.0 and not terminations[i]
                continue
            alone[i], reward, terminated, _, _ = env.step(actions[i])
            assert rewards[i] == reward and terminations[i] == terminated
            finished[i] = terminated
        if restarted:
            break
    assert restarted


def test_an_illegal_action_is_refused_in_its_copy_only() -> None:
    envs = CafeVectorEnv(2, edition="board", opponents=("random",))
    batch, _ = envs.reset(seed=3)
    illegal = int(np.flatnonzero(batch["action_mask"][0] == 0)[0])
    legal = _last_legal(batch["action_mask"])[1]
    after, rewards, _, _, infos = envs.step([illegal, legal])
    assert np.array_equal(after["observation"][0], batch["observation"][0]) and rewards[0] == -1.0
    assert infos["_illegal"].tolist() == [True, False] and infos["illegal"][0].startswith("R")
    assert not np.array_equal(after["observation"][1], batch["observation"][1])


def test_a_batch_handed_out_is_not_changed_by_the_next_step() -> None:
    envs = CafeVectorEnv(2, edition="cards", opponents=("random",))
    batch, _ = envs.reset(seed=1)
    kept = batch["observation"].copy()
    envs.step(_last_legal(batch["action_mask"]))
    assert np.array_equal(batch["observation"], kept)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        CafeVectorEnv(0)
    with pytest.raises(ValueError, match="one seed per copy"):
        CafeVectorEnv(2, opponents=("random",)).reset(seed=[1, 2, 3])
