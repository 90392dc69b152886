"""A slow, literal implementation of the card game's step rules (RULES.md §4.2-4.3, §4.7).

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


_TOUCHING: dict[str, list[str]] = {}


def touching(game: CardGame, place: str) -> list[str]:
    """The tables a place touches (board data, read once)."""
    if not _TOUCHING:
        board = game.board
        _TOUCHING.update({pid: [board.slots[t] for t in board.place_slots[i]] for i, pid in enumerate(board.place_ids)})
    return _TOUCHING[place]


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
    played = [(d.tile, d.place) for d in done if d.tile is not None and d.place is not None]
    tribes = bool(game.rules.tribe_and_circle)
    places = [place for _, place in played]
    intact = len(set(places)) == len(places) and all(pos[1].get(place) == card for card, place in played)
    # intact: nothing has left the X this turn
    start = (pos[0], {p: c for p, c in pos[1].items() if (c, p) not in played}) if intact else None
    in_tribe = tribes and start is not None and not normal_prefix(game, start, played)
    pending: list[str] = []
    if done and not in_tribe:
        last = done[-1]
        assert last.kind is Kind.SEAT and last.tile is not None and last.place is not None
        before = game.copy()
        before.pop()
        if try_card(before, position_of(before), last.tile, last.place) == 0:
            pending = touching(game, last.place)
    out: set[str] = set()
    for card in set(hand):
        for place in game.board.place_ids:
            if (
                tribes
                and start is not None
                and tribe_extendable(game, start, [*played, (card, place)], hand_after(hand, card))
            ):
                out.add(f"{card}@{place}")
                continue
            if in_tribe:
                continue
            score = try_card(game, pos, card, place)
            if score is None or len(done) >= 3:
                continue
            if pending and (score == 0 or not set(touching(game, place)) & set(pending)):
                continue  # the card after a 0-point card joins one of its tables and scores
            if score == 0 and not joined_later(game, pos, hand, card, place, len(done)):
                continue
            out.add(f"{card}@{place}")
    if done:
        if not pending and not in_tribe:
            out.add("stop")
            if len(hand) == 0:
                out.add("close")
        return out
    if len(hand) < 12:
        out.add("draw")
    else:
        out |= {f"down:{card}" for card in set(hand)}
    return out


def hand_after(hand: list[Tile], card: Tile) -> list[Tile]:
    rest = list(hand)
    rest.remove(card)
    return rest


def normal_prefix(game: CardGame, start: Position, played: list[tuple[Tile, str]]) -> bool:
    """Each card kept the gender rule when it was played (so the turn is not a tribe/circle turn)."""
    pos = start
    for card, place in played:
        if try_card(game, pos, card, place) is None:
            return False
        pos = (pos[0], {**pos[1], place: card})
    return True


def tribe_complete(game: CardGame, start: Position, cards: list[tuple[Tile, str]]) -> bool:
    """A whole tribe/circle turn (RULES.md §4.7): 2-4 cards of one gender, all touching a table T that
    ends with four clients all of that gender; no table fills before the last card, which may fill
    another table beside T."""
    if not 2 <= len(cards) <= 4 or len({card.gender for card, _ in cards}) != 1:
        return False
    gender = cards[0][0].gender
    tables, clients = start
    for i, (card, place) in enumerate(cards):
        if place in clients or all(tables[t] != card.nation for t in touching(game, place)):
            return False
        clients = {**clients, place: card}
        full = [t for t in tables if len(clients_at(game, clients, t)) == 4]
        if full and i < len(cards) - 1:
            return False
    common = set(tables)
    for _, place in cards:
        common &= set(touching(game, place))
    tribe = [
        t
        for t in common
        if len(clients_at(game, clients, t)) == 4 and all(c.gender == gender for c in clients_at(game, clients, t))
    ]
    return bool(tribe)


def tribe_extendable(game: CardGame, start: Position, cards: list[tuple[Tile, str]], hand: list[Tile]) -> bool:
    """Some complete tribe/circle turn begins with these cards."""
    if tribe_complete(game, start, cards):
        return True
    if len(cards) >= 4 or len({card.gender for card, _ in cards}) != 1:
        return False
    clients = dict(start[1])
    for card, place in cards:
        if place in clients:
            return False
        clients[place] = card
    if any(len(clients_at(game, clients, t)) == 4 for t in start[0]):
        return False  # something filled before the last card
    gender = cards[0][0].gender
    common = set(start[0])
    for _, place in cards:
        common &= set(touching(game, place))
    # T keeps only clients of the turn's gender, and four cards at most must fill it
    common = {
        t
        for t in common
        if all(c.gender == gender for c in clients_at(game, clients, t))
        and 4 - len(clients_at(game, clients, t)) <= 4 - len(cards)
    }
    if not common:
        return False
    for card in set(hand):
        if card.gender != gender:
            continue  # one gender
        for place in game.board.place_ids:
            if place in clients or not common & set(touching(game, place)):
                continue  # a free place touching the table every card touches
            if all(start[0][t] != card.nation for t in touching(game, place)):
                continue  # the nation rule
            if tribe_extendable(game, start, [*cards, (card, place)], hand_after(hand, card)):
                return True
    return False


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
