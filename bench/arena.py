"""The computer players measured against each other in the arena (duplicate deals, every seating).

    python bench/arena.py [--only NAME ...] [--scale 1.0] [--budget 1s] [--jobs N] [--out FILE]

Match-ups (games at --scale 1):
  greedy-random-board   greedy vs random, 2-player board game, 200 games
  greedy-random-cards   greedy vs random, 2-player card game, 200 games
  search-greedy-board2  the search vs greedy, 2-player board game, 200 games
  search-greedy-board4  the search vs three greedy players, 4-player board game, 200 games
  search-greedy-cards   the search vs greedy, 2-player card game, 100 games
  search-ismcts-board   our search vs OpenSpiel's ISMCTS at the same budget, N simulations a step for
                        ISMCTS and N iterations a turn for ours (--ismcts N, default 20), 2-player board, 20 games
  search-ismcts-cards   the same in the 2-player card game, 20 games
  master-expert-board2  the master vs the expert, both at --budget, 2-player board game, 200 games
  master-expert-board4  the master vs three experts, 4-player board game, 200 games
  master-expert-cards   the master vs the expert, 2-player card game, 200 games
  ladder-medium-easy    each level against the one below it, 2-player board game: medium vs easy, 200 games
  ladder-hard-medium    hard vs medium, 200 games
  ladder-expert-hard    expert vs hard, 200 games

The search plays with --budget a turn (default 1 s, the expert level; hard is a quarter of it).  Prints one JSON object
per match-up as it finishes (and writes them all to --out); the whole run takes about an hour
and a half on two cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from cafe.arena.report import to_json
from cafe.arena.run import ArenaPlan, names_of, run_arena
from cafe.arena.stats import endings, player_stats


def matchups(budget: str, simulations: int) -> dict[str, tuple[tuple[str, ...], str, int]]:
    search, master, hard = f"mcts:{budget}", f"learned:{budget}", f"mcts:{_quarter(budget)}"
    same = (f"mcts:{simulations}", f"ismcts:{simulations}")
    return {
        "greedy-random-board": (("greedy", "random"), "board", 200),
        "greedy-random-cards": (("greedy", "random"), "cards", 200),
        "search-greedy-board2": ((search, "greedy"), "board", 200),
        "search-greedy-board4": ((search, "greedy", "greedy", "greedy"), "board", 200),
        "search-greedy-cards": ((search, "greedy"), "cards", 100),
        "search-ismcts-board": (same, "board", 20),
        "search-ismcts-cards": (same, "cards", 20),
        "master-expert-board2": ((master, search), "board", 200),
        "master-expert-board4": ((master, search, search, search), "board", 200),
        "master-expert-cards": ((master, search), "cards", 200),
        "ladder-medium-easy": (("medium", "easy"), "board", 200),
        "ladder-hard-medium": ((hard, "medium"), "board", 200),
        "ladder-expert-hard": ((search, hard), "board", 200),
    }


def _quarter(budget: str) -> str:
    """A quarter of a time budget written as seconds ("1s" -> "0.25s")."""
    return f"{float(budget.removesuffix('s')) / 4:g}s"


def _progress(name: str, done: int, total: int) -> None:
    print(f"\r{name}: {done}/{total}", end="", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", help="run only these match-ups")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every match-up's games by this")
    parser.add_argument("--budget", default="1s", help="the search's time a turn (default 1s)")
    parser.add_argument("--ismcts", type=int, default=20, help="simulations (iterations) for the ISMCTS match-ups")
    parser.add_argument("--seed", type=int, default=10_000, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=None, help="parallel games (default: every core)")
    parser.add_argument("--out", type=Path, help="also write the results here (JSON)")
    args = parser.parse_args()
    chosen = matchups(args.budget, args.ismcts)
    unknown = set(args.only or ()) - set(chosen)
    if unknown:
        parser.error(f"unknown match-up(s): {', '.join(sorted(unknown))}")
    report: dict[str, Any] = {}
    for name, (players, edition, games) in chosen.items():
        if args.only and name not in args.only:
            continue
        plan = ArenaPlan(players, max(len(players), round(games * args.scale)), edition, args.seed)
        started = time.perf_counter()
        outcomes = run_arena(plan, args.jobs, progress=partial(_progress, name))
        print(file=sys.stderr)
        stats = player_stats(names_of(plan.players), outcomes)
        report[name] = {
            **to_json(plan, stats, len(outcomes), endings(outcomes)),
            "wall_seconds": round(time.perf_counter() - started),
        }
        print(json.dumps({name: report[name]}), flush=True)
        if args.out:
            args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
