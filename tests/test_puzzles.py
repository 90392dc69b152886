"""The puzzles: every shipped one loads and its answer is legal and accepted; a puzzle is its mover's view and no
more, so changing what the mover could not see changes neither the puzzle nor its check; the commands that list,
make and play them.  The search confirming them again at a larger budget is in the slow lane (test_puzzles_search.py)
and, for all of them, bench/puzzles.py."""

from __future__ import annotations

import copy
import gzip
import io
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from cafe.ai.decisions import decided, push_turn
from cafe.ai.turns import complete_turns
from cafe.ai.worlds import Worlds
from cafe.card_game import CardGame
from cafe.cli import main
from cafe.errors import CafeError
from cafe.learn.puzzle_command import play
from cafe.learn.puzzle_mining import (
    DIFFICULTY_WORDS,
    MARGIN,
    THEME_WORDS,
    answer_complete,
    greedy_turn,
    judge,
    key,
    positions,
    world,
)
from cafe.learn.puzzles import EDITIONS, Puzzle, check, confirmed, shipped
from cafe.steps import Kind, Step, format_turn, parse_turn
from cafe.view import view_from_json

SHIPPED_AT_LEAST = 200  # per edition


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_shipped_puzzle_loads_and_its_answers_are_legal_and_accepted(edition: str) -> None:
    puzzles = shipped(edition)
    assert len(puzzles) >= SHIPPED_AT_LEAST
    assert len({p.id for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        view = view_from_json(puzzle.view)
        assert view.seat == view.current_player == puzzle.mover and not view.this_turn and not view.over
        assert puzzle.edition == edition and puzzle.theme in THEME_WORDS and puzzle.difficulty in DIFFICULTY_WORDS
        assert puzzle.margin >= MARGIN
        assert puzzle.confirm_budget > puzzle.budget
        for answer in puzzle.answers:
            assert check(puzzle, answer), (puzzle.id, answer)


def test_the_themes_are_varied() -> None:
    for edition in EDITIONS:
        themes = {p.theme for p in shipped(edition)}
        assert len(themes) >= 3, (edition, themes)


def a_card_puzzle() -> Puzzle:
    """A shipped card-game puzzle in a game of three or more: others' hands and face-down cards are hidden."""
    return next(p for p in shipped("cards") if len(p.view["players"]) >= 3 and p.view["deck_count"] > 10)


def test_a_puzzle_is_its_movers_view_and_shows_nothing_hidden() -> None:
    puzzle = a_card_puzzle()
    seed, turn = puzzle.id[1:].split("-")
    game, view = next((g, v) for g, v in positions("cards", int(seed)) if g.turn_number + 1 == int(turn))
    assert isinstance(game, CardGame)
    assert view.to_json() == puzzle.view  # the game it was mined from, played again from its seed
    text = json.dumps(puzzle.to_json())
    assert "bag" not in puzzle.view and "deck" not in puzzle.view and "table_cards" not in puzzle.view
    for seat, hand in enumerate(puzzle.view["hands"]):
        hidden = seat != puzzle.mover
        assert (hand is None) is hidden and (puzzle.view["face_down"][seat] is None) is hidden
    assert ",".join(t.name for t in game.deck[game.state.deck_pos :]) not in text


def test_changing_what_the_mover_cannot_see_changes_neither_the_puzzle_nor_its_check() -> None:
    puzzle = a_card_puzzle()
    seed, turn = puzzle.id[1:].split("-")
    game, view = next((g, v) for g, v in positions("cards", int(seed)) if g.turn_number + 1 == int(turn))
    other = Worlds.around(game, puzzle.mover).sample(random.Random(7))  # the hidden parts dealt anew
    seats = range(len(game.players))
    assert [other.hand(p) for p in seats] != [game.hand(p) for p in seats] or other.deck != game.deck
    assert other.hand(puzzle.mover) == game.hand(puzzle.mover)
    assert other.view(puzzle.mover).to_json() == view.to_json() == puzzle.view
    mined = judge(other.view(puzzle.mover), puzzle.budget, int(seed) * 1_000 + game.turn_number)
    assert mined is not None and mined["answers"] == list(puzzle.answers) and mined["margin"] == puzzle.margin
    turns = {format_turn(list(o.steps)) for o in complete_turns(world(puzzle.position(), 0))}
    for candidate in sorted(turns):
        assert len({check(puzzle, candidate, seed=s) for s in range(4)}) == 1, candidate


def test_an_illegal_or_unreadable_try_names_what_is_wrong() -> None:
    puzzle = shipped("board")[0]
    with pytest.raises(CafeError, match=r"R7\.1"):
        check(puzzle, "USAm@@h3")
    tile, taken = puzzle.view["hands"][puzzle.mover][0], puzzle.view["guests"][0]["chair"]
    with pytest.raises(CafeError, match=r"R2\.\d"):
        check(puzzle, f"{tile}@{taken}")  # a chair already taken


def test_cafe_puzzles_json_prints_n_puzzles_the_engine_loads(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "--json", "--count", "5", "--edition", "cards", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5
    for line in lines:
        data = json.loads(line)
        assert set(data) >= {"position", "mover", "answers", "theme", "margin"}
        view = view_from_json(data["position"])
        game = world(view)
        assert data["edition"] == "cards" and game.current_player == data["mover"]
        game.push_turn(data["answers"][0])
    assert main(["puzzles", "--json", "--count", "5", "--edition", "cards", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == lines  # the same seed, the same puzzles


def test_cafe_puzzles_make_gives_the_same_file_from_the_same_seeds(tmp_path: Path) -> None:
    files = [tmp_path / "one.json.gz", tmp_path / "two.json.gz"]
    for out in files:
        assert main(["puzzles", "make", "--edition", "board", "--games", "2", "--seed", "5", "--budget", "8",
                     "--jobs", "1", "--out", str(out)]) == 0  # fmt: skip
    assert files[0].read_bytes() == files[1].read_bytes()
    data = json.loads(gzip.decompress(files[0].read_bytes()))
    assert data["analysed"] > 20 and data["budget"] == 8 and data["games"] == 2
    assert all(p["confirm_budget"] == 64 for p in data["puzzles"])


def test_cafe_puzzles_make_refuses_a_budget_below_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["puzzles", "make", "--games", "1", "--budget", "0", "--out", str(tmp_path / "p.json.gz")]) == 1
    assert "--budget" in capsys.readouterr().err


def test_cafe_puzzle_in_the_terminal_says_right_wrong_and_why() -> None:
    first, second = shipped("board")[:2]
    wrong = next(
        format_turn(list(o.steps))
        for o in complete_turns(world(second.position()))
        if not check(second, format_turn(list(o.steps)))
    )
    out = io.StringIO()
    typed = io.StringIO(f"{first.answers[0]}\nnonsense\n{wrong}\n\n")
    assert play([first, second, shipped("board")[2]], typed, out) == 0
    said = out.getvalue()
    assert said.count("Right!") == 1 and said.count("Not the best turn.") == 1
    assert "R7.1" in said  # the unreadable line, and the puzzle stays
    assert f"Solution: {second.answers[0]}" in said and "Solved 1 of 2." in said
    assert "whole turn" in said and "new table card" not in said


def test_a_card_puzzle_in_the_terminal_asks_for_the_turn_up_to_a_new_table_card() -> None:
    """A card puzzle's answer ends where a full table brings a new table card: the prompt says so, not "whole"."""
    out = io.StringIO()
    assert play(shipped("cards")[:1], io.StringIO("\n"), out) == 0
    said = out.getvalue()
    assert "the turn ends there" in said and "whole turn" not in said


def test_the_answer_is_searched_as_the_whole_turn_it_is_never_beside_itself() -> None:
    """An answer that ends with the stop notation leaves out is searched ended: not also as a turn the search could
    go on with, which valued the answer against itself."""
    ended = [
        p for p in shipped("cards") if decided(world(p.position()), parse_turn(p.answers[0]))[-1].kind is Kind.STOP
    ][:3]
    assert ended
    for puzzle in ended:
        _, ranked = confirmed(puzzle, 16, seed=0)
        assert len({turn for turn, _ in ranked}) == len(ranked), ranked


def table_cards_laid(game: CardGame, turn: Sequence[Step]) -> list[bool]:
    """For each step of a turn, as far as its steps are legal in ``game``: whether it filled a table mid-turn (and
    laid a new table card there) and the turn went on."""
    results = []
    try:
        for step in turn:
            results.append(game.push(step))
    except CafeError:
        pass
    for _ in results:
        game.pop()
    return [bool(result.completed) and not result.turn_over for result in results]


def goes_on_after_a_table_card(game: CardGame, turn: Sequence[Step]) -> bool:
    """Whether a turn plays a card after one that laid a new table card mid-turn."""
    laid = table_cards_laid(game, turn)
    return any(laid[k] and step.kind is Kind.SEAT for k, step in enumerate(turn[1 : len(laid) + 1]))


def can_go_on(game: CardGame) -> bool:
    """Whether a turn of this position may go on after filling a table (in this world, with its new table card)."""
    return any(goes_on_after_a_table_card(game, option.steps) for option in complete_turns(game))


def test_no_card_candidate_goes_on_after_a_new_table_card() -> None:
    """A card that fills a table lays a new table card from the pile, which the mover cannot know: the candidate
    turns (and so every answer) stop there, and the search goes on from there in each world with its own table card."""
    view = next(v for _, v in positions("cards", 1) if all(can_go_on(world(v, s)) for s in range(4)))
    game = world(view)
    assert isinstance(game, CardGame)
    greedy = format_turn(list(greedy_turn(view, 0).steps))
    puzzle = Puzzle("c1-0", "cards", view.to_json(), (greedy,), "full_table", "easy", MARGIN, 0, 1, 8)
    _, ranked = confirmed(puzzle, 2, seed=0)
    turns = [parse_turn(turn) for turn, _ in ranked]
    assert not any(goes_on_after_a_table_card(game, turn) for turn in turns), ranked
    up_to_a_table = [turn for turn in turns if table_cards_laid(game, turn)[-1]]
    assert up_to_a_table, ranked  # the turn up to the new table card, searched on from there


def test_a_try_is_compared_up_to_the_new_table_card_as_the_answers_are() -> None:
    """An answer that fills a table mid-turn ends there: a try that goes on after it (on a table card the puzzle's
    mover could not know) is judged by its steps up to it."""
    tried = 0
    for puzzle in shipped("cards"):
        game = world(puzzle.position())
        assert isinstance(game, CardGame)
        answer = decided(game, parse_turn(puzzle.answers[0]))
        if not table_cards_laid(game, answer)[-1]:
            continue  # an answer that ends the turn
        for seed in range(3):
            other = world(puzzle.position(), seed)
            for option in complete_turns(other):
                if key(decided(other, option.steps)) == key(answer) and goes_on_after_a_table_card(other, option.steps):
                    assert check(puzzle, format_turn(list(option.steps)), seed=seed), (puzzle.id, option.steps)
                    tried += 1
    assert tried


def test_a_close_after_the_new_table_card_stays_in_the_answer() -> None:
    """The card that fills a table and empties the hand may be followed by a close: that ends the game, whatever the
    new table card, so it is part of the answer, and the café waits for it (or the stop) before judging."""
    puzzle = next(
        p for p in shipped("cards") if table_cards_laid(world(p.position()), parse_turn(p.answers[0])) == [True]
    )
    card = parse_turn(puzzle.answers[0])[0]
    assert card.tile is not None
    emptied = copy.deepcopy(puzzle.view)  # the same position with that card the last in hand
    emptied["hands"][puzzle.mover], emptied["hand_counts"][puzzle.mover] = [card.tile.name], 1
    game = world(view_from_json(emptied))
    assert decided(game, [card, Step(Kind.CLOSE)]) == (card, Step(Kind.CLOSE))
    assert decided(game, [card, Step(Kind.STOP)]) == decided(game, [card]) == (card,)
    laid = push_turn(game, [card], end=False)
    assert laid[-1].completed and not answer_complete(game, laid)  # a stop or a close may follow
    assert answer_complete(game, [*laid, game.push(Step(Kind.CLOSE))])
    full = world(puzzle.position())
    assert answer_complete(full, push_turn(full, [card], end=False))  # cards left: the rest is no answer's
