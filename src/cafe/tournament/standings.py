"""The standings, recomputed from the results alone, and the order of their tie-breaks (docs/tournaments.md)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from cafe.tournament.league import match_over, match_shares
from cafe.tournament.model import Entry, Round, Settings
from cafe.tournament.scoring import SeatOutcome, round_outcomes
from cafe.tournament.seeds import lot


@dataclass(frozen=True)
class Standing:
    """One entry's totals.  ``matches`` counts league matches won (0 in the other formats); ``match_points`` sums
    each round's match points (the mean over the round's games), so 1 is a round in which every table was beaten;
    ``buchholz`` sums the match points of every table-mate, once per round met."""

    rank: int
    entry: str
    name: str
    matches: Fraction
    match_points: Fraction
    wins: Fraction
    buchholz: Fraction
    score: int
    games: int
    withdrawn: int | None
    lot: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entry": self.entry,
            "name": self.name,
            "matches": float(self.matches),
            "match_points": float(self.match_points),
            "wins": float(self.wins),
            "buchholz": float(self.buchholz),
            "score": self.score,
            "games": self.games,
            "withdrawn": self.withdrawn,
        }


def standings(settings: Settings, entries: list[Entry], rounds: list[Round]) -> list[Standing]:
    """Every entry, best first: by league matches won, match points, wins, Buchholz, total score, then the lot."""
    outcomes = [outcome for played in rounds for outcome in round_outcomes(played, settings.compare)]
    points = _round_points(outcomes)
    mates: dict[str, list[str]] = defaultdict(list)
    for played in rounds:
        for table in played.tables:
            for seated in table.seats:
                mates[seated] += [other for other in table.seats if other != seated]
    matches = _matches(rounds) if settings.format == "league" else defaultdict(Fraction)
    by_entry: dict[str, list[SeatOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_entry[outcome.entry].append(outcome)
    rows = []
    for entry in entries:
        mine = by_entry[entry.id]
        rows.append(
            Standing(
                0,
                entry.id,
                entry.name,
                matches[entry.id],
                points[entry.id],
                sum((outcome.win for outcome in mine), Fraction(0)),
                sum((points[mate] for mate in mates[entry.id]), Fraction(0)),
                sum(outcome.score for outcome in mine),
                len(mine),
                entry.withdrawn,
                lot(settings.seed, entry.id),
            )
        )
    rows.sort(key=lambda r: (-r.matches, -r.match_points, -r.wins, -r.buchholz, -r.score, r.lot))
    return [replace(row, rank=rank) for rank, row in enumerate(rows, start=1)]


def _round_points(outcomes: list[SeatOutcome]) -> dict[str, Fraction]:
    """Each entry's match points: per round the mean over its games there, summed over the rounds."""
    games: dict[tuple[str, int], list[Fraction]] = defaultdict(list)
    for outcome in outcomes:
        games[outcome.entry, outcome.round].append(outcome.match_points)
    totals: dict[str, Fraction] = defaultdict(Fraction)
    for (entry, _), points in games.items():
        totals[entry] += sum(points, Fraction(0)) / len(points)
    return totals


def _matches(rounds: list[Round]) -> dict[str, Fraction]:
    """League matches won, a shared match counting its share; a match not yet over counts nothing."""
    totals: dict[str, Fraction] = defaultdict(Fraction)
    for played in rounds:
        for table in played.tables:
            if table.games and match_over(table):
                for entry, share in match_shares(table).items():
                    totals[entry] += share
    return totals
