"""Board files (RULES.md §1.1): the classic board, custom boards, and clear refusals of bad ones."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cafe import BoardFileError, BoardGame, load_board
from cafe.layout import load_card_board

from conftest import DUO_BOARD, play_random

SHARED_CLASSIC = Path(__file__).resolve().parents[2] / "shared" / "board" / "classic.json"


def test_classic_board_shape() -> None:
    board = load_board("classic")
    assert len(board.table_ids) == 24 and len(board.chair_ids) == 68
    shared = [c for c in board.chair_tables if len(c) == 2]
    assert len(shared) == 28 and len(board.chair_tables) - len(shared) == 40
    assert sorted(board.table_nations).count(0) == 2 and len(set(board.table_nations)) == 12
    index = board.chair_index
    assert [board.table_ids[t] for t in board.chair_tables[index["i2"]]] == ["USA1", "USA2"]
    assert [board.table_ids[t] for t in board.chair_tables[index["k2"]]] == ["IND2", "USA2"]


def test_packaged_board_matches_the_shared_data() -> None:
    if SHARED_CLASSIC.exists():  # beside a checkout; the packaged copy must not drift from it
        assert json.loads(SHARED_CLASSIC.read_text()) == load_board("classic").source
    assert load_board("classic").name == "classic"


def test_a_small_custom_board_plays_complete_games() -> None:
    board = load_board(DUO_BOARD)
    assert board.table_ids == ("USA1", "GER1") and len(board.chair_ids) == 7
    rng = random.Random(5)
    for seed in range(20):
        game = play_random(BoardGame(2, seed=seed, board=board), rng)
        assert game.is_over()
        assert game.state.open_chairs >= 0


def broken(change: Any) -> dict[str, Any]:
    board = copy.deepcopy(DUO_BOARD)
    change(board)
    return board


@pytest.mark.parametrize(
    "board,message",
    [
        (broken(lambda b: b["chairs"].pop()), "GER1 has 3 chairs"),
        (broken(lambda b: b["chairs"][0]["tables"].append("USA1")), "chair a2 names table USA1 twice"),
        (broken(lambda b: b["chairs"][0]["tables"].append("GER1")), "GER1 has 5 chairs"),
        (broken(lambda b: b["chairs"][0].update(tables=["USA1", "GER1", "XXX1"])), "1 or 2 tables"),
        (broken(lambda b: b["chairs"][0].update(tables=[])), "1 or 2 tables"),
        (broken(lambda b: b["chairs"][0].update(tables=["ITA9"])), "unknown table 'ITA9'"),
        (broken(lambda b: b["chairs"][1].update(id="a2")), "chair id a2 appears twice"),
        (broken(lambda b: b["tables"][1].update(id="USA1")), "table id USA1 appears twice"),
        (broken(lambda b: b["tables"][0].update(nation="MARS")), "nation 'MARS' is not one of"),
        (broken(lambda b: b["chairs"][0].update(id="A-2")), "must be a cell name"),
        (broken(lambda b: b["tables"][0].update(cell="a2")), "chair a2 is on the cell of a table"),
        (broken(lambda b: b.pop("tables")), "'tables' must be a non-empty list"),
        (broken(lambda b: b.update(chairs=[])), "'chairs' must be a non-empty list"),
        (broken(lambda b: b["tables"].append("USA2")), "table #3 must be an object with id, nation and cell"),
        (broken(lambda b: b["tables"][1].update(id="Germany")), "table #2: id 'Germany' must be a nation code"),
        (broken(lambda b: b["tables"][1].update(cell="D2")), "table GER1: cell 'D2' must be a cell name like h2"),
        (broken(lambda b: b["chairs"].insert(3, None)), "chair #4 must be an object with id and tables"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_malformed_boards_are_refused_naming_the_problem(board: Any, message: str) -> None:
    with pytest.raises(BoardFileError, match=message) as info:
        load_board(board)
    assert info.value.rule == "R1.1"


def test_board_files_on_disk(tmp_path: Path) -> None:
    good = tmp_path / "duo.json"
    good.write_text(json.dumps(DUO_BOARD))
    assert load_board(good).name == "duo"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BoardFileError, match="not valid JSON"):
        load_board(bad)
    with pytest.raises(BoardFileError, match="cannot read"):
        load_board(tmp_path / "missing.json")


def broken_x(change: Any) -> dict[str, Any]:
    layout = copy.deepcopy(load_card_board().to_json())
    change(layout)
    return layout


@pytest.mark.parametrize(
    "layout,message",
    [
        ("cards-y", "unknown card layout 'cards-y'"),
        ([1, 2], "must be a JSON object with 'table_slots' and 'places'"),
        (broken_x(lambda x: x.update(table_slots=["c3", "B4"])), "'table_slots' must be a non-empty list of cell"),
        (broken_x(lambda x: x["table_slots"].append("c3")), "a table slot appears twice"),
        (broken_x(lambda x: x.update(places={})), "'places' must be a non-empty list"),
        (broken_x(lambda x: x["places"][0].update(id="c3")), "place #1: id 'c3' must be a cell name that is not a"),
        (broken_x(lambda x: x["places"][1].update(id="b5")), "place id b5 appears twice"),
        (broken_x(lambda x: x["places"][0].update(slots=["b4", "z9"])), "place b5 must touch 1 to 3 of the table"),
        (broken_x(lambda x: x["places"].pop(0)), "table slot b4 has 3 places; every table has exactly 4"),
    ],
)
def test_malformed_card_layouts_are_refused_naming_the_problem(layout: Any, message: str) -> None:
    with pytest.raises(BoardFileError, match=message):
        load_card_board(layout)


def test_the_card_games_x_is_read_back_from_its_own_json() -> None:
    x = load_card_board()
    again = load_card_board(copy.deepcopy(x.to_json()))
    assert again == x and again.size == x.size and again.slot_places == x.slot_places
