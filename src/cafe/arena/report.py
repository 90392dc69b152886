"""Showing arena results: a table for the terminal, one JSON object (or several runs on other deals combined,
or two versions of a player compared on the same deals), and a plot."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cafe.arena.run import ArenaPlan
from cafe.arena.stats import PlayerStats, deal_interval, paired_difference, wilson_interval
from cafe.i18n import _, n_, translate


def to_json(
    plan: ArenaPlan, stats: Sequence[PlayerStats], games: int, endings: dict[str, int] | None = None
) -> dict[str, Any]:
    """The report as one JSON object; ``endings`` (cafe.arena.stats.endings) counts the games by why they ended."""
    report = {
        "edition": plan.edition,
        "rules": plan.rules if plan.rules is not None else "printed",
        "seed": plan.seed,
        "games": games,
        "deals": plan.deals,
        "seatings_per_deal": len(plan.seatings),
        "results": [s.to_json() for s in stats],
    }
    if endings is not None:
        report["endings"] = endings
    return report


def endings_line(endings: dict[str, int]) -> str:
    """How the games ended, in words: each reason with its number of games, the most frequent first."""
    parts = [
        n_("{reason} ({n} game)", "{reason} ({n} games)", n, reason=translate(reason)) for reason, n in endings.items()
    ]
    return _("How the games ended: {endings}.", endings=tuple(parts))  # a tuple: a list in the catalogs' way


def table(plan: ArenaPlan, stats: Sequence[PlayerStats], games: int, endings: dict[str, int] | None = None) -> Any:
    """A rich table, one row per player in the order given, with how the games ended below it."""
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
    if endings:
        out.caption = endings_line(endings)
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


def combine(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Reports (``to_json``'s objects) of the same players on different deals, as one: per player the games,
    wins, win rate with both intervals, mean score and longest turn over them all, and how the games ended.  A
    deal is told apart by its seed (the report's seed plus its number); a deal played in two reports is refused
    with ValueError."""
    players = [[r["player"] for r in report["results"]] for report in reports]
    if any(names != players[0] for names in players) or len({r["edition"] for r in reports}) != 1:
        raise ValueError("the reports are not of the same players in the same game")
    deals = len(wins_by_seed(reports, players[0][0]))
    results = []
    for k, name in enumerate(players[0]):
        rows = [report["results"][k] for report in reports]
        games = sum(r["games"] for r in rows)
        wins = sum(r["wins"] for r in rows)
        by_deal = [(w, g) for r in rows for _deal, w, g in r["wins_by_deal"]]
        results.append({
            "player": name, "games": games, "wins": wins, "win_rate": round(wins / games, 4),
            "win_rate_ci95": [round(x, 4) for x in wilson_interval(wins, games)],
            "win_rate_ci95_deals": [round(x, 4) for x in deal_interval(by_deal)],
            "mean_score": round(sum(r["mean_score"] * r["games"] for r in rows) / games, 2),
            "longest_turn": max(r["longest_turn"] for r in rows),
        })  # fmt: skip
    combined = {"edition": reports[0]["edition"], "games": sum(r["games"] for r in reports),
                "deals": deals, "results": results}  # fmt: skip
    if all("endings" in report for report in reports):  # reports made before endings were counted have none
        counts: Counter[str] = Counter()
        for report in reports:
            counts.update(report["endings"])
        combined["endings"] = dict(counts.most_common())
    return combined


def wins_by_seed(reports: Sequence[dict[str, Any]], player: str) -> dict[int, tuple[float, int]]:
    """A player's (wins, games) in each deal of reports on different deals, by the deal's seed (the report's seed
    plus the deal's number).  A deal played in two reports, a report without the player or one without each deal's
    wins is a ValueError."""
    deals: dict[int, tuple[float, int]] = {}
    for report in reports:
        rows = [row for row in report["results"] if row["player"] == player]
        if not rows:
            raise ValueError(f"{player} did not play in every report")
        if "wins_by_deal" not in rows[0]:
            raise ValueError("a report without each deal's wins (written before bench/arena.py kept them)")
        for deal, wins, games in rows[0]["wins_by_deal"]:
            if report["seed"] + deal in deals:
                raise ValueError("the reports share deals")
            deals[report["seed"] + deal] = (wins, games)
    return deals


def paired(before: Sequence[dict[str, Any]], after: Sequence[dict[str, Any]], player: str) -> dict[str, Any]:
    """Two versions of a player, each in reports on different deals, compared on the deals both played: the
    games and win rate of each, the change in win rate (after minus before) with its 95% interval over the
    deals in pairs (``paired_difference``), and how many deals each played that the other did not."""
    sides = [wins_by_seed(reports, player) for reports in (before, after)]
    common = sorted(sides[0].keys() & sides[1].keys())
    if len(common) < 2:
        raise ValueError("the two sides share fewer than two deals")
    change, low, high = paired_difference([sides[0][seed] for seed in common], [sides[1][seed] for seed in common])
    games = [sum(side[seed][1] for seed in common) for side in sides]
    return {
        "player": player, "deals": len(common), "games": games,
        "win_rate": [round(sum(side[seed][0] for seed in common) / n, 4) for side, n in zip(sides, games, strict=True)],
        "change": round(change, 4), "change_ci95": [round(low, 4), round(high, 4)],
        "deals_left_out": [len(sides[0].keys() - sides[1].keys()), len(sides[1].keys() - sides[0].keys())],
    }  # fmt: skip
