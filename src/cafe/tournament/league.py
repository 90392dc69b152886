"""A league match: best of five games between a table's players, over as soon as one has won three (as in
BrettspielWelt's Café-Liga)."""

from __future__ import annotations

from fractions import Fraction

from cafe.tournament.model import LEAGUE_GAMES, LEAGUE_WINS, Table
from cafe.tournament.scoring import win_shares


def game_wins(table: Table) -> dict[str, Fraction]:
    """Each player's games won so far (a shared first place counts its share)."""
    totals = dict.fromkeys(table.seats, Fraction(0))
    for number, result in enumerate(table.games, start=1):
        for entry, share in zip(table.order(number), win_shares(result), strict=True):
            totals[entry] += share
    return totals


def match_over(table: Table) -> bool:
    """Three games won by one, five games played, or a forfeit (which ends the match at once)."""
    if any(any(result.absent) for result in table.games):
        return True
    return len(table.games) >= LEAGUE_GAMES or max(game_wins(table).values()) >= LEAGUE_WINS


def match_shares(table: Table) -> dict[str, Fraction]:
    """Each player's share of the match once it is over: the most games won takes it (shared when equal); after a
    forfeit, the players present in that game share it (nobody, if nobody came)."""
    for number, result in enumerate(table.games, start=1):
        if any(result.absent):
            present = [entry for entry, absent in zip(table.order(number), result.absent, strict=True) if not absent]
            return {entry: Fraction(1, len(present)) if entry in present else Fraction(0) for entry in table.seats}
    wins = game_wins(table)
    best = max(wins.values())
    winners = [entry for entry, won in wins.items() if won == best]
    return {entry: Fraction(1, len(winners)) if entry in winners else Fraction(0) for entry in table.seats}
