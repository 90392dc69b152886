"""The value network fitted with scikit-learn's multi-layer perceptron, and read out as numpy arrays.

Targets are scaled to tens of points for the fit (the optimiser's steps suit numbers near 1) and the output layer
is scaled back, so that the network predicts points.  Whether it predicts better than the lead is measured on
held-out games: the root mean squared error of the final margin, each way.
"""

from __future__ import annotations

import warnings

import numpy as np

from cafe.ai.valuenet import Layers, forward
from cafe.train.net_games import Positions

TARGET_SCALE = 20.0  # points per unit of the fitted target


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
        model.fit(positions.observations, positions.targets / TARGET_SCALE)
    (w0, w1), (b0, b1) = model.coefs_, model.intercepts_
    layers = (w0.astype(np.float32), b0.astype(np.float32), (w1 * TARGET_SCALE).astype(np.float32),
              (b1 * TARGET_SCALE).astype(np.float32))  # fmt: skip
    return layers, model


def rms_errors(layers: Layers, held: Positions) -> dict[str, float]:
    """How far from the final margin the held-out rows are predicted, in points: by the network, and by the lead."""
    predicted = forward(layers, held.observations)
    return {
        "net": float(np.sqrt(np.mean((predicted - held.finals) ** 2))),
        "lead": float(np.sqrt(np.mean((held.leads - held.finals) ** 2))),
    }
