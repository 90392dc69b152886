"""The analyser: every turn judged from its mover's view against the search's best turns."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cafe import BoardGame
from cafe.ai.analysis import VERDICTS, review_record, review_recorded_turn, review_turn, summarise, verdict
from cafe.ai.decisions import decided, push_turn
from cafe.ai.levels import make_player
from cafe.arena.match import new_game
from cafe.card_game import CardGame
from cafe.cli import main
from cafe.record import Record
from cafe.steps import Kind, parse_turn

BUDGET = 8  # iterations below each candidate turn: enough to tell turns apart in these tests, and quick


def played_steps(game: BoardGame | CardGame, turn: str) -> tuple[Any, ...]:
    """The steps of a whole turn (its implied `stop` included), the game left as it was."""
    results = game.push_turn(turn)
    for _ in results:
        game.pop()
    return tuple(r.step for r in results)


def test_completing_a_single_nation_table_is_found_and_a_weak_turn_loses() -> None:
    seated = {"h1": "USAf", "h3": "USAm", "g2": "USAf"}  # USA1 waits for an American gentleman at i2
    game = BoardGame.from_position(2, [["USAm", "CHNm", "CHNm", "CUBm", "CUBm"], ["AFRm"]], seated=seated)
    ranked, best_value = review_turn(game, played_steps(game, "USAm@i2"), budget=32, seed=1)
    assert ranked[0][0].startswith("USAm@i2") and best_value == ranked[0][1]
    ranked, weak = review_turn(game, played_steps(game, "CHNm@bar"), budget=32, seed=1)
    loss = ranked[0][1] - weak
    assert ranked[0][0].startswith("USAm@i2") and loss >= 2.0 and verdict(loss) in ("inaccuracy", "mistake", "blunder")


def test_the_classes_follow_the_documented_bounds() -> None:
    assert [verdict(x) for x in (0.0, 0.49, 0.5, 1.99, 2.0, 4.99, 5.0, 9.99, 10.0, 99.0)] == [
        "best", "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"
    ]  # fmt: skip
    text = (Path(__file__).parents[1] / "docs" / "analysis.md").read_text()
    for name in VERDICTS:
        assert f"| {name} |" in text


def played_record(edition: str, seed: int, players: int = 2, rules: Any = None) -> Record:
    """A short complete game between a greedy and a random player."""
    game = new_game(edition, [f"P{i}" for i in range(players)], seed, rules)
    bots = [make_player("greedy" if seat == 0 else "random", seed=seed + seat) for seat in range(players)]
    while not game.is_over():
        seat = game.current_player
        game.push(bots[seat].choose(game.view(seat), game.legal_steps()))
    return Record.of(game)


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_cafe_analyse_judges_every_turn(edition: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = played_record(edition, 11)
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    assert main(["analyse", str(path), "--budget", str(BUDGET), "--jobs", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    turns, players = out["turns"], out["players"]
    assert [t["turn"] for t in turns] == list(range(1, len(record.turns) + 1))
    assert [t["played"] for t in turns] == record.turns
    game = record.replay()
    assert [t["points"] for t in turns] == game.turn_points()
    for t in turns:
        assert t["loss"] >= 0 and t["class"] == verdict(t["loss"]) and t["best"]
        assert t["loss"] == pytest.approx(t["best_value"] - t["played_value"], abs=0.011)
    assert [p["name"] for p in players] == record.players
    for seat, p in enumerate(players):
        mine = [t for t in turns if t["seat"] == seat]
        assert p["turns"] == len(mine) == sum(p[v] for v in VERDICTS)
        assert p["mean_loss"] == pytest.approx(sum(t["loss"] for t in mine) / len(mine), abs=0.011)
    assert main(["analyse", str(path), "--budget", "4", "--jobs", "1"]) == 0
    table = capsys.readouterr().out
    assert "verdict" in table and "mean loss" in table and len(table.splitlines()) == len(turns) + 3 + len(players)


def test_the_same_inputs_give_the_same_analysis_however_many_processes() -> None:
    record = played_record("board", 5)
    first = review_record(record, BUDGET, seed=3, jobs=1)
    assert review_record(record, BUDGET, seed=3, jobs=2) == first
    assert summarise(record.players, first) == summarise(record.players, review_record(record, BUDGET, 3))


def test_what_the_mover_could_not_see_changes_nothing() -> None:
    board = played_record("board", 21, players=3).to_json()
    k = 4
    game = Record.from_json({**board, "turns": board["turns"][:k]}).replay()
    drawn = len(board["bag"]) - game.bag_count()  # the tiles still in the bag when turn k+1 begins
    shuffled = board["bag"][:drawn] + random.Random(1).sample(board["bag"][drawn:], len(board["bag"]) - drawn)
    assert shuffled != board["bag"]
    other = {**board, "bag": shuffled, "turns": board["turns"][: k + 1]}
    assert review_recorded_turn(other, k, BUDGET, 9) == review_recorded_turn(board, k, BUDGET, 9)

    cards = played_record("cards", 22, players=3).to_json()
    deck = list(cards["deck"])
    deck[7], deck[-1] = deck[-1], deck[7]  # the second player's hand, and the deck, differ
    other = {**cards, "deck": deck, "turns": cards["turns"][:1]}
    assert deck != cards["deck"]
    assert review_recorded_turn(other, 0, BUDGET, 9) == review_recorded_turn(cards, 0, BUDGET, 9)


def test_a_bad_record_gets_the_replays_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = played_record("board", 3).to_json()
    record["turns"][1] = "USAm@z99"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path)]) == 1
    assert capsys.readouterr().err.startswith("turn 2: R")
    assert main(["analyse", str(path), "--budget", "0"]) == 1
    assert "at least 1" in capsys.readouterr().err


def turn_past_a_table_card(record: Record) -> int | None:
    """The first turn of a card game's record that went on after a full table brought a new table card."""
    game = record.new_game()
    for index, turn in enumerate(record.turns):
        steps = [result.step for result in game.push_turn(turn)]
        for _ in steps:
            game.pop()
        if len(decided(game, steps)) < len([s for s in steps if s.kind is not Kind.STOP]):
            return index
        game.push_turn(turn)
    return None


def test_a_card_turn_is_judged_up_to_the_new_table_card_its_mover_could_not_know() -> None:
    """Neither the played turn nor any candidate is valued past the new table card: what follows it was decided on
    a card the mover could not see when the turn began (docs/analysis.md)."""
    record, index = next(
        (record, index)
        for seed in range(40)
        if (index := turn_past_a_table_card(record := played_record("cards", seed))) is not None
    )
    review = review_recorded_turn(record.to_json(), index, BUDGET, 9)
    game = record.new_game()
    for turn in record.turns[:index]:
        game.push_turn(turn)
    judged = [review.best, *(turn for turn, _ in review.alternatives)]
    for turn in judged:
        steps = parse_turn(turn)
        shown = push_turn(game, steps, end=False)
        for _ in shown:
            game.pop()
        assert len(shown) == len(steps), turn  # nothing after a step that laid a new table card
    assert review.played == record.turns[index]  # the record's turn is shown whole
