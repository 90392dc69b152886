"""The expert's search speed: iterations it completes in its 1 s a turn, at positions of random 4-player games.

    python bench/search.py [--positions 12] [--edition board|cards]

Positions are taken every few turns from seeded random games (the same every run); at each, a fresh ``expert``
chooses the first step of the mover's turn, and its ``last_iterations`` is read.  Prints one JSON object with the
median, lowest and highest counts, and whether the engine ran compiled.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from cafe.ai.levels import make_player
from cafe.ai.mcts import MCTSPlayer
from cafe.bench import compiled
from cafe.board_game import BoardGame
from cafe.card_game import CardGame


def positions(edition: str, count: int) -> list[BoardGame | CardGame]:
    """``count`` positions at the start of a turn, every third turn of seeded random games."""
    out: list[BoardGame | CardGame] = []
    seed = 0
    while len(out) < count:
        game: BoardGame | CardGame = BoardGame(4, seed=seed) if edition == "board" else CardGame(4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over() and len(out) < count:
            if game.turn_number % 3 == 1 and not game.this_turn() and len(game.legal_steps()) > 1:
                out.append(game.copy())
            turn = game.turn_number
            while game.turn_number == turn and not game.is_over():
                game.push(game.random_step(rng))
        seed += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--edition", choices=("board", "cards"), default="board")
    args = parser.parse_args()
    counts = []
    for game in positions(args.edition, args.positions):
        player = make_player("expert", seed=1)
        assert isinstance(player, MCTSPlayer)
        player.choose(game.view(game.current_player), game.legal_steps())
        counts.append(player.last_iterations)
    report = {
        "edition": args.edition,
        "positions": len(counts),
        "median_iterations": statistics.median(counts),
        "min": min(counts),
        "max": max(counts),
        "compiled": compiled(),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
