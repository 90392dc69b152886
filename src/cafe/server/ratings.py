"""Ratings of the café's players: OpenSkill's Plackett-Luce model over the places of rated games.

A finished game is rated when at least two of its seats are people with accounts; only their seats are rated,
ranked by their places in the game.  Guests play unrated (a rating cannot be farmed with fresh guests), and so do
computer players.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from cafe.server.storage.store import Rating, SeatRow

MODEL = PlackettLuce()


def rated_update(players: Sequence[int], places: Sequence[int], known: dict[int, Rating]) -> dict[int, Rating]:
    """New ratings of ``players`` (people, in seat order) after a game they finished in ``places``."""
    if len(players) < 2:
        return {}
    teams = []
    for player in players:
        old = known.get(player)
        teams.append([MODEL.rating() if old is None else MODEL.rating(mu=old.mu, sigma=old.sigma)])
    updated = MODEL.rate(teams, ranks=list(places))
    return {
        player: Rating(team[0].mu, team[0].sigma, (known[player].games if player in known else 0) + 1)
        for player, team in zip(players, updated, strict=True)
    }


def rated_among(
    people: Sequence[SeatRow], places: Sequence[int], accounts: set[int], known: dict[int, Rating]
) -> dict[int, Rating]:
    """New ratings after a game: of the seats of people with ``accounts``, by their ``places`` (by seat)."""
    rated = [seat for seat in people if seat.person in accounts]
    players = [seat.person for seat in rated if seat.person is not None]
    return rated_update(players, [places[seat.seat] for seat in rated], known)


PROVISIONAL = 5  # rated games before a rating says much: until then it is shown as provisional


def shown(rating: Rating | None) -> float | None:
    """A rating as people see it: a cautious estimate, mu - 3 sigma, never below 0 (a new player starts at 0,
    and a first loss must not read as a negative number); None: not rated yet."""
    return None if rating is None else max(0.0, round(rating.mu - 3 * rating.sigma, 2))


def provisional(rating: Rating | None) -> bool:
    """Whether a rating rests on too few games to say much (or there is none yet)."""
    return rating is None or rating.games < PROVISIONAL
