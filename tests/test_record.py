"""Game records (RULES.md §7.2) and the replay command's contract (§7.3)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cafe import BoardGame, RecordError
from cafe.cli import main
from cafe.record import Record

from conftest import DUO_BOARD, play_random

EXAMPLES = Path(__file__).parent / "data" / "rulebook-examples.json"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def finished_game(seed: int, players: int = 4, **kwargs: Any) -> BoardGame:
    return play_random(BoardGame(players, seed=seed, **kwargs), random.Random(seed))


def test_record_round_trip_replays_to_the_same_final_state() -> None:
    for seed in range(10):
        rules = {"regulars": seed % 2 == 0, "scoring": "basic" if seed % 3 else "bonus"}
        game = finished_game(seed, players=2 + seed % 3, rules=rules)
        record = Record.loads(Record.of(game).dumps())
        replayed = record.replay()
        assert replayed.state.key() == game.state.key()
        assert replayed.turn_points() == game.turn_points()
        assert replayed.winner() == game.winner()


def test_record_of_a_custom_board_embeds_the_board() -> None:
    game = finished_game(3, players=2, board=DUO_BOARD)
    data = Record.of(game).to_json()
    assert data["board"]["name"] == "duo"
    assert Record.from_json(data).replay().scores == game.scores


def test_a_record_may_end_mid_game() -> None:
    game = finished_game(1)
    record = Record.of(game)
    record.turns = record.turns[:10]
    partial = record.replay()
    assert not partial.is_over() and partial.turn_number == 10


def test_replay_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["replay", str(EXAMPLES), "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["over"] is False and data["winner"] is None
    assert data["scores"] == [4, 4, 2, 17]
    assert data["turn_points"] == [4, 4, 2, 17]
    assert data["hand_sizes"] == [5, 5, 5, 4]
    assert data["hand_counts"] == [5, 5, 5, 4]
    assert data["eliminated"] == [False, False, False, False]


def test_replay_json_of_a_finished_game_includes_penalties(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(11)
    path = write(tmp_path, Record.of(game).to_json())
    code, out, _ = run_cli(["replay", str(path), "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["over"] is True
    assert data["scores"] == list(game.scores)
    assert sum(data["turn_points"]) - sum(data["penalties"]) == sum(data["scores"])
    assert data["winner"] == game.winner()
    assert data["eliminated"] == list(game.state.eliminated)


def test_replay_human_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "final.svg"
    code, out, _ = run_cli(["replay", str(EXAMPLES), "--turns", "--svg", str(svg)], capsys)
    assert code == 0
    assert "  4. USAm@i2,USAf@g2" in out and "+17" in out
    assert "[USA1]" in out and "D" in out
    assert svg.read_text().startswith("<svg")


def examples_with(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLES.read_text())
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "data,message",
    [
        (
            examples_with(turns=["USAm@h3,USAf@h1", "INDm@l1,INDf@k2", "USAm@j1", "USAm@i2,USAm@g2"]),
            "turn 4: R2.2: D has no USAm in hand",
        ),
        (
            examples_with(turns=["USAm@h3"]),
            "turn 1: R2.3.3: The American gentleman on h3 would be alone at the end of the turn",
        ),
        (examples_with(turns=["USAm@h3,USAf@h1", "INDm@h3"]), "turn 2: R2.3.1: chair h3 is taken"),
        (
            examples_with(turns=["USAm@h3,USAf@h1", "INDm@g2"]),
            "turn 2: R2.3.1: The Indian gentleman cannot take g2: it belongs to GER2 and USA1",
        ),
        (
            examples_with(turns=["USAm@h3,USAf@h1", "INDm@l1,INDf@k2", "USAm@i2", "USAm@g2"]),
            "turn 4: R2.3.2: three gentlemen at USA1",
        ),
        (examples_with(turns=["USAm@h3,USAf@h1", "INDm@l1,INDm@m2"]), "turn 2: R2.2: B has no INDm"),
        (examples_with(turns=["USAm@h3,USAf@h1,AFRm@b13"]), "turn 1: R2.2: the turn is over before 'AFRm@b13'"),
        (examples_with(turns=["USAm@h3,USAf@hh"]), "turn 1: R7.1: cannot read step 'USAf@hh'"),
        (examples_with(turns=["USAm@h3,USAf@z9"]), "turn 1: R1.1: there is no chair 'z9'"),
        (examples_with(turns=["USAm@h3,stop"]), "turn 1: R7.1"),
        (
            examples_with(turns=["USAm@h3,USAf@h1", "pass"]),
            "turn 2: R2.2: a player may pass only when no action is legal",
        ),
    ],
)
def test_replay_refuses_an_illegal_turn_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any], message: str
) -> None:
    code, out, err = run_cli(["replay", str(write(tmp_path, data)), "--json"], capsys)
    assert code != 0 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


@pytest.mark.parametrize(
    "content,message",
    [
        ("{oops", "R7.2: not valid JSON"),
        ("[]", "R7.2: a record is a JSON object"),
        (json.dumps(examples_with(format="pgn")), "'format' must be"),
        (json.dumps(examples_with(edition="chess")), "'edition' must be"),
        (json.dumps(examples_with(players=["A"])), "2 to 4 players, not 1"),
        (json.dumps(examples_with(bag=["USAm"] * 100)), "the bag must hold exactly the 100 tiles"),
        (json.dumps(examples_with(bag=["USAm", "XYZq"])), "bag[1]: unknown tile"),
        (json.dumps(examples_with(rules={"preset": "printed", "tribe_and_circle": True})), "other edition"),
        (json.dumps(examples_with(board={"tables": []})), "R1.1"),
        (json.dumps(examples_with(turns="USAm@h3")), "'turns' must be a list"),
    ],
)
def test_malformed_records_get_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    code, out, err = run_cli(["replay", str(write(tmp_path, content))], capsys)
    assert code == 1 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_cli(["replay", str(tmp_path / "nope.json")], capsys)
    assert code == 1 and "no such file" in err


def test_the_installed_command_runs_without_a_traceback(tmp_path: Path) -> None:
    bad = write(tmp_path, examples_with(turns=["USAm@h3"]))
    proc = subprocess.run(
        [sys.executable, "-m", "cafe.cli", "replay", str(bad), "--json"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == "turn 1: R2.3.3: The American gentleman on h3 would be alone at the end of the turn"


def test_a_set_up_position_has_no_record() -> None:
    game = BoardGame.from_position(2, [["USAm"], ["USAf"]])
    with pytest.raises(RecordError, match="no record"):
        Record.of(game)


def test_a_turn_after_the_end_is_refused_by_each_editions_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cafe.card_game import CardGame

    for game, rule in ((finished_game(2), "R2.8"), (play_random(CardGame(2, seed=2), random.Random(2)), "R4.6")):
        data = Record.of(game).to_json()
        data["turns"] = [*data["turns"], "draw"]
        code, _, err = run_cli(["replay", str(write(tmp_path, data)), "--json"], capsys)
        assert code == 1 and err.startswith(f"turn {len(data['turns'])}: {rule}: the game is over")
