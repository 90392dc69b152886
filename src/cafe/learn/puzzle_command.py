"""``cafe puzzles`` (list the shipped puzzles, or ``make`` them anew) and ``cafe puzzle`` (solve them in the
terminal)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from cafe.errors import CafeError
from cafe.i18n import T, _, n_, translate

if TYPE_CHECKING:
    from cafe.learn.puzzles import Runner

DEFAULT_BUDGET = 32  # the mining budget of the shipped puzzles; they are confirmed at 8 times it


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "puzzles",
        help=_("list puzzles (positions where one turn is clearly best), or make them anew"),
        description=_(
            "Prints shipped puzzles: the mover's view (which cafe.view.view_from_json loads), the mover, the "
            "accepted answers in notation, the theme and the margin in points (docs/puzzles.md)."
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object per line"))
    p.add_argument("--count", type=int, default=10, help=_("how many puzzles (default 10)"))
    p.add_argument("--edition", choices=["board", "cards"], default=None, help=_("board or cards (default: both)"))
    p.add_argument("--seed", type=int, default=None, help=_("seed of the choice (default: a new choice every time)"))
    p.set_defaults(run=run_list)
    make = p.add_subparsers(dest="action", metavar="ACTION").add_parser(
        "make",
        help=_("mine puzzles from games of the computer players"),
        description=_(
            "Plays games of the computer players from seeds and keeps the positions where the search finds one "
            "whole turn better than every other by a clear margin, confirmed at a budget 8 times larger. "
            "The same settings give the same file."
        ),
    )
    make.add_argument("--edition", choices=["board", "cards"], default="board", help=_("board (default) or cards"))
    make.add_argument("--games", type=int, required=True, help=_("games to play"))
    make.add_argument("--seed", type=int, default=0, help=_("the first game's seed (default 0)"))
    make.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET,
        help=_("iterations below each candidate turn (default {n})", n=DEFAULT_BUDGET),
    )  # fmt: skip
    make.add_argument("--out", required=True, metavar="FILE", help=_("the puzzle file to write (.json.gz)"))
    make.add_argument("--jobs", type=int, default=None, help=_("processes (default: the cores)"))
    make.add_argument(
        "--cluster",
        metavar="RAY",
        help=_("mine the games as tasks of a Ray cluster: ray (one started on this machine, or RAY_ADDRESS) or "
               "ray://HOST:PORT"),
    )  # fmt: skip
    make.set_defaults(run=run_make)

    q = sub.add_parser("puzzle", help=_("solve puzzles in the terminal: find the clearly best turn"))
    q.add_argument("--edition", choices=["board", "cards"], default=None, help=_("board or cards (default: both)"))
    q.add_argument("--seed", type=int, default=None, help=_("seed of the choice (default: a new choice every time)"))
    q.set_defaults(run=run_play)


def run_list(args: argparse.Namespace) -> int:
    from cafe.learn.puzzle_mining import THEME_WORDS
    from cafe.learn.puzzles import pick

    for puzzle in pick(args.count, args.edition, args.seed):
        if args.json:
            print(json.dumps(puzzle.to_json(), ensure_ascii=False))
        else:
            theme = translate(THEME_WORDS[puzzle.theme])
            print(f"{puzzle.id:<10} {theme:<24} {puzzle.margin:>6.1f}  {' / '.join(puzzle.answers)}")
    return 0


def run_make(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cafe.learn.puzzles import Plan, make, write

    if args.games < 1 or args.budget < 1 or (args.jobs is not None and args.jobs < 1):
        raise CafeError(T("--games, --budget and --jobs must be at least 1"))
    plan = Plan(args.edition, args.games, args.seed, args.budget)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[kept]}"),
               TimeRemainingColumn())  # fmt: skip
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        tasks = {"games": progress.add_task(_("games"), total=plan.games, kept=""),
                 "check": progress.add_task(_("checked again"), total=None, kept="")}  # fmt: skip

        def show(stage: str, done: int, total: int, kept: int) -> None:
            progress.update(tasks[stage], completed=done, total=total, kept=n_("{n} puzzle", "{n} puzzles", kept))

        puzzles, analysed = make(plan, _runner(args.jobs, args.cluster), show)
    write(Path(args.out), plan, puzzles, analysed)
    print(_("done: {path} ({kept} puzzles from {analysed} positions of {games} games)", path=args.out,
            kept=len(puzzles), analysed=analysed, games=plan.games))  # fmt: skip
    return 0


def _runner(jobs: int | None, cluster: str | None) -> Runner:
    """How the games are spread: over this machine's processes, or as tasks of a Ray cluster."""
    if cluster is None:
        from cafe.parallel import as_finished

        return lambda function, calls: as_finished(function, calls, jobs)
    from cafe.cluster import connect, run

    connect(cluster)
    return run


def run_play(args: argparse.Namespace) -> int:
    from cafe.learn.puzzles import pick

    puzzles = pick(1_000_000, args.edition, args.seed)
    if not puzzles:
        raise CafeError(T("no puzzles are installed"))
    return play(puzzles, sys.stdin, sys.stdout)


def play(puzzles: Sequence[Any], source: TextIO, out: TextIO) -> int:
    """Show each puzzle, read a turn, say whether it was the best one and why; an empty line or 'q' ends."""
    from cafe.learn.puzzle_mining import THEME_WORDS
    from cafe.learn.puzzles import check
    from cafe.play.session import read_step
    from cafe.steps import format_turn
    from cafe.text import view_text

    solved = tried = 0
    for puzzle in puzzles:
        view = puzzle.position()
        print(view_text(view), file=out)
        name = view.players[puzzle.mover]
        if puzzle.edition == "cards":  # the answer ends at a new table card: what follows, nobody can know yet
            print(_("Puzzle {id}: {name} to play. Find the clearly best turn; if a full table brings a new table card, "
                    "the turn ends there (steps joined by commas; an empty line ends).", id=puzzle.id, name=name),
                  file=out)  # fmt: skip
        else:
            print(_("Puzzle {id}: {name} to play. Find the clearly best whole turn (steps joined by commas; "
                    "an empty line ends).", id=puzzle.id, name=name), file=out)  # fmt: skip
        while True:
            print("> ", end="", file=out, flush=True)
            line = source.readline().strip()
            if line in ("", "q"):
                print(_("Solved {solved} of {tried}.", solved=solved, tried=tried), file=out)
                return 0
            try:
                turn = format_turn([read_step(part) for part in line.split(",")])
                right = check(puzzle, turn)
            except CafeError as error:
                print(error, file=out)
                continue
            break
        tried += 1
        solved += right
        print(_("Right!") if right else _("Not the best turn."), file=out)
        print(_("Solution: {answer} (theme: {theme}; {margin:.1f} points better than any other turn). {reason}",
                answer=" / ".join(puzzle.answers), theme=translate(THEME_WORDS[puzzle.theme]),
                margin=puzzle.margin, reason=puzzle.reason()), file=out)  # fmt: skip
        print(file=out)
    print(_("Solved {solved} of {tried}.", solved=solved, tried=tried), file=out)
    return 0
