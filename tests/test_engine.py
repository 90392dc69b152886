"""The engine protocol: the engine side in process, and a real engine process as an arena player."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from cafe import BoardGame
from cafe.arena.match import new_game, play
from cafe.card_game import CardGame
from cafe.cli import main
from cafe.engine.client import EngineError, EnginePlayer
from cafe.engine.server import EngineSession
from cafe.record import Record
from cafe.steps import parse_step
from cafe.view import view_from_json

ENGINE = f"{shlex.quote(sys.executable)} -m cafe engine"
EXAMPLES = Path(__file__).parent / "data" / "rulebook-examples.json"


def ask(session: EngineSession, line: str) -> list[str]:
    answers, going = session.handle(line)
    assert going
    return answers


def test_handshake_and_readiness() -> None:
    session = EngineSession("greedy")
    hello = ask(session, "cep")
    assert hello[0].startswith("id name cafe-international")
    assert hello[-1] == "cepok"
    assert ask(session, "isready") == ["readyok"]
    assert session.handle("quit") == ([], False)
    assert ask(session, "") == []


@pytest.mark.parametrize("game", [BoardGame(3, seed=1), CardGame(2, seed=1)], ids=["board", "cards"])
def test_position_view_then_go_answers_a_legal_step(game: BoardGame | CardGame) -> None:
    session = EngineSession("greedy", seed=0)
    for _ in range(12):  # several turns, step by step, as the arena drives it
        view = json.dumps(game.view(game.current_player).to_json())
        assert ask(session, "position view " + view) == []
        answers = ask(session, "go")
        assert answers[0].startswith("info time ")
        assert answers[-1].startswith("bestmove ")
        game.push(answers[-1].removeprefix("bestmove "))


def test_position_record_gives_the_engine_only_the_movers_view() -> None:
    session = EngineSession("mcts:200", seed=1)
    record = json.loads(EXAMPLES.read_text())
    record["turns"] = record["turns"][:3]
    assert ask(session, "position record " + json.dumps(record)) == []
    assert session.view is not None and session.view.seat == 3
    first = ask(session, "go time 0.5")[-1].removeprefix("bestmove ")
    assert first in ("USAm@i2", "USAf@g2", "USAf@i2", "USAm@g2", "USAf@j3")  # the start of a 13 or 17-point turn


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fly", "unknown command 'fly'"),
        ("go", "no position yet"),
        ("position", "position view JSON"),
        ("position view {oops", "not valid JSON"),
        ("position view []", "a view is a JSON object"),
        ('position view {"edition": "board"}', "needs the field 'seat'"),
        ("position record {}", "'format' must be"),
        ("setoption name player value champion", "unknown player"),
        ("setoption name speed value 3", "unknown option 'speed'"),
        ("setoption player greedy", "setoption name player value SPEC"),
    ],
)
def test_bad_commands_get_one_error_line_and_change_nothing(line: str, message: str) -> None:
    session = EngineSession("greedy")
    answers = ask(session, line)
    assert len(answers) == 1 and answers[0].startswith("error ") and message in answers[0]
    assert session.view is None and session.spec == "greedy"


def test_go_refuses_a_finished_game_a_bad_time_and_someone_elses_view() -> None:
    game = BoardGame(2, seed=2)
    session = EngineSession("random", seed=0)
    ask(session, "position view " + json.dumps(game.view(1).to_json()))
    assert "seat 1 is to move" in ask(session, "go")[0]
    ask(session, "position view " + json.dumps(game.view(0).to_json()))
    assert "not a number" in ask(session, "go time soon")[0]
    assert "more than 0" in ask(session, "go time 0")[0]
    assert "go time SECONDS" in ask(session, "go fast")[0]
    while not game.is_over():
        game.push(game.random_step(__import__("random").Random(0)))
    ask(session, "position view " + json.dumps(game.view(0).to_json()))
    assert "the game is over" in ask(session, "go")[0]


def test_setoption_and_newgame_change_the_bot() -> None:
    session = EngineSession("greedy")
    assert ask(session, "setoption name player value mcts:0.2s") == []
    assert session.spec == "mcts:0.2s" and session.player.name == "mcts:0.2s"
    assert ask(session, "newgame") == [] and session.view is None


def test_a_real_engine_process_plays_in_the_arena() -> None:
    engine = EnginePlayer(f"{ENGINE} --player greedy --seed 1")
    try:
        assert engine.engine_name.startswith("cafe-international")
        game = new_game("cards", ["engine", "random"], seed=4)
        from cafe.ai.random_player import RandomPlayer

        results, _ = play(game, [engine, RandomPlayer(1)])
        assert results[0].turns > 3
    finally:
        engine.close()
    assert engine._process.poll() is not None


def test_an_engine_that_is_not_there_or_says_nonsense_is_reported() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        EnginePlayer("/nonexistent/engine")
    with pytest.raises(EngineError, match="stopped before answering"):
        EnginePlayer(f"{shlex.quote(sys.executable)} -c pass")
    # reads cep, position and go before answering, then waits for quit
    script = "print('cepok'); input(); input(); input(); print('bestmove USAm@a1'); input()"
    liar = f'{shlex.quote(sys.executable)} -c "{script}"'
    engine = EnginePlayer(liar)
    game = BoardGame(2, seed=0)
    with pytest.raises(EngineError, match="not legal here"):
        engine.choose(game.view(0), game.legal_steps())
    engine.close()


def test_cli_engine_speaks_over_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    game = CardGame(2, seed=3)
    lines = ["cep", "position view " + json.dumps(game.view(0).to_json()), "go", "quit", "isready"]
    monkeypatch.setattr(sys, "stdin", iter(line + "\n" for line in lines))
    assert main(["engine", "--player", "easy", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "cepok"
    assert parse_step(out[-1].removeprefix("bestmove ")) in game.legal_steps()
    assert "readyok" not in out  # nothing is read after quit


def test_views_cross_json_unchanged() -> None:
    game = Record.load(EXAMPLES).replay()
    for seat in (None, 0, 3):
        view = game.view(seat)
        assert view_from_json(json.loads(json.dumps(view.to_json()))) == view
