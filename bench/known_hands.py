"""What knowing the hidden would be worth: the search told more than its view against the search that is not.

    python bench/known_hands.py [--edition cards] [--everything] [--budget 0.1s] [--games 200] [--seed 50000]
                                [--jobs N]

The informed side is the expert's search told what the other is not; the other is the expert's search as it plays.
Without ``--everything`` (card game only) it is shown every hand and every face-down card, so it samples only the
deck's order: its win rate bounds from above what a better guess of the hidden hands (worlds weighted by the other
players' past choices) could buy this search at that budget.  With ``--everything`` its every world is the real game
(the bag's or deck's order too, and the card game's replacement tables): it knows every tile to come, which no
player can, so its win rate bounds what any better judgement of the hidden could buy the search at that budget.
In the board game every hand is open, so there only ``--everything`` tells anything.
Duplicate deals: each deal is played twice, each side in each seat.  Prints a JSON report like
bench/ingredients.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Sequence

from cafe.ai.base import Player
from cafe.ai.levels import make_player
from cafe.ai.mcts import MCTSPlayer
from cafe.ai.worlds import Game, Worlds
from cafe.arena.match import new_game, play
from cafe.arena.stats import GameOutcome, player_stats
from cafe.card_game import CardGame
from cafe.parallel import as_finished
from cafe.steps import Step
from cafe.view import CardView, View

NAMES = ("informed", "expert")


class ShownHands:
    """A player that sees every hand of the real card game: its search is told them before it chooses."""

    def __init__(self, game: CardGame, search: Player) -> None:
        self.name = NAMES[0]
        self.game = game
        self.search = search

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        assert isinstance(view, CardView)
        views = [self.game.view(seat) for seat in range(len(view.players))]
        shown = dataclasses.replace(
            view,
            hands=tuple(v.hands[seat] for seat, v in enumerate(views)),
            face_down=tuple(v.face_down[seat] for seat, v in enumerate(views)),
        )
        return self.search.choose(shown, legal)


def informed(game: Game, budget: str, seed: int, everything: bool) -> Player:
    """The expert's search told every hand, or (``everything``) searching the real game itself."""
    search = make_player(f"mcts:{budget}", seed=seed)
    if everything:
        assert isinstance(search, MCTSPlayer)
        search.worlds = lambda view, rng: Worlds.exact(game)
        search.name = NAMES[0]
        return search
    assert isinstance(game, CardGame)
    return ShownHands(game, search)


def one_game(seed: int, edition: str, budget: str, everything: bool, informed_seat: int) -> GameOutcome:
    seating = tuple(0 if seat == informed_seat else 1 for seat in range(2))  # seat -> index in NAMES
    game = new_game(edition, [NAMES[p] for p in seating], seed)
    players = [
        informed(game, budget, seed * 101, everything) if p == 0 else make_player(f"mcts:{budget}", seed=seed * 101 + 1)
        for p in seating
    ]
    seats, _ = play(game, players)
    return GameOutcome(seed, seating, tuple(seats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", choices=["board", "cards"], default="cards")
    parser.add_argument("--everything", action="store_true", help="the informed side searches the real game itself")
    parser.add_argument("--budget", default="0.1s", help="a turn, for both sides (as in mcts:BUDGET)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=50_000, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    if args.edition == "board" and not args.everything:
        parser.error("in the board game every hand is open already: add --everything")
    calls = [
        (args.seed + deal, args.edition, args.budget, args.everything, seat)
        for deal in range(args.games // 2)
        for seat in range(2)
    ]
    started = time.perf_counter()
    outcomes = list(as_finished(one_game, calls, args.jobs))
    stats = player_stats(list(NAMES), outcomes)
    report = {"edition": args.edition, "everything": args.everything, "budget": args.budget}
    report |= {"games": len(outcomes), "seed": args.seed}
    wall = round(time.perf_counter() - started)
    print(json.dumps({**report, "results": [s.to_json() for s in stats], "wall_seconds": wall}))


if __name__ == "__main__":
    main()
