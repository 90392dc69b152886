"""Mining puzzles: positions of the computer players' games where one whole turn is clearly the best.

A position is judged from its mover's view alone (as :mod:`cafe.ai.analysis` judges a turn): the search values the
candidate turns in worlds sampled from that view, so the bag's order, others' hidden hands and face-down cards never
count.  A position is kept when the best turn beats every other candidate by ``margin`` points, and the same turn wins
by as much again at a budget :data:`CONFIRM` times larger with another seed.  A turn that only scores the most points
now (the greedy player's own choice) with nothing else to it is too easy and is dropped.  In the card game a candidate
turn, and so an answer, ends where it lays a new table card mid-turn (:func:`cafe.ai.decisions.decided`).  Same
seeds, same budget: the same puzzles on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cafe.ai.analysis import review_turn
from cafe.ai.decisions import decided, push_turn, reveals
from cafe.ai.greedy import GreedyPlayer
from cafe.ai.levels import make_player
from cafe.ai.turns import TurnOption, playable_turns
from cafe.ai.worlds import Game, Worlds
from cafe.arena.match import new_game
from cafe.board_game import BoardGame
from cafe.game import StepResult
from cafe.i18n import N_
from cafe.steps import Kind, Step, format_turn, parse_turn
from cafe.view import View

MARGIN = 3.0  # points the best turn must beat every other by, at both budgets
CONFIRM = 8  # the confirming budget, in mining budgets
PLAYERS = ("greedy", "greedy", "greedy:noise")  # the computer players whose games are mined, seat by seat in turn
# A puzzle's themes in words, the most telling first: a turn's theme is the first that fits it (see theme())
THEME_WORDS = {
    "exchange": N_("joker exchange"), "joker": N_("jokers"), "single_nation": N_("single-nation table"),
    "bar": N_("the bar's timing"), "close": N_("closing"), "draw_or_play": N_("draw or play"),
    "face_down": N_("face-down cards"), "full_table": N_("a full table"), "deny": N_("denying a table"),
    "points": N_("points now"),
}  # fmt: skip
DIFFICULTY_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


@dataclass(frozen=True)
class Mined:
    """What one game gave: the positions judged and the puzzles kept."""

    analysed: int
    puzzles: tuple[dict[str, Any], ...]


def world(view: View, seed: int = 0) -> Game:
    """A game at the view's position, the hidden parts dealt at random from ``seed`` (a puzzle's game)."""
    return Worlds(view, random.Random(seed)).base


def key(turn: Sequence[Step]) -> tuple[str, ...]:
    """Turns that seat the same guests in another order are the same answer."""
    return tuple(sorted(str(step) for step in turn if step.kind is not Kind.STOP))


def greedy_turn(view: View, seed: int) -> TurnOption:
    """The turn the greedy player would play from this view (the 'most points now' answer)."""
    game = world(view, seed)
    return GreedyPlayer.best(game, playable_turns(game, game.legal_steps()))


def answer_complete(game: Game, results: Sequence[StepResult]) -> bool:
    """Whether the steps played so far make a whole answer: the turn is over, or a step laid a table card and no
    ``close`` may follow it (see :func:`cafe.ai.decisions.decided`)."""
    if not results:
        return False
    return results[-1].turn_over or (reveals(game, results[-1]) and Step(Kind.CLOSE) not in game.legal_steps())


def outcome(game: Game, turn: Sequence[Step]) -> tuple[int, int]:
    """What a legal turn scores at once and the tables it completes (single-nation, or full in the card game), up to
    where it shows something hidden."""
    results = push_turn(game, turn)
    for _ in results:
        game.pop()
    return sum(r.points for r in results), sum(len(r.completed) for r in results)


def theme(game: Game, best: Sequence[Step], greedy: Sequence[Step]) -> str:
    """What a turn teaches, the most telling first (the order of :data:`THEME_WORDS`)."""
    kinds = [step.kind for step in best]
    points, completed = outcome(game, best)
    greedy_points, _ = outcome(game, greedy)
    if Kind.EXCHANGE in kinds:
        return "exchange"
    if any(step.kind is Kind.SEAT and step.tile is not None and step.tile.is_joker for step in best):
        return "joker"
    board = isinstance(game, BoardGame)
    if board and completed:
        return "single_nation"
    if Kind.BAR in kinds:
        return "bar"
    if Kind.CLOSE in kinds:
        return "close"
    if not board and (Kind.DRAW in kinds) != (Kind.DRAW in (step.kind for step in greedy)):
        return "draw_or_play"
    if Kind.DOWN in kinds:
        return "face_down"
    if not board and completed:
        return "full_table"
    return "deny" if points < greedy_points else "points"


def difficulty(same_as_greedy: bool, points: int, greedy_points: int) -> str:
    """Easy when the most points now is also the answer, hard when the answer gives points up."""
    if same_as_greedy:
        return "easy"
    return "hard" if points < greedy_points else "medium"


def judge(view: View, budget: int, seed: int, margin: float = MARGIN) -> dict[str, Any] | None:
    """The puzzle at this position (the mover's view at the start of a turn), or None if no turn is clearly best."""
    game = world(view, seed)
    if len(game.legal_steps()) < 2:
        return None
    greedy = decided(game, greedy_turn(view, seed).steps)
    ranked, _ = review_turn(game, greedy, budget, seed, decided)
    if len(ranked) < 2 or ranked[0][1] - ranked[1][1] < margin:
        return None
    best = decided(game, parse_turn(ranked[0][0]))
    topic = theme(game, best, greedy)
    same = key(best) == key(greedy)
    if same and topic == "points":
        return None  # only the most points now: too easy
    confirmed, _ = review_turn(game, best, budget * CONFIRM, seed + 1, decided)
    if key(parse_turn(confirmed[0][0])) != key(best) or confirmed[0][1] - confirmed[1][1] < margin:
        return None
    points, _ = outcome(game, best)
    greedy_points, _ = outcome(game, greedy)
    return {
        "edition": "board" if isinstance(game, BoardGame) else "cards",
        "view": view.to_json(),
        "mover": view.current_player,
        "answers": [confirmed[0][0]],
        "theme": topic,
        "difficulty": difficulty(same, points, greedy_points),
        "margin": round(confirmed[0][1] - confirmed[1][1], 2),
        "points": points,
        "greedy": format_turn(list(greedy)),
        "alternatives": [{"turn": turn, "value": round(value, 2)} for turn, value in confirmed[:3]],
        "budget": budget,
        "confirm_budget": budget * CONFIRM,
    }


def positions(edition: str, seed: int) -> Iterator[tuple[Game, View]]:
    """A game of the computer players from ``seed``, at the start of every turn: the game and its mover's view."""
    seats = 2 + seed % 3
    game = new_game(edition, [f"Player {p + 1}" for p in range(seats)], seed)
    players = [make_player(PLAYERS[(seed + p) % len(PLAYERS)], seed=seed * 101 + p) for p in range(seats)]
    while not game.is_over():
        seat = game.current_player
        view = game.view(seat)
        if not view.this_turn:
            yield game, view
        game.push(players[seat].choose(view, game.legal_steps()))


def mine_game(edition: str, seed: int, budget: int, margin: float = MARGIN) -> Mined:
    """Judge the position at the start of every turn of a game of the computer players from ``seed``."""
    analysed, kept = 0, []
    for game, view in positions(edition, seed):
        analysed += 1
        puzzle = judge(view, budget, seed * 1_000 + game.turn_number, margin)
        if puzzle is not None:
            kept.append({"id": f"{edition[0]}{seed}-{game.turn_number + 1}", "seed": seed, **puzzle})
    return Mined(analysed, tuple(kept))
