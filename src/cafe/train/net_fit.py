"""The value network fitted with scikit-learn's multi-layer perceptron, and read out as numpy arrays.

The network learns each row's target less its lead (cafe.ai.valuenet), in tens of points for the fit (the
optimiser's steps suit numbers near 1), and its output layer is scaled back to points.  Of the weight penalties
:data:`PENALTIES`, the fit that predicts the held-out games' final margins best is kept, or none at all if none
predicts them better than the lead alone: an edition without a network is valued by the lead.
"""

from __future__ import annotations

import warnings

import numpy as np

from cafe.ai.valuenet import Layers, forward
from cafe.train.net_games import Positions

TARGET_SCALE = 20.0  # points per unit of the fitted target
PENALTIES = (0.01, 0.1, 1.0)


def fit(positions: Positions, hidden: int, penalty: float, seed: int) -> tuple[Layers, object]:
    """The network's arrays fitted to ``positions``, and the fitted scikit-learn model (to compare with)."""
    from sklearn.neural_network import MLPRegressor

    model = MLPRegressor(
        hidden_layer_sizes=(hidden,),
        alpha=penalty,
        batch_size=256,
        learning_rate_init=1e-3,
        max_iter=200,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=8,
        random_state=seed,
    )
    with warnings.catch_warnings():  # stopping at max_iter is no failure: the held-out games measure the fit
        warnings.simplefilter("ignore")
        model.fit(positions.observations, (positions.targets - positions.leads) / TARGET_SCALE)
    (w0, w1), (b0, b1) = model.coefs_, model.intercepts_
    layers = (
        w0.astype(np.float32),
        b0.astype(np.float32),
        (w1 * TARGET_SCALE).astype(np.float32),
        (b1 * TARGET_SCALE).astype(np.float32),
    )
    return layers, model


def rms_error(layers: Layers | None, held: Positions, truth: np.ndarray | None = None) -> float:
    """How far from the final margins (or from ``truth``, such as the targets) the held-out rows are predicted, in
    points (no layers: by the lead alone)."""
    predicted = held.leads if layers is None else held.leads + forward(layers, held.observations)
    return float(np.sqrt(np.mean((predicted - (held.finals if truth is None else truth)) ** 2)))


def best_fit(
    fitted: Positions, held: Positions, hidden: int, penalty: float | None, seed: int
) -> tuple[Layers | None, float | None]:
    """The layers, and their penalty, of the fit (one per penalty of :data:`PENALTIES`) that predicts the held-out
    rows best, or None and None if none predicts them better than the lead; with ``penalty``, that fit."""
    if penalty is not None:
        return fit(fitted, hidden, penalty, seed)[0], penalty
    fits: list[tuple[Layers | None, float | None]] = [(fit(fitted, hidden, p, seed)[0], p) for p in PENALTIES]
    fits.append((None, None))
    return min(fits, key=lambda f: rms_error(f[0], held))
