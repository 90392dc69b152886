"""Positions of self-play games, summed into what a least-squares fit needs.

At the start of every turn of a game, each seat gives one row: its features (cafe.ai.learned) and the target, its
final margin minus its lead then.  A fit needs only the sums ``XᵀX``, ``Xᵀy``, ``yᵀy`` and the count, so a chunk
of games returns those (a few hundred kilobytes) instead of its rows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from cafe.ai.learned import feature_count, features
from cafe.ai.mcts import leads
from cafe.arena.match import self_play


@dataclass
class Sums:
    """The sufficient statistics of a least-squares fit over some rows."""

    xx: np.ndarray
    xy: np.ndarray
    yy: float
    rows: int

    @classmethod
    def empty(cls, edition: str) -> Sums:
        n = feature_count(edition)
        return cls(np.zeros((n, n)), np.zeros(n), 0.0, 0)

    def add(self, other: Sums) -> None:
        self.xx += other.xx
        self.xy += other.xy
        self.yy += other.yy
        self.rows += other.rows

    def squared_error(self, weights: np.ndarray) -> float:
        """The mean squared error of predicting the targets by ``features · weights`` (0 weights: by the lead)."""
        total = self.yy - 2 * weights @ self.xy + weights @ self.xx @ weights
        return float(total) / max(self.rows, 1)


def play_games(edition: str, players: int, seeds: list[int], spec: str) -> Sums:
    """Self-play games of ``spec`` in every seat, one per seed, as sums."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for seed in seeds:
        game, bots = self_play(spec, edition, players, seed)
        rng = random.Random(seed)
        rows: list[list[float]] = []
        game_leads: list[float] = []
        turn_start = True
        while not game.is_over():
            if turn_start:
                rows += (features(game, p) for p in range(players))
                game_leads += leads(game, rng)
            seat = game.current_player
            step = bots[seat].choose(game.view(seat), game.legal_steps())
            turn_start = game.push(step).turn_over
        final = leads(game, rng)
        xs += rows
        ys += (final[k % players] - lead for k, lead in enumerate(game_leads))
    if not ys:
        return Sums.empty(edition)
    x, y = np.array(xs), np.array(ys)
    return Sums(x.T @ x, x.T @ y, float(y @ y), len(ys))
