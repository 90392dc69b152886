"""The engine side of the protocol: read commands, answer with steps (``cafe engine``).

Every command is one line; every answer is one or more lines.  A bad command
gets one ``error ...`` line and changes nothing.  The engine never sees more
than a view: a position given as a full record is turned into the view of the
player to move before the bot is asked.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from cafe import __version__
from cafe.ai.base import Player
from cafe.ai.levels import make_player
from cafe.ai.worlds import Worlds
from cafe.engine import PROTOCOL
from cafe.errors import CafeError
from cafe.record import Record
from cafe.view import View, view_from_json

HELP = (
    "commands: cep | isready | setoption name player value SPEC | newgame | "
    "position view JSON | position record JSON | go [time SECONDS] | quit"
)


class EngineSession:
    """The state between commands: which bot plays, and the position it was given."""

    def __init__(self, spec: str = "expert", seed: int | None = None) -> None:
        self.spec = spec
        self.seed = seed
        self.player: Player = make_player(spec, seed)
        self.view: View | None = None

    def handle(self, line: str) -> tuple[list[str], bool]:
        """The answer lines to one command, and whether the session goes on."""
        words = line.split(maxsplit=1)
        if not words:
            return [], True
        command, rest = words[0], (words[1] if len(words) > 1 else "")
        try:
            if command == "quit":
                return [], False
            handler = self._handlers().get(command)
            if handler is None:
                return [f"error unknown command '{command}'; {HELP}"], True
            return handler(rest), True
        except CafeError as error:
            return [f"error {error}"], True

    def _handlers(self) -> dict[str, Callable[[str], list[str]]]:
        return {
            PROTOCOL: self._hello,
            "isready": lambda _: ["readyok"],
            "setoption": self._setoption,
            "newgame": self._newgame,
            "position": self._position,
            "go": self._go,
        }

    def _hello(self, _: str) -> list[str]:
        return [
            f"id name cafe-international {__version__} ({self.spec})",
            f"option name player type string default {self.spec}",
            f"{PROTOCOL}ok",
        ]

    def _setoption(self, rest: str) -> list[str]:
        words = rest.split(maxsplit=3)
        if len(words) < 4 or words[0] != "name" or words[2] != "value":
            raise CafeError("write: setoption name player value SPEC")
        if words[1] != "player":
            raise CafeError(f"unknown option '{words[1]}' (the option is 'player')")
        self.player = make_player(words[3], self.seed)
        self.spec = words[3]
        return []

    def _newgame(self, _: str) -> list[str]:
        self.player = make_player(self.spec, self.seed)
        self.view = None
        return []

    def _position(self, rest: str) -> list[str]:
        form, _, text = rest.partition(" ")
        if form not in ("view", "record"):
            raise CafeError("write: position view JSON, or position record JSON")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CafeError(f"the position is not valid JSON: {error.msg} at column {error.colno}") from None
        if form == "view":
            self.view = view_from_json(data)
        else:
            game = Record.from_json(data).replay()
            self.view = game.view(game.current_player)
        return []

    def _go(self, rest: str) -> list[str]:
        view = self.view
        if view is None:
            raise CafeError("no position yet: send 'position view JSON' first")
        if view.over:
            raise CafeError("the game is over: there is nothing to play")
        if view.seat is not None and view.seat != view.current_player:
            raise CafeError(f"the view is seat {view.seat + 1}'s, but seat {view.current_player + 1} is to move")
        budget = _go_budget(rest)
        if budget is not None and hasattr(self.player, "time_per_turn"):
            self.player.time_per_turn = budget
        legal = Worlds(view, random.Random(0)).base.legal_steps()
        started = time.perf_counter()
        step = self.player.choose(view, legal)
        spent = time.perf_counter() - started
        return [f"info time {spent:.3f}", f"bestmove {step}"]


def _go_budget(rest: str) -> float | None:
    words = rest.split()
    if not words:
        return None
    if len(words) != 2 or words[0] != "time":
        raise CafeError("write: go, or go time SECONDS")
    try:
        seconds = float(words[1])
    except ValueError:
        raise CafeError(f"'{words[1]}' is not a number of seconds") from None
    if not seconds > 0:
        raise CafeError("the time must be more than 0 seconds")
    return seconds


def serve(lines: Iterable[str], write: Callable[[str], Any], spec: str = "expert", seed: int | None = None) -> None:
    """Answer commands from ``lines`` until ``quit`` or the end of input."""
    session = EngineSession(spec, seed)
    for line in lines:
        answers, going = session.handle(line.strip())
        for answer in answers:
            write(answer)
        if not going:
            return
