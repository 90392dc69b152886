"""A position's value learned by a small neural network from self-play, for the search's leaves.

The network reads what one seat sees, the observation vector of :mod:`cafe.features` written from that seat's
view (never the bag's order or a hidden hand), and predicts how far the seat's final margin (its final score
minus the best other final score, in points) will differ from its lead now (cafe.ai.mcts.leads), as the master's
linear correction does (cafe.ai.learned): a network that has learned nothing values positions as the search does.
It has one hidden layer of rectified linear units::

    margin = lead + relu(x @ w0 + b0) @ w1 + b1

A position's seats are evaluated in one batch.  A file holds, per edition (``board``, ``cards``), the arrays
``EDITION.w0`` (inputs x hidden), ``EDITION.b0`` (hidden), ``EDITION.w1`` (hidden x 1) and ``EDITION.b1`` (1),
float32, and ``about``: the settings and figures of the run that made it (cafe.train.net).  An edition without
arrays is valued by the lead, and so is a game whose observation is not as long as the network's input (another
board).  Playing needs numpy alone; training needs scikit-learn (the ``train`` extra).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

import numpy as np

from cafe.ai.learned import EDITIONS, edition_of
from cafe.ai.mcts import leads, squash
from cafe.ai.model_file import read_model, write_model
from cafe.ai.worlds import Game
from cafe.board_game import BoardGame
from cafe.features import board_size, card_size, write_board, write_cards

PARTS = ("w0", "b0", "w1", "b1")
Layers = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # w0, b0, w1, b1


def observation_length(game: Game) -> int:
    """The length of a seat's observation of ``game`` (it depends on the board)."""
    return board_size(game.board) if isinstance(game, BoardGame) else card_size(game.board)


def observations(game: Game) -> np.ndarray:
    """Every seat's observation of the position, each as that seat sees it: a row per seat, float32."""
    rows = np.zeros((len(game.players), observation_length(game)), np.float32)
    write: Any = write_board if isinstance(game, BoardGame) else write_cards
    for seat, row in enumerate(rows):
        write(game, seat, row.data)  # a float32 memoryview takes floats
    return rows


def forward(layers: Layers, rows: np.ndarray) -> np.ndarray:
    """The network's output for each row: the final margin predicted less the lead, in points."""
    w0, b0, w1, b1 = layers
    hidden = np.maximum(rows @ w0 + b0, 0.0)
    out: np.ndarray = (hidden @ w1 + b1)[:, 0]
    return out


class ValueNet:
    """The learned value of both editions (or of one: the other is valued by the lead)."""

    def __init__(self, layers: dict[str, Layers], about: dict[str, Any]) -> None:
        for edition, (w0, b0, w1, b1) in layers.items():
            if edition not in EDITIONS:
                raise ValueError(f"no edition {edition!r}: one of {', '.join(EDITIONS)}")
            if b0.shape != (w0.shape[1],) or w1.shape != (w0.shape[1], 1) or b1.shape != (1,):
                shapes = ", ".join(str(a.shape) for a in (w0, b0, w1, b1))
                raise ValueError(f"the {edition} network's arrays do not fit together: {shapes}")
        self.layers = layers
        self.about = about

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        arrays, about = read_model(path)
        present = [e for e in EDITIONS if f"{e}.w0" in arrays]
        layers = {e: cast(Layers, tuple(arrays[f"{e}.{part}"].astype(np.float32) for part in PARTS)) for e in present}
        return cls(layers, about)

    def save(self, path: str | Path) -> None:
        arrays = {f"{e}.{part}": a for e, layers in self.layers.items() for part, a in zip(PARTS, layers, strict=True)}
        write_model(path, arrays, self.about)

    def margins(self, game: Game, rng: random.Random) -> list[float]:
        """Each seat's expected final margin in points (a finished game: its final margins)."""
        if game.is_over():
            return leads(game, rng)
        layers = self.layers.get(edition_of(game))
        if layers is None or layers[0].shape[0] != observation_length(game):
            return leads(game, rng)
        corrections = forward(layers, observations(game)).tolist()
        return [lead + c for lead, c in zip(leads(game, rng), corrections, strict=True)]

    def evaluate(self, game: Game, rng: random.Random) -> list[float]:
        """Each seat's value of the position in (0, 1), as the search backs it up: its expected margin, squashed."""
        return [squash(m) for m in self.margins(game, rng)]
