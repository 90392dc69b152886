"""The learned correction fitted by ridge regression, and how well it predicts games it was not fitted on."""

from __future__ import annotations

import numpy as np

from cafe.train.positions import Sums


def ridge(sums: Sums, penalty: float) -> np.ndarray:
    """The weights minimising squared error plus ``penalty`` times the rows times their squares (all but the
    constant's).

    The penalty grows with the rows so that its strength does not depend on how much was played; it pulls the
    correction toward zero, that is toward the expert's plain lead.
    """
    n = len(sums.xy)
    shrink = np.full(n, penalty * sums.rows)
    shrink[-1] = 0.0  # the constant is free
    weights: np.ndarray = np.linalg.solve(sums.xx + np.diag(shrink) + 1e-9 * np.eye(n), sums.xy)
    return weights


def rms(sums: Sums, weights: np.ndarray) -> float:
    """The root mean squared error, in points, of the final margin predicted as lead + correction."""
    return float(np.sqrt(max(sums.squared_error(weights), 0.0)))


PENALTIES = (1e-4, 1e-3, 1e-2, 1e-1, 1.0)


def best_fit(fitted: Sums, held: Sums) -> tuple[np.ndarray, float | None]:
    """The weights, and their penalty, of the fit (one per penalty of :data:`PENALTIES`) that predicts the held-out
    rows best; or no correction at all (zero weights, no penalty) if none predicts them better than the lead."""
    fits: list[tuple[np.ndarray, float | None]] = [(ridge(fitted, penalty), penalty) for penalty in PENALTIES]
    fits.append((np.zeros(len(fitted.xy)), None))
    return min(fits, key=lambda fit: rms(held, fit[0]))
