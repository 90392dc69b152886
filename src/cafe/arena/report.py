"""Showing arena results: a table for the terminal, one JSON object, and a plot."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cafe.arena.run import ArenaPlan
from cafe.arena.stats import PlayerStats
from cafe.i18n import _, n_


def to_json(plan: ArenaPlan, stats: Sequence[PlayerStats], games: int) -> dict[str, Any]:
    return {
        "edition": plan.edition,
        "rules": plan.rules if plan.rules is not None else "printed",
        "seed": plan.seed,
        "games": games,
        "deals": plan.deals,
        "seatings_per_deal": len(plan.seatings),
        "results": [s.to_json() for s in stats],
    }


def table(plan: ArenaPlan, stats: Sequence[PlayerStats], games: int) -> Any:
    """A rich table, one row per player in the order given."""
    from rich.table import Table

    deals = n_("{n} deal", "{n} deals", plan.deals)
    seatings = n_("{n} seating", "{n} seatings", len(plan.seatings))
    games_of = (n_("{n} board game", "{n} board games", games) if plan.edition == "board"
                else n_("{n} card game", "{n} card games", games))  # fmt: skip
    out = Table(title=f"{games_of} ({deals} x {seatings}), " + _("seed {seed}", seed=plan.seed))
    columns = (_("player"), _("win rate"), _("95% CI"), _("95% CI over deals"), _("mean score"), _("sd"),
               _("pts/turn"), _("bar/game"), _("place"), _("rating"))  # fmt: skip
    for k, column in enumerate(columns):
        out.add_column(column, justify="left" if k == 0 else "right")
    for s in stats:
        low, high = s.win_rate_ci95
        deals_low, deals_high = s.win_rate_ci95_deals
        out.add_row(
            s.player,
            f"{s.win_rate:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{deals_low:.1%}-{deals_high:.1%}",
            f"{s.mean_score:.1f}",
            f"{s.score_sd:.1f}",
            f"{s.points_per_turn:.2f}",
            f"{s.bar_visits:.2f}",
            f"{s.mean_place:.2f}",
            f"{s.rating_mu:.1f}±{s.rating_sigma:.1f}",
        )
    return out


def plot(stats: Sequence[PlayerStats], path: Path, title: str) -> None:
    """Score distributions (box plots) beside the ratings (mu with 2 sigma bars), written to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s.player for s in stats]
    fig, (scores, ratings) = plt.subplots(1, 2, figsize=(11, 4.5))
    scores.boxplot([list(s.scores) for s in stats], tick_labels=names)
    scores.set_title(_("final scores"))
    scores.set_ylabel(_("points"))
    ratings.errorbar(
        range(len(stats)), [s.rating_mu for s in stats], yerr=[2 * s.rating_sigma for s in stats], fmt="o", capsize=6
    )
    ratings.set_xticks(range(len(stats)), names)
    ratings.set_title(_("OpenSkill rating (mu, 2 sigma)"))
    for axis in (scores, ratings):
        axis.tick_params(axis="x", labelrotation=20)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
