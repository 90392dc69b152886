"""Possible worlds: complete games consistent with what one seat sees (determinization).

A bot sees only its view.  To look ahead it needs full games, so it samples
them: the tiles (or cards) it cannot see are shuffled afresh for every sample
and dealt to the bag, to hidden hands and to others' face-down cards.  The
real bag order never enters, so a bot's choices depend on its view alone.

A position in the middle of a turn is rebuilt by setting up the turn's start
(this turn's guests back in the hand) and replaying the turn's steps, so the
engine's turn bookkeeping is exact.  One case is approximated: a card-game
turn in which full tables were already removed (their clients are gone from
the view), where the turn is continued from the current cards instead.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TypeVar

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.game import with_item
from cafe.steps import Kind, Step, parse_step
from cafe.tiles import Nation, Tile, full_set
from cafe.view import BoardView, CardView, View

Game = BoardGame | CardGame


class Worlds:
    """Samples complete games consistent with one view; :meth:`sample` gives a fresh one each call."""

    def __init__(self, view: View, rng: random.Random | None = None, *, around: Game | None = None) -> None:
        self.view = view
        rng = rng or random.Random(0)
        self._hidden = [p for p, hand in enumerate(view.hands) if hand is None]
        self._base: Game
        self._keep_history = around is not None
        self._exact = False  # every sample is the base itself (Worlds.exact)
        self._tables_laid: tuple[Nation, ...] = ()
        self._table_pool: list[Nation] = []
        if around is not None:
            self._base, self._unseen = around.copy(), _unseen_in(around, view)
        elif isinstance(view, BoardView):
            self._base, self._unseen = _board_world(view, rng)
        else:
            self._base, self._unseen = _card_world(view, rng)
        if isinstance(view, BoardView):
            self._down = [0] * len(view.players)
            self._bag_count = view.bag_count
        else:
            self._down = list(view.face_down_counts)
            self._bag_count = view.deck_count
        s = self._base.state
        if isinstance(self._base, BoardGame):
            self._drawn = self._base.bag[: s.bag_pos]
        else:
            self._drawn = self._base.deck[: s.deck_pos]
            self._tables_laid = self._base.table_cards[: s.table_pos]
            self._table_pool = list(self._base.table_cards[s.table_pos :])

    @classmethod
    def around(cls, game: Game, seat: int) -> Worlds:
        """Worlds of a real game as ``seat`` knows it, keeping the game's history and turns.

        For frameworks that hold the whole game and must resample it from
        one player's knowledge (OpenSpiel's ``resample_from_infostate``);
        bots never see a game and use a view.
        """
        return cls(game.view(seat), around=game)

    @classmethod
    def exact(cls, game: Game) -> Worlds:
        """Worlds that are all the real game: its bag's (or deck's) order and every hand as they are.

        Not for play, where it would cheat: for measuring what knowing everything hidden would be worth to the
        search (``bench/known_hands.py --everything``).
        """
        worlds = cls.around(game, game.current_player)
        worlds._exact = True
        return worlds

    @property
    def base(self) -> Game:
        """One world (the first sample), for reading the position."""
        return self._base

    def sample(self, rng: random.Random) -> Game:
        """A fresh world: the unseen tiles shuffled and dealt again.  Its history is empty."""
        game = self._base.copy()
        if self._exact:
            return game
        if not self._keep_history:
            _without_history(game)
        pool = list(self._unseen)
        shuffle(pool, rng)
        s = game.state
        for seat in self._hidden:
            hand = [0] * len(s.hands[seat])
            for t in _deal(pool, s.hand_n[seat]):
                hand[t] += 1
            s.hands[seat] = hand
            if isinstance(game, CardGame):
                s.down = with_item(s.down, seat, tuple(map(int, _deal(pool, self._down[seat]))))
        drawn = tuple(pool[: self._bag_count])
        if isinstance(game, CardGame):
            game.deck = self._drawn + drawn
            tables = list(self._table_pool)
            shuffle(tables, rng)
            game.table_cards = self._tables_laid + tuple(tables)
        else:
            game.bag = self._drawn + drawn
        s.legal = None
        return game


T = TypeVar("T")


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle in place, uniformly to 2**-53 (Fisher-Yates with ``rng.random()``): several times faster than
    ``random.shuffle``, which draws each index bit by bit in Python, and a world is shuffled at every iteration of
    the search."""
    draw = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(draw() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _unseen_in(game: Game, view: View) -> list[Tile]:
    """The tiles (or cards) of a real game that the view's seat cannot see: the bag or deck, hidden hands."""
    s = game.state
    if isinstance(game, BoardGame):
        unseen = list(game.bag[s.bag_pos :])
    else:
        assert isinstance(view, CardView)
        unseen = list(game.deck[s.deck_pos :])
        for seat, down in enumerate(view.face_down):
            if down is None:
                unseen += [Tile(card) for card in s.down[seat]]
    for seat, hand in enumerate(view.hands):
        if hand is None:
            unseen += [Tile(t) for t, count in enumerate(s.hands[seat]) for _ in range(count)]
    return unseen


def _this_turn(view: View) -> list[Step]:
    return [parse_step(text) for text in view.this_turn]


def _trailing_passes(view: BoardView) -> int:
    count = 0
    for turn in reversed(view.turns):
        if turn != "pass":
            break
        count += 1
    return count


def _board_world(view: BoardView, rng: random.Random) -> tuple[BoardGame, list[Tile]]:
    """A board game at the view's position, with unseen tiles dealt at random; and the unseen tiles."""
    steps = _this_turn(view)
    this_turn = {str(step.place): step for step in steps if step.kind is Kind.SEAT}
    seat = view.current_player
    seated = {g.chair: f"{g.tile.name}={g.nation.name}" if g.tile.is_joker else g.tile.name for g in view.guests}
    for chair in this_turn:
        del seated[chair]
    visible: Counter[Tile] = Counter(g.tile for g in view.guests)
    visible.update(view.bar)
    for hand in view.hands:
        visible.update(hand or ())
    unseen = list((Counter(full_set()) - visible).elements())
    pool = unseen.copy()
    shuffle(pool, rng)
    hands = [list(hand) if hand is not None else _deal(pool, view.hand_counts[p]) for p, hand in enumerate(view.hands)]
    hands[seat] += [step.tile for step in this_turn.values() if step.tile is not None]
    game = BoardGame.from_position(
        view.players,
        hands,
        seated=seated,
        bar=view.bar,
        scores=view.scores,
        hand_sizes=view.hand_sizes,
        current=seat,
        turn_number=view.turn_number,
        closed=view.closed_chairs,
        eliminated=[p for p, gone in enumerate(view.eliminated) if gone],
        rules=view.rules,
        board=view.board,
        bag=pool[: view.bag_count],
    )
    for step in steps:
        game.push(step)
    s = game.state
    s.scores, s.hand_size = list(view.scores), tuple(view.hand_sizes)
    s.passes = _trailing_passes(view)
    return _without_history(game), unseen


def _card_world(view: CardView, rng: random.Random) -> tuple[CardGame, list[Tile]]:
    """A card game at the view's position, with unseen cards dealt at random; and the unseen cards."""
    steps = _this_turn(view)
    seat = view.current_player
    clients = {place: card for place, card in view.clients}
    played = [step for step in steps if step.kind is Kind.SEAT]
    places = [str(step.place) for step in played]
    # a card that filled a table left with it, so a turn without removals has all its cards in place
    replay = len(set(places)) == len(places) and all(
        clients.get(p) == s.tile for p, s in zip(places, played, strict=True)
    )
    if replay:
        for place in places:
            del clients[place]
    visible: Counter[Tile] = Counter(clients.values())
    visible.update(_gone_clients(view))
    for hand in view.hands:
        visible.update(hand or ())
    for down in view.face_down:
        visible.update(down or ())
    if replay:
        visible.update(step.tile for step in played if step.tile is not None)
    unseen = list((Counter(full_set(jokers=False)) - visible).elements())
    pool = unseen.copy()
    shuffle(pool, rng)
    hands: list[list[Tile]] = []
    face_down: list[list[Tile]] = []
    for p, (hand, down) in enumerate(zip(view.hands, view.face_down, strict=True)):
        hands.append(list(hand) if hand is not None else _deal(pool, view.hand_counts[p]))
        face_down.append(list(down) if down is not None else _deal(pool, view.face_down_counts[p]))
    if replay:
        hands[seat] += [step.tile for step in played if step.tile is not None]
    pile = list((Counter(list(Nation) * 2) - Counter(view.tables)).elements())
    shuffle(pile, rng)
    game = CardGame.from_position(
        view.players,
        hands,
        tables=view.tables,
        clients={place: card.name for place, card in clients.items()},
        face_down=face_down,
        scores=view.scores,
        current=seat,
        turn_number=view.turn_number,
        deck=pool[: view.deck_count],
        table_pile=pile[: view.table_pile_count],
        rules=view.rules,
    )
    if replay:
        for step in steps:
            game.push(step)
        game.state.scores = list(view.scores)
    else:
        _continue_turn(game, played)
    return _without_history(game), unseen


def _continue_turn(game: CardGame, played: list[Step]) -> None:
    """Turn bookkeeping after a mid-turn removal: the cards played count; a lone last card is pending."""
    s = game.state
    board = game.board
    s.placed = tuple(board.place_index[str(step.place)] for step in played)
    s.cleared = True
    last = s.placed[-1]
    slots = board.place_slots[last]
    if s.occ[last] >= 0 and all(s.slot_clients[t] == 1 for t in slots):
        s.pending = tuple(slots)


def _gone_clients(view: CardView) -> Counter[Tile]:
    """Client cards played earlier and removed with full tables: public, read from the turns."""
    played: Counter[Tile] = Counter()
    for turn in (*view.turns, ",".join(view.this_turn)):
        for text in turn.split(","):
            step = parse_step(text) if "@" in text else None
            if step is not None and step.tile is not None:
                played[step.tile] += 1
    return played - Counter(card for _, card in view.clients)


def _deal(pool: list[Tile], count: int) -> list[Tile]:
    dealt = pool[:count]
    del pool[:count]
    return dealt


G = TypeVar("G", bound=BoardGame | CardGame)


def _without_history(game: G) -> G:
    """The game as a starting point: the replayed steps of this turn are not undone by search."""
    game._stack, game._results, game._turn_ends, game._turn_text = [], [], [], []
    return game
