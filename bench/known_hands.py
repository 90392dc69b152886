"""What reading the other hands would be worth in the card game: the search shown every hand against the search that
is shown its own.

    python bench/known_hands.py [--budget 0.1s] [--games 200] [--seed 50000] [--jobs N]

The informed side is the expert's search given a view in which every hand (and every face-down card) is shown, so
it samples only the deck's order; the other is the expert's search as it plays.  Its win rate bounds from above
what a better guess of the hidden hands (worlds weighted by the other players' past choices) could buy this search
at that budget.
Duplicate deals: each deal is played twice, each side in each seat.  Prints a JSON report like
bench/ingredients.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Sequence

from cafe.ai.levels import make_player
from cafe.arena.match import new_game, play
from cafe.arena.stats import GameOutcome, player_stats
from cafe.card_game import CardGame
from cafe.parallel import as_finished
from cafe.steps import Step
from cafe.view import CardView, View

NAMES = ("informed", "expert")


class ShownHands:
    """A player that sees every hand of the real game: its search is told them before it chooses."""

    def __init__(self, game: CardGame, budget: str, seed: int) -> None:
        self.name = NAMES[0]
        self.game = game
        self.search = make_player(f"mcts:{budget}", seed=seed)

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        assert isinstance(view, CardView)
        views = [self.game.view(seat) for seat in range(len(view.players))]
        shown = dataclasses.replace(
            view,
            hands=tuple(v.hands[seat] for seat, v in enumerate(views)),
            face_down=tuple(v.face_down[seat] for seat, v in enumerate(views)),
        )
        return self.search.choose(shown, legal)


def one_game(seed: int, budget: str, informed_seat: int) -> GameOutcome:
    seating = tuple(0 if seat == informed_seat else 1 for seat in range(2))  # seat -> index in NAMES
    game = new_game("cards", [NAMES[p] for p in seating], seed)
    assert isinstance(game, CardGame)
    players = [
        ShownHands(game, budget, seed * 101) if p == 0 else make_player(f"mcts:{budget}", seed=seed * 101 + 1)
        for p in seating
    ]
    seats, _ = play(game, players)
    return GameOutcome(seed, seating, tuple(seats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", default="0.1s", help="a turn, for both sides (as in mcts:BUDGET)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=50_000, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    calls = [(args.seed + deal, args.budget, seat) for deal in range(args.games // 2) for seat in range(2)]
    started = time.perf_counter()
    outcomes = list(as_finished(one_game, calls, args.jobs))
    stats = player_stats(list(NAMES), outcomes)
    report = {"edition": "cards", "budget": args.budget, "games": len(outcomes), "seed": args.seed}
    wall = round(time.perf_counter() - started)
    print(json.dumps({**report, "results": [s.to_json() for s in stats], "wall_seconds": wall}))


if __name__ == "__main__":
    main()
