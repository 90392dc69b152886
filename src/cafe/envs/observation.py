"""A player's view as a flat vector of numbers, with a fixed, documented layout.

Everything comes from the view (``game.view(seat)``), so a vector holds only
what that player may see.  Seats are numbered from the observer: block 0 is the
observer, block 1 the next player in turn, and so on; a game of fewer players
than the maximum leaves the last blocks zero.

Board game (C chairs, 68 on the classic board), in order:

- per chair, 39 numbers: the guest's tile type one-hot (26), 1 if the chair is
  closed, the nation a joker there counts as one-hot (12);
- the bar: stools taken / 20, the next stool's value / 10 (0 when full);
- the bag: tiles left / 100;
- per seat (4 blocks), 32 numbers: score / 100, hand size / 5, tiles held / 5,
  1 if the hand is visible, the hand's tile counts (26, zero when hidden),
  1 if out of the game, 1 if it is this seat's turn;
- the turn in progress: steps taken / 4.

Card game (P places, 12 in the X; S table slots, 5):

- per place, 24 numbers: the client's card one-hot;
- per slot, 12 numbers: the table's nation one-hot;
- the deck: cards left / 96; the table pile: cards left / 24;
- per seat (5 blocks), 30 numbers: score / 100, cards held / 12, face-down cards / 12,
  1 if the hand is visible, the hand's card counts (24), 1 if it is this seat's turn,
  penalty points / 10;
- the turn in progress: steps taken / 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cafe.board_state import CLOSED
from cafe.layout import Board, CardBoard
from cafe.view import BoardView, CardView, View

if TYPE_CHECKING:
    from cafe.board_game import BoardGame
    from cafe.card_game import CardGame

LOW, HIGH = -10.0, 100.0  # bounds of every number of a vector (scores / 100 and counts stay well inside)
BOARD_SEATS, CARD_SEATS = 4, 5
TILE_TYPES, CARD_TYPES, NATIONS = 26, 24, 12
BOARD_CHAIR, BOARD_SEAT = TILE_TYPES + 1 + NATIONS, 6 + TILE_TYPES
CARD_SEAT = 6 + CARD_TYPES


BOARD_TAIL = 3 + BOARD_SEATS * BOARD_SEAT + 1  # the numbers after the chairs' block (see board_tail)
CARD_TAIL = 2 + CARD_SEATS * CARD_SEAT + 1  # the numbers after the tables' block (see card_tail)


def board_size(board: Board) -> int:
    return len(board.chair_ids) * BOARD_CHAIR + BOARD_TAIL


def card_size(board: CardBoard) -> int:
    return len(board.place_ids) * CARD_TYPES + len(board.slots) * NATIONS + CARD_TAIL


def observation_size(view: View) -> int:
    return board_size(view.board) if isinstance(view, BoardView) else card_size(view.board)


def encode(view: View) -> list[float]:
    """The view as numbers (see the module's layout); ``view.seat`` is the observer (None: seat 1)."""
    return _encode_board(view) if isinstance(view, BoardView) else _encode_cards(view)


def seats_from(players: int, seat: int | None) -> list[int]:
    """Seat indices in turn order, starting with the observer's (a spectator's: the first seat's)."""
    first = seat or 0
    return [(first + k) % players for k in range(players)]


def board_entries(game: BoardGame, seat: int | None) -> tuple[list[int], list[float]]:
    """Where ``encode(game.view(seat))`` may not be zero, and its numbers there, read from the game as ``seat`` sees
    it, without building the view: what fills a zeroed vector with one numpy call (compiled, this module builds the
    lists several times faster than Python, and a sparse list converts faster than the whole vector)."""
    s = game.state
    closed = game.rules.regulars
    index: list[int] = []
    for c, t in enumerate(s.occ):
        if t >= 0:
            index.append(c * BOARD_CHAIR + t)
        elif closed and t == CLOSED:
            index.append(c * BOARD_CHAIR + TILE_TYPES)
    for c in s.jokers:
        index.append(c * BOARD_CHAIR + TILE_TYPES + 1 + s.nat[c])
    values = [1.0] * len(index)
    at = len(s.occ) * BOARD_CHAIR
    bar_values = game.rules.bar_values
    stools = len(s.stools)
    next_stool = bar_values[stools] if stools < len(bar_values) else 0
    index += (at, at + 1, at + 2)
    values += (stools / 20, next_stool / 10, game.bag_count() / 100)
    shown = game.hands_shown(seat)
    for k, p in enumerate(seats_from(len(game.players), seat)):
        base = at + 3 + k * BOARD_SEAT
        index += (base, base + 1, base + 2, base + 3, base + 4 + TILE_TYPES, base + 5 + TILE_TYPES)
        values += (s.scores[p] / 100, s.hand_size[p] / 5, s.hand_n[p] / 5, float(shown[p]))
        values += (float(s.eliminated[p]), float(p == s.current and not s.over))
        if shown[p]:
            _add_counts(s.hands[p], base + 4, index, values)
    index.append(at + BOARD_TAIL - 1)
    values.append(len(game.this_turn()) / 4)
    return index, values


def card_entries(game: CardGame, seat: int | None) -> tuple[list[int], list[float]]:
    """:func:`board_entries` for the card game."""
    s = game.state
    index = [p * CARD_TYPES + card for p, card in enumerate(s.occ) if card >= 0]
    at = len(s.occ) * CARD_TYPES
    index += [at + slot * NATIONS + n for slot, n in enumerate(s.slot_nat)]
    values = [1.0] * len(index)
    at += len(s.slot_nat) * NATIONS
    index += (at, at + 1)
    values += (game.deck_count() / 96, game.table_pile_count() / 24)
    shown = game.hands_shown(seat)
    penalties = game.penalties()
    for k, p in enumerate(seats_from(len(game.players), seat)):
        base = at + 2 + k * CARD_SEAT
        index += (base, base + 1, base + 2, base + 3, base + 4 + CARD_TYPES, base + 5 + CARD_TYPES)
        values += (s.scores[p] / 100, s.hand_n[p] / 12, len(s.down[p]) / 12, float(shown[p]))
        values += (float(p == s.current and not s.over), penalties[p] / 10)
        if shown[p]:
            _add_counts(s.hands[p], base + 4, index, values)
    index.append(at + CARD_TAIL - 1)
    values.append(len(game.this_turn()) / 4)
    return index, values


def _add_counts(hand: list[int], at: int, index: list[int], values: list[float]) -> None:
    for kind, count in enumerate(hand):
        if count:
            index.append(at + kind)
            values.append(float(count))


def board_tail(game: BoardGame, seat: int | None) -> list[float]:
    """The board game's numbers after the chairs' block (bar, bag, seats, turn), as ``seat`` sees them: what
    ``encode(game.view(seat))`` ends with."""
    return _tail(*board_entries(game, seat), len(game.state.occ) * BOARD_CHAIR, BOARD_TAIL)


def card_tail(game: CardGame, seat: int | None) -> list[float]:
    """The card game's numbers after the tables' block (deck, pile, seats, turn), as ``seat`` sees them."""
    s = game.state
    return _tail(*card_entries(game, seat), len(s.occ) * CARD_TYPES + len(s.slot_nat) * NATIONS, CARD_TAIL)


def _tail(index: list[int], values: list[float], at: int, size: int) -> list[float]:
    tail = [0.0] * size
    for i, value in zip(index, values, strict=True):
        if i >= at:
            tail[i - at] = value
    return tail


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
