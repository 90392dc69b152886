"""The numbers a player's view is read as, written straight from a game: the layout every vector of
cafe.envs.observation follows, and the part of it the learned evaluation reads (cafe.ai.learned).

Below both the research interfaces and the players, so that neither reaches into the other for them.

Everything comes from what a seat may see (``game.hands_shown(seat)``).  Seats are numbered from the observer:
block 0 is the observer, block 1 the next player in turn, and so on; a game of fewer players than the maximum
leaves the last blocks zero.

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

from typing import TYPE_CHECKING, Protocol

from cafe.board_state import CLOSED

if TYPE_CHECKING:
    from cafe.board_game import BoardGame
    from cafe.card_game import CardGame
    from cafe.layout import Board, CardBoard

BOARD_SEATS, CARD_SEATS = 4, 5
TILE_TYPES, CARD_TYPES, NATIONS = 26, 24, 12
BOARD_CHAIR, BOARD_SEAT = TILE_TYPES + 1 + NATIONS, 6 + TILE_TYPES
CARD_SEAT = 6 + CARD_TYPES
BOARD_TAIL = 3 + BOARD_SEATS * BOARD_SEAT + 1  # the numbers after the chairs' block (see board_tail)
CARD_TAIL = 2 + CARD_SEATS * CARD_SEAT + 1  # the numbers after the tables' block (see card_tail)


def board_size(board: Board) -> int:
    """The length of a board game's vector on ``board``."""
    return len(board.chair_ids) * BOARD_CHAIR + BOARD_TAIL


def card_size(board: CardBoard) -> int:
    """The length of a card game's vector on ``board``."""
    return len(board.place_ids) * CARD_TYPES + len(board.slots) * NATIONS + CARD_TAIL


def seats_from(players: int, seat: int | None) -> list[int]:
    """Seat indices in turn order, starting with the observer's (a spectator's: the first seat's)."""
    first = seat or 0
    return [(first + k) % players for k in range(players)]


class Numbers(Protocol):
    """Where a vector is written: a list of floats, or a memoryview of a numpy float32 array."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


def write_board(game: BoardGame, seat: int | None, out: Numbers, tail_only: bool = False) -> None:
    """Write what ``seat`` sees into a zeroed vector: ``encode(game.view(seat))``, read from the game without
    building the view, and only where it is not zero.  With ``tail_only``, ``out`` holds just the numbers after
    the chairs' block.  (Compiled with the engine; written through a memoryview, a numpy array is filled without
    any list in between.)"""
    s = game.state
    at = 0
    if not tail_only:
        closed = game.rules.regulars
        for c, t in enumerate(s.occ):
            if t >= 0:
                out[c * BOARD_CHAIR + t] = 1.0
            elif closed and t == CLOSED:
                out[c * BOARD_CHAIR + TILE_TYPES] = 1.0
        for c in s.jokers:
            out[c * BOARD_CHAIR + TILE_TYPES + 1 + s.nat[c]] = 1.0
        at = len(s.occ) * BOARD_CHAIR
    bar_values = game.rules.bar_values
    stools = len(s.stools)
    out[at] = stools / 20
    out[at + 1] = (bar_values[stools] if stools < len(bar_values) else 0) / 10
    out[at + 2] = game.bag_count() / 100
    shown = game.hands_shown(seat)
    for k, p in enumerate(seats_from(len(game.players), seat)):
        base = at + 3 + k * BOARD_SEAT
        out[base] = s.scores[p] / 100
        out[base + 1] = s.hand_size[p] / 5
        out[base + 2] = s.hand_n[p] / 5
        if shown[p]:
            out[base + 3] = 1.0
            _write_counts(s.hands[p], out, base + 4)
        if s.eliminated[p]:
            out[base + 4 + TILE_TYPES] = 1.0
        if p == s.current and not s.over:
            out[base + 5 + TILE_TYPES] = 1.0
    out[at + BOARD_TAIL - 1] = len(game.this_turn()) / 4


def write_cards(game: CardGame, seat: int | None, out: Numbers, tail_only: bool = False) -> None:
    """:func:`write_board` for the card game (``tail_only``: the numbers after the tables' block)."""
    s = game.state
    at = 0
    if not tail_only:
        for p, card in enumerate(s.occ):
            if card >= 0:
                out[p * CARD_TYPES + card] = 1.0
        at = len(s.occ) * CARD_TYPES
        for slot, n in enumerate(s.slot_nat):
            out[at + slot * NATIONS + n] = 1.0
        at += len(s.slot_nat) * NATIONS
    out[at] = game.deck_count() / 96
    out[at + 1] = game.table_pile_count() / 24
    shown = game.hands_shown(seat)
    penalties = game.penalties()
    for k, p in enumerate(seats_from(len(game.players), seat)):
        base = at + 2 + k * CARD_SEAT
        out[base] = s.scores[p] / 100
        out[base + 1] = s.hand_n[p] / 12
        out[base + 2] = len(s.down[p]) / 12
        if shown[p]:
            out[base + 3] = 1.0
            _write_counts(s.hands[p], out, base + 4)
        if p == s.current and not s.over:
            out[base + 4 + CARD_TYPES] = 1.0
        out[base + 5 + CARD_TYPES] = penalties[p] / 10
    out[at + CARD_TAIL - 1] = len(game.this_turn()) / 4


def _write_counts(hand: list[int], out: Numbers, at: int) -> None:
    for kind, count in enumerate(hand):
        if count:
            out[at + kind] = float(count)


def board_tail(game: BoardGame, seat: int | None) -> list[float]:
    """The board game's numbers after the chairs' block (bar, bag, seats, turn), as ``seat`` sees them: what
    ``encode(game.view(seat))`` ends with."""
    tail = [0.0] * BOARD_TAIL
    write_board(game, seat, tail, tail_only=True)
    return tail


def card_tail(game: CardGame, seat: int | None) -> list[float]:
    """The card game's numbers after the tables' block (deck, pile, seats, turn), as ``seat`` sees them."""
    tail = [0.0] * CARD_TAIL
    write_cards(game, seat, tail, tail_only=True)
    return tail
