"""``cafe train``: play self-play games, fit the master's learned correction, write the model file."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cafe.errors import CafeError
from cafe.i18n import T, _
from cafe.train.chunks import SETS, chunks, play_chunks
from cafe.train.net_command import TARGETS as NET_TARGETS
from cafe.train.net_command import add_arguments as add_net_arguments

CHUNK = 10  # games a worker plays before it sends its sums back
PRIOR_TARGETS = ("visits", "values")  # what the policy prior may learn: cafe.train.prior_games.Roots.shares
# the self-play player and games of each kind: the learned correction is fitted on cheap greedy games, as the
# shipped master's is; the value network and the policy prior learn from the search
CORRECTION_DEFAULTS = ("greedy", 2000)
MODEL_DEFAULTS = ("mcts:100", 600)


def add_parser(sub: Any) -> None:
    from cafe.arena.command import player_help

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
    (player, games), (model_player, model_games) = CORRECTION_DEFAULTS, MODEL_DEFAULTS
    default_player = _(" (default {player}; with --net or --prior, {model})", player=player, model=model_player)
    p.add_argument("--player", default=None, help=player_help() + default_player)
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help=_("games of each kind (default {games}; with --net or --prior, {model})", games=games, model=model_games),
    )
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
    p.add_argument(
        "--edition",
        choices=("board", "cards"),
        default=None,
        help=_("fit the correction for one edition alone, board or cards (default: both); the other edition's games "
               "are not played and its correction is zero, so the master values its positions there by the lead, as "
               "the expert does; with --prior, the prior is fitted for that edition alone and the search keeps its "
               "best-scoring turns in the other"),
    )  # fmt: skip
    p.add_argument("--jobs", type=int, default=None, help=_("parallel processes (default: the machine's cores)"))
    p.add_argument(
        "--target",
        choices=(*NET_TARGETS, *PRIOR_TARGETS),
        default=None,
        help=_("what the model learns: with --net, each seat's TD(λ) return (td, the default) or the value the "
               "self-play search found for the turn it played (search); with --prior, how many iterations the search "
               "gave each turn at its root (visits, the default) or what each turn was worth, a point of lead less "
               "dividing its share by e (values)"),
    )  # fmt: skip
    add_net_arguments(p)
    prior = p.add_argument_group(_("the policy prior (--prior)"))
    prior.add_argument(
        "--prior",
        action="store_true",
        help=_("fit the policy prior over whole turns (cafe.ai.prior) to the search's visits instead"),
    )  # fmt: skip
    p.set_defaults(run=run)


def _check_target(args: argparse.Namespace) -> None:
    """Refuse a target the chosen model cannot learn; set the model's default where none is given."""
    if args.target is None:
        args.target = NET_TARGETS[0] if args.net else PRIOR_TARGETS[0]
    elif args.net and args.target not in NET_TARGETS:
        raise CafeError(T("with --net, --target is td or search"))
    elif args.prior and args.target not in PRIOR_TARGETS:
        raise CafeError(T("with --prior, --target is visits or values"))
    elif not (args.net or args.prior):
        raise CafeError(T("--target chooses what the value network or the policy prior learns: give it with --net or "
                          "--prior"))  # fmt: skip


def fill_defaults(args: argparse.Namespace) -> None:
    """The self-play player and number of games the chosen model is made from, where none is given."""
    player, games = MODEL_DEFAULTS if args.net or args.prior else CORRECTION_DEFAULTS
    args.player = player if args.player is None else args.player
    args.games = games if args.games is None else args.games


def run(args: argparse.Namespace) -> int:
    if args.net and args.prior:
        raise CafeError(T("--net and --prior fit different models: give one of them"))
    if args.edition is not None and args.net:
        raise CafeError(T("--edition chooses the edition of the learned correction or of the policy prior; the value "
                          "network is fitted for both"))  # fmt: skip
    _check_target(args)
    fill_defaults(args)
    if args.net:
        from cafe.train.net_command import run_net

        return run_net(args)
    if args.prior:
        from cafe.train.prior_command import run_prior

        return run_prior(args)
    import numpy as np

    from cafe.ai.learned import EDITIONS, ValueModel, feature_count
    from cafe.arena.run import check_players
    from cafe.train.fit import best_fit, ridge, rms
    from cafe.train.positions import Sums, play_games

    editions = EDITIONS if args.edition is None else (args.edition,)
    sets = [(edition, players) for edition, players in SETS if edition in editions]
    for edition, players in sets:
        check_players(edition, [args.player] * players)
    if args.games < 2:
        raise CafeError(T("--games must be at least 2 (one game is held out to measure the fit)"))
    if args.penalty is not None and args.penalty < 0:
        raise CafeError(T("--penalty must not be negative"))
    out = Path(args.out)
    if not out.parent.is_dir():
        raise CafeError(T("no folder {folder} to write the model in", folder=str(out.parent)))
    started = time.perf_counter()
    fitted = {e: Sums.empty(e) for e in EDITIONS}
    held = {e: Sums.empty(e) for e in EDITIONS}
    # every game on the seed it has when both editions are played: one edition alone fits the same weights
    parts = [part for part in chunks(args.games, args.seed, CHUNK) if part[0] in editions]
    # sums of floats, added in the order of the chunks: the same settings, the same model to the last bit
    for (edition, _players, _seeds, kept_out), sums in play_chunks(play_games, parts, (args.player,), args.jobs):
        (held if kept_out else fitted)[edition].add(sums)
    fits = {
        e: (ridge(fitted[e], args.penalty), args.penalty) if args.penalty is not None else best_fit(fitted[e], held[e])
        for e in editions
    }
    for e in set(EDITIONS) - set(editions):  # not played: no correction
        fits[e] = (np.zeros(feature_count(e)), None)
    weights = {e: fits[e][0] for e in EDITIONS}
    held_out = {e: {"lead": rms(held[e], 0 * weights[e]), "corrected": rms(held[e], weights[e])} for e in editions}
    about: dict[str, Any] = {
        "command": f"cafe train --player {args.player} --games {args.games} --seed {args.seed}"
        + (f" --edition {args.edition}" if args.edition is not None else "")
        + (f" --penalty {args.penalty}" if args.penalty is not None else ""),
        # None: no correction, as none predicted the held-out games (or the edition was not played)
        "penalty": {e: fits[e][1] for e in EDITIONS},
        "sets": [f"{e}-{p}" for e, p in sets],
        "rows": {e: fitted[e].rows for e in EDITIONS},
        "held_out_rms": held_out,
        "seconds": round(time.perf_counter() - started, 1),
    }
    ValueModel(weights, about).save(out)
    for e in EDITIONS:
        if e not in editions:
            print(_("{edition}: not played; no correction (the lead alone)", edition=e))
            continue
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
