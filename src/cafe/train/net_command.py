"""``cafe train --net``: one iteration of the value network: self-play, fit, and a match against the previous.

Self-play games are played by the search at a fixed count (``--player mcts:N``), valuing its leaves by the lead or,
with ``--previous``, by the previous network; their positions and targets (cafe.train.net_games: TD(λ) returns, or
with ``--target search`` the values the search found) are fitted by a network (cafe.train.net_fit), every fifth game
held out to choose the weight penalty and to measure it; an edition no fit predicts better than the lead gets no
network. With ``--match N``, the new network's search then plays N duplicate deals of each kind against the previous
one's (or against the plain search), and the file is written only if it won more than a fair share over them (an
edition neither values by a network is not played).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cafe.errors import CafeError
from cafe.i18n import T, _
from cafe.train.chunks import HELD_OUT, SETS, chunks, play_chunks
from cafe.train.trial import check_settings, keep_if_better, kind_words, rejected, win_rates

CHUNK = 5  # games a worker plays before it sends its positions back
TD, SEARCHED = "td", "search"  # the targets (cafe.train.net_games): each seat's TD(λ) return, or the searched value
TARGETS = (TD, SEARCHED)


def add_arguments(p: Any) -> None:
    group = p.add_argument_group(_("the value network (--net)"))
    group.add_argument("--net", action="store_true",
                       help=_("fit the value network (cafe.ai.valuenet) instead of the linear correction"))  # fmt: skip
    group.add_argument("--previous", metavar="FILE",
                       help=_("the model the new one would replace: with --net, the network the self-play search "
                              "values its leaves by (default: the lead); with --prior, the prior the self-play search "
                              "chooses its root's turns by (default: none, the best-scoring turns), whose weights the "
                              "new file keeps for the kinds of game not fitted"))  # fmt: skip
    group.add_argument(
        "--lam",
        type=float,
        default=0.9,
        help=_("λ of the targets' TD(λ) returns (1: the final margins alone; default 0.9)"),
    )
    group.add_argument("--hidden", type=int, default=64, help=_("hidden units (default 64)"))
    group.add_argument(
        "--match",
        type=int,
        default=0,
        metavar="N",
        help=_(
            "then N deals of each kind against the previous model (without --previous: with --net, against the "
            "plain search; with --prior, against the search --player names, as it plays); written only if better"
        ),
    )


def run_net(args: argparse.Namespace) -> int:
    from cafe.ai.valuenet import ValueNet
    from cafe.train.net_fit import best_fit, rms_error
    from cafe.train.net_games import Positions, play_positions  # numpy: loaded when fitting

    iterations = _check(args)
    started = time.perf_counter()
    previous = Path(args.previous) if args.previous else None
    parts: dict[tuple[str, bool], list[Positions]] = {}
    settings = (iterations, args.lam, previous, args.target == SEARCHED)
    for (edition, _players, _seeds, kept_out), positions in play_chunks(
        play_positions, list(chunks(args.games, args.seed, CHUNK)), settings, args.jobs
    ):
        parts.setdefault((edition, kept_out), []).append(positions)
    layers: dict[str, Any] = {}
    held_out: dict[str, dict[str, Any]] = {}
    for edition in ("board", "cards"):
        fitted, held = (Positions.join(parts[edition, kept_out]) for kept_out in (False, True))
        best, penalty = best_fit(fitted, held, args.hidden, args.penalty, args.seed)
        if best is not None:
            layers[edition] = best
        held_out[edition] = {"net": rms_error(best, held), "lead": rms_error(None, held), "penalty": penalty,
                             "rows": len(fitted.targets),
                             "targets": {"net": rms_error(best, held, held.targets),
                                         "lead": rms_error(None, held, held.targets)}}  # fmt: skip
    about: dict[str, Any] = {
        "command": " ".join(_command(args)),
        "target": args.target,
        "lam": args.lam,
        "held_out_rms": held_out,
        "seconds": round(time.perf_counter() - started, 1),
    }
    for edition, figures in held_out.items():
        print(_("{edition}: {rows} positions; final margin of held-out games predicted within {after:.1f} points "
                "(the lead alone: {before:.1f})", edition=edition, rows=figures["rows"], after=figures["net"],
                before=figures["lead"]))  # fmt: skip
    out = Path(args.out)
    if not args.match:
        ValueNet(layers, about).save(out)
        print(_("written: {path}", path=str(out)))
        return 0
    previous_net = ValueNet.load(previous) if previous else None
    kinds = [(e, n) for e, n in SETS if e in layers or (previous_net is not None and e in previous_net.layers)]
    if not kinds:  # the same play as before in every kind: nothing to match
        print(_("not written: no network predicted the held-out games better than the lead"))
        return 0
    other = f"net:{args.previous}:{iterations}" if args.previous else f"mcts:{iterations}"

    def rates_of(candidate: Path) -> dict[str, float]:
        return win_rates(f"net:{candidate}:{iterations}", other, kinds, args)

    better = keep_if_better(out, kinds, about, started, ValueNet(layers, about).save, rates_of)
    for (edition, players), rate in zip(kinds, about["match"].values(), strict=True):
        print(_("{kind}: the new network won {rate:.1%} (a fair share: {fair:.1%})",
                kind=kind_words(edition, players), rate=rate, fair=1 / players))  # fmt: skip
    if better:
        print(_("written: {path}", path=str(out)))
    else:
        print(_("not written: the new network was not better (saved for study, with its match's figures, as {path})",
                path=str(rejected(out))))  # fmt: skip
    return 0


def _check(args: argparse.Namespace) -> int:
    """The self-play search's iterations a turn, once the arguments are checked."""
    try:
        import sklearn  # noqa: F401
    except ModuleNotFoundError:
        raise CafeError(
            T("fitting the value network needs scikit-learn: pip install 'cafe-international[train]'")
        ) from None
    if args.games < HELD_OUT:
        raise CafeError(
            T("with --net, --games must be at least {least} (every fifth game is held out)", least=HELD_OUT)
        )
    if args.hidden < 1:
        raise CafeError(T("--hidden must be at least 1"))
    if not 0 <= args.lam <= 1:
        raise CafeError(T("--lam must be between 0 and 1"))
    if args.previous is not None and not Path(args.previous).is_file():
        raise CafeError(T("no network file {path}", path=args.previous))
    return check_settings(args, T("with --net, --player is the search at a number of iterations, such as mcts:200"))[1]


def _command(args: argparse.Namespace) -> list[str]:
    words = ["cafe train --net", f"--games {args.games}", f"--seed {args.seed}", f"--player {args.player}",
             f"--hidden {args.hidden}", f"--target {args.target}", f"--lam {args.lam}"]  # fmt: skip
    if args.penalty is not None:
        words.append(f"--penalty {args.penalty}")
    if args.previous:
        words.append(f"--previous {args.previous}")
    return words
