"""A player's view as a flat vector of numbers, with a fixed, documented layout (cafe.features).

Everything comes from the view (``game.view(seat)``), so a vector holds only what that player may see; the layout,
seat by seat and block by block, is documented and written from a game in :mod:`cafe.features`, which the learned
evaluation reads too.  :func:`encode` builds the same vector from a view.
"""

from __future__ import annotations

from cafe.features import (
    BOARD_CHAIR,
    BOARD_SEAT,
    CARD_SEAT,
    CARD_TYPES,
    NATIONS,
    TILE_TYPES,
    board_size,
    card_size,
    seats_from,
)
from cafe.view import BoardView, CardView, View

LOW, HIGH = -10.0, 100.0  # bounds of every number of a vector (scores / 100 and counts stay well inside)


def observation_size(view: View) -> int:
    return board_size(view.board) if isinstance(view, BoardView) else card_size(view.board)


def encode(view: View) -> list[float]:
    """The view as numbers (see cafe.features for the layout); ``view.seat`` is the observer (None: seat 1)."""
    return _encode_board(view) if isinstance(view, BoardView) else _encode_cards(view)


def _encode_board(view: BoardView) -> list[float]:
    board = view.board
    index = board.chair_index
    out = [0.0] * board_size(board)
    for guest in view.guests:
        base = index[guest.chair] * BOARD_CHAIR
        out[base + int(guest.tile)] = 1.0
        if guest.tile.is_joker:
            out[base + TILE_TYPES + 1 + int(guest.nation)] = 1.0
    for chair in view.closed_chairs:
        out[index[chair] * BOARD_CHAIR + TILE_TYPES] = 1.0
    at = len(board.chair_ids) * BOARD_CHAIR
    nxt = view.next_bar_value
    out[at : at + 3] = [len(view.bar) / 20, (nxt or 0) / 10, view.bag_count / 100]
    at += 3
    for k, p in enumerate(seats_from(len(view.players), view.seat)):
        base = at + k * BOARD_SEAT
        hand = view.hands[p]
        out[base : base + 4] = [
            view.scores[p] / 100,
            view.hand_sizes[p] / 5,
            view.hand_counts[p] / 5,
            float(hand is not None),
        ]
        for tile in hand or ():
            out[base + 4 + int(tile)] += 1.0
        out[base + 4 + TILE_TYPES] = float(view.eliminated[p])
        out[base + 5 + TILE_TYPES] = float(p == view.current_player and not view.over)
    out[-1] = len(view.this_turn) / 4
    return out


def _encode_cards(view: CardView) -> list[float]:
    board = view.board
    index = board.place_index
    out = [0.0] * card_size(board)
    for place, card in view.clients:
        out[index[place] * CARD_TYPES + int(card)] = 1.0
    at = len(board.place_ids) * CARD_TYPES
    for slot, nation in enumerate(view.tables):
        out[at + slot * NATIONS + int(nation)] = 1.0
    at += len(board.slots) * NATIONS
    out[at : at + 2] = [view.deck_count / 96, view.table_pile_count / 24]
    at += 2
    for k, p in enumerate(seats_from(len(view.players), view.seat)):
        base = at + k * CARD_SEAT
        hand = view.hands[p]
        out[base : base + 4] = [
            view.scores[p] / 100,
            view.hand_counts[p] / 12,
            view.face_down_counts[p] / 12,
            float(hand is not None),
        ]
        for card in hand or ():
            out[base + 4 + int(card)] += 1.0
        out[base + 4 + CARD_TYPES] = float(p == view.current_player and not view.over)
        out[base + 5 + CARD_TYPES] = view.penalties[p] / 10
    out[-1] = len(view.this_turn) / 4
    return out
