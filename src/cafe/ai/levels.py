"""Naming players: a bot, its level or budget, or an outside engine, in one short string.

The forms (used by ``cafe arena`` and ``cafe engine``):

- ``random``, ``greedy``, ``mcts``: the bots with their defaults (the search: 1 second a turn);
- ``mcts:0.5s`` or ``mcts:500ms``: the search with a time budget per turn;
  ``mcts:2000``: with 2000 iterations per turn instead (repeatable whatever the machine);
- ``easy``, ``medium``, ``hard``, ``expert``: the difficulty levels (see :data:`LEVELS`);
- ``ismcts:N``: OpenSpiel's own information-set MCTS with N simulations a step
  (needs the ``rl`` extra; see docs/research.md);
- ``cmd:COMMAND``: an outside engine started with ``COMMAND`` and spoken to over
  the engine protocol (docs/engine.md), for example ``cmd:cafe engine --player greedy``.
"""

from __future__ import annotations

import functools
import importlib.metadata
import re

from cafe.ai.base import Player
from cafe.ai.greedy import GreedyPlayer
from cafe.ai.mcts import MCTSPlayer
from cafe.ai.random_player import RandomPlayer
from cafe.errors import CafeError
from cafe.i18n import T

LEVELS = {
    "easy": "greedy:noise",  # the greedy player, playing a random turn half the time
    "medium": "greedy",
    "hard": "mcts:0.25s",
    "expert": "mcts:1s",
}
NOISE = 0.5
_BUDGET = re.compile(r"^(?:(?P<seconds>\d+(?:\.\d+)?)s|(?P<millis>\d+)ms|(?P<iterations>\d+))$")


class PlayerSpecError(CafeError):
    """A player string that names no player."""


PLUGINS = "cafe.players"  # the entry-point group of players that live elsewhere: KIND = "module:factory(arg, seed)"


@functools.cache
def _plugins() -> dict[str, importlib.metadata.EntryPoint]:
    """Players named by other packages (and by this one's adapters, such as ``ismcts``): this registry imports none of
    them until one is asked for.  Read once: an arena makes a player for every game."""
    return {entry.name: entry for entry in importlib.metadata.entry_points(group=PLUGINS)}


def make_player(spec: str, seed: int | None = None) -> Player:
    """The player a string names (see the module's forms), seeded for repeatable play."""
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    if kind in LEVELS:
        if arg:
            raise PlayerSpecError(T("the level '{kind}' takes no budget; use mcts:{arg} instead", kind=kind, arg=arg))
        player = make_player(LEVELS[kind], seed)
        player.name = kind
        return player
    if kind == "random" and not arg:
        return RandomPlayer(seed)
    if kind == "greedy" and arg in ("", "noise"):
        return GreedyPlayer(seed, name="greedy", noise=NOISE if arg else 0.0)
    if kind == "mcts":
        if not arg:
            return MCTSPlayer(seed=seed)
        budget = _BUDGET.match(arg)
        if budget is None:
            raise PlayerSpecError(
                T(
                    "'{arg}' is not a budget: write seconds (1s, 0.5s), milliseconds (250ms) or iterations (2000)",
                    arg=arg,
                )
            )
        if budget["iterations"]:
            return MCTSPlayer(time_per_turn=None, iterations=int(budget["iterations"]), seed=seed, name=f"mcts:{arg}")
        seconds = float(budget["seconds"]) if budget["seconds"] else int(budget["millis"]) / 1000
        return MCTSPlayer(time_per_turn=seconds, seed=seed, name=f"mcts:{arg}")
    factory = _plugins().get(kind)
    if factory is not None:
        named: Player = factory.load()(arg, seed)
        return named
    if kind == "cmd":
        if not arg.strip():
            raise PlayerSpecError(T("cmd: needs the command that starts the engine, like cmd:cafe engine"))
        from cafe.engine.client import EnginePlayer

        return EnginePlayer(arg)
    raise PlayerSpecError(
        T(
            "unknown player '{spec}': use random, greedy, mcts[:BUDGET], easy, medium, hard, expert, ismcts:N or "
            "cmd:COMMAND",
            spec=spec,
        )
    )
