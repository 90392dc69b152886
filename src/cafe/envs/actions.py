"""A fixed numbering of every step of an edition, for frameworks that want actions as integers.

Board game (C chairs of the board, 68 on the classic board; 26 tile types,
see :mod:`cafe.tiles`), in this order:

==================  =========  ======================================================
block               size       action
==================  =========  ======================================================
seat                24 x C     national tile ``t`` on chair ``c``: ``t * C + c``
seat joker          2 x C x 2  joker ``j`` on chair ``c`` given the ``k``-th nation of
                               the chair's tables (in the board file's order; on a
                               chair of one nation ``k`` = 1 is never legal)
bar                 26         tile ``t`` to the next stool
exchange            24 x C     national tile ``t`` from the hand for the joker on ``c``
stop, pass          2
==================  =========  ======================================================

That is 3,564 actions on the classic board.  Card game (P places, 12 in the
X; 24 card types): ``seat`` 24 x P, ``draw``, ``down`` 24, ``stop``,
``close``: 315 actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from cafe.board_game import BoardGame, topology
from cafe.card_game import DOWN_STEPS, CardGame, card_steps
from cafe.errors import NotationError
from cafe.layout import Board, CardBoard
from cafe.steps import CLOSE, DRAW, PASS, STOP, Kind, Step
from cafe.tiles import JOKER_F, TILES, Nation

NATIONAL = 24  # tile (card) types with a nation: 12 nations x 2 genders


@dataclass(frozen=True)
class ActionSpace:
    """The numbered steps of one edition on one board: ``steps[i]`` is action ``i``."""

    steps: tuple[Step, ...]

    @property
    def n(self) -> int:
        return len(self.steps)

    def index(self, step: Step) -> int:
        """The action number of a step (any step of the edition, legal now or not)."""
        found = _indices(self)[1].get(step)
        if found is None:
            raise NotationError(f"{step} is not a step of this game's action space")
        return found

    def numbers(self, steps: list[Step]) -> list[int]:
        """The action numbers of steps, in their order (the engine's own steps are found by identity, which is
        several times faster than hashing a step)."""
        by_id, _ = _indices(self)
        return [by_id[id(step)] if id(step) in by_id else self.index(step) for step in steps]

    def legal(self, game: BoardGame | CardGame) -> list[int]:
        """The numbers of the actions that are legal now, in increasing order."""
        return sorted(self.numbers(game.legal_steps()))

    def mask(self, game: BoardGame | CardGame) -> list[int]:
        """1 for every action that is legal now, else 0."""
        out = [0] * self.n
        for action in self.legal(game):
            out[action] = 1
        return out


_INDEX_CACHE: dict[int, tuple[ActionSpace, dict[int, int], dict[Step, int]]] = {}


def _indices(space: ActionSpace) -> tuple[dict[int, int], dict[Step, int]]:
    """Action numbers by the identity of the space's steps (which the space keeps alive) and by their value."""
    hit = _INDEX_CACHE.get(id(space))
    if hit is None or hit[0] is not space:
        by_id = {id(step): i for i, step in enumerate(space.steps)}
        hit = _INDEX_CACHE[id(space)] = (space, by_id, {step: i for i, step in enumerate(space.steps)})
    return hit[1], hit[2]


def board_actions(board: Board) -> ActionSpace:
    """The board game's actions on ``board`` (see the module's table)."""
    topo = topology(board)
    chairs = range(len(board.chair_ids))
    steps: list[Step] = [topo.seat_steps[t, c, t // 2] for t in range(NATIONAL) for c in chairs]
    for joker in (JOKER_F, JOKER_F + 1):
        for c in chairs:
            nations = topo.chair_nations[c]
            steps.append(topo.seat_steps[joker, c, nations[0]])
            if len(nations) > 1:
                steps.append(topo.seat_steps[joker, c, nations[1]])
            else:  # a chair of one nation: the second slot holds a step that is never legal (a foreign nation)
                foreign = next(n for n in Nation if n not in nations)
                steps.append(Step(Kind.SEAT, TILES[joker], board.chair_ids[c], foreign))
    steps += topo.bar_steps
    steps += [topo.exchange_steps[t, c] for t in range(NATIONAL) for c in chairs]
    steps += [STOP, PASS]
    return ActionSpace(tuple(steps))


def card_actions(board: CardBoard) -> ActionSpace:
    """The card game's actions in the X (see the module's docstring)."""
    seats = card_steps(board)  # the engine's own steps, so that they are found by identity
    steps = [seats[t, p] for t in range(NATIONAL) for p in range(len(board.place_ids))]
    steps.append(DRAW)
    steps += DOWN_STEPS
    steps += [STOP, CLOSE]
    return ActionSpace(tuple(steps))


def actions_of(game: BoardGame | CardGame) -> ActionSpace:
    return board_actions(game.board) if isinstance(game, BoardGame) else card_actions(game.board)
