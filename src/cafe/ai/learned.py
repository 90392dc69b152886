"""A position's value learned from self-play, for the master's search (cafe.ai.levels).

The search ends a rollout at the end of a turn and values the position by each seat's *lead*: its score (the next
player's best single step counted as theirs already) minus the best other score.  The learned part adds what the
lead does not see: a correction, linear in numbers read from the position, that predicts how far the final margin
will differ from today's lead (held tiles and their fit, the bar, the bag left, who moves next).

The numbers for one seat (:func:`features`) are the observation's numbers after its block of chairs or tables
(cafe.features: the bar or deck, then every seat's score, hand and flags, counted from this seat), the same
numbers again multiplied by the tiles left to draw / 100 (cards left / 96), one flag per number of players, and a
constant 1.  The weights live in ``master.npz`` beside this module, one vector per edition (``board``, ``cards``),
made by ``cafe train`` (cafe.train); ``about`` holds the settings and figures of the run that made them.
"""

from __future__ import annotations

import functools
import random
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from cafe.ai.mcts import leads, squash
from cafe.ai.model_file import read_model, write_model
from cafe.ai.worlds import Game
from cafe.board_game import BoardGame
from cafe.features import BOARD_TAIL, CARD_TAIL, board_tail, card_tail

MODEL_FILE = "master.npz"
EDITIONS = ("board", "cards")
MAX_PLAYERS = 5
WIDTH = 20  # whole turns the master's search considers at its root (the expert's: 12), see docs/players.md
EPSILON = 0.0  # the master's rollouts play the best-scoring step every time (the expert's: a random one in ten)
ENDGAME = 30  # tiles left in the bag from which the master's rollouts play to the end (the expert's, and cards': 15)


def edition_of(game: Game) -> str:
    return "board" if isinstance(game, BoardGame) else "cards"


def tail_of(game: Game, seat: int) -> list[float]:
    """The observation's numbers after the chairs' (or tables') block, as ``seat`` sees the game."""
    return board_tail(game, seat) if isinstance(game, BoardGame) else card_tail(game, seat)


def features(game: Game, seat: int) -> list[float]:
    """The numbers the correction is linear in, for ``seat`` (see the module's docstring)."""
    tail = tail_of(game, seat)
    to_draw = tail[2] if isinstance(game, BoardGame) else tail[0]  # the bag (tiles / 100) or deck (cards / 96)
    players = [0.0] * (MAX_PLAYERS - 1)
    players[len(game.players) - 2] = 1.0
    return [*tail, *(x * to_draw for x in tail), *players, 1.0]


def feature_count(edition: str) -> int:
    """The length of :func:`features` for an edition (from the observation layout)."""
    tail = BOARD_TAIL if edition == "board" else CARD_TAIL
    return 2 * tail + MAX_PLAYERS - 1 + 1


class ValueModel:
    """The learned correction of both editions: each seat's expected final margin minus its lead."""

    def __init__(self, weights: dict[str, np.ndarray], about: dict[str, Any]) -> None:
        for edition in EDITIONS:
            if weights[edition].shape != (feature_count(edition),):
                raise ValueError(
                    f"the {edition} weights have shape {weights[edition].shape}, not ({feature_count(edition)},)"
                )
        self.weights = weights
        self.about = about
        self._corrects = {edition: bool(weights[edition].any()) for edition in EDITIONS}  # all zero: the lead alone

    @classmethod
    def load(cls, path: str | Path | None = None) -> ValueModel:
        """The model in ``path`` (default: the one shipped with the package)."""
        source = Path(path) if path is not None else resources.files("cafe.ai").joinpath(MODEL_FILE)
        arrays, about = read_model(source)
        return cls({e: arrays[e].astype(np.float64) for e in EDITIONS}, about)

    def save(self, path: str | Path) -> None:
        write_model(path, self.weights, self.about)

    def corrections(self, game: Game) -> np.ndarray:
        """Each seat's predicted final margin minus its lead, in points."""
        rows = [features(game, seat) for seat in range(len(game.players))]
        result: np.ndarray = np.array(rows) @ self.weights[edition_of(game)]
        return result

    def margins(self, game: Game, rng: random.Random) -> list[float]:
        """Each seat's expected final margin: its lead, corrected (a finished game: its final margins)."""
        margins = leads(game, rng)
        if not game.is_over() and self._corrects[edition_of(game)]:
            margins = [m + c for m, c in zip(margins, self.corrections(game).tolist(), strict=True)]
        return margins

    def evaluate(self, game: Game, rng: random.Random) -> list[float]:
        """Each seat's value of the position in (0, 1), as the search backs it up: its expected margin, squashed."""
        return [squash(m) for m in self.margins(game, rng)]


@functools.cache
def shipped() -> ValueModel:
    """The model shipped with the package, read once per process."""
    return ValueModel.load()
