"""Where a turn's decision ends: at a step that shows what its mover could not see when the turn began (a tile or
card drawn, a new table card laid).  The search's root choices, a puzzle's answer and an analysis's judged turn end
there (:func:`decided`), so that nothing is valued on one sampled world's hidden card."""

from __future__ import annotations

from collections.abc import Sequence

from cafe.ai.worlds import Game
from cafe.card_game import CardGame
from cafe.errors import IllegalStepError
from cafe.game import StepResult
from cafe.steps import Kind, Step


def reveals(game: Game, result: StepResult) -> bool:
    """Whether a step showed something hidden: a tile or card drawn, or a full table replaced from the pile."""
    return bool(result.drawn) or (isinstance(game, CardGame) and bool(result.completed))


def push_turn(game: Game, turn: Sequence[Step], end: bool = True) -> list[StepResult]:
    """Play a turn's steps up to its end (with ``end``, the turn is ended if its steps did not), or up to one that
    shows something hidden: what follows it depends on what the mover could not see, but for the ``stop`` or
    ``close`` that ends the turn there.  The engine's error, with its rule id, for an illegal step."""
    results: list[StepResult] = []
    try:
        for step in (*turn, Step(Kind.STOP)) if end else turn:
            if results and results[-1].turn_over:
                break
            if results and reveals(game, results[-1]) and step.kind not in (Kind.STOP, Kind.CLOSE):
                break
            results.append(game.push(step))
    except IllegalStepError:
        for _ in results:
            game.pop()
        raise
    return results


def decided(game: Game, turn: Sequence[Step]) -> tuple[Step, ...]:
    """The part of a legal turn decided at its start, as a puzzle's answer and an analysis value it: up to the ``stop``
    that ends it where its steps do not (a turn in notation leaves it out; without it the search would take it for a
    turn to go on with), or in the card game up to the step that lays a new table card mid-turn.  The rest of such a
    turn is a decision of its own, made on a table card the mover could not know: the search goes on from there in
    every world with the table card that world deals.  Only a ``close`` right after it, the hand emptied, stays."""
    results = push_turn(game, turn)
    for _ in results:
        game.pop()
    steps = [result.step for result in results]
    if len(results) > 1 and steps[-1].kind is Kind.STOP and reveals(game, results[-2]):
        steps.pop()
    return tuple(steps)
