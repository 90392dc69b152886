"""The rulebook's scoring examples A-D (RULES.md §2.4), turn by turn, under both scorings."""

from __future__ import annotations

from pathlib import Path

import pytest

from cafe.record import Record

EXAMPLES = Path(__file__).parent / "data" / "rulebook-examples.json"


def replay_turn_by_turn(scoring: str) -> tuple[list[int], list[list[tuple[str, int]]], list[int]]:
    record = Record.load(EXAMPLES)
    record.rules = {"preset": "printed", "scoring": scoring}
    game = record.new_game()
    points, tables = [], []
    for turn in record.turns:
        results = game.push_turn(turn)
        points.append(sum(r.points for r in results))
        tables.append([tp for r in results for tp in r.table_points])
    return points, tables, list(game.state.hand_size)


def test_examples_bonus_scoring() -> None:
    points, tables, hand_sizes = replay_turn_by_turn("bonus")
    assert points == [4, 4, 2, 17]
    # A: alone at USA1 (0), then the lady: 4
    assert tables[0] == [("USA1", 0), ("USA1", 4)]
    # B: the Indian pair at IND2 scores 4; the lady is alone at USA2 (0)
    assert tables[1] == [("IND2", 0), ("IND2", 4), ("USA2", 0)]
    # C: beside the Indian lady at USA2
    assert tables[2] == [("USA2", 2)]
    # D: 6 at USA1 and 3 at USA2, then 8 at USA1 and 0 at GER2
    assert tables[3] == [("USA1", 6), ("USA2", 3), ("GER2", 0), ("USA1", 8)]
    assert hand_sizes == [5, 5, 5, 4]


def test_examples_basic_scoring() -> None:
    points, _, hand_sizes = replay_turn_by_turn("basic")
    assert points == [2, 2, 2, 14]
    assert hand_sizes == [5, 5, 5, 4]


@pytest.mark.parametrize("scoring,total", [("bonus", 27), ("basic", 20)])
def test_examples_scores_accumulate(scoring: str, total: int) -> None:
    record = Record.load(EXAMPLES)
    record.rules = {"preset": "printed", "scoring": scoring}
    game = record.replay()
    assert sum(game.scores) == total
    assert game.turn_points() == ([4, 4, 2, 17] if scoring == "bonus" else [2, 2, 2, 14])
