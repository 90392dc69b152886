"""The card game's rules (RULES.md §4): five tables in an X, 1 to 3 cards a turn, draw, lay down, close.

:class:`CardGame` has the same interface as :class:`cafe.board_game.BoardGame`
(``legal_steps``, ``push``, ``pop``, ``view`` ...).  Hands are hidden; the
deck and the table pile are the secrets.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress
from typing import Any, ClassVar

from cafe.card_state import CARD_TYPES, FREE, CardState
from cafe.errors import RecordError
from cafe.game import (
    GENDER_OK,
    SteppedGame,
    StepResult,
    Violation,
    fill_hands,
    gender_problem,
    rank,
    seat_names,
    with_item,
)
from cafe.i18n import N_, T
from cafe.layout import CardBoard, load_card_board
from cafe.options import CardRules, make_rules
from cafe.steps import CLOSE, DRAW, STOP, Kind, Step
from cafe.tiles import (
    NATIONS,
    TILE_GENDER,
    TILE_NATION,
    TILES,
    Nation,
    Tile,
    as_nation,
    as_tile,
    full_set,
    read_set,
    remainder,
)
from cafe.view import CardView

HAND = 7
HAND_LIMIT = 12  # no drawing at 12 cards; lay one face down instead
MAX_CARDS = 3  # cards a turn
MAX_TRIBE_CARDS = 4  # cards of a tribe/circle turn (RULES.md §4.7)
TRIBE_SCORE, TRIBE_SINGLE_NATION = 20, 40
MIN_PLAYERS, MAX_PLAYERS = 2, 5
PENALTY = 2  # per card in hand and per face-down card
TABLE_CARDS = 24

DOWN_STEPS = tuple(Step(Kind.DOWN, TILES[card]) for card in range(CARD_TYPES))

# Why a card is refused: the codes of CardGame._check_card (0 is legal).
TAKEN, WRONG_NATION, MUST_JOIN, GENDER, ZERO_ALONE, NOT_TRIBE = range(1, 7)


class CardGame(SteppedGame[CardState, CardRules]):
    """A game of the card edition.

    >>> game = CardGame(["Ann", "Bob", "Cy"], seed=1)
    >>> len(game.hand(0)), game.deck_count()
    (7, 75)
    """

    END_REASONS: ClassVar[dict[str, str]] = {
        # i18n: browser
        "tables": N_("the table pile cannot replace the full tables"),
        # i18n: browser
        "deck": N_("the last client card was drawn"),
        # i18n: browser
        "close": N_("a player with an empty hand closed the game"),
    }

    def __init__(
        self,
        players: Sequence[str] | int = 4,
        *,
        rules: CardRules | str | dict[str, Any] | None = None,
        deck: Sequence[Tile | str] | None = None,
        table_cards: Sequence[Nation | str] | None = None,
        seed: int | None = None,
        _copy_of: CardGame | None = None,
    ) -> None:
        if _copy_of is not None:  # made by _blank for a copy: the unchanging parts are shared, nothing is dealt
            self._share(_copy_of)
            return
        self.players = seat_names(players, "cards", MIN_PLAYERS, MAX_PLAYERS)
        if rules is None or isinstance(rules, (str, dict)):
            made = make_rules("cards", rules)
            assert isinstance(made, CardRules)
            rules = made
        self.rules = rules
        self.board: CardBoard = load_card_board()
        rng = random.Random(seed)
        self.deck: tuple[Tile, ...] = _check_deck(deck) if deck is not None else _shuffled(full_set(jokers=False), rng)
        self.table_cards: tuple[Nation, ...] = (
            _check_tables(table_cards) if table_cards is not None else _shuffled(list(Nation) * 2, rng)
        )
        self._start_history()
        # nation -> the places touching one of its tables, for each arrangement of the tables met (and the last)
        self._arrangements: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
        self._last_tables: tuple[int, ...] = ()  # the arrangement last asked (the very tuple), and its places
        self._last_places: tuple[tuple[int, ...], ...] = ()
        _, self._steps, self._step_args = _interned(self.board)
        self.from_setup = False  # set up by from_position: no record of its own
        board = self.board
        s = CardState.empty(len(board.place_ids), len(board.slots), len(self.players))
        for seat in range(len(self.players)):
            self._draw(s, seat, HAND)
        s.slot_nat = tuple(self.table_cards[: len(board.slots)])
        s.table_pos = len(board.slots)
        self._s = s

    def _blank(self) -> CardGame:
        return CardGame(_copy_of=self)

    def _share(self, source: CardGame) -> None:
        """Take ``source``'s unchanging parts (players, rules, board, what is drawn in order): a copy shares them."""
        self.players, self.rules, self.board = source.players, source.rules, source.board
        self.deck, self.table_cards, self.from_setup = source.deck, source.table_cards, source.from_setup
        self._arrangements = source._arrangements  # a cache of what the rules answer, the same for every copy
        self._last_tables, self._last_places, self._steps = source._last_tables, source._last_places, source._steps
        self._step_args = source._step_args

    @classmethod
    def from_position(
        cls,
        players: Sequence[str] | int,
        hands: Sequence[Sequence[Tile | str]],
        *,
        tables: Sequence[Nation | str],
        clients: dict[str, str] | None = None,
        face_down: Sequence[Sequence[Tile | str]] = (),
        scores: Sequence[int] | None = None,
        current: int = 0,
        turn_number: int = 1,
        deck: Sequence[Tile | str] | None = None,
        table_pile: Sequence[Nation | str] | None = None,
        rules: CardRules | str | dict[str, Any] | None = None,
        seed: int | None = 0,
    ) -> CardGame:
        """A card game set up at a given position (for puzzles, tests and search).

        ``tables`` are the five table cards in slot order, ``clients`` maps
        places to cards.  The deck and the table pile hold what is left
        (shuffled with ``seed``), or are given in order; cards left out of a
        given deck or pile are out of the game.
        """
        game = cls(players, rules=rules, seed=seed)
        n = len(game.players)
        board = game.board
        if len(tables) != len(board.slots):
            raise RecordError(
                T("give the {n} table cards in slot order {slots}", n=len(board.slots), slots=", ".join(board.slots))
            )
        s = CardState.empty(len(board.place_ids), len(board.slots), n)
        s.slot_nat = tuple(map(as_nation, tables))
        used: list[Tile] = []
        for place, code in (clients or {}).items():
            card = Tile.parse(code)
            game._sit(s, card, game._place(place))
            used.append(card)
        used += fill_hands(s, hands)
        for seat, cards in enumerate(face_down):
            for card in map(as_tile, cards):
                s.down = with_item(s.down, seat, (*s.down[seat], int(card)))
                used.append(card)
        rest = remainder(full_set(jokers=False), used, N_("more {item} than the game has (client cards)"))
        if deck is None:
            order = list(_shuffled(rest, random.Random(seed)))
        else:
            order = [as_tile(c) for c in deck]
            remainder(rest, order, N_("more {item} than the game has (deck)"))
        laid = [NATIONS[n] for n in s.slot_nat]
        piles = remainder(list(Nation) * 2, laid, N_("more {item} than the game has (table cards)"))
        if table_pile is None:
            pile = list(_shuffled(piles, random.Random(seed)))
        else:
            pile = [as_nation(x) for x in table_pile]
            remainder(piles, pile, N_("more {item} than the game has (table pile)"))
        game.deck = tuple(used) + tuple(order)
        s.deck_pos = len(used)
        game.table_cards = tuple(laid) + tuple(pile)
        s.table_pos = len(board.slots)
        s.scores = list(scores) if scores is not None else [0] * n
        s.current, s.turn_no = current, turn_number
        game._s = s
        game.from_setup = True
        return game

    # ------------------------------------------------------------------ reading the position

    def deck_count(self) -> int:
        return self._deck_left(self._s)

    def table_pile_count(self) -> int:
        return self._pile_left(self._s)

    def table_at(self, slot: str) -> Nation:
        """The nation of the table card lying on a slot (``c3``)."""
        return Nation(self._s.slot_nat[self.board.slots.index(slot)])

    def table_value(self, slot: str) -> int:
        """What a table is worth as it stands (RULES.md §4.4)."""
        return self._value(self._s, self.board.slots.index(slot))

    def occupant(self, place: str) -> Tile | None:
        card = self._s.occ[self._place(place)]
        return None if card == FREE else TILES[card]

    def places(self) -> tuple[int, ...] | None:
        """Each seat's place once the game is over: by score, then fewer penalty points (RULES.md §4.6)."""
        s = self._s
        if not s.over or s.penalties is None:
            return None
        seats = range(len(self.players))
        places = rank(seats, [(-s.scores[p], s.penalties[p]) for p in seats])
        return tuple(places[p] for p in seats)

    def view(self, seat: int | None = None) -> CardView:
        """What ``seat`` may see (None: a spectator): never another hand, the deck or the table pile; hands are
        shown to all once the game is over."""
        s = self._s
        board = self.board
        seats = range(len(self.players))
        shown = self.hands_shown(seat)
        movers = [r.player for r in self.results if r.turn_over]
        turns = tuple(self.seen_step(text, player, seat) for text, player in zip(self.turns(), movers, strict=True))
        return CardView(
            **self._view_fields(seat, shown, turns),
            board=board,
            tables=tuple(NATIONS[n] for n in s.slot_nat),
            clients=tuple((board.place_ids[p], TILES[c]) for p, c in enumerate(s.occ) if c >= 0),
            face_down=tuple(tuple(TILES[c] for c in s.down[p]) if shown[p] else None for p in seats),
            face_down_counts=tuple(len(d) for d in s.down),
            deck_count=self.deck_count(),
            table_pile_count=self.table_pile_count(),
        )

    def hands_shown(self, seat: int | None) -> list[bool]:
        """Whose hands (and face-down cards) ``seat`` sees: its own; everyone's once the game is over."""
        return [self._s.over or p == seat for p in range(len(self.players))]

    # ------------------------------------------------------------------ legal steps

    def check(self, step: Step) -> None:
        s = self._s
        if s.over:
            raise Violation("R4.6", T("the game is over"))
        kind = step.kind
        hand = s.hands[s.current]
        if kind is Kind.SEAT:
            card, p = self._card_args(step)
            if not hand[card]:
                raise Violation(
                    "R4.3", T("{player} has no {tile} in hand", player=self.players[s.current], tile=Tile(card).name)
                )
            code = self._check_card(s, card, p)
            if code:
                raise self._explain(s, code, card, p)
        elif kind in (Kind.STOP, Kind.CLOSE):
            if not s.placed:
                raise Violation(
                    "R4.3", T("'{step}' ends a turn in which cards were played; none is played yet", step=str(step))
                )
            if s.pending:
                raise Violation("R4.3", T("the last card scored 0: the next card must join it and score"))
            if s.tribe:
                raise Violation("R4.7", T("a tribe or little circle ends when its table holds four"))
            if kind is Kind.CLOSE and s.hand_n[s.current]:
                raise Violation("R4.6", T("only the player whose turn emptied their hand may close the game"))
        elif s.placed:
            raise Violation("R4.3", T("{step} cannot follow a card played this turn", step=str(step)))
        elif kind is Kind.DRAW:
            if s.hand_n[s.current] >= HAND_LIMIT:
                raise Violation(
                    "R4.3", T("no drawing with {n} cards in hand: play, or lay one face down", n=HAND_LIMIT)
                )
        elif kind is Kind.DOWN:
            if s.hand_n[s.current] != HAND_LIMIT:
                raise Violation("R4.3", T("a card is laid face down only with {n} cards in hand", n=HAND_LIMIT))
            if step.tile is None or step.tile.is_joker or not hand[step.tile]:
                raise Violation(
                    "R4.3", T("{player} has no {tile} in hand", player=self.players[s.current], tile=str(step.tile))
                )
        else:
            raise Violation("R4.3", T("'{step}' is a step of the board game", step=str(step)))

    def step_points(self, step: Step) -> int:
        """What a legal card would score at once: its tables' values after it (a tribe's 20/40 excluded)."""
        if step.kind is not Kind.SEAT:
            return 0
        return self._card_score(self._s, *self._card_args(step))

    def best_step(self, rng: random.Random) -> Step:
        """The legal card scoring most at once (ties at random); else ``stop`` if allowed, else a random step.

        The fast path of the search's rollouts: candidates are ranked by
        their points and checked best first, so the legal steps are rarely
        all generated.
        """
        s = self._s
        ranked = [(self._card_score(s, card, p) + rng.random(), card, p) for card, p in self._card_candidates(s)]
        for points, card, p in sorted(ranked, reverse=True):
            if points < 1:
                break
            if not self._check_candidate(s, card, p):
                return self._steps[card, p]
        if STOP in self._other_steps(s):
            return STOP
        return self.random_step(rng)

    def random_step(self, rng: random.Random) -> Step:
        """A uniformly random legal step: the candidates (each hand card on each free place its nation allows,
        and the other steps) tried in a random order, the first legal one (see BoardGame.random_step)."""
        s = self._s
        if s.over:
            raise Violation("R4.6", T("the game is over"))
        if s.legal is not None:
            return rng.choice(s.legal)
        candidates: list[Any] = self._card_candidates(s)  # (card, place) pairs, then whole steps
        candidates += self._other_steps(s)
        while candidates:  # drawn without replacement in place: measured cheaper here than random_order
            i = int(rng.random() * len(candidates))  # uniform to 2**-53, and far cheaper than randrange
            candidate = candidates[i]
            if isinstance(candidate, Step):
                return candidate
            if not self._check_candidate(s, *candidate):
                return self._steps[candidate]
            candidates[i] = candidates[-1]
            candidates.pop()
        raise AssertionError("a card-game position always has a legal step")  # pragma: no cover

    def _generate(self, s: CardState) -> list[Step]:
        out = [self._steps[card, p] for card, p in self._card_candidates(s) if not self._check_candidate(s, card, p)]
        out += self._other_steps(s)
        return out

    def _other_steps(self, s: CardState) -> list[Step]:
        """The steps that are not cards: stop/close mid-turn; draw or lay down at the start."""
        hand_n = s.hand_n[s.current]
        if s.placed:
            if s.pending or s.tribe:
                return []
            return [STOP, CLOSE] if hand_n == 0 else [STOP]
        if hand_n < HAND_LIMIT:
            return [DRAW]
        hand = s.hands[s.current]
        return list(compress(DOWN_STEPS, hand))

    def _card_candidates(self, s: CardState) -> list[tuple[int, int]]:
        """(card, place) for every free place a hand card may take by nation."""
        hand = s.hands[s.current]
        occ = s.occ
        places = self._nation_places(s)
        return [
            (card, p) for card in compress(range(CARD_TYPES), hand) for p in places[TILE_NATION[card]] if occ[p] == FREE
        ]

    def _nation_places(self, s: CardState) -> tuple[tuple[int, ...], ...]:
        """Nation -> the places touching one of its tables, for the tables lying now (cached per arrangement; the
        last one asked is kept beside the cache and found by the tuple's identity, since the tables seldom change)."""
        if s.slot_nat is self._last_tables:
            return self._last_places
        found = self._arrangements.get(s.slot_nat)
        if found is None:
            of_nation: list[list[int]] = [[] for _ in NATIONS]
            for p, slots in enumerate(self.board.place_slots):
                for n in {s.slot_nat[t] for t in slots}:
                    of_nation[n].append(p)
            found = self._arrangements[s.slot_nat] = tuple(map(tuple, of_nation))
        self._last_tables, self._last_places = s.slot_nat, found
        return found

    def _check_card(self, s: CardState, card: int, p: int) -> int:
        """0 if playing ``card`` on place ``p`` is legal now, else the reason's code (RULES.md §4.2-4.3, §4.7)."""
        if s.occ[p] != FREE:
            return TAKEN
        nation = TILE_NATION[card]
        if all(s.slot_nat[t] != nation for t in self.board.place_slots[p]):
            return WRONG_NATION
        return self._check_candidate(s, card, p)

    def _check_candidate(self, s: CardState, card: int, p: int) -> int:
        """:meth:`_check_card` for a free place that the card may take by nation (a candidate)."""
        if s.tribe:
            return self._check_tribe(s, card, p)
        slots = self.board.place_slots[p]
        k = len(s.placed)
        lady = TILE_GENDER[card] == 0
        for t in slots:
            if not GENDER_OK[s.slot_ladies[t] + lady][s.slot_gents[t] + (not lady)]:
                if self.rules.tribe_and_circle and not self._check_tribe(s, card, p):
                    return 0  # it starts a tribe or a little circle
                return GENDER
        score = self._card_score(s, card, p)
        if s.pending and (not score or not set(slots) & set(s.pending)):
            return MUST_JOIN
        if score or (k + 1 < MAX_CARDS and self._zero_completes(s, card, p)):
            return 0
        if self.rules.tribe_and_circle and not self._check_tribe(s, card, p):
            return 0  # alone for now, but a tribe or a little circle can follow
        return ZERO_ALONE

    def _card_score(self, s: CardState, card: int, p: int) -> int:
        """The points of ``card`` on the free place ``p``: the values its tables would have (RULES.md §4.4)."""
        nation = TILE_NATION[card]
        score = 0
        for t in self.board.place_slots[p]:
            n = s.slot_clients[t] + 1
            if n >= 2:
                score += n + s.slot_native[t] + (nation == s.slot_nat[t])
        return score

    def _zero_completes(self, s: CardState, card: int, p: int) -> bool:
        """After a card scoring 0 on ``p``, can a next card join one of its tables and score?"""
        self._sit(s, card, p)
        s.hands[s.current][card] -= 1
        saved = s.pending, s.placed
        s.pending, s.placed = self.board.place_slots[p], (*s.placed, p)
        try:
            hand, occ = s.hands[s.current], s.occ
            places = self._nation_places(s)
            joining = {q for t in s.pending for q in self.board.slot_places[t] if occ[q] == FREE}  # free, at its tables
            for other in compress(range(CARD_TYPES), hand):
                for q in places[TILE_NATION[other]]:
                    if q in joining and not self._check_candidate(s, other, q):
                        return True
            return False
        finally:
            s.pending, s.placed = saved
            s.hands[s.current][card] += 1
            self._unsit(s, p)

    def _tribe_tables(self, s: CardState, card: int, p: int) -> tuple[int, ...]:
        """The tables that could be T if ``card`` on ``p`` is a card of a tribe/circle turn (RULES.md §4.7).

        Every card of such a turn is of one gender and touches T, and T's
        clients are all of that gender; nothing may have left the X this turn.
        """
        if s.cleared:
            return ()
        lady = TILE_GENDER[card] == 0
        if any(TILE_GENDER[s.occ[q]] != (not lady) for q in s.placed):
            return ()
        possible = s.tribe or tuple(
            t for t in range(len(self.board.slots)) if all(t in self.board.place_slots[q] for q in s.placed)
        )
        others = s.slot_gents if lady else s.slot_ladies
        return tuple(t for t in possible if t in self.board.place_slots[p] and not others[t])

    def _check_tribe(self, s: CardState, card: int, p: int) -> int:
        """0 if ``card`` on ``p`` may be a card of a tribe/circle turn that can still be completed.

        Asked only with the variant on.
        """
        k = len(s.placed)
        tables = self._tribe_tables(s, card, p)
        if not tables or k >= MAX_TRIBE_CARDS:
            return NOT_TRIBE
        filled = [t for t in self.board.place_slots[p] if s.slot_clients[t] == 3]
        if filled:  # the turn's last card (of at least 2) fills T, and maybe another table beside it
            return 0 if k >= 1 and any(t in tables for t in filled) else NOT_TRIBE
        if k + 1 >= MAX_TRIBE_CARDS:
            return NOT_TRIBE
        self._sit(s, card, p)
        s.hands[s.current][card] -= 1
        saved = s.placed, s.tribe
        s.placed, s.tribe = (*s.placed, p), tables
        try:
            return 0 if any(not self._check_tribe(s, c, q) for c, q in self._card_candidates(s)) else NOT_TRIBE
        finally:
            s.placed, s.tribe = saved
            s.hands[s.current][card] += 1
            self._unsit(s, p)

    def _explain(self, s: CardState, code: int, card: int, p: int) -> Violation:
        place = self.board.place_ids[p]
        tables = ", ".join(f"{self.board.slots[t]} ({Nation(s.slot_nat[t]).name})" for t in self.board.place_slots[p])
        if code == TAKEN:
            return Violation("R4.2", T("place {place} is taken", place=place))
        if code == WRONG_NATION:
            return Violation(
                "R4.2",
                T(
                    "{card} cannot take {place}: it touches {tables}",
                    card=Tile(card).subject(),
                    place=place,
                    tables=tables,
                ),
            )
        if code == MUST_JOIN:
            return Violation("R4.3", T("the last card scored 0: the next card must touch one of its tables and score"))
        if code == GENDER:
            lady = TILE_GENDER[card] == 0
            for t in self.board.place_slots[p]:
                ladies, gents = s.slot_ladies[t] + lady, s.slot_gents[t] + (not lady)
                if not GENDER_OK[ladies][gents]:
                    return Violation("R4.2", gender_problem(ladies, gents, self.board.slots[t]))
        if code == NOT_TRIBE:
            return Violation(
                "R4.7", T("this turn is a tribe or little circle: 2 to 4 cards of one gender filling one table")
            )
        return Violation(
            "R4.3",
            T(
                "{card} on {place} scores 0 and no card in the hand can join it this turn",
                card=Tile(card).subject(),
                place=place,
            ),
        )

    # ------------------------------------------------------------------ changing the state

    def _apply_step(self, s: CardState, step: Step, player: int) -> StepResult:
        kind = step.kind
        if kind is Kind.SEAT:
            return self._play(s, step, player)
        if kind is Kind.DRAW:
            drawn = self._draw(s, player, 1)
            result = StepResult(step, player, 0, (), (), 0, False, False, drawn)
            return self._end_turn(s, result, None if self._deck_left(s) else "deck")
        if kind is Kind.DOWN:
            assert step.tile is not None
            self._change_hand(s, player, int(step.tile), -1)
            s.down = with_item(s.down, player, (*s.down[player], int(step.tile)))
            return self._end_turn(s, StepResult(step, player), None)
        if kind is Kind.CLOSE:
            return self._end_turn(s, StepResult(step, player), "close")
        return self._end_turn(s, StepResult(step, player), None)  # stop

    def _deck_left(self, s: CardState) -> int:
        return len(self.deck) - s.deck_pos

    def _play(self, s: CardState, step: Step, player: int) -> StepResult:
        card, p = self._card_args(step)
        slots = self.board.place_slots[p]
        lady = TILE_GENDER[card] == 0
        breaks = any(not GENDER_OK[s.slot_ladies[t] + lady][s.slot_gents[t] + (not lady)] for t in slots)
        tribe = self._tribe_tables(s, card, p) if s.tribe or breaks else ()
        s.unshare_tables()
        self._sit(s, card, p)
        self._change_hand(s, player, card, -1)
        names = self.board.slots
        table_points = tuple([(names[t], self._value(s, t)) for t in slots])
        s.placed = (*s.placed, p)
        if tribe:
            points, bonus = self._tribe_points(s, slots, tribe)
            table_points += bonus
        else:
            points = 0
            for _, value in table_points:
                points += value
            s.pending = () if points else slots
        s.scores[player] += points
        full = [t for t in slots if s.slot_clients[t] == 4]  # only this card's tables can have filled up
        if len(full) > 1:
            full.sort()
        result = StepResult(step, player, points, table_points, tuple([names[t] for t in full]) if full else ())
        if full:
            if self._pile_left(s) < len(full):
                return self._end_turn(s, result, "tables")
            self._replace(s, full)
        done = bool(full) if tribe else len(s.placed) >= MAX_CARDS
        if done and s.hand_n[player]:
            return self._end_turn(s, result, None)
        return result

    def _revealed(self, result: StepResult) -> bool:
        """A full table is replaced from the pile of table cards: that too shows a hidden card."""
        return result.drawn > 0 or bool(result.completed)

    def _tribe_points(
        self, s: CardState, slots: tuple[int, ...], tribe: tuple[int, ...]
    ) -> tuple[int, tuple[tuple[str, int], ...]]:
        """Points of a tribe/circle card: a possible table T holds its per-card values back; T scores once."""
        held = list(s.held)
        points = 0
        for t in slots:
            if t in tribe:
                held[t] += self._value(s, t)
            else:
                points += self._value(s, t)
        for t in s.tribe or tribe:
            if t not in tribe:  # no longer a possible T: its values are paid
                points += held[t]
                held[t] = 0
        bonus: tuple[tuple[str, int], ...] = ()
        complete = [t for t in tribe if s.slot_clients[t] == 4]
        if complete:
            for t in tribe:
                if t in complete:
                    value = TRIBE_SINGLE_NATION if s.slot_native[t] == 4 else TRIBE_SCORE
                    bonus += ((self.board.slots[t], value),)
                    points += value
                else:
                    points += held[t]
            held = [0] * len(held)
            tribe = ()
        s.tribe, s.held, s.pending = tribe, tuple(held), ()
        return points, bonus

    def _pile_left(self, s: CardState) -> int:
        return len(self.table_cards) - s.table_pos

    def _replace(self, s: CardState, full: list[int]) -> None:
        """Remove the full tables with every client around them; lay new tables from the pile (RULES.md §4.5)."""
        for p in sorted({p for t in full for p in self.board.slot_places[t]}):
            if s.occ[p] != FREE:
                self._unsit(s, p)
                s.removed += 1
        s.cleared = True
        for t in full:  # in the order of the slots
            s.slot_nat = with_item(s.slot_nat, t, int(self.table_cards[s.table_pos]))
            s.table_pos += 1
            s.tables_removed += 1
            s.slot_native[t] = 0

    def _end_turn(self, s: CardState, result: StepResult, reason: str | None) -> StepResult:
        s.placed, s.pending, s.tribe, s.cleared = (), (), (), False
        s.turn_no += 1
        if reason is not None:
            s.over, s.end_reason = True, reason
            s.penalties = [PENALTY * (s.hand_n[p] + len(s.down[p])) for p in range(len(self.players))]
            for p, penalty in enumerate(s.penalties):
                s.scores[p] -= penalty
        else:
            s.current = (s.current + 1) % len(self.players)
        return StepResult(  # a card-game step never changes a hand's size limit or eliminates anyone
            result.step, result.player, result.points, result.table_points, result.completed, 0, False, True,
            result.drawn, s.over,
        )  # fmt: skip

    def _value(self, s: CardState, t: int) -> int:
        """Each client is worth 2 at a table of its nation and 1 elsewhere; a lone client 0 (RULES.md §4.4)."""
        n = s.slot_clients[t]
        return n + s.slot_native[t] if n >= 2 else 0

    def _sit(self, s: CardState, card: int, p: int) -> None:
        s.occ[p] = card
        lady = TILE_GENDER[card] == 0
        nation = TILE_NATION[card]
        for t in self.board.place_slots[p]:
            s.slot_clients[t] += 1
            if lady:
                s.slot_ladies[t] += 1
            else:
                s.slot_gents[t] += 1
            if nation == s.slot_nat[t]:
                s.slot_native[t] += 1

    def _unsit(self, s: CardState, p: int) -> None:
        card = s.occ[p]
        s.occ[p] = FREE
        lady = TILE_GENDER[card] == 0
        nation = TILE_NATION[card]
        for t in self.board.place_slots[p]:
            s.slot_clients[t] -= 1
            if lady:
                s.slot_ladies[t] -= 1
            else:
                s.slot_gents[t] -= 1
            if nation == s.slot_nat[t]:
                s.slot_native[t] -= 1

    def _draw(self, s: CardState, seat: int, count: int) -> int:
        drawn = 0
        hand = s.hands[seat] = s.hands[seat].copy()  # the state copy shares the hands; only this one changes
        while drawn < count and s.deck_pos < len(self.deck):
            hand[self.deck[s.deck_pos]] += 1
            s.deck_pos += 1
            drawn += 1
        s.hand_n[seat] += drawn
        return drawn

    # ------------------------------------------------------------------ reading steps

    def _place(self, place: str | None) -> int:
        index = self.board.place_index.get(place or "")
        if index is None:
            raise Violation("R4.2", T("there is no place {place!r} in the X", place=place))
        return index

    def _card_args(self, step: Step) -> tuple[int, int]:
        interned = self._step_args.get(id(step))
        if interned is not None:
            return interned
        if step.tile is None or step.tile.is_joker or step.nation is not None:
            raise Violation("R4.1", T("the card game has client cards only, like FRAf@c4"))
        return int(step.tile), self._place(step.place)


_STEP_CACHE: dict[int, tuple[CardBoard, dict[tuple[int, int], Step], dict[int, tuple[int, int]]]] = {}


def card_steps(board: CardBoard) -> dict[tuple[int, int], Step]:
    """Interned card steps of a layout: (card, place) -> Step."""
    return _interned(board)[1]


def _interned(board: CardBoard) -> tuple[CardBoard, dict[tuple[int, int], Step], dict[int, tuple[int, int]]]:
    """The layout's interned card steps, and (card, place) by the identity of each (which the cache keeps alive)."""
    hit = _STEP_CACHE.get(id(board))
    if hit is None or hit[0] is not board:
        steps = {
            (card, p): Step(Kind.SEAT, TILES[card], pid)
            for card in range(CARD_TYPES)
            for p, pid in enumerate(board.place_ids)
        }
        hit = _STEP_CACHE[id(board)] = (board, steps, {id(step): key for key, step in steps.items()})
    return hit


def _shuffled(items: list[Any], rng: random.Random) -> tuple[Any, ...]:
    rng.shuffle(items)
    return tuple(items)


def _check_deck(deck: Sequence[Tile | str]) -> tuple[Tile, ...]:
    """A record's deck: exactly the 96 client cards, in draw order."""
    rule = N_("the deck must hold exactly the 96 client cards (4 of each, no jokers)")
    return read_set(deck, as_tile, "deck", full_set(jokers=False), rule, what=N_("a client card"))


def _check_tables(tables: Sequence[Nation | str]) -> tuple[Nation, ...]:
    """A record's table cards: exactly two of each nation, in the order they are laid."""
    rule = N_("the table cards must be exactly two of each of the 12 nations")
    return read_set(tables, as_nation, "table_cards", list(Nation) * 2, rule, what=N_("a nation code"))
