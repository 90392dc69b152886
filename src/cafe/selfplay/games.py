"""One self-play game, kept as rows: for each step a player chose, what the mover saw and what its search found."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from cafe.ai.base import Player
from cafe.ai.mcts import MCTSPlayer, SearchResult
from cafe.arena.match import self_play
from cafe.envs.actions import actions_of
from cafe.envs.numeric import fill_observation
from cafe.envs.observation import observation_size
from cafe.steps import Step
from cafe.view import View


def play_game(spec: str, edition: str, players: int, seed: int, rules: Any = None) -> list[dict[str, Any]]:
    """Every seat played by ``spec`` (seeded by the game's seed and the seat), over the bag of ``seed``."""
    game, bots = self_play(spec, edition, players, seed, rules)
    actions = actions_of(game)
    size = observation_size(game.view(0))
    rows: list[dict[str, Any]] = []
    while not game.is_over():
        seat = game.current_player
        view = game.view(seat)
        legal = game.legal_steps()
        step = bots[seat].choose(view, legal)
        policy, value = search_policy(bots[seat], view, legal, step)
        observation = np.zeros(size, np.float32)
        fill_observation(game, seat, observation)
        rows.append(
            {
                "game": seed, "ply": len(game.results), "seat": seat, "observation": observation,
                "legal": actions.numbers(legal), "policy": policy, "value": value,
                "action": actions.index(step),
            }
        )  # fmt: skip
        game.push(step)
    scores = game.scores
    margins = [float(score - max(s for q, s in enumerate(scores) if q != p)) for p, score in enumerate(scores)]
    for row in rows:
        row["margins"] = margins
    return rows


def search_policy(player: Player, view: View, legal: Sequence[Step], chosen: Step) -> tuple[list[float], float]:
    """The search's visit shares over ``legal`` (in its order) and its value of the position to the mover, for
    the step just chosen: the visits of the whole turns it searched that agree with the turn's steps so far,
    summed by their next step.  A player that did not search for this step (or whose search did not foresee
    it) gives all to its step, and NaN."""
    search = player.last_search if isinstance(player, MCTSPlayer) else None
    if search is not None and (search.seat, search.turn) == (view.seat, view.turn_number):
        shares = _shares(search, view.this_turn, legal)
        if shares is not None and shares[0][legal.index(chosen)] > 0:
            return shares
    return [1.0 if step == chosen else 0.0 for step in legal], math.nan


def _shares(search: SearchResult, taken: Sequence[str], legal: Sequence[Step]) -> tuple[list[float], float] | None:
    """Visit shares of the legal next steps among the searched turns that agree with ``taken``, and their value
    (None if no such turn was visited: the turn went another way than the search foresaw)."""
    visits = dict.fromkeys(legal, 0)
    weighted = 0.0
    for option, count, value in zip(search.options, search.visits, search.values, strict=True):
        if (
            len(option) > len(taken)
            and option[len(taken)] in visits
            and [str(s) for s in option[: len(taken)]] == list(taken)
        ):
            visits[option[len(taken)]] += count
            weighted += count * value
    total = sum(visits.values())
    if not total:
        return None
    return [visits[step] / total for step in legal], weighted / total
