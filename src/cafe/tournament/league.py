"""A league match: best of five games between a table's players, over as soon as one has won three (as in
BrettspielWelt's Café-Liga)."""

from __future__ import annotations

from fractions import Fraction

from cafe.tournament.model import LEAGUE_GAMES, LEAGUE_WINS, GameResult
from cafe.tournament.scoring import win_shares


def game_wins(games: list[GameResult], seats: int) -> list[Fraction]:
    """Each seat's games won so far (a shared first place counts its share)."""
    totals = [Fraction(0)] * seats
    for result in games:
        totals = [total + share for total, share in zip(totals, win_shares(result), strict=True)]
    return totals


def match_over(games: list[GameResult], seats: int) -> bool:
    """Three games won by one, five games played, or a forfeit (which ends the match at once)."""
    if any(any(result.absent) for result in games):
        return True
    return len(games) >= LEAGUE_GAMES or max(game_wins(games, seats), default=0) >= LEAGUE_WINS


def match_shares(games: list[GameResult], seats: int) -> list[Fraction]:
    """Each seat's share of the match once it is over: the most games won takes it (shared when equal); after a
    forfeit, the players present in that game share it."""
    forfeited = next((result for result in games if any(result.absent)), None)
    if forfeited is not None:
        present = [not absent for absent in forfeited.absent]
        return (
            [Fraction(1, sum(present)) if here else Fraction(0) for here in present]
            if any(present)
            else [Fraction(0)] * seats
        )
    wins = game_wins(games, seats)
    best = max(wins)
    return [Fraction(1, wins.count(best)) if won == best else Fraction(0) for won in wins]
