"""The ``cafe`` command: help, bench, demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cafe.board_game
from cafe.cli import main
from cafe.record import Record


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "replay" in capsys.readouterr().out


def test_unknown_command_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["fly"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--seconds", "0.05"]) == 0
    data = json.loads(capsys.readouterr().out)
    keys = ["games_per_second_2p", "games_per_second_4p", "games_per_second_4p_full_lists", "playouts_per_second_4p"]
    for key in [*keys, "legal_generations_per_second", "steps_per_second_4p", "card_games_per_second_4p"]:
        assert data[key] > 0
    assert data["compiled"] is (not cafe.board_game.__file__.endswith(".py"))
    # python-chess (a test dependency) measured in the same run: the ratio of each edition, median and lowest
    assert 0 < data["games_per_1k_chess_plies_min"] <= data["games_per_1k_chess_plies"]
    assert 0 < data["card_games_per_1k_chess_plies_min"] <= data["card_games_per_1k_chess_plies"]


def test_bench_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "complete random games per second, 4 players" in out


def test_demo_plays_a_whole_game_and_saves_its_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "demo.json"
    assert main(["demo", "--players", "3", "--seed", "4", "--delay", "0", "--record", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "Turn 1:" in out and "Game over" in out
    game = Record.load(out_file).replay()
    assert game.is_over() and len(game.players) == 3
    assert f"Turn {game.turn_number}:" in out


def test_demo_with_a_delay_shows_the_board_each_turn(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "2", "--seed", "1", "--delay", "0.0001"]) == 0
    out = capsys.readouterr().out
    assert out.count("[USA1]") > 10


def test_demo_of_the_card_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "cards.json"
    assert (
        main(["demo", "--edition", "cards", "--players", "5", "--seed", "2", "--delay", "0", "--record", str(out_file)])
        == 0
    )
    out = capsys.readouterr().out
    assert "card game between 5 random players" in out and "Game over" in out
    assert Record.load(out_file).replay().is_over()


def test_demo_refuses_five_players_at_the_board_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "5", "--delay", "0"]) == 1
    assert "2 to 4 players" in capsys.readouterr().err
