"""How often two searches choose the same turn from the same position, against how often one search agrees with
itself on another seed: whether a change to the search changes its play more than its own sampling does.

    python bench/agreement.py SEARCH [SEARCH ...] [--edition board] [--players 2] [--games 10] [--every 4] [--judge N]
                              [--seed 70000] [--self-play mcts:200] [--jobs N] [--out FILE]

Each SEARCH is a player of the search kind (``mcts:2000``, ``net:FILE:2000``, ``master``, or a variant of
bench/ingredients.py: ``variant:2000,width=20,epsilon=0``).  Positions come from
``--games`` self-play games by ``--self-play``, every ``--every``-th turn's start where there is a choice.  At each,
the first SEARCH chooses a whole turn twice (seeds 1 and 2), and every other SEARCH once (seed 1).  Printed: how
often the first agrees with itself (the floor set by its sampled worlds) and how often each other agrees with it.
A change that agrees with the first about as often as the first agrees with itself changes no more of the play
than a new seed does, and no match can tell it apart from the first.  With ``--judge N``, the turns chosen at a
position are valued by a search of N iterations a turn, all in the same sampled worlds, and each choice's loss to the
best of them is averaged: whether the turns the searches disagree over differ in worth.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from cafe.ai.levels import make_player, register
from cafe.ai.mcts import MCTSPlayer, turn_key, unsquash
from cafe.ai.worlds import Game, Worlds
from cafe.arena.match import self_play
from cafe.parallel import in_call_order
from cafe.steps import Step

sys.path.insert(0, str(Path(__file__).parent))
from ingredients import variant  # bench/ingredients.py, beside this file

Turn = tuple[Step, ...]


def chosen_turn(spec: str, seed: int, game: Game) -> Turn | None:
    """The whole turn the search ``spec`` (seeded by ``seed``) chooses for the mover of ``game``; None if it had
    nothing to weigh (a single candidate turn)."""
    player = make_player(spec, seed=seed)
    if not isinstance(player, MCTSPlayer):
        raise SystemExit(f"{spec}: not a search (mcts:N, net:FILE:N, expert, master, variant:N,...)")
    seat = game.current_player
    player.choose(game.view(seat), game.legal_steps())
    search = player.last_search
    return None if search is None else search.options[search.chosen]


def losses(game: Game, turns: list[Turn], judge: int, seed: int) -> list[float]:
    """How many points of margin each of ``turns`` is worth less than the best of them, as a search of ``judge``
    iterations a turn values them, every turn in the same sampled worlds (cafe.ai.mcts.MCTSPlayer.value_turns)."""
    distinct = list({turn_key(turn): turn for turn in turns}.items())
    if len(distinct) == 1:
        return [0.0] * len(turns)
    view = game.view(game.current_player)
    searcher = MCTSPlayer(time_per_turn=None, iterations=judge, seed=seed)
    values = searcher.value_turns(view, Worlds(view, random.Random(seed)), [turn for _key, turn in distinct], judge)
    worth = {key: unsquash(value) for (key, _turn), value in zip(distinct, values, strict=True)}
    best = max(worth.values())
    return [best - worth[turn_key(turn)] for turn in turns]


def one_game(
    edition: str, players: int, seed: int, every: int, self_play_spec: str, searches: list[str], judge: int
) -> list[tuple[list[int], list[float]]]:
    """For each weighed position of one self-play game: whether the first search agrees with itself on another
    seed and each other search with the first (0 or 1), and with ``judge`` the points each of these choices
    (the first's, the first's again, then each other's) loses to the best of them."""
    game, bots = self_play(self_play_spec, edition, players, seed)
    found: list[tuple[list[int], list[float]]] = []
    turn_start, turns = True, 0
    while not game.is_over():
        seat = game.current_player
        view, legal = game.view(seat), game.legal_steps()
        if turn_start and turns % every == 0 and len(legal) > 1:
            first = chosen_turn(searches[0], 1, game)
            if first is not None:
                chosen = [first, chosen_turn(searches[0], 2, game), *(chosen_turn(s, 1, game) for s in searches[1:])]
                keys = [None if turn is None else turn_key(turn) for turn in chosen]
                agree = [int(key == keys[0]) for key in keys[1:]]
                lost = losses(game, [t or first for t in chosen], judge, seed * 1000 + turns) if judge else []
                found.append((agree, lost))
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
    parser.add_argument("--judge", type=int, default=0, metavar="N",
                        help="value the turns chosen at each position by a search of N iterations a turn")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args()
    register("variant", variant)
    started = time.perf_counter()
    calls = [(args.edition, args.players, args.seed + g, args.every, args.self_play, args.searches, args.judge)
             for g in range(args.games)]  # fmt: skip
    positions = [position for found in in_call_order(one_game, calls, args.jobs) for position in found]
    if not positions:
        raise SystemExit("no position had a choice to weigh: play more games")
    n = len(positions)
    names = [f"{args.searches[0]} with another seed", *args.searches[1:]]
    shares = [sum(agree[k] for agree, _lost in positions) / n for k in range(len(names))]
    figures: dict[str, Any] = {"positions": n, "agreement": dict(zip(names, shares, strict=True))}
    for name, share in zip(names, shares, strict=True):
        margin = 1.96 * math.sqrt(share * (1 - share) / n)  # the normal approximation's 95% interval
        print(f"{name:>50}: chose the turn {args.searches[0]} chose at {share:.1%} (± {margin:.1%}) of {n} positions")
    if args.judge:
        judged = [args.searches[0], *names]
        mean_loss = [sum(lost[k] for _agree, lost in positions) / n for k in range(len(judged))]
        figures["mean_loss_points"] = dict(zip(judged, mean_loss, strict=True))
        for name, loss in zip(judged, mean_loss, strict=True):
            print(f"{name:>50}: its turn worth {loss:.2f} points less than the best of the turns chosen, on average")
    if args.out:
        figures |= {
            "settings": vars(args) | {"out": str(args.out)},
            "wall_seconds": round(time.perf_counter() - started),
        }
        args.out.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
