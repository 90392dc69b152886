"""Self-play roots for the policy prior (cafe.ai.prior): at every search's root, the turns it weighed, described as
the prior describes them, how many iterations it gave each and what each was worth to the mover.

The turns are described in a world sampled from the mover's view, as the search itself and the prior at play time
see them: never the bag's order or a hidden hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from cafe.ai.mcts import MCTSPlayer, SearchResult, distinct_turns, turn_key
from cafe.ai.prior import describe_turns, softmax
from cafe.ai.worlds import Game, Worlds
from cafe.arena.match import self_play
from cafe.steps import Step

VALUE_TEMPERATURE = 0.025  # of the values' softmax: near an even game, a point of lead less divides a share by e


@dataclass(frozen=True)
class Roots:
    """Searches' roots: for each, its turns' features (turns x features), their visits and their mean values to the
    mover (in (0, 1), cafe.ai.mcts.evaluate)."""

    features: list[np.ndarray]
    visits: list[np.ndarray]
    values: list[np.ndarray]

    @classmethod
    def join(cls, parts: list[Roots]) -> Roots:
        return cls(
            [f for p in parts for f in p.features],
            [v for p in parts for v in p.visits],
            [v for p in parts for v in p.values],
        )

    def part(self, which: slice) -> Roots:
        return Roots(self.features[which], self.visits[which], self.values[which])

    def shares(self, target: str) -> list[np.ndarray]:
        """Each root's turns' shares for the prior to learn: the iterations the search gave them (``visits``), or
        the softmax of their values (``values``): sharper where UCB1 spreads its visits nearly evenly."""
        if target == "visits":
            return [v / v.sum() for v in self.visits]
        if target == "values":
            return [softmax(v / VALUE_TEMPERATURE) for v in self.values]
        raise ValueError(f"the prior learns visits or values, not {target!r}")


def play_roots(edition: str, players: int, seeds: list[int], player: str, by_points: bool) -> Roots:
    """Self-play games by the search ``player`` names (``mcts:N``, the master's ``learned:N``, or either with a prior
    file), one per seed, and their roots; with ``by_points`` its root keeps the best-scoring turns whatever prior it
    has, so that what the new prior learns does not hang on the one it would replace."""
    features: list[np.ndarray] = []
    visits: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for seed in seeds:
        game, bots = self_play(player, edition, players, seed)
        for bot in bots:
            if by_points and isinstance(bot, MCTSPlayer):
                bot.prior = None
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.current_player
            view, legal = game.view(seat), game.legal_steps()
            bot = bots[seat]
            before = bot.last_search if isinstance(bot, MCTSPlayer) else None
            step = bot.choose(view, legal)
            search = bot.last_search if isinstance(bot, MCTSPlayer) else None
            if search is not None and search is not before:
                root = _described(search, Worlds(view, rng).base, legal)
                if root is not None:
                    features.append(root)
                    visits.append(np.array(search.visits, np.float64))
                    values.append(np.array(search.values, np.float64))
            game.push(step)
    return Roots(features, visits, values)


def _described(search: SearchResult, world: Game, legal: list[Step]) -> np.ndarray | None:
    """The features of the search's turns in ``world``; None if one of them cannot be found there (a card-game
    world whose sampled cards differ from those the search saw)."""
    options = {turn_key(option.steps): option for option in distinct_turns(world, legal)}
    found = [options.get(turn_key(turn)) for turn in search.options]
    if any(option is None for option in found):
        return None
    return describe_turns(world, [option for option in found if option is not None])
