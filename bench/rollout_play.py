"""The search's rollout policies played as players, without search: how well does each play the card game alone?

    python bench/rollout_play.py [--games 2000] [--seed 0] [--patience 4]

Plays 2-player card games between the master's rollout step (``cafe.ai.mcts.rollout_step`` with ``epsilon=0``: the
best-scoring card, else stopping, else any legal step at random) and the patient one (``rollout=patient`` in
bench/ingredients.py: a card only if it scores ``--patience`` points or more, else stopping or drawing), each deal
twice with the seats swapped.  The rollouts see the whole game, as they do inside the search's sampled worlds.
Prints one JSON object: the patient policy's share of wins (a tie half) with its 95% interval, its mean margin, and
each policy's mean end penalty, and what the master's step did at a turn's start with no card that scores.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from cafe.ai.mcts import rollout_step
from cafe.arena.stats import wilson_interval
from cafe.card_game import CardGame
from cafe.steps import Step

sys.path.insert(0, str(Path(__file__).parent))
from ingredients import PATIENCE, patient_rollout_step  # bench/ingredients.py, beside this file

Policy = Callable[[CardGame, random.Random], Step]


class GreedyStep:
    """The master's rollout step, counting what it does at a turn's start with no card that scores: there it takes a
    legal step at random (a draw, a card face down, or a card scoring 0 that a scoring card must follow)."""

    def __init__(self) -> None:
        self.unscored_openings: Counter[str] = Counter()

    def __call__(self, game: CardGame, rng: random.Random) -> Step:
        step = rollout_step(game, rng, 0.0)
        if not game.state.placed and not game.step_points(step):
            self.unscored_openings[step.kind.value] += 1
        return step


def play(seed: int, policies: tuple[Policy, Policy]) -> CardGame:
    """One game between the two policies, the first in the first seat."""
    game = CardGame(2, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.push(policies[game.current_player](game, rng), check=False)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games in all, each deal played twice (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--patience", type=int, default=PATIENCE, help="the patient policy's least points a card")
    args = parser.parse_args()
    patient = functools.partial(patient_rollout_step, patience=args.patience)
    greedy_step = GreedyStep()
    started = time.perf_counter()
    wins, margin, penalties = 0.0, 0, {"patient": 0, "greedy": 0}
    deals = args.games // 2
    for seed in range(args.seed, args.seed + deals):
        for seat in (0, 1):  # the patient policy's
            game = play(seed, (patient, greedy_step) if seat == 0 else (greedy_step, patient))
            ours, theirs = game.scores[seat], game.scores[1 - seat]
            wins += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
            margin += ours - theirs
            paid = game.penalties()
            penalties["patient"] += paid[seat]
            penalties["greedy"] += paid[1 - seat]
    games = 2 * deals
    low, high = wilson_interval(wins, games)
    report = {
        "games": games,
        "patience": args.patience,
        "patient_win_rate": round(wins / games, 4),
        "patient_win_rate_ci95": [round(low, 4), round(high, 4)],
        "patient_mean_margin": round(margin / games, 2),
        "mean_end_penalty": {name: round(total / games, 2) for name, total in penalties.items()},
        "greedy_unscored_openings": dict(greedy_step.unscored_openings),
        "wall_seconds": round(time.perf_counter() - started),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
