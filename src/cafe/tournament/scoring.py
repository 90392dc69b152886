"""Each seat's share of one round: match points as in duplicate bridge, wins and scores (docs/tournaments.md).

Every table of a round plays the same deal from the same starting seat, so a seat's result says how well its
player used the deal only when set beside the same seat's result at the other tables.  Each comparison gives 2
for a table beaten, 1 for a tie, 0 for a loss; the sum over the ``m - 1`` other tables is divided by its top,
``2 (m - 1)``, so a seat's match points for a game lie between 0 and 1 (shown as a percentage) however many
tables there were.  Only tables that played the game and have as many seats are compared (a deal plays
differently for three than for four); a seat with no such other table gets the average, 1/2.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from cafe.tournament.model import GameResult, Round

AVERAGE = Fraction(1, 2)  # no other table to compare with, or no game through nobody's fault
AVERAGE_PLUS = Fraction(3, 5)  # the present players at a table whose game a forfeit stopped (bridge's 60%)


@dataclass(frozen=True)
class SeatOutcome:
    """What one entry took from one game: match points (0 to 1), its share of the win, its score (0 where it
    forfeited or no game was played), and whom it sat with."""

    entry: str
    round: int
    game: int
    match_points: Fraction
    win: Fraction
    score: int
    mates: tuple[str, ...]


def win_shares(result: GameResult) -> list[Fraction]:
    """Each seat's share of a game's win: a first place shared by k is 1/k each; a forfeit wins nothing, and a game
    a forfeit stopped is won by the present players together."""
    seats = len(result.absent)
    if result.places is None:
        present = [not absent for absent in result.absent]
        if all(present) or not any(present):
            return [Fraction(0)] * seats
        return [Fraction(1, sum(present)) if here else Fraction(0) for here in present]
    firsts = result.places.count(1)
    return [
        Fraction(1, firsts) if place == 1 and not absent else Fraction(0)
        for place, absent in zip(result.places, result.absent, strict=True)
    ]


def seat_values(scores: tuple[int, ...], compare: str) -> list[int]:
    """What is compared seat by seat: the final score, or the margin over the best of the others at the table."""
    if compare == "score":
        return list(scores)
    return [score - max(scores[:seat] + scores[seat + 1 :]) for seat, score in enumerate(scores)]


def round_outcomes(played: Round, compare: str) -> list[SeatOutcome]:
    """Every seat's outcome of every game of the round."""
    groups: dict[tuple[int, int], list[list[int]]] = defaultdict(list)  # (game, seats) -> each table's values
    for table in played.tables:
        for number, result in enumerate(table.games, start=1):
            if result.scores is not None:
                groups[number, len(table.seats)].append(seat_values(result.scores, compare))
    out = []
    for table in played.tables:
        for number, result in enumerate(table.games, start=1):
            wins = win_shares(result)
            group = groups[number, len(table.seats)]
            values = None if result.scores is None else seat_values(result.scores, compare)
            for seat, entry in enumerate(table.order(number)):
                if result.absent[seat]:
                    points, score = Fraction(0), 0
                elif result.scores is None or values is None:
                    points, score = AVERAGE_PLUS if any(result.absent) else AVERAGE, 0
                else:
                    points, score = _match_points(group, values[seat], seat), result.scores[seat]
                mates = tuple(other for other in table.seats if other != entry)
                out.append(SeatOutcome(entry, played.number, number, points, wins[seat], score, mates))
    return out


def _match_points(group: list[list[int]], value: int, seat: int) -> Fraction:
    """The seat's value against the same seat at every table of its group (itself among them, counted once as a
    tie and taken out again)."""
    if len(group) < 2:
        return AVERAGE
    points = sum(2 if value > other[seat] else 1 if value == other[seat] else 0 for other in group) - 1
    return Fraction(points, 2 * (len(group) - 1))
