"""Per-player statistics over arena games: win rate with its confidence interval, scores, a rating."""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cafe.arena.match import SeatResult

Z95 = 1.959964  # the normal quantile for a two-sided 95% interval
RESAMPLES = 2000  # of the deals, for the interval over deals


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (shared wins count as fractions).

    >>> [round(x, 3) for x in wilson_interval(75, 100)]
    [0.657, 0.825]
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameOutcome:
    """One arena game: which player (by index in the arena's list) sat in each seat, and how each seat did."""

    deal: int
    seating: tuple[int, ...]  # seat -> player index
    seats: tuple[SeatResult, ...]
    ending: str | None = None  # why the game ended, in the rulebook's words (Game.end_reason)


def endings(outcomes: Sequence[GameOutcome]) -> dict[str, int]:
    """How many games ended for each reason, the most frequent first.

    >>> endings([GameOutcome(0, (0,), (), "a player has gone out"), GameOutcome(1, (0,), (), "bar full"),
    ...          GameOutcome(2, (0,), (), "bar full")])
    {'bar full': 2, 'a player has gone out': 1}
    """
    counts = Counter(game.ending for game in outcomes if game.ending is not None)
    return dict(counts.most_common())


def deal_interval(per_deal: Sequence[tuple[float, int]], resamples: int = RESAMPLES) -> tuple[float, float]:
    """A 95% interval for a win rate from (wins, games) per deal: the deals resampled with replacement (a
    percentile bootstrap, seeded: the same games give the same interval).

    A deal's games are not independent: its seatings share its tiles, and a player's edge over the others
    differs from deal to deal (some deals leave more to think about).  Wilson's interval counts every game
    as a new draw; this one counts the deals, which is what a new sample of games would redraw.

    >>> deal_interval([(2, 2), (2, 2), (2, 2)])  # every deal won: no spread
    (1.0, 1.0)
    >>> low, high = deal_interval([(2, 2), (0, 2)] * 10)
    >>> 0.25 < low < 0.5 < high < 0.75
    True
    """
    if len(per_deal) < 2:
        return (0.0, 1.0)
    rng = random.Random(0)
    rates = []
    for _ in range(resamples):
        drawn = rng.choices(per_deal, k=len(per_deal))
        rates.append(sum(w for w, _ in drawn) / sum(g for _, g in drawn))
    rates.sort()
    return (rates[int(0.025 * resamples)], rates[int(0.975 * resamples) - 1])


def paired_difference(
    before: Sequence[tuple[float, int]], after: Sequence[tuple[float, int]], resamples: int = RESAMPLES
) -> tuple[float, float, float]:
    """How much a player's win rate changed between two versions of it that played the same deals: the
    difference (after minus before) and its 95% interval, the deals resampled in pairs (a percentile bootstrap,
    seeded).  ``before[i]`` and ``after[i]`` are the (wins, games) of one deal.

    Both versions met the same tiles, so a deal that is easy for one is easy for the other, and the pairs'
    spread is smaller than two independent samples': a change is told apart on fewer games.

    >>> paired_difference([(1, 2)] * 4, [(2, 2)] * 4)  # every deal half a game better: no spread
    (0.5, 0.5, 0.5)
    >>> change, low, high = paired_difference([(0, 2), (2, 2)] * 10, [(2, 2), (2, 2)] * 10)
    >>> change, 0.25 < low < 0.5 < high < 0.75
    (0.5, True)
    """
    if len(before) != len(after) or len(before) < 2:
        raise ValueError("paired_difference needs two or more deals, the same in both")
    pairs = list(zip(before, after, strict=True))

    def change(drawn: Sequence[tuple[tuple[float, int], tuple[float, int]]]) -> float:
        rate_before = sum(b[0] for b, _ in drawn) / sum(b[1] for b, _ in drawn)
        return sum(a[0] for _, a in drawn) / sum(a[1] for _, a in drawn) - rate_before

    rng = random.Random(0)
    changes = sorted(change(rng.choices(pairs, k=len(pairs))) for _ in range(resamples))
    return (change(pairs), changes[int(0.025 * resamples)], changes[int(0.975 * resamples) - 1])


@dataclass(frozen=True)
class PlayerStats:
    player: str
    games: int
    wins: float
    win_rate: float
    win_rate_ci95: tuple[float, float]
    win_rate_ci95_deals: tuple[float, float]  # over deals (see deal_interval)
    mean_score: float
    score_sd: float
    points_per_turn: float
    bar_visits: float  # per game
    mean_place: float
    think_per_turn: float  # seconds
    longest_turn: float  # seconds
    rating_mu: float
    rating_sigma: float
    scores: tuple[int, ...]
    wins_by_deal: tuple[tuple[int, float, int], ...]  # (deal, wins, games): runs on other deals combine

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(x, 4) for x in self.win_rate_ci95],
            "win_rate_ci95_deals": [round(x, 4) for x in self.win_rate_ci95_deals],
            "mean_score": round(self.mean_score, 2),
            "score_sd": round(self.score_sd, 2),
            "points_per_turn": round(self.points_per_turn, 3),
            "bar_visits": round(self.bar_visits, 3),
            "mean_place": round(self.mean_place, 3),
            "think_per_turn": round(self.think_per_turn, 4),
            "longest_turn": round(self.longest_turn, 4),
            "wins_by_deal": [list(row) for row in self.wins_by_deal],
            "rating": {
                "mu": round(self.rating_mu, 3),
                "sigma": round(self.rating_sigma, 3),
                "ordinal": round(self.rating_mu - 3 * self.rating_sigma, 3),
            },
        }


def ratings(names: Sequence[str], outcomes: Sequence[GameOutcome]) -> list[tuple[float, float]]:
    """(mu, sigma) per player: OpenSkill's Plackett-Luce model updated game by game, in deal order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=name) for name in names]
    for game in sorted(outcomes, key=lambda g: (g.deal, g.seating)):
        teams = [[current[p]] for p in game.seating]
        updated = model.rate(teams, ranks=[seat.place for seat in game.seats])
        for p, team in zip(game.seating, updated, strict=True):
            current[p] = team[0]
    return [(r.mu, r.sigma) for r in current]


def player_stats(names: Sequence[str], outcomes: Sequence[GameOutcome]) -> list[PlayerStats]:
    """The statistics of each player, in the order given."""
    per: list[list[SeatResult]] = [[] for _ in names]
    by_deal: list[dict[int, list[float]]] = [{} for _ in names]  # each player's wins in each deal's games
    for game in outcomes:
        for seat, p in enumerate(game.seating):
            per[p].append(game.seats[seat])
            by_deal[p].setdefault(game.deal, []).append(game.seats[seat].won)
    rated = ratings(names, outcomes)
    out = []
    for name, results, deals, (mu, sigma) in zip(names, per, by_deal, rated, strict=True):
        games = len(results)
        wins = sum(r.won for r in results)
        scores = tuple(r.score for r in results)
        turns = sum(r.turns for r in results)
        out.append(
            PlayerStats(
                player=name,
                games=games,
                wins=wins,
                win_rate=wins / games if games else 0.0,
                win_rate_ci95=wilson_interval(wins, games),
                win_rate_ci95_deals=deal_interval([(sum(won), len(won)) for won in deals.values()]),
                mean_score=statistics.fmean(scores) if scores else 0.0,
                score_sd=statistics.stdev(scores) if games > 1 else 0.0,
                points_per_turn=sum(scores) / turns if turns else 0.0,
                bar_visits=sum(r.bar_visits for r in results) / games if games else 0.0,
                mean_place=statistics.fmean(r.place for r in results) if results else 0.0,
                think_per_turn=sum(r.think_seconds for r in results) / turns if turns else 0.0,
                longest_turn=max((r.longest_turn_seconds for r in results), default=0.0),
                rating_mu=mu,
                rating_sigma=sigma,
                scores=scores,
                wins_by_deal=tuple((deal, sum(won), len(won)) for deal, won in sorted(deals.items())),
            )
        )
    return out
