"""Engine speed: complete random games and legal-step generation (``cafe bench``)."""

from __future__ import annotations

import importlib.util
import random
import statistics
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


def chess_plies_per_second(seconds: float, seed: int = 0) -> float:
    """Plies per second of complete random games of python-chess (legal moves listed, one chosen uniformly), the
    yardstick of pure-Python game engines."""
    import chess

    rng = random.Random(seed)

    def play(_: int) -> int:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        return board.ply()

    rate, calls, plies = _per_second(play, seconds)
    return rate * plies / calls


def versus_chess(rounds: int = 5, seconds: float = 1.0) -> dict[str, Any]:
    """Complete random 4-player games per 1,000 random python-chess plies, for each edition: the three measured in
    turn, ``rounds`` times, so that the machine's moods touch all alike; the median and the lowest round."""
    board: list[float] = []
    cards: list[float] = []
    for r in range(rounds):
        per_ply = chess_plies_per_second(seconds, seed=r) / 1000
        board.append(games_per_second(4, seconds, seed=r)[0] / per_ply)
        cards.append(card_games_per_second(4, seconds, seed=r) / per_ply)
    return {
        "games_per_1k_chess_plies": round(statistics.median(board), 1),
        "games_per_1k_chess_plies_min": round(min(board), 1),
        "card_games_per_1k_chess_plies": round(statistics.median(cards), 1),
        "card_games_per_1k_chess_plies_min": round(min(cards), 1),
        "chess_rounds": rounds,
    }


def compiled() -> bool:
    """Whether the engine runs as compiled extension modules (mypyc) rather than pure Python."""
    import cafe.board_game

    return not (cafe.board_game.__file__ or "").endswith(".py")


def run(seconds: float = 3.0, chess_rounds: int = 5) -> dict[str, Any]:
    g2, _, _ = games_per_second(2, seconds)
    g4, n4, s4 = games_per_second(4, seconds)
    full, _, _ = games_per_second(4, seconds, full=True)
    playouts = playouts_per_second(4, seconds)
    cards = card_games_per_second(4, seconds)
    out: dict[str, Any] = {
        "games_per_second_2p": round(g2, 1),
        "games_per_second_4p": round(g4, 1),
        "games_per_second_4p_full_lists": round(full, 1),
        "playouts_per_second_4p": round(playouts, 1),
        "card_games_per_second_4p": round(cards, 1),
        "steps_per_second_4p": round(g4 * s4 / n4),
        "mean_steps_per_game_4p": round(s4 / n4, 1),
        "legal_generations_per_second": round(legal_generations_per_second(seconds)),
        "seconds_per_measure": seconds,
        "compiled": compiled(),
    }
    if importlib.util.find_spec("chess") is not None:  # python-chess, the yardstick, is installed
        out.update(versus_chess(chess_rounds, seconds / 3))
    return out
