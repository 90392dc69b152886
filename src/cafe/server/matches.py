"""Matches, after the BrettspielWelt Café leagues: best of five games between the same players.

Every game of a match is a room of its own (with its own steps and record); the match itself is
a small value carried from one game's room to the next.  The seats rotate by one each game so
that everyone starts in turn: in game ``g`` (counted from 1) seat ``i`` belongs to entrant
``(i + g - 1) % n``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

BEST_OF = (3, 5, 7)


@dataclass(frozen=True)
class Match:
    best_of: int
    entrants: tuple[str, ...]  # the names of the first game's seats, in their order
    wins: tuple[int, ...]  # games won by each entrant (a shared first place wins nothing)
    game: int = 1  # this room's game of the match
    previous: str | None = None  # the room of the game before

    @classmethod
    def begin(cls, best_of: int, entrants: tuple[str, ...] = ()) -> Match:
        """A match of ``best_of`` games (its entrants are known at the start of the first)."""
        return cls(best_of, entrants, tuple(0 for _ in entrants))

    def entrant(self, seat: int) -> int:
        return (seat + self.game - 1) % len(self.entrants)

    def won(self, seat: int | None) -> Match:
        """The match after this game, won by ``seat`` (None: a shared first place)."""
        if seat is None:
            return self
        wins = list(self.wins)
        wins[self.entrant(seat)] += 1
        return replace(self, wins=tuple(wins))

    @property
    def decided(self) -> bool:
        """Someone has won more than half the games, or every game is played."""
        return bool(self.wins) and (max(self.wins) > self.best_of // 2 or self.game >= self.best_of)

    def following(self, room: str) -> Match:
        """The match in the next game's room (``room`` is this game's)."""
        return replace(self, game=self.game + 1, previous=room)

    def standing(self) -> str:
        """Who leads, in words: 'Ann 2, Bob 1'."""
        return ", ".join(f"{name} {wins}" for name, wins in zip(self.entrants, self.wins, strict=True))

    def winner(self) -> str | None:
        """The match's winner once decided (None while it goes on, or when the most wins are shared)."""
        best = max(self.wins)
        leaders = [name for name, wins in zip(self.entrants, self.wins, strict=True) if wins == best]
        return leaders[0] if self.decided and len(leaders) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {"best_of": self.best_of, "game": self.game, "entrants": list(self.entrants), "wins": list(self.wins),
                "previous": self.previous, "decided": self.decided}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        return cls(data["best_of"], tuple(data["entrants"]), tuple(data["wins"]), data["game"], data["previous"])
