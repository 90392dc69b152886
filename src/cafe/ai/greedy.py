"""The greedy player: the most points this turn, with a few sensible tie-breaks."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cafe.ai.base import TurnPlan
from cafe.ai.turns import TurnOption, playable_turns
from cafe.ai.worlds import Game, Worlds
from cafe.steps import Step
from cafe.view import View


def best_reply(game: Game) -> int:
    """The most points the player to move could score with one step (0 when the game is over)."""
    if game.is_over():
        return 0
    return max((game.step_points(step) for step in game.legal_steps()), default=0)


def threat_after(game: Game, option: TurnOption) -> int:
    """What the next player could score at once after ``option`` is played (drawn tiles sampled)."""
    for step in option.steps:
        game.push(step, check=False)
    try:
        return best_reply(game)
    finally:
        for _ in option.steps:
            game.pop()


class GreedyPlayer:
    """Plays the turn that scores most now.

    Among turns scoring the same it prefers the one completing more
    single-nation tables (or, in the card game, clearing more tables), then
    the one leaving the next player the fewest points for a single step, then
    a turn away from the bar.  With ``noise`` it plays a uniformly random turn
    that often instead (the easy level), but never one that puts it out of the
    game while another turn exists: that would end a two-player game at once.
    """

    def __init__(self, seed: int | None = None, name: str = "greedy", noise: float = 0.0) -> None:
        self.name = name
        self.noise = noise
        self.rng = random.Random(seed)
        self._plan = TurnPlan()

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        planned = self._plan.next(view, legal)
        if planned is not None:
            return planned
        if len(legal) == 1:
            return legal[0]
        game = Worlds(view, self.rng).sample(self.rng)
        options = playable_turns(game, legal)
        random_turn = self.noise and self.rng.random() < self.noise
        staying = [option for option in options if not option.eliminates] or options
        chosen = self.rng.choice(staying) if random_turn else self.best(game, options)
        self._plan.keep(view, chosen.steps[0], chosen.steps[1:])
        return chosen.steps[0]

    @staticmethod
    def best(game: Game, options: list[TurnOption]) -> TurnOption:
        top = max((o.points, o.completed) for o in options)
        tied = [o for o in options if (o.points, o.completed) == top]
        if len(tied) == 1:
            return tied[0]
        return min(tied, key=lambda o: (threat_after(game, o), o.to_bar))
