"""What a tournament holds: its settings, its entries, its rounds of tables and their games' results, all of it
stored as JSON (``to_json``/``from_json``) so the café keeps a tournament across restarts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cafe.errors import CafeError
from cafe.i18n import T

FORMATS = ("swiss", "round_robin", "league")
COMPARE = ("score", "margin")
LEAGUE_GAMES, LEAGUE_WINS = 5, 3  # a league match is best of five: it ends when one has won three games


class TournamentError(CafeError):
    """A setting, entry or result the tournament cannot take; the tournament stays as it was."""


@dataclass(frozen=True)
class Settings:
    """How the tournament is played.  ``rounds`` is the Swiss rounds (the schedule decides for the others);
    ``compare`` is what match points compare: each seat's final ``score`` or its ``margin`` over the best other."""

    format: str = "swiss"
    edition: str = "board"
    rules: str | dict[str, Any] = "printed"
    seed: int = 0
    table_size: int = 4
    rounds: int = 0
    compare: str = "score"

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "edition": self.edition,
            "rules": self.rules,
            "seed": self.seed,
            "table_size": self.table_size,
            "rounds": self.rounds,
            "compare": self.compare,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(**{key: data[key] for key in cls().to_json()})


@dataclass(frozen=True)
class Entry:
    """One who plays: ``id`` is unique in the tournament (the café's account or bot); ``withdrawn`` is the first
    round in which the entry is no longer paired."""

    id: str
    name: str
    withdrawn: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "withdrawn": self.withdrawn}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        return cls(str(data["id"]), str(data["name"]), data["withdrawn"])


@dataclass(frozen=True)
class GameResult:
    """One game at one table, seat by seat: ``scores`` and ``places`` as the rules ended the game (``None``: no game
    was played), and who forfeited it (``absent``: did not come within the clock, or withdrew).  A seat whose
    player was absent may still have a score, played by the café's stand-in."""

    scores: tuple[int, ...] | None
    places: tuple[int, ...] | None
    absent: tuple[bool, ...]

    @classmethod
    def played(cls, scores: list[int], places: list[int], absent: list[bool] | None = None) -> GameResult:
        return cls(tuple(scores), tuple(places), tuple(absent or [False] * len(scores)))

    @classmethod
    def unplayed(cls, absent: list[bool]) -> GameResult:
        return cls(None, None, tuple(absent))

    def check(self, seats: int) -> None:
        """Refuse a result that does not fit a table of ``seats``."""
        if len(self.absent) != seats or (self.scores is not None and len(self.scores) != seats):
            raise TournamentError(T("give a result for each of the table's {seats} seats", seats=seats))
        if (self.scores is None) != (self.places is None):
            raise TournamentError(T("a played game has both scores and places"))
        if self.places is not None and sorted(self.places) != _places(sorted(self.places)):
            raise TournamentError(T("the places {places} are not a game's places", places=list(self.places)))

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": None if self.scores is None else list(self.scores),
            "places": None if self.places is None else list(self.places),
            "absent": list(self.absent),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        scores, places = data["scores"], data["places"]
        return cls(
            None if scores is None else tuple(int(s) for s in scores),
            None if places is None else tuple(int(p) for p in places),
            tuple(bool(a) for a in data["absent"]),
        )


def _places(ordered: list[int]) -> list[int]:
    """The places a game with these (sorted) places would give: shared places repeat, the next skips them."""
    return [ordered.index(p) + 1 for p in ordered]


@dataclass
class Table:
    """Who sits where (entry ids, seat 1 first: seat 1 begins at every table) and the games played there: one, or
    up to five in a league match, whose seats turn by one each game (:meth:`order`)."""

    seats: tuple[str, ...]
    games: list[GameResult] = field(default_factory=list)

    def order(self, game: int) -> tuple[str, ...]:
        """The seats of game ``game`` (from 1), in which its result is given: the first game's are the table's, and
        each next game's are turned by one, so that in a match each player begins in turn (at every table alike)."""
        turn = (game - 1) % len(self.seats)
        return self.seats[turn:] + self.seats[:turn]

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "games": [game.to_json() for game in self.games]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        return cls(tuple(str(s) for s in data["seats"]), [GameResult.from_json(g) for g in data["games"]])


@dataclass
class Round:
    """A round's tables, numbered from 1 in their order."""

    number: int
    tables: list[Table]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "tables": [table.to_json() for table in self.tables]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        return cls(int(data["number"]), [Table.from_json(t) for t in data["tables"]])
