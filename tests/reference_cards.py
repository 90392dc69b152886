"""A slow, literal implementation of the card game's step rules (RULES.md §4.2-4.3), without the tribe variant.

It reads the public position (the X's tables, the clients, the current
player's hand) and the previous position for the last card's score; it shares
no code with the engine's rules.  The tests compare the two.
"""

from __future__ import annotations

from cafe import Step
from cafe.card_game import CardGame
from cafe.steps import Kind
from cafe.tiles import Nation, Tile

Position = tuple[dict[str, Nation], dict[str, Tile]]  # table nation per slot, client per place


def position_of(game: CardGame) -> Position:
    view = game.view(None)
    return dict(zip(view.board.slots, view.tables, strict=True)), dict(view.clients)


def touching(game: CardGame, place: str) -> list[str]:
    board = game.board
    return [board.slots[t] for t in board.place_slots[board.place_index[place]]]


def clients_at(game: CardGame, clients: dict[str, Tile], slot: str) -> list[Tile]:
    return [card for place, card in clients.items() if slot in touching(game, place)]


def gender_ok(cards: list[Tile]) -> bool:
    ladies = sum(1 for c in cards if c.gender == 0)
    gents = len(cards) - ladies
    return ladies <= 2 and gents <= 2 and abs(ladies - gents) <= 1


def table_value(game: CardGame, pos: Position, slot: str) -> int:
    tables, clients = pos
    cards = clients_at(game, clients, slot)
    if len(cards) < 2:
        return 0
    return sum(2 if card.nation == tables[slot] else 1 for card in cards)


def try_card(game: CardGame, pos: Position, card: Tile, place: str) -> int | None:
    """The card's score if it may take the place by rules 4.2 (free, nation, gender), else None."""
    tables, clients = pos
    if place in clients or all(tables[t] != card.nation for t in touching(game, place)):
        return None
    after = (tables, {**clients, place: card})
    if not all(gender_ok(clients_at(game, after[1], t)) for t in touching(game, place)):
        return None
    return sum(table_value(game, after, t) for t in touching(game, place))


def legal_steps(game: CardGame) -> set[str]:
    if game.is_over():
        return set()
    pos = position_of(game)
    hand = list(game.view(game.current_player).hands[game.current_player] or ())
    done = [Step.parse(s) for s in game.view(None).this_turn]
    pending: list[str] = []
    if done:
        last = done[-1]
        assert last.kind is Kind.SEAT and last.tile is not None and last.place is not None
        before = game.copy()
        before.pop()
        if try_card(before, position_of(before), last.tile, last.place) == 0:
            pending = touching(game, last.place)
    out: set[str] = set()
    for card in set(hand):
        for place in game.board.place_ids:
            score = try_card(game, pos, card, place)
            if score is None or len(done) >= 3:
                continue
            if pending and (score == 0 or not set(touching(game, place)) & set(pending)):
                continue  # the card after a 0-point card joins one of its tables and scores
            if score == 0 and not joined_later(game, pos, hand, card, place, len(done)):
                continue
            out.add(f"{card}@{place}")
    if done:
        if not pending:
            out.add("stop")
            if len(hand) == 0:
                out.add("close")
        return out
    if len(hand) < 12:
        out.add("draw")
    else:
        out |= {f"down:{card}" for card in set(hand)}
    return out


def joined_later(game: CardGame, pos: Position, hand: list[Tile], card: Tile, place: str, done: int) -> bool:
    """After a 0-point card: may a next card of the same turn join one of its tables and score?"""
    if done + 1 >= 3:
        return False
    rest = list(hand)
    rest.remove(card)
    after = (pos[0], {**pos[1], place: card})
    for other in set(rest):
        for target in game.board.place_ids:
            if not set(touching(game, target)) & set(touching(game, place)):
                continue
            score = try_card(game, after, other, target)
            if score:
                return True
    return False
