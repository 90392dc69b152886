"""Self-play positions for the value network (cafe.ai.valuenet), with their targets by TD(λ).

At the start of every turn, each seat gives a row: its observation (what it sees then), its lead, and its value
by the evaluation the self-play search uses (the lead, or the lead corrected by the previous network).  A seat's
target at a row is its λ-return over its own later rows, as TD-Gammon learned: the value at the next row mixed
with the λ-return from there on, ending in its final margin.  λ = 1 gives the final margin alone, whose noise (a
game's margin is mostly the luck of the draw, and every row of a game shares it) a network fitted to a few
hundred games learns as if it were knowledge; a smaller λ trades that noise for the evaluation's own errors.

With the searched targets instead, only the mover gives a row, at the start of each turn the search weighed: its
target is the value the search found for the turn it played, as a margin in points (cafe.ai.mcts.unsquash), as
AlphaZero's value learns from its search.  That value holds no luck of the game's later draws, only the luck of
the worlds the search sampled; a network fitted to it sees, at a leaf, as far ahead as a search from there would.
A position the search found decided (a value beyond :data:`DECIDED`) gives no row: its squashed value no longer
tells one margin from another.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cafe.ai.base import Player
from cafe.ai.mcts import MCTSPlayer, leads, unsquash
from cafe.ai.model_file import load_once
from cafe.ai.valuenet import ValueNet, observation_length, observations
from cafe.ai.worlds import Game
from cafe.arena.match import self_play

DECIDED = 0.99  # searched values beyond (1 - DECIDED, DECIDED), some 46 points of lead, give no row


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


def td_returns(values: list[float], final: float, lam: float) -> list[float]:
    """One seat's λ-returns over its rows: ``values[i]`` is its value at row i; the return of row i mixes the value
    at row i + 1 with the return there, and the last row's return is the final margin."""
    returns = [0.0] * len(values)
    after = final  # the return of the row after i
    for i in range(len(values) - 1, -1, -1):
        returns[i] = after
        after = (1 - lam) * values[i] + lam * after
    return returns


def play_positions(edition: str, players: int, seeds: list[int], iterations: int, lam: float,
                   net: Path | None, searched: bool = False) -> Positions:  # fmt: skip
    """Self-play games, one per seed, and their rows: with TD(λ) returns as targets, or the searched values."""
    evaluation = load_once(ValueNet, str(net)) if net is not None else None
    spec = f"net:{net}:{iterations}" if net is not None else f"mcts:{iterations}"  # the same network, read once
    parts = []
    for seed in seeds:
        game, bots = self_play(spec, edition, players, seed)
        parts.append(_searched(game, bots, seed) if searched else _td(game, bots, seed, evaluation, lam))
    return Positions.join(parts)


def _td(game: Game, bots: list[Player], seed: int, evaluation: ValueNet | None, lam: float) -> Positions:
    """One game's rows, a row per seat at every turn's start, with their TD(λ) returns."""
    players = len(game.players)
    rows: list[np.ndarray] = []
    row_leads: list[list[float]] = []
    values: list[list[float]] = []
    turn_start = True
    while not game.is_over():
        if turn_start:
            rows.append(observations(game))
            row_leads.append(leads(game, random.Random(seed)))
            values.append(evaluation.margins(game, random.Random(seed)) if evaluation else row_leads[-1])
        seat = game.current_player
        step = bots[seat].choose(game.view(seat), game.legal_steps())
        turn_start = game.push(step).turn_over
    final = leads(game, random.Random(seed))  # over: the final margins
    targets = [td_returns([v[p] for v in values], final[p], lam) for p in range(players)]
    return Positions(
        np.concatenate(rows) if rows else np.zeros((0, observation_length(game)), np.float32),
        np.array([targets[p][i] for i in range(len(rows)) for p in range(players)]),
        np.array([lead for row in row_leads for lead in row]),
        np.array([final[p] for _ in rows for p in range(players)]),
    )


def _searched(game: Game, bots: list[Player], seed: int) -> Positions:
    """One game's rows, the mover's at the start of every turn its search weighed, with the searched values."""
    rows: list[np.ndarray] = []
    seats: list[int] = []
    row_leads: list[float] = []
    targets: list[float] = []
    turn_start = True
    while not game.is_over():
        seat = game.current_player
        bot = bots[seat]
        assert isinstance(bot, MCTSPlayer)  # self-play by the search (cafe.train.trial.check_settings)
        if turn_start:
            row, lead, before = observations(game)[seat], leads(game, random.Random(seed))[seat], bot.last_search
        step = bot.choose(game.view(seat), game.legal_steps())
        search = bot.last_search
        if turn_start and search is not None and search is not before:
            value = search.values[search.chosen]
            if 1 - DECIDED < value < DECIDED:
                rows.append(row)
                seats.append(seat)
                row_leads.append(lead)
                targets.append(unsquash(value))
        turn_start = game.push(step).turn_over
    final = leads(game, random.Random(seed))
    return Positions(
        np.array(rows, np.float32) if rows else np.zeros((0, observation_length(game)), np.float32),
        np.array(targets),
        np.array(row_leads),
        np.array([final[seat] for seat in seats]),
    )
