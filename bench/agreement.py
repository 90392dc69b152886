"""How often two searches choose the same turn from the same position, against how often one search agrees with
itself on another seed: whether a change to the search changes its play more than its own sampling does.

    python bench/agreement.py SEARCH [SEARCH ...] [--edition board] [--players 2] [--games 10] [--every 4]
                              [--seed 70000] [--self-play mcts:200] [--jobs N] [--out FILE]

Each SEARCH is a player of the search kind (``mcts:2000``, ``net:FILE:2000``, ``master``).  Positions come from
``--games`` self-play games by ``--self-play``, every ``--every``-th turn's start where there is a choice.  At each,
the first SEARCH chooses a whole turn twice (seeds 1 and 2), and every other SEARCH once (seed 1).  Printed: how
often the first agrees with itself (the floor set by its sampled worlds) and how often each other agrees with it.
A change that agrees with the first about as often as the first agrees with itself changes no more of the play
than a new seed does, and no match can tell it apart from the first.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from cafe.ai.levels import make_player
from cafe.ai.mcts import MCTSPlayer
from cafe.arena.match import self_play
from cafe.parallel import in_call_order


def chosen_turn(spec: str, seed: int, game: Any) -> tuple[str, ...] | None:
    """The whole turn the search ``spec`` (seeded by ``seed``) chooses for the mover of ``game``; None if it had
    nothing to weigh (a single candidate turn)."""
    player = make_player(spec, seed=seed)
    if not isinstance(player, MCTSPlayer):
        raise SystemExit(f"{spec}: not a search (mcts:N, net:FILE:N, expert, master)")
    seat = game.current_player
    player.choose(game.view(seat), game.legal_steps())
    search = player.last_search
    return None if search is None else tuple(map(str, search.options[search.chosen]))


def one_game(edition: str, players: int, seed: int, every: int, self_play_spec: str, searches: list[str]) -> list[int]:
    """For each weighed position of one self-play game: [first agrees with itself, each other agrees with the
    first], as 0 or 1, flattened position by position."""
    game, bots = self_play(self_play_spec, edition, players, seed)
    found: list[int] = []
    turn_start, turns = True, 0
    while not game.is_over():
        seat = game.current_player
        view, legal = game.view(seat), game.legal_steps()
        if turn_start and turns % every == 0 and len(legal) > 1:
            first = chosen_turn(searches[0], 1, game)
            if first is not None:
                again = chosen_turn(searches[0], 2, game)
                found += [int(first == again), *(int(first == chosen_turn(s, 1, game)) for s in searches[1:])]
        turns += turn_start
        turn_start = game.push(bots[seat].choose(view, legal)).turn_over
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("searches", nargs="+", metavar="SEARCH")
    parser.add_argument("--edition", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10, help="self-play games the positions come from")
    parser.add_argument("--every", type=int, default=4, help="every n-th turn's start is a position (default 4)")
    parser.add_argument("--seed", type=int, default=70_000, help="the first self-play game's seed")
    parser.add_argument("--self-play", default="mcts:200", help="the player of the games (default mcts:200)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args()
    started = time.perf_counter()
    calls = [(args.edition, args.players, args.seed + g, args.every, args.self_play, args.searches)
             for g in range(args.games)]  # fmt: skip
    width = len(args.searches)
    rows = [
        found[i : i + width] for found in in_call_order(one_game, calls, args.jobs) for i in range(0, len(found), width)
    ]
    if not rows:
        raise SystemExit("no position had a choice to weigh: play more games")
    shares = [sum(row[k] for row in rows) / len(rows) for k in range(width)]
    names = [f"{args.searches[0]} with another seed", *args.searches[1:]]
    for name, share in zip(names, shares, strict=True):
        margin = 1.96 * math.sqrt(share * (1 - share) / len(rows))  # the normal approximation's 95% interval
        print(f"{name:>50}: chose the turn {args.searches[0]} chose at {share:.1%} (± {margin:.1%}) "
              f"of {len(rows)} positions")  # fmt: skip
    if args.out:
        figures = {"settings": vars(args) | {"out": str(args.out)}, "positions": len(rows),
                   "agreement": dict(zip(names, shares, strict=True)),
                   "wall_seconds": round(time.perf_counter() - started)}  # fmt: skip
        args.out.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
