"""What the framework adapters hand out: the observation space, and one seat's observation and action mask filled
with numpy straight from the game, in arrays the caller may preallocate.

:func:`cafe.envs.observation.encode` defines the vector from a view (what a seat may see); :class:`Observer` fills
the same numbers from the game's state without building the view, reading only the hands that
``game.hands_shown(seat)`` allows.  The tests hold the two equal at thousands of positions of both editions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from cafe.board_game import BoardGame
from cafe.board_state import CLOSED
from cafe.card_game import CardGame
from cafe.envs.actions import ActionSpace
from cafe.envs.observation import (
    BOARD_CHAIR,
    BOARD_SEAT,
    CARD_SEAT,
    CARD_TYPES,
    HIGH,
    LOW,
    NATIONS,
    TILE_TYPES,
    observation_size,
)
from cafe.tiles import JOKER_F


def observation_space(game: BoardGame | CardGame, actions: ActionSpace) -> spaces.Dict:
    """``observation`` (the vector of cafe.envs.observation) and ``action_mask`` (one entry per action)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(LOW, HIGH, (observation_size(game.view(0)),), np.float32),
            "action_mask": spaces.Box(0, 1, (actions.n,), np.int8),
        }
    )


class Observer:
    """Observations and masks of one edition on one board, as numpy arrays."""

    def __init__(self, game: BoardGame | CardGame, actions: ActionSpace) -> None:
        self.actions = actions
        self.size = observation_size(game.view(0))

    def observe(self, game: BoardGame | CardGame, seat: int) -> dict[str, Any]:
        """``seat``'s observation in fresh arrays; its mask marks the legal actions when it is to move."""
        observation = np.zeros(self.size, np.float32)
        mask = np.zeros(self.actions.n, np.int8)
        self.fill(game, seat, observation, mask)
        return {"observation": observation, "action_mask": mask}

    def fill(self, game: BoardGame | CardGame, seat: int, observation: np.ndarray, mask: np.ndarray) -> None:
        """Write ``seat``'s observation and mask into zeroed arrays of the right shapes."""
        fill_observation(game, seat, observation)
        if not game.is_over() and seat == game.current_player:
            mask[self.actions.numbers(game.legal_steps())] = 1


def fill_observation(game: BoardGame | CardGame, seat: int | None, out: np.ndarray) -> None:
    """Write what ``seat`` sees (None: a spectator) into a zeroed vector: ``encode(game.view(seat))``, faster."""
    if isinstance(game, BoardGame):
        _fill_board(game, seat, out)
    else:
        _fill_cards(game, seat, out)


def _seats_from(players: int, seat: int | None) -> list[int]:
    """Seats in turn order from the observer's (a spectator's: from the first)."""
    first = seat or 0
    return [(first + k) % players for k in range(players)]


def _fill_board(game: BoardGame, seat: int | None, out: np.ndarray) -> None:
    s = game.state
    chairs = len(s.occ)
    block = out[: chairs * BOARD_CHAIR].reshape(chairs, BOARD_CHAIR)
    occ = np.asarray(s.occ)
    seated = np.flatnonzero(occ >= 0)
    block[seated, occ[seated]] = 1.0
    jokers = seated[occ[seated] >= JOKER_F]
    if jokers.size:
        block[jokers, TILE_TYPES + 1 + np.asarray(s.nat)[jokers]] = 1.0
    block[occ == CLOSED, TILE_TYPES] = 1.0
    at = chairs * BOARD_CHAIR
    bar_values = game.rules.bar_values
    stools = len(s.stools)
    next_stool = bar_values[stools] if stools < len(bar_values) else 0
    out[at : at + 3] = (stools / 20, next_stool / 10, game.bag_count() / 100)
    at += 3
    shown = game.hands_shown(seat)
    for k, p in enumerate(_seats_from(len(game.players), seat)):
        base = at + k * BOARD_SEAT
        out[base : base + 4] = (s.scores[p] / 100, s.hand_size[p] / 5, s.hand_n[p] / 5, float(shown[p]))
        if shown[p]:
            out[base + 4 : base + 4 + TILE_TYPES] = s.hands[p]
        out[base + 4 + TILE_TYPES] = float(s.eliminated[p])
        out[base + 5 + TILE_TYPES] = float(p == s.current and not s.over)
    out[-1] = len(game.this_turn()) / 4


def _fill_cards(game: CardGame, seat: int | None, out: np.ndarray) -> None:
    s = game.state
    places = len(s.occ)
    occ = np.asarray(s.occ)
    seated = np.flatnonzero(occ >= 0)
    out[seated * CARD_TYPES + occ[seated]] = 1.0
    at = places * CARD_TYPES
    slots = len(s.slot_nat)
    out[at + np.arange(slots) * NATIONS + np.asarray(s.slot_nat)] = 1.0
    at += slots * NATIONS
    out[at : at + 2] = (game.deck_count() / 96, game.table_pile_count() / 24)
    at += 2
    shown = game.hands_shown(seat)
    penalties = game.penalties()
    for k, p in enumerate(_seats_from(len(game.players), seat)):
        base = at + k * CARD_SEAT
        out[base : base + 4] = (s.scores[p] / 100, s.hand_n[p] / 12, len(s.down[p]) / 12, float(shown[p]))
        if shown[p]:
            out[base + 4 : base + 4 + CARD_TYPES] = s.hands[p]
        out[base + 4 + CARD_TYPES] = float(p == s.current and not s.over)
        out[base + 5 + CARD_TYPES] = penalties[p] / 10
    out[-1] = len(game.this_turn()) / 4
