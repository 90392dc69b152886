"""``cafe selfplay``: training data from games of one player against itself, as Parquet shards."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cafe.errors import CafeError
from cafe.i18n import T, _


def add_parser(sub: Any) -> None:
    from cafe.arena.command import player_help

    p = sub.add_parser(
        "selfplay",
        help=_("record games of a player against itself as training data (Parquet shards)"),
        description=_(
            "Plays games with the same player in every seat and keeps, for every step it chose, the mover's "
            "observation and legal actions, the search's visit shares and value, and every player's final score "
            "margin (docs/research.md).  Run it again with the same settings to finish an interrupted run."
        ),
    )
    p.add_argument("--player", required=True, help=player_help())
    p.add_argument("--games", type=int, required=True, help=_("games to play"))
    p.add_argument("--out", required=True, metavar="DIR", help=_("the folder of the shards"))
    p.add_argument("--edition", choices=["board", "cards"], default="board", help=_("board (default) or cards"))
    p.add_argument("--players", type=int, default=2, help=_("players in every game (default 2)"))
    p.add_argument("--rules", default=None, help=_("a preset name or a JSON rules object (default: printed)"))
    p.add_argument("--seed", type=int, default=0, help=_("the first game's seed (default 0)"))
    p.add_argument("--shard-games", type=int, default=25, help=_("games in each shard (default 25)"))
    p.add_argument("--jobs", type=int, default=None, help=_("parallel shards (default: the machine's cores)"))
    p.add_argument(
        "--cluster",
        metavar="RAY",
        help=_(
            "play the shards as tasks of a Ray cluster: ray (one started on this machine, or RAY_ADDRESS) or ray://HOST:PORT"
        ),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cafe.arena.run import check_players
    from cafe.options import rules_from_text
    from cafe.selfplay.shards import Run, prepare, write_shard

    check_players(args.edition, [args.player] * args.players)
    if args.games < 1 or args.shard_games < 1:
        raise CafeError(T("--games and --shard-games must be at least 1"))
    rules = rules_from_text(args.edition, args.rules)
    plan = Run(args.player, args.games, args.edition, args.players, args.seed, args.shard_games, rules)
    folder = Path(args.out)
    todo = prepare(folder, plan)
    columns = (TextColumn(_("shards")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("shards", total=plan.shards, completed=plan.shards - len(todo))
        for shard, data in _played(plan, todo, args.jobs, args.cluster):
            write_shard(folder, shard, data)
            progress.advance(task)
    print(_("done: {folder} (games: {games}, shards: {n})", folder=str(folder), games=plan.games, n=plan.shards))
    return 0


def _played(plan: Any, todo: list[int], jobs: int | None, cluster: str | None) -> Iterator[tuple[int, bytes]]:
    from cafe.parallel import as_finished
    from cafe.selfplay.shards import play_shard

    if not todo:
        return
    if cluster is not None:
        from cafe.cluster import connect, run

        connect(cluster)
        yield from run(play_shard, [(plan, shard) for shard in todo])
        return
    yield from as_finished(play_shard, [(plan, shard) for shard in todo], jobs)
