"""Naming players: a bot, its level or budget, or an outside engine, in one short string.

The forms (used by ``cafe arena`` and ``cafe engine``):

- ``random``, ``greedy``, ``mcts``: the bots with their defaults (the search: 1 second a turn);
- ``mcts:0.5s`` or ``mcts:500ms``: the search with a time budget per turn;
  ``mcts:2000``: with 2000 iterations per turn instead (repeatable whatever the machine);
- ``learned:1s``, ``learned:2000`` ...: the search with the learned evaluation (cafe.ai.learned; needs numpy,
  the ``master`` extra; also its wider root, greedier rollouts, longer endgame and, in the card game, its policy
  prior: :func:`master_options`), with a budget as for ``mcts``;
- ``learned:FILE:BUDGET``: the master's search with the policy prior in FILE (made by ``cafe train --prior``) in
  place of the shipped one, for example ``learned:prior.npz:2000``; a kind of game FILE has no weights for is
  searched from the best-scoring turns;
- ``net:FILE:BUDGET``: the search valuing its leaves by the value network in FILE (cafe.ai.valuenet, made by
  ``cafe train --net``; needs numpy), for example ``net:value.npz:2000``;
- ``prior:FILE:BUDGET``: the search choosing and sharing out its root's turns by the policy prior in FILE
  (cafe.ai.prior, made by ``cafe train --prior``; needs numpy), for example ``prior:prior.npz:2000``;
- ``easy``, ``medium``, ``hard``, ``expert``, ``master``: the difficulty levels (see :data:`LEVELS`);
- ``ismcts:N``: OpenSpiel's own information-set MCTS with N simulations a step
  (needs the ``rl`` extra; see docs/research.md);
- ``cmd:COMMAND``: an outside engine started with ``COMMAND`` and spoken to over
  the engine protocol (docs/engine.md), for example ``cmd:cafe engine --player greedy``; named, like ``ismcts``,
  through the ``cafe.players`` entry points (cafe.engine.client), so that the players never import the engine.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cafe.ai.base import Player
from cafe.ai.greedy import GreedyPlayer
from cafe.ai.mcts import MCTSPlayer
from cafe.ai.random_player import RandomPlayer
from cafe.errors import CafeError
from cafe.i18n import N_, T, Text

LEVELS = {
    "easy": "greedy:noise",  # the greedy player, playing a random turn half the time
    "medium": "greedy",
    "hard": "mcts:0.25s",
    "expert": "mcts:1s",
    "master": "learned:1s",  # the search with the learned evaluation and prior, a wider root, greedier rollouts ...
}
STRONGEST = "master"  # what a hint asks (see strongest)
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


Factory = Callable[[str, int | None], Player]  # (the text after "KIND:", seed) -> player
_REGISTERED: dict[str, Factory] = {}


def register(kind: str, factory: Factory) -> None:
    """Name players of ``kind`` in this process (and the arena's worker processes it forks), for experiments
    that should not be installed as an entry point (bench/ingredients.py)."""
    _REGISTERED[kind.lower()] = factory


def master_options() -> dict[str, Any]:
    """What the master's search (``learned``) adds to the plain search's settings: the learned correction, a wider
    root, greedier rollouts, a longer endgame and the shipped policy prior at its root (in the card game; elsewhere
    the prior has no weights and the root is the plain search's)."""
    try:
        from cafe.ai import learned
        from cafe.ai import prior as priors
    except ModuleNotFoundError:
        raise PlayerSpecError(T("the master level needs numpy: pip install 'cafe-international[master]'")) from None
    return {
        "evaluation": learned.shipped().evaluate, "width": learned.WIDTH, "epsilon": learned.EPSILON,
        "endgame": learned.ENDGAME, "prior": priors.master_shares,
    }  # fmt: skip


def _search_player(kind: str, arg: str, seed: int | None) -> Player:
    """``mcts[:BUDGET]``, ``learned[:BUDGET]``, ``learned:FILE:BUDGET``, ``net:FILE:BUDGET`` or
    ``prior:FILE:BUDGET``: the search, with the lead, the learned correction or a value network as its evaluation,
    or with a policy prior at its root."""
    options: dict[str, Any] = {"seed": seed, "name": f"{kind}:{arg}" if arg else kind}
    if kind == "learned":
        options.update(master_options())
        if ":" in arg:  # the master's search with another prior
            path, _, arg = arg.rpartition(":")
            if not path:
                raise PlayerSpecError(
                    T("name the prior's file and a budget: learned:FILE:BUDGET, for example learned:prior.npz:1s")
                )
            options["prior"] = _model("prior", path).learned_shares
    if kind == "net":
        path, _, arg = arg.rpartition(":")
        options["evaluation"] = _model(kind, path).evaluate
    if kind == "prior":
        path, _, arg = arg.rpartition(":")
        options["prior"] = _model(kind, path).shares
    if not arg:
        return MCTSPlayer(**options)
    budget = _BUDGET.match(arg)
    if budget is None:
        raise PlayerSpecError(
            T("'{arg}' is not a budget: write seconds (1s, 0.5s), milliseconds (250ms) or iterations (2000)", arg=arg)
        )
    if budget["iterations"]:
        return MCTSPlayer(time_per_turn=None, iterations=int(budget["iterations"]), **options)
    seconds = float(budget["seconds"]) if budget["seconds"] else int(budget["millis"]) / 1000
    return MCTSPlayer(time_per_turn=seconds, **options)


@dataclass(frozen=True)
class _ModelKind:
    """A kind of model a player string may name: its class (imported only when asked, as it needs numpy) and how
    the string is refused."""

    module: str
    name: str
    unnamed: Text  # no file named
    needs_numpy: Text
    unreadable: str  # a message with {path} and {reason}


_MODELS = {
    "net": _ModelKind(
        "cafe.ai.valuenet",
        "ValueNet",
        T("name the network's file and a budget: net:FILE:BUDGET, for example net:value.npz:1s"),
        T("a value network needs numpy: pip install 'cafe-international[master]'"),
        N_("cannot read the network {path}: {reason}"),
    ),
    "prior": _ModelKind(
        "cafe.ai.prior",
        "TurnPrior",
        T("name the prior's file and a budget: prior:FILE:BUDGET, for example prior:prior.npz:1s"),
        T("a policy prior needs numpy: pip install 'cafe-international[master]'"),
        N_("cannot read the prior {path}: {reason}"),
    ),
}


def _model(kind: str, path: str) -> Any:
    """The value network (``net``, cafe.ai.valuenet) or the policy prior (``prior``, cafe.ai.prior) a player string
    names in ``path``, read once per process."""
    if not path:
        raise PlayerSpecError(_MODELS[kind].unnamed)
    return load_model(kind, path)


def load_model(kind: str, path: str) -> Any:
    """The model of ``kind`` (``net`` or ``prior``) in the file ``path``, read once per process; refused in words if
    numpy is missing or the file cannot be read as one."""
    model = _MODELS[kind]
    try:
        from cafe.ai.model_file import load_once

        cls = getattr(importlib.import_module(model.module), model.name)
    except ModuleNotFoundError:
        raise PlayerSpecError(model.needs_numpy) from None
    try:
        return load_once(cls, path)
    except (OSError, ValueError, KeyError) as error:
        raise PlayerSpecError(T(model.unreadable, path=path, reason=str(error))) from None


def strongest(seed: int | None = None, seconds: float | None = None) -> Player:
    """The strongest level, as hints ask it: at its own budget, or thinking ``seconds`` a turn instead."""
    if seconds is None:
        return make_player(STRONGEST, seed)
    kind = LEVELS[STRONGEST].partition(":")[0]
    return make_player(f"{kind}:{seconds}s", seed)


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
    if kind in ("mcts", "learned", "net", "prior"):
        return _search_player(kind, arg, seed)
    if kind in _REGISTERED:
        return _REGISTERED[kind](arg, seed)
    factory = _plugins().get(kind)
    if factory is not None:
        named: Player = factory.load()(arg, seed)
        return named
    raise PlayerSpecError(
        T(
            "unknown player '{spec}': use random, greedy, mcts[:BUDGET], learned[:BUDGET], learned:FILE:BUDGET, "
            "net:FILE:BUDGET, prior:FILE:BUDGET, easy, medium, hard, expert, master, ismcts:N or cmd:COMMAND",
            spec=spec,
        )
    )
