"""What a card held, or laid face down, is worth at the end beyond what the search's lead says, by cards left to draw.

    python bench/held_value.py [--games 4000] [--seed 0] [--epsilon 0] [--patience 0]

Plays 2-player card games by the search's rollout step (``cafe.ai.mcts.rollout_step``, the master's with ``--epsilon
0``; with ``--patience P``, ``bench/ingredients.py``'s patient step, which opens a turn or plays on only with a card
scoring P points or more) and takes a row at every turn's start: the cards left in the deck; how many more cards the
mover holds than the other player, both of nations with a table laid (live: they can be played now) and of the others
(dead: they wait for a table of their nation); how many more it has face down; its lead (``cafe.ai.mcts.leads``) and its
final margin. For each band of ten cards left, least-squares fits of (final margin - lead) on these differences (cards
held and face down; live, dead and face down) say what one card more in hand, live or dead, or face down, was worth at
the end in points, with its standard error. A card face down costs 2 points for certain (RULES.md §4.6), so its fitted
worth, near -2, checks the method. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from cafe.ai.mcts import leads, rollout_step
from cafe.card_game import CardGame

sys.path.insert(0, str(Path(__file__).parent))
from ingredients import live_cards, patient_rollout_step  # bench/ingredients.py, beside this file

BAND = 10  # cards left in the deck, per fitted band


COLUMNS = ("held", "live", "dead", "down")  # the differences in a row, after the cards left; then the lead and margin
MODELS = {"held": ("held", "down"), "live_and_dead": ("live", "dead", "down")}  # the differences each fit weighs


def live_and_dead(game: CardGame, seat: int) -> tuple[int, int]:
    """The seat's cards in hand of a nation with a table laid, and the others."""
    live = live_cards(game, seat)
    return live, game.state.hand_n[seat] - live


def rows_of(seed: int, epsilon: float, patience: int = 0) -> list[tuple[float, ...]]:
    """One game's rows: cards left, the mover's cards held (all, live, dead) and face down beyond the other's, its
    lead and its final margin."""
    game = CardGame(2, seed=seed)
    rng = random.Random(seed)
    starts: list[tuple[int, tuple[float, ...]]] = []
    while not game.is_over():
        s = game.state
        if not s.placed:
            me, other = game.current_player, 1 - game.current_player
            (live, dead), (their_live, their_dead) = live_and_dead(game, me), live_and_dead(game, other)
            held, down = s.hand_n[me] - s.hand_n[other], len(s.down[me]) - len(s.down[other])
            left = len(game.deck) - s.deck_pos
            starts.append((me, (left, held, live - their_live, dead - their_dead, down, leads(game, rng)[me])))
        step = patient_rollout_step(game, rng, patience) if patience else rollout_step(game, rng, epsilon)
        game.push(step, check=False)
    final = game.scores
    return [(*row, final[me] - final[1 - me]) for me, row in starts]


def fit(rows: np.ndarray, columns: tuple[str, ...]) -> dict[str, float]:
    """Least squares of (margin - lead) on the differences named, with a constant."""
    x = np.c_[rows[:, [1 + COLUMNS.index(name) for name in columns]], np.ones(len(rows))]
    y = rows[:, -1] - rows[:, -2]
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    errors = np.sqrt(np.diag(np.linalg.pinv(x.T @ x)) * (y - x @ weights).var())
    report: dict[str, float] = {}
    for k, name in enumerate(columns):
        report[name], report[f"{name}_se"] = round(float(weights[k]), 2), round(float(errors[k]), 2)
    return report


def fits(rows: np.ndarray) -> dict[str, Any]:
    """Both models fitted to ``rows``, with how many there are and how far the margin strays from the lead."""
    spread = float((rows[:, -1] - rows[:, -2]).std())
    models = {name: fit(rows, columns) for name, columns in MODELS.items()}
    return {"rows": len(rows), **models, "margin_less_lead_sd": round(spread, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--epsilon", type=float, default=0.0, help="how often the rollout step is random")
    parser.add_argument("--patience", type=int, default=0, help="play by the patient step instead (0: no)")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = np.array(
        [
            row
            for seed in range(args.seed, args.seed + args.games)
            for row in rows_of(seed, args.epsilon, args.patience)
        ],
        dtype=float,
    )
    bands = {}
    for low in range(0, int(rows[:, 0].max()) + 1, BAND):
        band = rows[(rows[:, 0] >= low) & (rows[:, 0] < low + BAND)]
        if len(band) >= 100:
            bands[f"{low}-{low + BAND - 1}"] = fits(band)
    report = {
        "games": args.games,
        "epsilon": args.epsilon,
        "patience": args.patience,
        "cards_left": bands,
        "all": fits(rows),
    }
    print(json.dumps({**report, "wall_seconds": round(time.perf_counter() - started)}))


if __name__ == "__main__":
    main()
