"""The one protocol every player (person, bot, remote engine) follows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cafe.steps import Step
from cafe.view import View


class Player(Protocol):
    """Receives its own view and the legal steps; returns one of those steps."""

    name: str

    def choose(self, view: View, legal: Sequence[Step]) -> Step: ...
