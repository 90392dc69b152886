"""How much a lead decides a 2-player game, by the tiles left in the bag (or cards left in the deck).

    python bench/lead_scale.py [--edition board] [--games 4000] [--seed 1000000] [--epsilon 0]

The search values a position by each seat's lead squashed by a logistic of fixed scale (``cafe.ai.mcts.SCALE``: 10
points of lead worth about 73%).  This plays 2-player games by the search's rollout step
(``cafe.ai.mcts.rollout_step``, the master's with ``--epsilon 0``), takes a row at every turn's start (tiles in the
bag or cards in the deck, the mover's lead as ``cafe.ai.mcts.leads`` counts it, whether the mover won: 1, 0.5 for a
tie, 0), and fits by maximum likelihood the scale s with P(win) = 1 / (1 + exp(-lead / s)): for each band of ten
tiles (or cards) left, and as s = a + b * tiles left over all rows (``bench/ingredients.py``'s
``scale=a,perbag=b``, which counts cards left in the card game).  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from cafe.ai.mcts import leads, rollout_step
from cafe.ai.worlds import Game
from cafe.board_game import BoardGame
from cafe.card_game import CardGame

sys.path.insert(0, str(Path(__file__).parent))
from ingredients import left_to_draw  # bench/ingredients.py, beside this file

BAND = 10  # tiles left in the bag, per fitted band
SCALES = np.arange(2.0, 60.5, 0.5)  # the scales tried in a band
INTERCEPTS = np.arange(0.0, 15.5, 0.5)  # a of s = a + b * tiles left
SLOPES = np.arange(0.0, 0.81, 0.01)  # b


def rows_of(edition: str, seed: int, epsilon: float) -> list[tuple[float, float, float]]:
    """One game's rows: tiles (or cards) left at a turn's start, the mover's lead then, and whether the mover won."""
    game: Game = BoardGame(2, seed=seed) if edition == "board" else CardGame(2, seed=seed)
    rng = random.Random(seed)
    starts: list[tuple[int, int, float]] = []
    turn = None
    while not game.is_over():
        if game.turn_number != turn:
            turn, me = game.turn_number, game.current_player
            starts.append((me, left_to_draw(game), leads(game, rng)[me]))
        game.push(rollout_step(game, rng, epsilon), check=False)
    final = game.scores
    return [(bag, lead, float(np.sign(final[me] - final[1 - me]) + 1) / 2) for me, bag, lead in starts]


def log_likelihood(lead: np.ndarray, won: np.ndarray, scale: np.ndarray | float) -> float:
    """The mean log-likelihood of the outcomes ``won`` (1, 0.5 or 0) under P(win) = sigmoid(lead / scale)."""
    x = lead / scale
    return float(-np.mean(won * np.logaddexp(0.0, -x) + (1 - won) * np.logaddexp(0.0, x)))


def band_scales(rows: np.ndarray) -> list[dict[str, float]]:
    """The best scale of every band of :data:`BAND` tiles left with 200 rows or more."""
    bands = []
    for low in range(0, int(rows[:, 0].max()) + 1, BAND):
        band = rows[(rows[:, 0] >= low) & (rows[:, 0] < low + BAND)]
        if len(band) < 200:
            continue
        best = max(SCALES, key=lambda s: log_likelihood(band[:, 1], band[:, 2], s))
        bands.append({"tiles_left": low, "rows": len(band), "scale": float(best)})
    return bands


def linear_scale(rows: np.ndarray) -> dict[str, float]:
    """The a and b of s = a + b * tiles left that fit every row best, and how much better than s = 10 they fit."""
    bag, lead, won = rows[:, 0], rows[:, 1], rows[:, 2]
    best = max(
        ((a, b) for a in INTERCEPTS for b in SLOPES if a + b * bag.min() > 0),
        key=lambda ab: log_likelihood(lead, won, ab[0] + ab[1] * bag),
    )
    fitted = log_likelihood(lead, won, best[0] + best[1] * bag)
    return {
        "intercept": float(best[0]),
        "per_tile": round(float(best[1]), 3),
        "log_likelihood": round(fitted, 5),
        "log_likelihood_scale_10": round(log_likelihood(lead, won, 10.0), 5),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", choices=["board", "cards"], default="board")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1_000_000, help="the first game's seed")
    parser.add_argument("--epsilon", type=float, default=0.0, help="how often a rollout step is random")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = np.array([row for k in range(args.games) for row in rows_of(args.edition, args.seed + k, args.epsilon)])
    report = {
        "edition": args.edition,
        "games": args.games,
        "seed": args.seed,
        "epsilon": args.epsilon,
        "rows": len(rows),
        "bands": band_scales(rows),
        "linear": linear_scale(rows),
        "wall_seconds": round(time.perf_counter() - started),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
