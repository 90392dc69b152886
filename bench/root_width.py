"""What the search's root loses by weighing only the best-scoring turns: every turn valued on equal worlds.

    python bench/root_width.py [--edition board] [--seed 1] [--games 10] [--per-turn 200] [--width 20]

Plays 2-player games (board or card) between two searches (2,000 iterations a turn).  At the start of every
third turn that has more than ``--width`` distinct turns, it values *every* turn as the master's rollouts see it
(greedy rollouts, the expert's evaluation), each from ``--per-turn`` iterations in the same worlds with the same
dice (``MCTSPlayer.value_turns``, as the analysis of a played game does).  It reports how often the best-valued
turn lies outside the ``--width`` best-scoring ones, and the mean value given up by choosing among those only,
among those and the best turn of every shape they leave out (``candidate_turns`` with ``shapes``: drawing, a card
face down, fewer cards or guests), or by playing the best-scoring turn: in the search's value (a position's
chance, 0 to 1) and in points of lead at an even position (the value's slope there is 1 / (4 x 10 points)).  The
best of many noisy values is itself biased upward, so the losses are upper bounds at that many iterations.  Prints
one JSON object.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys

from cafe.ai.levels import make_player
from cafe.ai.mcts import SCALE, MCTSPlayer, candidate_turns, turn_key
from cafe.ai.worlds import Worlds
from cafe.arena.match import new_game

SLOPE = 1 / (4 * SCALE)  # the value's change per point of lead at an even position


def measure(edition: str, seed: int, games: int, per_turn: int, width: int) -> dict[str, object]:
    rng = random.Random(seed)
    best_ranks: list[int] = []
    lost_by_width: list[float] = []
    lost_by_shapes: list[float] = []
    lost_by_greedy: list[float] = []
    for g in range(games):
        game = new_game(edition, ["first", "second"], rng.randrange(10**6))
        players = [make_player("mcts:2000", seed=g * 2 + p) for p in range(2)]
        while not game.is_over():
            seat = game.current_player
            view, legal = game.view(seat), game.legal_steps()
            if len(legal) > 1 and game.turn_number % 3 == 0 and not game.state.placed:
                worlds = Worlds(view, random.Random(1))
                options = candidate_turns(worlds.base, legal, 10_000)  # every distinct turn, best-scoring first
                if len(options) > width:
                    judge = MCTSPlayer(time_per_turn=None, iterations=1, seed=5, epsilon=0.0)
                    values = judge.value_turns(view, worlds, options, per_turn)
                    best = max(range(len(options)), key=lambda k: values[k])
                    best_ranks.append(best)
                    lost_by_width.append(values[best] - max(values[:width]))
                    kept = {turn_key(t) for t in candidate_turns(worlds.base, legal, width, shapes=True)}
                    shaped = [v for t, v in zip(options, values, strict=True) if turn_key(t) in kept]
                    lost_by_shapes.append(values[best] - max(shaped))
                    lost_by_greedy.append(values[best] - values[0])
            game.push(players[seat].choose(view, legal))
        print(f"game {g + 1}/{games}: {len(best_ranks)} positions", file=sys.stderr, flush=True)
    n = len(best_ranks)
    return {
        "edition": edition,
        "seed": seed,
        "games": games,
        "per_turn": per_turn,
        "width": width,
        "positions": n,
        "best_outside_width": sum(rank >= width for rank in best_ranks),
        "rank_of_best": dict(sorted(collections.Counter(best_ranks).items())),
        "value_lost_by_width": round(sum(lost_by_width) / n, 5),
        "points_lost_by_width": round(sum(lost_by_width) / n / SLOPE, 2),
        "value_lost_with_shapes": round(sum(lost_by_shapes) / n, 5),
        "points_lost_with_shapes": round(sum(lost_by_shapes) / n / SLOPE, 2),
        "value_lost_by_best_scoring": round(sum(lost_by_greedy) / n, 5),
        "points_lost_by_best_scoring": round(sum(lost_by_greedy) / n / SLOPE, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", choices=["board", "cards"], default="board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--per-turn", type=int, default=200, help="iterations below each turn")
    parser.add_argument("--width", type=int, default=20, help="the root's width to judge (the master's: 20)")
    args = parser.parse_args()
    print(json.dumps(measure(args.edition, args.seed, args.games, args.per_turn, args.width)))


if __name__ == "__main__":
    main()
