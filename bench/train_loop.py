"""The training loop of the value network or of the policy prior, and its learning curve against the expert's search.

    python bench/train_loop.py --folder DIR [--prior] [--iterations 3] [--player mcts:200] [--games 300]
                               [--match 20] [--target T] [--edition board|cards] [--previous FILE]
                               [--against mcts:2000] [--budget 2000] [--curve-games 50] [--seed 0] [--jobs N]

Iteration k runs ``cafe train --net`` (with ``--prior``: ``cafe train --prior``) into ``DIR/net-k.npz`` (``prior-k``):
self-play by ``--player`` (with the model kept last, from the second iteration on, or from the first given
``--previous``), the fit, and ``--match`` deals of each kind against the model kept last (without one: against
``--player`` as it plays), keeping the new one only if it won more than a fair share.  Each new model kept then plays
``--curve-games`` games of each kind (duplicate deals, each deal in every seating) as ``net:FILE:BUDGET`` (a prior:
``prior:FILE:BUDGET``, or ``learned:FILE:BUDGET`` when ``--player`` is the master's search) against ``--against``
(the expert's search at the same count by default, so that the machine's speed plays no part; ``expert`` for the
level at 1 s a turn).  A model kept from an earlier iteration keeps its figures: at a count of iterations it would
play the very same games again.  The curve, with the CPU hours spent so far, goes to ``DIR/curve.json`` after each
iteration, and a table is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cafe.arena.run import ArenaPlan, names_of, run_arena
from cafe.arena.stats import player_stats
from cafe.train.chunks import SETS
from cafe.train.prior_command import searched_with

CURVE_SEEDS = 2_000_000  # the curve's deals start this far from self-play's and the gating match's seeds


def cpu_hours() -> float:
    """CPU time of this process and every finished child (the training commands and the arena's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime) / 3600


def train(args: argparse.Namespace, k: int, previous: Path | None) -> Path | None:
    """One iteration of ``cafe train --net`` or ``--prior``; the new model's file, or None if it was not better."""
    model = "prior" if args.prior else "net"
    out = args.folder / f"{model}-{k}.npz"
    command = [sys.executable, "-m", "cafe", "train", f"--{model}", "--player", args.player, "--games", str(args.games),
               "--seed", str(args.seed + k * 10_000), "--out", str(out)]  # fmt: skip
    for option in ("target", "edition", "jobs"):
        if getattr(args, option):
            command += [f"--{option}", str(getattr(args, option))]
    command += ["--match", str(args.match)]
    if previous is not None:
        command += ["--previous", str(previous)]
    subprocess.run(command, check=True)
    return out if out.exists() else None


def searched_with_model(model: Path, args: argparse.Namespace) -> str:
    """The player string of the search with ``model``: valuing by the network, or guided by the prior."""
    if not args.prior:
        return f"net:{model}:{args.budget}"
    return searched_with(args.player.partition(":")[0], str(model), args.budget)


def against_expert(model: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The model's search against ``--against`` in each kind of game trained: its win rate and interval."""
    rates = {}
    for k, (edition, players) in enumerate(SETS):
        if args.edition not in (None, edition):
            continue
        specs = (searched_with_model(model, args), *[args.against] * (players - 1))
        plan = ArenaPlan(specs, args.curve_games, edition, args.seed + CURVE_SEEDS + k * args.curve_games)
        first = player_stats(names_of(plan.players), run_arena(plan, args.jobs))[0]
        rates[f"{edition}-{players}"] = {"games": first.games, "win_rate": first.win_rate,
                                         "interval": list(first.win_rate_ci95_deals)}  # fmt: skip
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--prior", action="store_true", help="iterate the policy prior instead of the value network")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--player", default="mcts:200", help="the self-play search (default mcts:200)")
    parser.add_argument("--games", type=int, default=300, help="self-play games of each kind an iteration")
    parser.add_argument("--match", type=int, default=20, help="deals of each kind against the model kept last")
    parser.add_argument("--target", default=None, help="what the model learns (cafe train --target)")
    parser.add_argument("--edition", choices=("board", "cards"), default=None, help="train one edition alone")
    parser.add_argument("--previous", type=Path, default=None, help="the model the first iteration would replace")
    parser.add_argument("--against", default="mcts:2000", help="the curve's opponent (default mcts:2000)")
    parser.add_argument("--budget", default="2000", help="the network's search budget on the curve (default 2000)")
    parser.add_argument("--curve-games", type=int, default=50, help="the curve's games of each kind (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    curve: list[dict[str, Any]] = []
    kept: Path | None = args.previous
    started = time.perf_counter()
    for k in range(1, args.iterations + 1):
        made = train(args, k, kept)
        kept = made or kept
        point: dict[str, Any] = {"iteration": k, "kept": str(kept), "new_kept": made is not None}
        if made is not None:
            point["against"] = against_expert(made, args)
        elif curve and "against" in curve[-1]:  # the same network on the same deals plays the same games
            point["against"] = curve[-1]["against"]
        point["cpu_hours"] = round(cpu_hours(), 2)
        point["wall_hours"] = round((time.perf_counter() - started) / 3600, 2)
        curve.append(point)
        settings = {key: str(value) if isinstance(value, Path) else value for key, value in vars(args).items()}
        (args.folder / "curve.json").write_text(json.dumps({"settings": settings, "curve": curve}, indent=1) + "\n")
    print(f"{'iteration':>9}  {'kept':>5}  " + "  ".join(f"{kind:>22}" for kind in curve[0].get("against", {})))
    for point in curve:
        cells = [
            f"{r['win_rate']:6.1%} ({r['interval'][0]:.0%} to {r['interval'][1]:.0%})"
            for r in point.get("against", {}).values()
        ]
        print(
            f"{point['iteration']:>9}  {'new' if point['new_kept'] else 'old':>5}  "
            + "  ".join(f"{c:>22}" for c in cells)
        )


if __name__ == "__main__":
    main()
