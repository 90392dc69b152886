"""A policy prior over whole turns, learned from the search's own visits, for the root of the search.

AlphaZero learns its policy from the shares of its search's visits, and its search then tries the moves that policy
favours first and longest (PUCT).  Here the moves of the root are whole turns (cafe.ai.turns), so the prior gives
each way to finish the turn a share: ``softmax(features @ weights)``, linear in a few numbers that describe the
turn as it would be played in a world sampled from the mover's view (:data:`FEATURES`: what it scores and
completes, whether it goes to the bar, what it spends, what it leaves the next player to score at once, and
what the mover holds after it).

The search with a prior (``prior:FILE:BUDGET``, cafe.ai.levels) keeps the ``width`` turns the prior favours (the
plain search keeps the best-scoring ones) and shares its iterations among them by PUCT: a turn's value plus
``puct * share * sqrt(iterations) / (1 + its visits)`` (the search's ``puct``, by default cafe.ai.mcts.PUCT).  A file
(``.npz``) holds one weight vector per kind of game (``board2``, ``board4``, ``cards2``...: the edition and the
number of players), and ``about``: the settings and figures of the run that made it (``cafe train --prior``).  A kind
without weights ranks turns by their points, as the plain search does.

The master (``learned``, cafe.ai.levels) searches the card game with the prior shipped beside this module
(``master_prior.npz``, :func:`master_shares`), which holds weights for 2-player card games alone; in the other kinds
of game its root is the plain search's (:meth:`TurnPrior.learned_shares`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np

from cafe.ai.greedy import best_reply
from cafe.ai.learned import edition_of
from cafe.ai.model_file import read_model, write_model
from cafe.ai.turns import TurnOption
from cafe.ai.worlds import Game
from cafe.steps import Kind
from cafe.tiles import Tile

# a weight vector of n numbers weighs the first n: files made before the last three were added keep their meaning
FEATURES = ("points", "completed", "to bar", "puts out", "hand change", "seated", "jokers seated", "face down",
            "exchanges", "next player's best step",
            "held after", "jokers held after", "held with no place")  # fmt: skip
AFTER = FEATURES.index("next player's best step")  # the features from here on need the turn played
HELD = FEATURES.index("held after")  # and from here on read the mover's hand after it


def kind_of(game: Game) -> str:
    """The kind of game a weight vector is for: ``board2``, ``board4``, ``cards2``..."""
    return f"{edition_of(game)}{len(game.players)}"


def describe_turns(game: Game, options: Sequence[TurnOption], count: int = len(FEATURES)) -> np.ndarray:
    """:func:`describe` of every turn in ``options`` (turns in rows); the kinds stuck at the turn's start read once."""
    stuck = stuck_kinds(game) if count > HELD else None
    return np.array([describe(game, option, count, stuck) for option in options]).reshape(len(options), count)


def describe(
    game: Game, option: TurnOption, count: int = len(FEATURES), stuck: frozenset[Tile] | None = None
) -> list[float]:
    """The first ``count`` numbers of :data:`FEATURES` for ``option``, played in ``game`` (left as it was);
    ``stuck``: :func:`stuck_kinds` of ``game``, if already read.

    What the mover holds after the turn: the tiles or cards in its hand, the jokers among them, and those of a kind
    it held when the turn began that no step then could seat (a guest whose nation has no free chair, a card whose
    nation has no table laid): a card game's end charges every card held, and a guest that fits nowhere ends at the
    bar.  A tile drawn in the turn counts as stuck only if one of its kind was held and stuck at the start."""
    steps = option.steps
    seated = [step for step in steps if step.kind is Kind.SEAT]
    numbers = [
        float(option.points), float(option.completed), float(option.to_bar), float(option.eliminates),
        float(option.hand_size_change), float(len(seated)),
        float(sum(1 for step in seated if step.tile is not None and step.tile.is_joker)),
        float(sum(1 for step in steps if step.kind is Kind.DOWN)),
        float(sum(1 for step in steps if step.kind is Kind.EXCHANGE)),
    ]  # fmt: skip
    if count > AFTER:
        held = count > HELD
        if held and stuck is None:
            stuck = stuck_kinds(game)
        numbers += _after(game, option, stuck if held else None)
    return numbers[:count]


def stuck_kinds(game: Game) -> frozenset[Tile]:
    """The kinds of tile or card the player to move holds that no step now could seat."""
    seatable = {step.tile for step in game.legal_steps() if step.kind is Kind.SEAT}
    return frozenset(game.hand(game.current_player)) - seatable


def _after(game: Game, option: TurnOption, stuck: frozenset[Tile] | None) -> list[float]:
    """The features from :data:`AFTER` on: the next player's best step, and, given the kinds ``stuck`` at the turn's
    start, what the mover holds after the turn (from :data:`HELD` on; without them, the first alone)."""
    mover = game.current_player
    for step in option.steps:
        game.push(step, check=False)
    try:
        numbers = [float(best_reply(game))]
        if stuck is not None:
            held = game.hand(mover)
            numbers += [
                float(len(held)), float(sum(1 for tile in held if tile.is_joker)),
                float(sum(1 for tile in held if tile in stuck)),
            ]  # fmt: skip
        return numbers
    finally:
        for _ in option.steps:
            game.pop()


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max())
    out: np.ndarray = shifted / shifted.sum()
    return out


class TurnPrior:
    """The prior's weights for some kinds of game (the others rank turns by their points)."""

    def __init__(self, weights: dict[str, np.ndarray], about: dict[str, Any]) -> None:
        for kind, w in weights.items():
            if w.ndim != 1 or not 0 < len(w) <= len(FEATURES):
                raise ValueError(f"the {kind} weights have shape {w.shape}, not (n,) with n from 1 to {len(FEATURES)}")
        self.weights = weights
        self.about = about

    @classmethod
    def load(cls, path: str | Path | Traversable) -> TurnPrior:
        arrays, about = read_model(path)
        return cls({kind: w.astype(np.float64) for kind, w in arrays.items()}, about)

    def save(self, path: str | Path) -> None:
        write_model(path, self.weights, self.about)

    def shares(self, game: Game, options: Sequence[TurnOption]) -> list[float]:
        """Each turn's share, in the order given, summing to 1; ``game`` is a world sampled from the mover's view,
        at the point where the turns begin.  A kind of game without weights: by points, the best-scoring turns'
        shares equal and the others' nearly nothing."""
        shares = self.learned_shares(game, options)
        if shares is None:
            shares = softmax(np.array([10.0 * option.points for option in options])).tolist()
        return shares

    def learned_shares(self, game: Game, options: Sequence[TurnOption]) -> list[float] | None:
        """Each turn's share as :meth:`shares` gives it where this kind of game has weights; None elsewhere, so that
        the search keeps its best-scoring turns and shares its iterations by UCB1, as without a prior."""
        w = self.weights.get(kind_of(game))
        if w is None:
            return None
        shares: list[float] = softmax(describe_turns(game, options, len(w)) @ w).tolist()
        return shares


SHIPPED_FILE = "master_prior.npz"


@functools.cache
def shipped() -> TurnPrior:
    """The master's prior, shipped with the package, read once per process."""
    return TurnPrior.load(resources.files("cafe.ai").joinpath(SHIPPED_FILE))


def master_shares(game: Game, options: Sequence[TurnOption]) -> list[float] | None:
    """The shipped prior's :meth:`TurnPrior.learned_shares`, the file read at the first search that asks (so that
    ``cafe train --prior --player learned:N`` can make it)."""
    return shipped().learned_shares(game, options)


def cross_entropy(features: np.ndarray, visits: np.ndarray, w: np.ndarray) -> float:
    """Of one root's visit shares (or any weights of its turns, made shares) under the prior ``w`` (turns in rows),
    in nats."""
    logits = features @ w
    top = logits.max()
    log_total = top + math.log(float(np.exp(logits - top).sum()))
    return float(-(visits / visits.sum()) @ (logits - log_total))
