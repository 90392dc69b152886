"""Environment steps per second through each research interface, random legal actions throughout.

    python bench/envs.py [--seconds 5] [--players 4]

- pettingzoo: AEC ``step`` calls (every agent's actions), observations and masks read as an agent would;
- gymnasium: ``step`` calls of the agent's seat against random bots (their steps, about three times
  as many, run inside and are not counted);
- openspiel: ``apply_action`` calls for player actions, with ``legal_actions`` each time
  (chance nodes are applied too, and counted apart).

Each for both editions; whole games are played until --seconds pass.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import cafe.envs.openspiel  # noqa: F401  (registers the game)
from cafe.envs.gymnasium import CafeEnv
from cafe.envs.pettingzoo import env as pettingzoo_env


def timed(seconds: float, one_game: Callable[[int], tuple[int, int]]) -> dict[str, float]:
    """Play games until ``seconds`` pass; steps (and other actions) per second."""
    steps = other = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        s, o = one_game(games)
        steps, other, games = steps + s, other + o, games + 1
    spent = time.perf_counter() - started
    return {"steps_per_second": round(steps / spent), "other_per_second": round(other / spent), "games": games}


def pettingzoo_game(edition: str, players: int) -> Callable[[int], tuple[int, int]]:
    e = pettingzoo_env(edition=edition, players=players)

    def play(seed: int) -> tuple[int, int]:
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        for _ in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps, 0

    return play


def gymnasium_game(edition: str, players: int) -> Callable[[int], tuple[int, int]]:
    env = CafeEnv(edition=edition, opponents=("random",) * (players - 1))

    def play(seed: int) -> tuple[int, int]:
        observation, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            steps += 1
        return steps, 0

    return play


def openspiel_game(edition: str, players: int) -> Callable[[int], tuple[int, int]]:
    game = pyspiel.load_game("python_cafe_international", {"edition": edition, "players": players})

    def play(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, odds)[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps, chance

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="per interface and edition (default 5)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    report: dict[str, dict[str, dict[str, float]]] = {}
    for name, make in (("pettingzoo", pettingzoo_game), ("gymnasium", gymnasium_game), ("openspiel", openspiel_game)):
        report[name] = {edition: timed(args.seconds, make(edition, args.players)) for edition in ("board", "cards")}
    print(json.dumps({"players": args.players, "seconds": args.seconds, "interfaces": report}, indent=1))


if __name__ == "__main__":
    main()
