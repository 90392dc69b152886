"""Fitting the policy prior's weights to the search's shares of its turns (its visits, or the softmax of its values:
cafe.train.prior_games.Roots.shares): the mean cross-entropy over roots, with a squared penalty on the weights,
minimised by L-BFGS (scipy, the ``train`` extra)."""

from __future__ import annotations

import numpy as np

from cafe.ai.prior import FEATURES, cross_entropy
from cafe.train.prior_games import Roots

PENALTIES = (0.001, 0.01, 0.1)  # tried in turn; the one best on the held-out roots is kept


def fit(roots: Roots, penalty: float, target: str = "visits") -> np.ndarray:
    """The weights minimising the mean cross-entropy of ``roots``'s shares of ``target`` plus ``penalty`` * |w|²."""
    from scipy.optimize import minimize

    shares = roots.shares(target)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros_like(w)
        for x, p in zip(roots.features, shares, strict=True):
            logits = x @ w
            q = np.exp(logits - logits.max())
            q /= q.sum()
            total -= float(p @ np.log(np.maximum(q, 1e-300)))
            grad += x.T @ (q - p)
        count = max(1, len(shares))
        return total / count + penalty * float(w @ w), grad / count + 2 * penalty * w

    start = np.zeros(len(FEATURES))
    if not roots.features:
        return start
    result = minimize(loss, start, jac=True, method="L-BFGS-B")
    weights: np.ndarray = result.x
    return weights


def mean_cross_entropy(roots: Roots, w: np.ndarray, target: str = "visits") -> float:
    """Of the roots' shares of ``target`` under ``w``, in nats (w = 0: every turn alike)."""
    if not roots.features:
        return float("nan")
    pairs = zip(roots.features, roots.shares(target), strict=True)
    return float(np.mean([cross_entropy(x, p, w) for x, p in pairs]))


def agreement(roots: Roots, w: np.ndarray) -> float:
    """How often the turn ``w`` favours most is the one the search visited most."""
    if not roots.features:
        return float("nan")
    hits = [int(np.argmax(x @ w)) == int(np.argmax(v)) for x, v in zip(roots.features, roots.visits, strict=True)]
    return float(np.mean(hits))


def best_fit(fitted: Roots, held: Roots, penalty: float | None, target: str = "visits") -> tuple[np.ndarray, float]:
    """The weights of ``penalty``, or of the penalty (of :data:`PENALTIES`) best on the held-out roots, fitted to
    the shares of ``target``."""
    if penalty is not None:
        return fit(fitted, penalty, target), penalty
    fits = [(fit(fitted, p, target), p) for p in PENALTIES]
    return min(fits, key=lambda wp: mean_cross_entropy(held, wp[0], target))
