"""Self-play positions for the value network (cafe.ai.valuenet), with their targets by TD(λ).

At the start of every turn, each seat gives a row: its observation (what it sees then) and, if it is the seat
about to move, the value its search found for the position.  A seat's target at a row is its λ-return over its
own later rows: the search's value at its next turn, mixed with the λ-return from there on, ending in its final
margin (λ = 1: the final margin alone, as a linear correction is fitted; λ = 0: the search's next value).  Rows
where the seat does not move pass the return on unchanged: only the seat's own searches are its bootstraps.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cafe.ai.base import Player
from cafe.ai.mcts import SCALE, MCTSPlayer, leads
from cafe.ai.valuenet import ValueNet, observations
from cafe.arena.match import new_game


@dataclass(frozen=True)
class Positions:
    """Rows of self-play positions: observations, targets (points), and the lead then (to compare with)."""

    observations: np.ndarray  # rows x observation length, float32
    targets: np.ndarray  # the λ-return of each row's seat, in points
    leads: np.ndarray  # the seat's lead at the row (what the plain search values a position by)
    finals: np.ndarray  # the seat's final margin

    @classmethod
    def join(cls, parts: list[Positions]) -> Positions:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("observations", "targets", "leads",
                                                                               "finals")))  # fmt: skip


def margin_of(value: float) -> float:
    """A search's value in (0, 1) as the lead in points it squashes (the inverse of :func:`cafe.ai.mcts.squash`)."""
    value = min(max(value, 1e-6), 1 - 1e-6)
    return SCALE * math.log(value / (1 - value))


def searcher(iterations: int, seed: int, net: Path | None) -> Player:
    """The self-play player: the search at a fixed count, valuing its leaves by the lead or by ``net``."""
    if net is None:
        return MCTSPlayer(time_per_turn=None, iterations=iterations, seed=seed)
    return MCTSPlayer(time_per_turn=None, iterations=iterations, seed=seed, evaluation=ValueNet.load(net).evaluate)


def td_returns(bootstraps: list[float | None], final: float, lam: float) -> list[float]:
    """One seat's λ-returns over its rows: ``bootstraps[i]`` is its search's margin at row i (None: it did not
    search there); the return of row i mixes the bootstrap of the next row that has one with the return there."""
    returns = [0.0] * len(bootstraps)
    after = final  # the return from the row after i on
    for i in range(len(bootstraps) - 1, -1, -1):
        returns[i] = after
        own = bootstraps[i]
        if own is not None:
            after = (1 - lam) * own + lam * after
    return returns


def play_positions(edition: str, players: int, seeds: list[int], iterations: int, lam: float,
                   net: Path | None) -> Positions:  # fmt: skip
    """Self-play games, one per seed, and their rows."""
    parts = []
    for seed in seeds:
        game = new_game(edition, [f"P{p + 1}" for p in range(players)], seed)
        bots = [searcher(iterations, seed * 101 + p, net) for p in range(players)]
        rng = random.Random(seed)
        rows: list[np.ndarray] = []
        row_leads: list[float] = []
        bootstraps: list[list[float | None]] = [[] for _ in range(players)]
        turn_start = True
        while not game.is_over():
            seat = game.current_player
            view = game.view(seat)
            step = bots[seat].choose(view, game.legal_steps())
            if turn_start:
                rows.append(observations(game))
                row_leads += leads(game, rng)
                value = _searched_value(bots[seat], view.seat, view.turn_number)
                for p in range(players):
                    bootstraps[p].append(value if p == seat else None)
            turn_start = game.push(step).turn_over
        final = leads(game, rng)
        targets = [td_returns(bootstraps[p], final[p], lam) for p in range(players)]
        parts.append(
            Positions(
                np.concatenate(rows) if rows else np.zeros((0, 0), np.float32),
                np.array([targets[p][i] for i in range(len(rows)) for p in range(players)]),
                np.array(row_leads),
                np.array([final[p] for _ in rows for p in range(players)]),
            )
        )
    return Positions.join(parts)


def _searched_value(bot: Player, seat: int | None, turn: int) -> float | None:
    """The margin the bot's search just found for its turn (None if it did not search: one choice only)."""
    search = bot.last_search if isinstance(bot, MCTSPlayer) else None
    if search is None or (search.seat, search.turn) != (seat, turn) or not sum(search.visits):
        return None
    value = sum(v * n for v, n in zip(search.values, search.visits, strict=True)) / sum(search.visits)
    return margin_of(value)
