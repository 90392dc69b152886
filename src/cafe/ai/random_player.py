"""The uniformly random player: the baseline and the engine's benchmark opponent."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cafe.steps import Step
from cafe.view import View


class RandomPlayer:
    """Picks uniformly among the legal steps."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Step]) -> Step:
        return self.rng.choice(legal)
