"""One game between players: each sees only its own view and answers with a legal step."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cafe.ai.base import Player
from cafe.ai.levels import make_player
from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.errors import IllegalStepError
from cafe.record import Record
from cafe.steps import Kind

Game = BoardGame | CardGame


class PlayerError(Exception):
    """A player answered with an illegal step or failed; the game cannot go on."""


@dataclass(frozen=True)
class SeatResult:
    """How one seat did in one game."""

    score: int
    place: int
    won: float  # 1 for a sole first place, 1/k for a first place shared by k, else 0
    turns: int
    bar_visits: int
    think_seconds: float
    longest_turn_seconds: float


def new_game(edition: str, players: Sequence[str], seed: int, rules: Any = None) -> Game:
    """A fresh game; the same seed gives the same bag (or deck and table pile) whatever the seating."""
    if edition == "board":
        return BoardGame(players, rules=rules, seed=seed)
    return CardGame(players, rules=rules, seed=seed)


def self_play(spec: str, edition: str, players: int, seed: int, rules: Any = None) -> tuple[Game, list[Player]]:
    """A fresh game over the bag of ``seed`` with ``spec`` in every seat, each seeded by the game and the seat
    (the games of cafe selfplay and cafe train)."""
    game = new_game(edition, [f"{spec}#{p + 1}" for p in range(players)], seed, rules)
    return game, [make_player(spec, seed=seed * 101 + p) for p in range(players)]


def play(game: Game, players: Sequence[Player]) -> tuple[list[SeatResult], dict[str, Any]]:
    """Play ``game`` to its end; return each seat's result and the game record."""
    n = len(players)
    think = [0.0] * n
    longest = [0.0] * n
    turn_time = [0.0] * n
    turns = [0] * n
    bar = [0] * n
    while not game.is_over():
        seat = game.current_player
        legal = game.legal_steps()
        view = game.view(seat)
        started = time.perf_counter()
        try:
            step = players[seat].choose(view, legal)
        except Exception as error:  # a bot's failure is reported, not raised through the arena
            raise PlayerError(f"{players[seat].name} (seat {seat + 1}) failed: {error}") from error
        spent = time.perf_counter() - started
        think[seat] += spent
        turn_time[seat] += spent
        try:
            result = game.push(step)
        except IllegalStepError as error:
            raise PlayerError(f"{players[seat].name} (seat {seat + 1}) played {step}: {error}") from error
        if step.kind is Kind.BAR:
            bar[seat] += 1
        if result.turn_over:
            turns[seat] += 1
            longest[seat] = max(longest[seat], turn_time[seat])
            turn_time[seat] = 0.0
    places = game.places()
    assert places is not None
    firsts = places.count(1)
    results = [
        SeatResult(
            score=game.scores[p],
            place=places[p],
            won=1.0 / firsts if places[p] == 1 else 0.0,
            turns=turns[p],
            bar_visits=bar[p],
            think_seconds=think[p],
            longest_turn_seconds=longest[p],
        )
        for p in range(n)
    ]
    return results, Record.of(game).to_json()
