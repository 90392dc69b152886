"""``cafe train --prior``: one iteration of the policy prior: the search's roots in self-play, a fit to their visit
shares (or their values' softmax, ``--target values``), and a match against the prior it would replace.

Self-play games are played by the search at a fixed count (``--player mcts:N``, or the master's search, ``learned:N``)
with its root by points, or, given the prior it would replace (``--previous FILE``), with its root chosen and shared
out by that prior, as AlphaZero's self-play searches with its current network; at every root, the turns it weighed,
the iterations it gave each and their values (cafe.train.prior_games). ``--edition`` plays and fits one edition's
kinds alone, on the seeds they have when all are played. The prior's weights for each kind of game are fitted to
those shares (cafe.train.prior_fit), every fifth game held out to choose the penalty and to measure the fit; the
previous prior's weights for the kinds not fitted are kept. With ``--match N``, the search with the new prior then
plays N duplicate deals of each kind fitted against the same search as it played before (the previous prior's, or
as ``--player`` names it: the plain search, or the master as it plays), and the file is written only if it won more
than a fair share over them (otherwise the prior is saved as ``NAME.rejected.npz``, for study).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cafe.errors import CafeError
from cafe.i18n import T, _
from cafe.train.chunks import HELD_OUT, SETS, chunks, play_chunks
from cafe.train.trial import check_settings, keep_if_better, kind_words, rejected, win_rates

if TYPE_CHECKING:
    from cafe.ai.prior import TurnPrior

CHUNK = 5  # games a worker plays before it sends its roots back
SEARCHES = ("mcts", "learned")  # the self-play search: the plain one, or the master's


def run_prior(args: argparse.Namespace) -> int:
    from cafe.ai.prior import FEATURES, TurnPrior
    from cafe.train.prior_fit import agreement, best_fit, mean_cross_entropy
    from cafe.train.prior_games import Roots, play_roots

    search_kind, iterations = _check(args)
    previous = _previous(args.previous)
    before = searched_with(search_kind, args.previous, str(iterations))  # the search as it plays before this iteration
    started = time.perf_counter()
    sets = [(edition, players) for edition, players in SETS if args.edition in (None, edition)]
    # every game on the seed it has when both editions are played: one edition alone fits the same weights
    played = [part for part in chunks(args.games, args.seed, CHUNK) if (part[0], part[1]) in sets]
    parts: dict[tuple[str, bool], list[Roots]] = {}
    for (edition, players, _seeds, kept_out), roots in play_chunks(
        play_roots, played, (before, previous is None), args.jobs
    ):
        parts.setdefault((f"{edition}{players}", kept_out), []).append(roots)
    weights = {} if previous is None else dict(previous.weights)  # the kinds not fitted keep the previous weights
    figures: dict[str, dict[str, Any]] = {}
    by_points = np.eye(len(FEATURES))[0]  # the plain search's order: the turn scoring most first
    for edition, players in sets:
        kind = f"{edition}{players}"
        fitted, held = (Roots.join(parts[kind, kept_out]) for kept_out in (False, True))
        weights[kind], penalty = best_fit(fitted, held, args.penalty, args.target)
        figures[kind] = {
            "roots": len(fitted.features), "penalty": penalty,
            "cross_entropy": round(mean_cross_entropy(held, weights[kind], args.target), 4),
            "cross_entropy_uniform": round(mean_cross_entropy(held, 0 * weights[kind], args.target), 4),
            "agreement": round(agreement(held, weights[kind]), 4),
            "agreement_by_points": round(agreement(held, by_points), 4),
        }  # fmt: skip
        print(_("{kind}: {roots} searches; in the held-out games the turn the prior favours was the one the search "
                "gave most thought in {agree:.1%} of them (the best-scoring turn: {points:.1%})",
                kind=kind_words(edition, players),
                roots=figures[kind]["roots"], agree=figures[kind]["agreement"],
                points=figures[kind]["agreement_by_points"]))  # fmt: skip
    about: dict[str, Any] = {
        "command": f"cafe train --prior --games {args.games} --seed {args.seed} --player {args.player}"
        + (f" --penalty {args.penalty}" if args.penalty is not None else "")
        + (f" --edition {args.edition}" if args.edition is not None else "")
        + (f" --target {args.target}" if args.target != "visits" else "")
        + (f" --previous {args.previous}" if args.previous is not None else ""),
        "features": list(FEATURES),
        "held_out": figures,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if previous is not None:
        about["previous"] = previous.about  # how the weights kept from it were made
    out = Path(args.out)
    if not args.match:
        TurnPrior(weights, about).save(out)
        print(_("written: {path}", path=str(out)))
        return 0

    def rates_of(candidate: Path) -> dict[str, float]:
        return win_rates(searched_with(search_kind, str(candidate), str(iterations)), before, sets, args)

    better = keep_if_better(out, sets, about, started, TurnPrior(weights, about).save, rates_of)
    for (edition, players), rate in zip(sets, about["match"].values(), strict=True):
        print(_("{kind}: the search with the new prior won {rate:.1%} (a fair share: {fair:.1%})",
                kind=kind_words(edition, players), rate=rate, fair=1 / players))  # fmt: skip
    if better:
        print(_("written: {path}", path=str(out)))
    else:
        print(_("not written: the prior was not better (saved for study, with its match's figures, as {path})",
                path=str(rejected(out))))  # fmt: skip
    return 0


def _check(args: argparse.Namespace) -> tuple[str, int]:
    """The self-play search (``mcts`` or ``learned``) and its iterations a turn, once the arguments are checked."""
    try:
        import scipy  # noqa: F401
    except ModuleNotFoundError:
        raise CafeError(T("fitting the policy prior needs scipy: pip install 'cafe-international[train]'")) from None
    if args.games < HELD_OUT:
        raise CafeError(
            T("with --prior, --games must be at least {least} (every fifth game is held out)", least=HELD_OUT)
        )
    search_kind, iterations = check_settings(
        args,
        T("with --prior, --player is the search or the master's search at a number of iterations, such as mcts:200 "
          "or learned:2000"),
        SEARCHES,
    )  # fmt: skip
    return search_kind, iterations


def _previous(path: str | None) -> TurnPrior | None:
    """The prior in ``path``, or None without one."""
    from cafe.ai.levels import load_model

    prior: TurnPrior | None = None if path is None else load_model("prior", path)
    return prior


def searched_with(search_kind: str, prior: str | None, budget: str) -> str:
    """The player string of the search of ``search_kind`` (``mcts`` or ``learned``) at ``budget``, with the prior in
    the file ``prior`` at its root (cafe.ai.levels), or as it plays without one."""
    if prior is None:
        return f"{search_kind}:{budget}"
    return f"{'prior' if search_kind == 'mcts' else 'learned'}:{prior}:{budget}"
