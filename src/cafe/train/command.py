"""``cafe train``: play self-play games, fit the master's learned correction, write the model file."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cafe.errors import CafeError
from cafe.i18n import T, _
from cafe.train.chunks import SETS, chunks, in_seed_order
from cafe.train.net_command import add_arguments as add_net_arguments

CHUNK = 10  # games a worker plays before it sends its sums back
TARGETS = ("visits", "values")  # what the policy prior may learn: cafe.train.prior_games.Roots.shares


def add_parser(sub: Any) -> None:
    from cafe.arena.command import PLAYER_HELP

    p = sub.add_parser(
        "train",
        help=_("make the master's learned evaluation again from self-play"),
        description=_(
            "Plays self-play games (2- and 4-player board games, 2-player card games), fits the correction the "
            "master adds to a position's lead by ridge regression, and writes the model file "
            "(docs/players.md).  The same settings give the same weights."
        ),
    )
    p.add_argument("--out", required=True, metavar="FILE", help=_("the model file to write (.npz)"))
    p.add_argument("--player", default="mcts:100", help=PLAYER_HELP + _(" (default mcts:100)"))
    p.add_argument("--games", type=int, default=600, help=_("games of each kind (default 600)"))
    p.add_argument("--seed", type=int, default=0, help=_("the first game's seed (default 0)"))
    p.add_argument(
        "--penalty",
        type=float,
        default=None,
        help=_(
            "the ridge penalty (default: of 0.0001, 0.001 ... 1, the one best on the held-out games, or no "
            "correction if none beats the lead there); with --net, the network's weight penalty (default: of 0.01, "
            "0.1 and 1, the one best on the held-out games, or no network if none beats the lead there); with --prior, "
            "the prior's weight penalty (default: of 0.001, 0.01 and 0.1, the one best on the held-out games)"
        ),
    )
    p.add_argument("--jobs", type=int, default=None, help=_("parallel processes (default: the machine's cores)"))
    add_net_arguments(p)
    prior = p.add_argument_group(_("the policy prior (--prior)"))
    prior.add_argument(
        "--prior",
        action="store_true",
        help=_("fit the policy prior over whole turns (cafe.ai.prior) to the search's visits instead; with --match, "
               "against the plain search"),
    )  # fmt: skip
    prior.add_argument(
        "--target",
        choices=TARGETS,
        default="visits",
        help=_("what the prior learns at each of the search's roots: how many iterations the search gave each turn "
               "(visits, the default), or what each turn was worth, a point of lead less dividing its share by e "
               "(values)"),
    )  # fmt: skip
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.net and args.prior:
        raise CafeError(T("--net and --prior fit different models: give one of them"))
    if args.target != "visits" and not args.prior:
        raise CafeError(T("--target chooses what the policy prior learns: give it with --prior"))
    if args.net:
        from cafe.train.net_command import run_net

        return run_net(args)
    if args.prior:
        from cafe.train.prior_command import run_prior

        return run_prior(args)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cafe.ai.learned import EDITIONS, ValueModel
    from cafe.arena.run import check_players
    from cafe.parallel import as_finished
    from cafe.train.fit import best_fit, ridge, rms
    from cafe.train.positions import Sums

    for edition, players in SETS:
        check_players(edition, [args.player] * players)
    if args.games < 2:
        raise CafeError(T("--games must be at least 2 (one game is held out to measure the fit)"))
    if args.penalty is not None and args.penalty < 0:
        raise CafeError(T("--penalty must not be negative"))
    out = Path(args.out)
    if not out.parent.is_dir():
        raise CafeError(T("no folder {folder} to write the model in", folder=str(out.parent)))
    started = time.perf_counter()
    parts: dict[tuple[str, bool], dict[int, Sums]] = {}  # by the chunk's first seed
    tasks = _tasks(args.player, args.games, args.seed)
    columns = (TextColumn(_("games")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task("games", total=len(SETS) * args.games)
        for (edition, _players, seeds, kept_out), sums in as_finished(_play_chunk, tasks, args.jobs):
            parts.setdefault((edition, kept_out), {})[seeds[0]] = sums
            progress.advance(bar, len(seeds))
    fitted = {e: Sums.empty(e) for e in EDITIONS}
    held = {e: Sums.empty(e) for e in EDITIONS}
    for (edition, kept_out), by_seed in parts.items():
        for sums in in_seed_order(by_seed):  # sums of floats: the same order, the same model to the last bit
            (held if kept_out else fitted)[edition].add(sums)
    fits = {
        e: (ridge(fitted[e], args.penalty), args.penalty) if args.penalty is not None else best_fit(fitted[e], held[e])
        for e in EDITIONS
    }
    weights = {e: fit[0] for e, fit in fits.items()}
    held_out = {e: {"lead": rms(held[e], 0 * weights[e]), "corrected": rms(held[e], weights[e])} for e in EDITIONS}
    about: dict[str, Any] = {
        "command": f"cafe train --player {args.player} --games {args.games} --seed {args.seed}"
        + (f" --penalty {args.penalty}" if args.penalty is not None else ""),
        "penalty": {e: fit[1] for e, fit in fits.items()},  # None: no correction predicted the held-out games
        "sets": [f"{e}-{p}" for e, p in SETS],
        "rows": {e: fitted[e].rows for e in EDITIONS},
        "held_out_rms": held_out,
        "seconds": round(time.perf_counter() - started, 1),
    }
    ValueModel(weights, about).save(out)
    for e in EDITIONS:
        print(
            _(
                "{edition}: {rows} positions; final margin of held-out games predicted within {after:.1f} points "
                "(the lead alone: {before:.1f})",
                edition=e,
                rows=fitted[e].rows,
                after=held_out[e]["corrected"],
                before=held_out[e]["lead"],
            )
        )
    print(_("written: {path}", path=str(out)))
    return 0


Task = tuple[str, int, list[int], bool]


def _tasks(player: str, games: int, seed: int) -> list[tuple[str, Task]]:
    """Chunks of games by kind, some held out of the fit (cafe.train.chunks)."""
    return [(player, chunk) for chunk in chunks(games, seed, CHUNK)]


def _play_chunk(player: str, task: Task) -> tuple[Task, Any]:
    """One chunk's games as sums, with the chunk they came from."""
    from cafe.train.positions import play_games

    return task, play_games(player, *task[:3])
