"""What ``cafe train --net`` and ``cafe train --prior`` share around their fits: the checks of their settings, and
the trial of a new model (its search against the one it would replace, on duplicate deals of each kind), which
decides whether the new file is written."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cafe.errors import CafeError
from cafe.i18n import T, Text, _
from cafe.train.chunks import SETS

if TYPE_CHECKING:
    from cafe.arena.run import ArenaPlan

MATCH_SEEDS = 1_000_000  # the match's deals start this far from the self-play games' seeds
Kinds = Sequence[tuple[str, int]]  # edition and players, as in cafe.train.chunks.SETS


def kind_words(edition: str, players: int) -> str:
    return _("{players}-player board games", players=players) if edition == "board" else _("card games")


def check_settings(
    args: argparse.Namespace, player_refused: Text, searches: tuple[str, ...] = ("mcts",)
) -> tuple[str, int]:
    """The self-play search's kind and iterations a turn (``--player mcts:N``, or another of ``searches`` at N; else
    ``player_refused``), once the settings both forms share are checked."""
    if not Path(args.out).parent.is_dir():
        raise CafeError(T("no folder {folder} to write the model in", folder=str(Path(args.out).parent)))
    if args.penalty is not None and args.penalty < 0:
        raise CafeError(T("--penalty must not be negative"))
    if args.match < 0:
        raise CafeError(T("--match must not be negative"))
    kind, _sep, count = args.player.partition(":")
    if kind not in searches or not count.isdigit() or int(count) < 1:
        raise CafeError(player_refused)
    return kind, int(count)


def match_plan(mine: str, other: str, edition: str, players: int, args: argparse.Namespace) -> ArenaPlan:
    """The match of one kind: ``args.match`` duplicate deals, each played in every seating, on deals of this kind's
    own seeds."""
    from cafe.arena.run import ArenaPlan

    seed = args.seed + MATCH_SEEDS + SETS.index((edition, players)) * args.match
    return ArenaPlan((mine, *[other] * (players - 1)), args.match * players, edition, seed)


def win_rates(mine: str, other: str, kinds: Kinds, args: argparse.Namespace) -> dict[str, float]:
    """The player ``mine`` against ``other`` in every other seat, ``args.match`` duplicate deals of each kind: its
    win rate in each, by ``edition-players``."""
    from cafe.arena.run import names_of, run_arena
    from cafe.arena.stats import player_stats

    rates = {}
    for edition, players in kinds:
        plan = match_plan(mine, other, edition, players, args)
        rates[f"{edition}-{players}"] = player_stats(names_of(plan.players), run_arena(plan, args.jobs))[0].win_rate
    return rates


def keep_if_better(
    out: Path,
    kinds: Kinds,
    about: dict[str, Any],
    started: float,
    save: Callable[[Path], None],
    rates_of: Callable[[Path], dict[str, float]],
) -> bool:
    """Whether the new model won more than a fair share over ``kinds``: saved beside ``out`` as a candidate,
    matched by ``rates_of`` (``about`` gets its rates and the seconds spent), then saved as ``out`` only if so, and
    otherwise as :func:`rejected` for study."""
    candidate = out.with_name(out.name + ".candidate")
    save(candidate)
    try:
        about["match"] = rates_of(candidate)
        about["seconds"] = round(time.perf_counter() - started, 1)
        rates: dict[str, float] = about["match"]
        better = sum(rate - 1 / players for (_e, players), rate in zip(kinds, rates.values(), strict=True)) > 0
        save(out if better else rejected(out))
    finally:
        candidate.unlink()
    return better


def rejected(out: Path) -> Path:
    """Where a model its match did not keep is saved, with its figures: ``prior.npz`` -> ``prior.rejected.npz``."""
    return out.with_name(f"{out.stem}.rejected{out.suffix}")
