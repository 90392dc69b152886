"""How long card games wait before they start scoring, read from their records: the turn on which the first card is
seated, the cards laid face down, and the final scores.

    cafe arena learned:1000 learned:1000 --edition cards --games 20 --seed 1200000 --records games/
    python bench/card_waiting.py games/

A card scores only beside another card, so the first cards seated mostly give the other player places to score. A
search that knows this may draw, and then lay cards face down (2 points each at the end), rather than open; two such
searches can wait on each other for many turns. Prints one JSON object: the games, the mean of every final score,
the games in which no player reached 60 points, the cards laid face down per game (mean), and the turn on which the
first card was seated (median and most; turns counted from 1 over both players, games in which no card was seated
counted at their last turn); and for each player its mean score, its cards laid face down per game and the games
in which it seated the first card.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from cafe.record import Record
from cafe.steps import Kind, parse_turn

LOW = 60  # a final score no player reaching it marks a game that hardly started


@dataclass(frozen=True)
class Waiting:
    """One game's figures: its final scores, its cards laid face down and the turn its first card was seated."""

    scores: dict[str, int]  # by player
    face_down: dict[str, int]  # by player
    first_seated: int
    opened_by: str | None  # the player who seated the first card


def read(record: Record) -> Waiting:
    """The record's game played to its end, its turns read for the cards seated and laid face down."""
    game = record.new_game()
    first_seated, opened_by = 0, None
    face_down = dict.fromkeys(record.players, 0)
    for number, turn in enumerate(record.turns, start=1):
        player = record.players[game.current_player]
        kinds = [step.kind for step in parse_turn(turn)]
        face_down[player] += kinds.count(Kind.DOWN)
        if not first_seated and Kind.SEAT in kinds:
            first_seated, opened_by = number, player
        game.push_turn(turn)
    scores = dict(zip(record.players, game.scores, strict=True))
    return Waiting(scores, face_down, first_seated or len(record.turns), opened_by)


def base_name(player: str) -> str:
    """A player's name without the arena's copy number (``learned:1000#2``: ``learned:1000``)."""
    return player.split("#")[0]


def by_player(games: list[Waiting]) -> dict[str, dict[str, float]]:
    """Each player's mean final score, mean cards laid face down per game, and the games in which it seated the
    first card; a player's copies (``learned:1000#1``, ``#2``) counted as one."""
    out: dict[str, dict[str, float]] = {}
    for player in sorted({base_name(p) for game in games for p in game.scores}):
        scores = [s for game in games for p, s in game.scores.items() if base_name(p) == player]
        downs = [d for game in games for p, d in game.face_down.items() if base_name(p) == player]
        opened = sum(1 for game in games if game.opened_by is not None and base_name(game.opened_by) == player)
        out[player] = {
            "mean_score": round(statistics.fmean(scores), 1),
            "face_down_per_game": round(statistics.fmean(downs), 1),
            "opened": opened,
        }
    return out


def summary(games: list[Waiting]) -> dict[str, object]:
    scores = [score for game in games for score in game.scores.values()]
    firsts = [game.first_seated for game in games]
    return {
        "games": len(games),
        "mean_score": round(statistics.fmean(scores), 1),
        "games_with_every_score_below_60": sum(1 for game in games if max(game.scores.values()) < LOW),
        "face_down_per_game": round(statistics.fmean(sum(game.face_down.values()) for game in games), 1),
        "first_card_seated_on_turn": {"median": statistics.median(firsts), "most": max(firsts)},
        "players": by_player(games),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the records (cafe arena --records)")
    args = parser.parse_args()
    records = [record for record in map(Record.load, sorted(args.folder.glob("*.json"))) if record.edition == "cards"]
    if not records:
        raise SystemExit(f"no card-game records in {args.folder}")
    print(json.dumps(summary([read(record) for record in records])))


if __name__ == "__main__":
    main()
