"""Engine speed: complete random games and legal-step generation (``cafe bench``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from cafe.board_game import BoardGame
from cafe.card_game import CardGame


def _per_second(play: Callable[[int], int], seconds: float) -> tuple[float, int, int]:
    """Call ``play(i)`` for i = 0, 1, ... for ``seconds``: (calls per second, calls, steps they report)."""
    calls = steps = 0
    start = time.perf_counter()
    while True:
        steps += play(calls)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed, calls, steps


def random_game(game: BoardGame | CardGame, rng: random.Random, full: bool = False) -> int:
    """Play ``game`` to its end between uniformly random players; return the steps taken.

    By default the players use the engine's fast path (``random_step``); with
    ``full`` they pick from the full list of legal steps, as a search does.
    """
    while not game.is_over():
        game.push(rng.choice(game.legal_steps()) if full else game.random_step(rng), check=False)
    return len(game.results)


def games_per_second(players: int, seconds: float, seed: int = 0, full: bool = False) -> tuple[float, int, int]:
    """(games per second, games played, steps played) for ``seconds`` of random board games."""
    rng = random.Random(seed)
    return _per_second(lambda i: random_game(BoardGame(players, seed=seed + i), rng, full), seconds)


def playouts_per_second(players: int, seconds: float, seed: int = 0) -> float:
    """Complete random games per second through :meth:`BoardGame.playout` (no undo history)."""
    rng = random.Random(seed)

    def play(i: int) -> int:
        BoardGame(players, seed=seed + i).playout(rng)
        return 0  # a playout keeps no history to count steps in

    return _per_second(play, seconds)[0]


def card_games_per_second(players: int, seconds: float, seed: int = 0) -> float:
    """Complete card games per second between uniformly random players (fast path, with undo history)."""
    rng = random.Random(seed)
    return _per_second(lambda i: random_game(CardGame(players, seed=seed + i), rng), seconds)[0]


def sample_positions(count: int, seed: int = 0) -> list[BoardGame]:
    """Positions met in random 4-player games (every step of as many games as needed)."""
    rng = random.Random(seed)
    out: list[BoardGame] = []
    number = 0
    while len(out) < count:
        game = BoardGame(4, seed=seed + number)
        number += 1
        while not game.is_over() and len(out) < count:
            out.append(game.copy())
            game.push(rng.choice(game.legal_steps()))
    return out


def legal_generations_per_second(seconds: float, seed: int = 0) -> float:
    """Full legal-step lists generated per second over positions from random games."""
    positions = sample_positions(2000, seed)

    def generate_all(_: int) -> int:
        for game in positions:
            game.state.clear_caches()  # generate afresh, look-ahead memo included
            game.state.exception = None
            game.legal_steps()
        return 0

    rounds_per_second = _per_second(generate_all, seconds)[0]
    return rounds_per_second * len(positions)


def run(seconds: float = 3.0) -> dict[str, Any]:
    g2, _, _ = games_per_second(2, seconds)
    g4, n4, s4 = games_per_second(4, seconds)
    full, _, _ = games_per_second(4, seconds, full=True)
    playouts = playouts_per_second(4, seconds)
    cards = card_games_per_second(4, seconds)
    return {
        "games_per_second_2p": round(g2, 1),
        "games_per_second_4p": round(g4, 1),
        "games_per_second_4p_full_lists": round(full, 1),
        "playouts_per_second_4p": round(playouts, 1),
        "card_games_per_second_4p": round(cards, 1),
        "steps_per_second_4p": round(g4 * s4 / n4),
        "mean_steps_per_game_4p": round(s4 / n4, 1),
        "legal_generations_per_second": round(legal_generations_per_second(seconds)),
        "seconds_per_measure": seconds,
    }
