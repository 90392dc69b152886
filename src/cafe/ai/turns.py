"""Every way to finish the turn in progress, found by trying the steps one after another."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cafe.game import SteppedGame
from cafe.steps import Kind, Step

MAX_NODES = 4000  # steps tried per enumeration; beyond it, longer turns are not explored further


@dataclass(frozen=True)
class TurnOption:
    """One complete way to play the rest of a turn, and what it gains."""

    steps: tuple[Step, ...]
    points: int
    completed: int  # tables completed: single-nation (board game) or full and removed (card game)
    hand_size_change: int
    to_bar: bool
    eliminates: bool = False  # the turn puts its player out of the game (a bar stool they cannot pay)


def complete_turns(game: SteppedGame[Any, Any], max_nodes: int = MAX_NODES) -> list[TurnOption]:
    """The ways to finish the current turn, depth first; the game is left as it was.

    Longer turns stop being explored once ``max_nodes`` steps have been
    tried, so the answer always holds every one-step ending.
    """
    out: list[TurnOption] = []
    tried = 0

    def walk(prefix: tuple[Step, ...], points: int, completed: int, change: int) -> None:
        nonlocal tried
        for step in game.legal_steps():
            if prefix and tried >= max_nodes and step.kind is Kind.SEAT:
                continue
            tried += 1
            result = game.push(step, check=False)
            try:
                steps = (*prefix, step)
                total = (points + result.points, completed + len(result.completed), change + result.hand_size_change)
                if result.turn_over:
                    bar = steps[0].kind is Kind.BAR
                    out.append(TurnOption(steps, *total, to_bar=bar, eliminates=result.eliminated))
                else:
                    walk(steps, *total)
            finally:
                game.pop()

    walk((), 0, 0, 0)
    return out


def playable_turns(game: SteppedGame[Any, Any], legal: Sequence[Step]) -> list[TurnOption]:
    """The complete turns of a sampled world that start with a step legal in the real game.

    If none does (only when the view could not be rebuilt exactly, see
    cafe.ai.worlds), the best-scoring legal step alone: a bot's plan then ends
    there and is made afresh at its next step.
    """
    options = [o for o in complete_turns(game) if o.steps[0] in legal]
    if options:
        return options
    step = max(legal, key=game.step_points)
    return [TurnOption((step,), game.step_points(step), 0, 0, to_bar=step.kind is Kind.BAR)]
