"""Environment steps per second through each research interface, random legal actions throughout.

    python bench/envs.py [--seconds 5] [--players 4]
    python bench/envs.py --against c6cdf30 [--rounds 3]   # beside an earlier commit's code, in turn


- pettingzoo: AEC ``step`` calls (every agent's actions), observations and masks read as an agent would;
- gymnasium: ``step`` calls of the agent's seat against random bots (their steps, about three times
  as many, run inside and are not counted);
- openspiel: ``apply_action`` calls for player actions, with ``legal_actions`` each time
  (chance nodes are applied too, and counted apart);
- vector: ``step`` calls of the vectorised Gymnasium environment with 8 copies, counting every
  copy's agent step (the steps that restart a finished copy are not counted).

Each for both editions; whole games are played until --seconds pass.  Prints one JSON object.  With
--against, that commit is checked out in a temporary worktree and both trees are measured in turn,
each in its own process (the same engine build as a fresh clone gets: an older commit may be pure
Python), --rounds times; the medians and their ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel

import cafe.envs.openspiel  # noqa: F401  (registers the game)
from cafe.envs.gymnasium import CafeEnv
from cafe.envs.pettingzoo import env as pettingzoo_env
from cafe.envs.vector import CafeVectorEnv


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


def vector_game(edition: str, players: int, copies: int = 8) -> Callable[[int], tuple[int, int]]:
    envs = CafeVectorEnv(copies, edition=edition, opponents=("random",) * (players - 1))

    def play(seed: int) -> tuple[int, int]:
        """A batch of games: steps until as many copies have finished as there are copies."""
        batch, _ = envs.reset(seed=seed * copies)
        rng = np.random.default_rng(seed)
        steps = finished = 0
        restarting = np.zeros(copies, np.bool_)
        while finished < copies:
            actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in batch["action_mask"]]
            batch, _, terminations, _, _ = envs.step(actions)
            steps += int((~restarting).sum())
            finished += int(terminations.sum())
            restarting = terminations
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


INTERFACES = {
    "pettingzoo": pettingzoo_game, "gymnasium": gymnasium_game, "openspiel": openspiel_game, "vector": vector_game
}  # fmt: skip


def measure(seconds: float, players: int) -> dict[str, dict[str, dict[str, float]]]:
    return {
        name: {edition: timed(seconds, make(edition, players)) for edition in ("board", "cards")}
        for name, make in INTERFACES.items()
    }


def measured_in(tree: Path, seconds: float, players: int) -> dict[str, dict[str, dict[str, float]]]:
    """This script's figures for the code of ``tree``, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "envs.py"), "--seconds", str(seconds), "--players", str(players)],
        env=env, cwd=tree, capture_output=True, text=True, check=True,
    )  # fmt: skip
    report: dict[str, dict[str, dict[str, float]]] = json.loads(done.stdout)["interfaces"]
    return report


def against(rev: str, rounds: int, seconds: float, players: int) -> dict[str, object]:
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), rev], cwd=here, check=True, capture_output=True)
        try:
            runs: dict[str, list[dict[str, dict[str, dict[str, float]]]]] = {"old": [], "new": []}
            for r in range(rounds):
                print(f"round {r + 1} of {rounds}", file=sys.stderr)
                runs["old"].append(measured_in(old, seconds, players))
                runs["new"].append(measured_in(here, seconds, players))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=here, check=True)
    out: dict[str, object] = {}
    for name, editions in runs["new"][0].items():
        for edition in editions:
            new = statistics.median(run[name][edition]["steps_per_second"] for run in runs["new"])
            line: dict[str, float] = {"new": new}
            if name in runs["old"][0]:
                line["old"] = statistics.median(run[name][edition]["steps_per_second"] for run in runs["old"])
                line["ratio"] = round(new / line["old"], 2)
            out[f"{name} {edition}"] = line
    return {"against": rev, "rounds": rounds, "seconds": seconds, "players": players, "steps_per_second": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="per interface and edition (default 5)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--against", metavar="REV", help="measure beside this commit's code, in turn")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: rounds of both (default 3)")
    args = parser.parse_args()
    if args.against:
        print(json.dumps(against(args.against, args.rounds, args.seconds, args.players), indent=1))
        return
    report = measure(args.seconds, args.players)
    print(json.dumps({"players": args.players, "seconds": args.seconds, "interfaces": report}, indent=1))


if __name__ == "__main__":
    main()
