"""Does the search grow stronger with its budget?  A ladder of iteration counts, on the same deals.

    python bench/budget.py [--ladder 500,1000,2000,4000,8000,16000] [--edition board] [--players 2]
                           [--games 40] [--seed 7] [--jobs N] [--only greedy|next] [--variant CHANGES]
                           [--out FILE]

Each step ``mcts:N`` of the ladder plays greedy (``greedy``), and the step after it (``next``), in duplicate deals
from the same seed: every step meets the same bags in every seat. With more than 2 players the other seats are
greedy players (``mcts:N`` and ``players - 1`` greedy; ``mcts:NEXT``, ``mcts:N`` and greedy), and a step against the
next is scored head to head: the share of games in which the bigger budget finished ahead of the smaller (a tie
half), a fair share being 50% whatever the number of players. Iteration counts, not times, so that the machine's
speed plays no part. Prints a table with each rate's 95% interval over deals (a deal's games are not independent:
see ``cafe.arena.stats.deal_interval``), and a line for every step significantly worse
(the bigger budget's interval against the next smaller one wholly below 50%, or its interval against greedy wholly
below any smaller budget's: each step within the noise of the one before can still slide far over the ladder);
``--out`` writes every match as JSON, again after every step. The match being played counts its games on stderr.
``--variant`` climbs the ladder with a variant of the search instead (bench/ingredients.py's changes, such as
``tree=flat``: the players are ``variant:N,tree=flat``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from cafe.ai.levels import register
from cafe.arena.report import to_json
from cafe.arena.run import ArenaPlan, names_of, run_arena
from cafe.arena.stats import GameOutcome, PlayerStats, deal_interval, endings, player_stats

LADDER = (500, 1_000, 2_000, 4_000, 8_000, 16_000)


def match(players: tuple[str, ...], args: argparse.Namespace) -> tuple[list[GameOutcome], PlayerStats, dict[str, Any]]:
    """Play one match of the ladder: its games, the first player's statistics and the whole report."""
    plan = ArenaPlan(players, args.games, args.edition, args.seed)
    started = time.perf_counter()
    label = " vs ".join(players[:2])
    outcomes = run_arena(
        plan, args.jobs, progress=lambda done, total: print(f"\r{label}: {done}/{total}", end="", file=sys.stderr)
    )
    print(file=sys.stderr)
    stats = player_stats(names_of(plan.players), outcomes)
    report = {
        **to_json(plan, stats, len(outcomes), endings(outcomes)),
        "wall_seconds": round(time.perf_counter() - started),
    }
    return outcomes, stats[0], report


def head_to_head(outcomes: list[GameOutcome]) -> tuple[float, tuple[float, float]]:
    """The share of games in which player 0 finished ahead of player 1 (a tie counts half), with its interval over
    deals."""
    by_deal: dict[int, list[float]] = {}
    for game in outcomes:
        first, second = (game.seats[game.seating.index(p)].place for p in (0, 1))
        by_deal.setdefault(game.deal, []).append(1.0 if first < second else 0.5 if first == second else 0.0)
    ahead = sum(sum(games) for games in by_deal.values())
    return ahead / len(outcomes), deal_interval([(sum(games), len(games)) for games in by_deal.values()])


def line(label: str, rate: float, interval: tuple[float, float], mean_score: float) -> str:
    return f"{label:<28} {rate:6.1%}  ({interval[0]:.1%}-{interval[1]:.1%})  mean score {mean_score:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ladder", default=",".join(map(str, LADDER)), help="iteration counts, comma-separated")
    parser.add_argument("--edition", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40, help="games per match, rounded up to whole deals")
    parser.add_argument("--seed", type=int, default=7, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--only", choices=["greedy", "next"], help="play only one kind of match")
    parser.add_argument("--variant", metavar="CHANGES", help="bench/ingredients.py's changes, e.g. tree=flat")
    parser.add_argument("--out", type=Path, help="write every match's report to this JSON file")
    args = parser.parse_args()
    ladder = [int(n) for n in args.ladder.split(",")]
    if args.variant:
        from ingredients import variant  # this folder's script: on the path when run as bench/budget.py

        register("variant", variant)

    def search(n: int) -> str:
        return f"variant:{n},{args.variant}" if args.variant else f"mcts:{n}"

    others = ("greedy",) * (args.players - 2)
    reports: list[dict[str, Any]] = []
    against_greedy: dict[int, PlayerStats] = {}
    worse: list[str] = []
    for k, n in enumerate(ladder):
        if args.only != "next":
            _, stats, report = match((search(n), "greedy", *others), args)
            against_greedy[n] = stats
            reports.append(report)
            interval = stats.win_rate_ci95_deals
            print(line(f"{search(n)} vs greedy", stats.win_rate, interval, stats.mean_score), flush=True)
            below = [m for m in ladder[:k] if interval[1] < against_greedy[m].win_rate_ci95_deals[0]]
            if below:  # against any smaller budget, not only the one before: a slow slide is a fall too
                worse.append(f"{search(n)} against greedy is below {', '.join(map(search, below))}")
        if args.only != "greedy" and k + 1 < len(ladder):
            outcomes, stats, report = match((search(ladder[k + 1]), search(n), *others), args)
            rate, interval = head_to_head(outcomes)
            reports.append(
                {**report, "head_to_head": round(rate, 4), "head_to_head_ci95": [round(x, 4) for x in interval]}
            )
            print(line(f"{search(ladder[k + 1])} vs {search(n)}", rate, interval, stats.mean_score), flush=True)
            if interval[1] < 1 / 2:
                worse.append(f"{search(ladder[k + 1])} loses to {search(n)}")
        if args.out is not None:  # after every step, so that a long ladder stopped early keeps what it played
            args.out.write_text(
                json.dumps({"edition": args.edition, "players": args.players, "matches": reports}) + "\n"
            )
    for text in worse:
        print("significantly worse:", text)
    if not worse:
        print("no step of the ladder is significantly worse than a smaller budget")


if __name__ == "__main__":
    main()
