"""The one protocol every player (person, bot, remote engine) follows, and a helper for bots that plan turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cafe.steps import Step
from cafe.view import View


class Player(Protocol):
    """Receives its own view and the legal steps; returns one of those steps."""

    name: str

    def choose(self, view: View, legal: Sequence[Step]) -> Step: ...


class TurnPlan:
    """The rest of a turn a bot has decided on, played out one step per call to ``choose``."""

    def __init__(self) -> None:
        self._key: tuple[int | None, int, tuple[str, ...]] | None = None
        self._steps: list[Step] = []

    def next(self, view: View, legal: Sequence[Step]) -> Step | None:
        """The planned step for this position, if the plan is for it and the step is legal."""
        if self._key != (view.seat, view.turn_number, view.this_turn) or not self._steps:
            return None
        step = self._steps[0]
        if step not in legal:
            return None
        self.keep(view, step, self._steps[1:])
        return step

    def keep(self, view: View, step: Step, rest: Sequence[Step]) -> None:
        """Remember that ``step`` is played now and ``rest`` follows in this turn."""
        self._key = (view.seat, view.turn_number, (*view.this_turn, str(step)))
        self._steps = list(rest)
