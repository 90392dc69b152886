"""Looking back at a game: for every turn, the best turns the search finds, and what the played turn cost.

A turn is judged from the mover's own view only, as the mover saw it: the worlds the
search plays in are sampled from that view (:mod:`cafe.ai.worlds`), so the undrawn bag
or deck, other players' hidden hands and face-down cards never count.  The candidate
turns (the search's usual best-scoring ones, and the turn actually played) are searched
with the same number of iterations each, in the same worlds with the same rollout dice,
so that their values differ by the turns alone.  A value is the search's valuation of the
position after the turn, in points of score margin (the lead over the best other player
that the search's value stands for); the loss is the best turn's value less the played
turn's, never negative since the played turn is among those searched.  Same record, same
budget and same seed give the same analysis on any machine (docs/analysis.md).

A card-game turn that fills a table goes on, if it does, on the new table card the pile gave: a card its mover
could not know when the turn began.  The turn is judged up to that card, as every candidate is
(:func:`cafe.ai.decisions.decided`); from there the search plays on in each world with that world's card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any

from cafe.ai.decisions import decided
from cafe.ai.mcts import WIDTH, Cut, MCTSPlayer, candidate_turns, turn_key, unsquash
from cafe.ai.worlds import Game, Worlds
from cafe.i18n import N_
from cafe.record import Record
from cafe.steps import Step, format_turn

DEFAULT_BUDGET = 64  # iterations below each candidate turn
ALTERNATIVES = 3  # the best turns kept beside the played one
# A played turn's class by its loss in points, as chess sites class moves: below each bound, that class
CLASSES = (("best", 0.5), ("good", 2.0), ("inaccuracy", 5.0), ("mistake", 10.0), ("blunder", math.inf))
VERDICTS = tuple(name for name, _ in CLASSES)
# the classes in words, for people (translate() them where they are shown)
VERDICT_WORDS = {"best": N_("best"), "good": N_("good"), "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"),
                 "blunder": N_("blunder")}  # fmt: skip


def verdict(loss: float) -> str:
    """The class of a turn that lost ``loss`` points against the best one."""
    return next(name for name, bound in CLASSES if loss < bound)


@dataclass(frozen=True)
class TurnReview:
    """One turn of a record, judged."""

    turn: int  # counted from 1, as the record lists the turns
    seat: int
    player: str
    played: str  # as the record writes it
    points: int  # what it scored at once
    best: str  # the best turn found, in the same notation
    best_value: float  # its value, in points of score margin
    played_value: float
    loss: float  # best_value - played_value, never negative
    verdict: str
    alternatives: tuple[tuple[str, float], ...]  # the best turns found, best first, with their values

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["class"] = out.pop("verdict")
        out["alternatives"] = [{"turn": turn, "value": value} for turn, value in self.alternatives]
        return out


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    turns: int
    mean_loss: float
    counts: dict[str, int]  # turns per class

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "turns": self.turns, "mean_loss": self.mean_loss, **self.counts}


def review_turn(
    game: Game, played: Sequence[Step], budget: int, seed: int, cut: Cut | None = None
) -> tuple[list[tuple[str, float]], float]:
    """The candidate turns of the position in ``game`` (at a turn's start) with their values, best first, and
    the value of ``played`` (a whole turn, ending with the step that ends it; or, with ``cut``, shortened by it as
    every candidate is: see :func:`cafe.ai.mcts.candidate_turns`)."""
    seat = game.current_player
    view = game.view(seat)
    legal = game.legal_steps()
    worlds = Worlds(view, random.Random(seed))
    options = candidate_turns(worlds.base, legal, WIDTH, cut)
    keys = [turn_key(option) for option in options]
    played_key = turn_key(played)
    if played_key in keys:  # the played turn, in the order it was played
        options[keys.index(played_key)] = tuple(played)
    else:
        options.append(tuple(played))
        keys.append(played_key)
    if len(options) == 1:
        values = [0.0]  # nothing else could be played: no search needed
    else:
        searcher = MCTSPlayer(time_per_turn=None, iterations=budget, seed=seed)
        values = [unsquash(v) for v in searcher.value_turns(view, worlds, options, budget)]
    ranked = sorted(zip((format_turn(list(o)) for o in options), values, strict=True), key=lambda tv: -tv[1])
    return ranked, values[keys.index(played_key)]


def review_recorded_turn(data: dict[str, Any], index: int, budget: int, seed: int) -> TurnReview:
    """Turn ``index`` (from 0) of a record, judged from its mover's view (runs in a worker process)."""
    record = Record.from_json(data)
    game = record.new_game()
    for turn in record.turns[:index]:
        game.push_turn(turn)
    seat = game.current_player
    results = game.push_turn(record.turns[index])
    for _ in results:
        game.pop()
    played = decided(game, [result.step for result in results])
    ranked, played_value = review_turn(game, played, budget, seed * 1_000_003 + index, decided)
    best, best_value = ranked[0]
    loss = round(max(0.0, best_value - played_value), 2)  # classed as shown: 1.996 is shown 2.0, an inaccuracy
    return TurnReview(
        turn=index + 1, seat=seat, player=game.players[seat], played=record.turns[index],
        points=sum(r.points for r in results), best=best, best_value=round(best_value, 2),
        played_value=round(played_value, 2), loss=loss, verdict=verdict(loss),
        alternatives=tuple((turn, round(value, 2)) for turn, value in ranked[:ALTERNATIVES]),
    )  # fmt: skip


def review_record(
    record: Record,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[TurnReview]:
    """Every turn of a record, judged; turns are independent, so ``jobs`` processes share them.

    The record is replayed first: a bad one raises the replay's error (``turn N: R...``)."""
    record.replay()
    data, count = record.to_json(), len(record.turns)
    reviews: dict[int, TurnReview] = {}
    for review in _reviews(data, count, budget, seed, jobs):
        reviews[review.turn] = review
        if progress is not None:
            progress(len(reviews), count)
    return [reviews[n] for n in sorted(reviews)]


def _reviews(data: dict[str, Any], count: int, budget: int, seed: int, jobs: int) -> Iterator[TurnReview]:
    if jobs <= 1 or count <= 1:
        for index in range(count):
            yield review_recorded_turn(data, index, budget, seed)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(review_recorded_turn, data, index, budget, seed) for index in range(count)]
        for future in as_completed(futures):
            yield future.result()


def summarise(players: Sequence[str], reviews: Sequence[TurnReview]) -> list[PlayerSummary]:
    """Per seat, in seat order: turns judged, the mean loss per turn, and the turns of each class."""
    out = []
    for seat, name in enumerate(players):
        mine = [r for r in reviews if r.seat == seat]
        counts = {v: sum(r.verdict == v for r in mine) for v in VERDICTS}
        mean = round(sum(r.loss for r in mine) / len(mine), 2) if mine else 0.0
        out.append(PlayerSummary(name, len(mine), mean, counts))
    return out
