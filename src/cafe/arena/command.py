"""``cafe arena``: the command line of the arena."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cafe.errors import CafeError
from cafe.i18n import T, _, n_


def player_help() -> str:
    """The help text naming every kind of player a command line accepts (cafe.ai.levels.make_player)."""
    return _(
        "a player: random, greedy, mcts (1 s a turn), mcts:0.5s, mcts:250ms, mcts:2000 (iterations a turn), "
        "learned:BUDGET (the search with the learned evaluation), learned:FILE:BUDGET (the same with the policy "
        "prior in FILE), net:FILE:BUDGET (the search valuing by a value network), prior:FILE:BUDGET (the search "
        "guided by a policy prior), easy, medium, hard, expert, master, "
        "ismcts:N (OpenSpiel's ISMCTS, N simulations a step), or cmd:COMMAND (an engine speaking docs/engine.md)"
    )


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "arena",
        help=_("play many seeded games between players and measure them"),
        description=_(
            "Plays deals in duplicate: every player takes every seat once per deal, over the same bag, so the "
            "luck of the draw cancels out.  Games run in parallel over the machine's cores."
        ),
    )
    p.add_argument("players", nargs="+", metavar="PLAYER", help=player_help())
    p.add_argument("--games", type=int, default=20, help=_("games to play, rounded up to whole deals (default 20)"))
    p.add_argument("--edition", choices=["board", "cards"], default="board", help=_("board (default) or cards"))
    p.add_argument("--rules", default=None, help=_("a preset name or a JSON rules object (default: printed)"))
    p.add_argument("--seed", type=int, default=0, help=_("the first deal's seed (default 0)"))
    p.add_argument("--jobs", type=int, default=None, help=_("parallel games (default: the machine's cores)"))
    p.add_argument(
        "--cluster",
        metavar="RAY",
        help=_(
            "play the games as tasks of a Ray cluster: ray (one started on this machine, or RAY_ADDRESS) or "
            "ray://HOST:PORT; an outside engine (cmd:) must be installed on every worker"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object instead of the table"))
    p.add_argument(
        "--plot", metavar="FILE", help=_("write score distributions and ratings to an image (png, svg, pdf)")
    )
    p.add_argument("--records", metavar="DIR", help=_("save every game's record in this folder"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cafe.arena.report import plot, table, to_json
    from cafe.arena.run import ArenaPlan, check_players, names_of
    from cafe.arena.stats import endings, player_stats
    from cafe.options import rules_from_text

    check_players(args.edition, args.players)
    if args.games < 1:
        raise CafeError(T("--games must be at least 1"))
    rules = rules_from_text(args.edition, args.rules)
    plan = ArenaPlan(tuple(args.players), args.games, args.edition, args.seed, rules)
    outcomes = _run_with_progress(plan, args)
    stats = player_stats(names_of(plan.players), outcomes)
    if args.plot:
        games = len(outcomes)
        title = (n_("{n} board game", "{n} board games", games) if plan.edition == "board"
                 else n_("{n} card game", "{n} card games", games))  # fmt: skip
        plot(stats, Path(args.plot), title)
    if args.json:
        print(json.dumps(to_json(plan, stats, len(outcomes), endings(outcomes)), indent=2))
    else:
        from rich.console import Console

        console = Console()
        if not console.is_terminal:  # a file or a pipe: wide enough for every column
            console = Console(width=120)
        console.print(table(plan, stats, len(outcomes), endings(outcomes)))
    return 0


def _run_with_progress(plan: Any, args: argparse.Namespace) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cafe.arena.match import PlayerError
    from cafe.arena.run import run_arena

    records = Path(args.records) if args.records else None
    columns = (TextColumn(_("games")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("games", total=len(plan.tasks()))
        try:
            return run_arena(
                plan, args.jobs, records, lambda done, _total: progress.update(task, completed=done), args.cluster
            )
        except PlayerError as error:
            raise CafeError(str(error)) from None
