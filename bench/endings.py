"""How board games ended, read from their records: why, with how many tiles left in the bag, and whether the
player who went out won.

    cafe arena mcts:2000 mcts:2000 --games 40 --seed 70000 --records games/
    python bench/endings.py games/

Prints one JSON object: the games counted by why they ended; for the games a player ended by going out, the tiles
left in the bag (mean, least, most), how many of them that player won, and the penalties the others paid for the
tiles they held (mean per game); the mean number of turns a game lasted; and the points a turn scored by the hand
size of the player who played it (a hand made smaller by full single-nation tables holds fewer ways to score), in
the first and second half of the turns of the games.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

from cafe.board_game import BoardGame
from cafe.record import Record


def gone_out(game: BoardGame) -> list[int]:
    """The seats that ended the game with an empty hand and nothing to draw (RULES.md §2.7)."""
    s = game.state
    return [seat for seat in range(len(game.players)) if s.hand_size[seat] == 0 and s.hand_n[seat] == 0]


Sample = tuple[str, int, int]  # the half of the game, the mover's hand size at the turn's start, the turn's points


def play_through(record: Record) -> tuple[BoardGame, list[Sample]]:
    """The record's game played to its end, with a sample of every turn but the last (whose points hold the
    penalties): turns before and after turn 20 told apart."""
    game = record.new_game()
    assert isinstance(game, BoardGame)
    samples = []
    for turn in record.turns:
        seat = game.current_player
        size, before = game.state.hand_size[seat], game.scores[seat]
        half = "turns 1-20" if game.state.turn_no < 20 else "turns 21 on"
        game.push_turn(turn)
        if not game.is_over():
            samples.append((half, size, game.scores[seat] - before))
    return game, samples


def points_by_hand_size(samples: list[Sample]) -> dict[str, dict[int, float]]:
    """The mean points of a turn by the mover's hand size at its start, in each half."""
    points: dict[tuple[str, int], list[int]] = {}
    for half, size, gained in samples:
        points.setdefault((half, size), []).append(gained)
    out: dict[str, dict[int, float]] = {}
    for (half, size), gains in sorted(points.items()):
        out.setdefault(half, {})[size] = round(statistics.fmean(gains), 2)
    return out


def summary(games: list[BoardGame]) -> dict[str, object]:
    reasons = Counter(game.end_reason for game in games)
    out = [game for game in games if game.state.end_reason == "out"]
    bags = [game.bag_count() for game in out]
    won = sum(1 for game in out if (places := game.places()) is not None and places[gone_out(game)[0]] == 1)
    paid = [sum(game.state.penalties or ()) for game in out]
    return {
        "games": len(games),
        "endings": dict(reasons.most_common()),
        "gone_out": {
            "games": len(out),
            "bag_left": {"mean": round(statistics.fmean(bags), 1), "least": min(bags), "most": max(bags)}
            if out
            else None,
            "won_by_the_player_out": won,
            "penalties_paid_by_the_others": round(statistics.fmean(paid), 1) if out else None,
        },
        "turns": round(statistics.fmean(game.state.turn_no for game in games), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the records (cafe arena --records)")
    args = parser.parse_args()
    paths = sorted(args.folder.glob("*.json"))
    records = [record for record in map(Record.load, paths) if record.edition == "board"]
    if not records:
        raise SystemExit(f"no board-game records in {args.folder}")
    played = [play_through(record) for record in records]
    samples = [sample for _game, turns in played for sample in turns]
    games = [game for game, _turns in played]
    print(json.dumps({**summary(games), "points_a_turn_by_hand_size": points_by_hand_size(samples)}))


if __name__ == "__main__":
    main()
