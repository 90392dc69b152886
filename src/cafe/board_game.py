"""The board game's rules (RULES.md §2): legal steps, applying them, scoring, the end.

:class:`BoardGame` is the position and its history, like python-chess's
``Board``: ``legal_steps()``, ``push(step)``, ``pop()``, ``is_over()``.  Steps
are checked one at a time; a placement is offered only when the turn can
still be completed legally (RULES.md §2.3), which the engine finds by a short
search over the following placements of the same turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any, ClassVar

from cafe.board_state import CLOSED, FREE, State
from cafe.errors import RecordError
from cafe.frozen import rebuilt
from cafe.game import (
    GENDER_OK,
    SteppedGame,
    StepResult,
    Violation,
    fill_hands,
    gender_problem,
    random_order,
    rank,
    seat_names,
    with_item,
)
from cafe.i18n import N_, T
from cafe.layout import Board, load_board
from cafe.options import BoardRules, make_rules
from cafe.steps import PASS, STOP, Kind, Step
from cafe.tiles import (
    JOKER_F,
    NATIONS,
    TILE_GENDER,
    TILE_NATION,
    TILE_TYPES,
    TILES,
    Gender,
    Nation,
    Tile,
    as_tile,
    full_set,
    read_set,
    remainder,
)
from cafe.view import BoardView, SeatedGuest

HAND = 5
PRINTED = BoardRules()
MIN_PLAYERS, MAX_PLAYERS = 2, 4
BAG_END = 4  # the game ends when the bag holds this many tiles or fewer
PENALTY_TILE, PENALTY_JOKER = 5, 10
REGULARS_SCORE, REGULARS_SINGLE_NATION = 20, 40


# Why a seat step is refused: the codes of BoardGame._check_seat (0 is legal).
TAKEN, CLOSED_CHAIR, WRONG_NATION, TURN_FULL, NOT_AT_REGULARS_TABLE, REGULARS_MIXED = range(1, 7)
GENDER, REGULARS_SHORT, ZERO_ALONE, FIRST_LEFT_ALONE, NO_SCORE = range(7, 12)


@dataclass(frozen=True)
class Topology:
    """A board's precomputed integer tuples and its interned seat steps."""

    board: Board
    chair_tables: tuple[tuple[int, ...], ...]
    table_chairs: tuple[tuple[int, ...], ...]
    table_nation: tuple[int, ...]
    chair_nations: tuple[tuple[int, ...], ...]  # distinct nations of a chair's tables
    chairs_by_nation: tuple[tuple[int, ...], ...]
    near: tuple[frozenset[int], ...]  # chair -> chairs sharing a table with it (itself excluded)
    seat_steps: dict[tuple[int, int, int], Step]  # (tile, chair, nation) -> Step
    seat_args: dict[int, tuple[int, int, int]]  # the identity of an interned seat step -> its (tile, chair, nation)
    guests: dict[tuple[int, int, int], SeatedGuest]  # (tile, chair, nation) -> the guest as views show it
    # tile -> (chair, nation, step) for every chair the tile may take by nation, taken or free
    tile_targets: tuple[tuple[tuple[int, int, Step], ...], ...]
    bar_steps: tuple[Step, ...]
    exchange_steps: dict[tuple[int, int], Step]

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


_TOPOLOGIES: dict[int, tuple[Board, Topology]] = {}


def topology(board: Board) -> Topology:
    """The (cached) precomputed form of ``board``."""
    hit = _TOPOLOGIES.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    ct, tc, tn = board.chair_tables, board.table_chairs, board.table_nations
    chair_nations = tuple(tuple(dict.fromkeys(tn[t] for t in ts)) for ts in ct)
    near = tuple(frozenset(d for t in ct[c] for d in tc[t] if d != c) for c in range(len(ct)))
    seat_steps: dict[tuple[int, int, int], Step] = {}
    exchange_steps: dict[tuple[int, int], Step] = {}
    for c, cid in enumerate(board.chair_ids):
        for tile in Tile:
            if tile.is_joker:
                for n in chair_nations[c]:
                    seat_steps[tile, c, n] = Step(Kind.SEAT, tile, cid, Nation(n))
            else:
                seat_steps[tile, c, TILE_NATION[tile]] = Step(Kind.SEAT, tile, cid)
                exchange_steps[tile, c] = Step(Kind.EXCHANGE, tile, cid)
    topo = Topology(
        board=board,
        chair_tables=ct,
        table_chairs=tc,
        table_nation=tn,
        chair_nations=chair_nations,
        chairs_by_nation=tuple(board.chairs_of_nation(n) for n in range(len(Nation))),
        near=near,
        seat_steps=seat_steps,
        seat_args={id(step): key for key, step in seat_steps.items()},  # the topology keeps the steps alive
        guests={(tile, c, n): SeatedGuest(board.chair_ids[c], TILES[tile], NATIONS[n]) for tile, c, n in seat_steps},
        tile_targets=tuple(
            tuple((c, n, step) for (tile, c, n), step in seat_steps.items() if tile == t and n in chair_nations[c])
            for t in range(TILE_TYPES)
        ),
        bar_steps=tuple(Step(Kind.BAR, tile) for tile in Tile),
        exchange_steps=exchange_steps,
    )
    _TOPOLOGIES[id(board)] = (board, topo)
    return topo


def _value_table(scoring: str) -> tuple[tuple[int, int], ...]:
    """Table value by number of guests: (mixed, single-nation), RULES.md §2.4."""
    if scoring == "basic":
        return ((0, 0), (0, 0), (2, 2), (3, 3), (4, 8))
    return ((0, 0), (0, 0), (2, 4), (3, 6), (4, 8))


class BoardGame(SteppedGame[State, BoardRules]):
    """A game of the board edition: the position, its history, and the rules that move it.

    >>> game = BoardGame(["Ann", "Bob"], seed=1)
    >>> len(game.hand(0))
    5
    """

    # why the game ended (RULES.md §2.8), by the keys of State.end_reason
    # i18n: browser
    END_REASONS: ClassVar[dict[str, str]] = {
        # i18n: browser
        "bar": N_("every stool of the bar is taken"),
        # i18n: browser
        "board": N_("every chair is taken"),
        # i18n: browser
        "bag": N_("the bag holds 4 tiles or fewer"),  # BAG_END
        # i18n: browser
        "out": N_("a player has gone out"),
        # i18n: browser
        "players": N_("fewer than two players remain"),
        # i18n: browser
        "passes": N_("every player passed in succession"),
    }

    def __init__(
        self,
        players: Sequence[str] | int = 4,
        *,
        rules: BoardRules | str | dict[str, Any] | None = None,
        board: Board | str | dict[str, Any] = "classic",
        bag: Sequence[Tile | str] | None = None,
        seed: int | None = None,
        _copy_of: BoardGame | None = None,
    ) -> None:
        if _copy_of is not None:  # made by _blank for a copy: the unchanging parts are shared, nothing is dealt
            self._share(_copy_of)
            return
        self.players = seat_names(players, "board", MIN_PLAYERS, MAX_PLAYERS)
        if rules is None:
            rules = PRINTED
        elif isinstance(rules, (str, dict)):
            made = make_rules("board", rules)
            assert isinstance(made, BoardRules)
            rules = made
        self.rules = rules
        self.board: Board = board if isinstance(board, Board) else load_board(board)
        self.topo = topology(self.board)
        self.bag: tuple[Tile, ...] = _check_bag(bag) if bag is not None else _shuffled(seed)
        self._values = _value_table(rules.scoring)
        self._start_history()
        self.from_setup = False  # set up by from_position: no record of its own
        n = len(self.players)
        s = State.empty(len(self.board.chair_ids), len(self.board.table_ids), n)
        s.hand_size = (HAND,) * n
        for seat in range(n):
            self._draw(s, seat, HAND)
        self._s = s

    def _blank(self) -> BoardGame:
        return BoardGame(_copy_of=self)

    def _share(self, source: BoardGame) -> None:
        """Take ``source``'s unchanging parts (players, rules, board, what is drawn in order): a copy shares them."""
        self.players, self.rules, self.board, self.topo = source.players, source.rules, source.board, source.topo
        self.bag, self._values, self.from_setup = source.bag, source._values, source.from_setup

    @classmethod
    def from_position(
        cls,
        players: Sequence[str] | int,
        hands: Sequence[Sequence[Tile | str]],
        *,
        seated: Mapping[str, str] | None = None,
        bar: Sequence[Tile | str] = (),
        scores: Sequence[int] | None = None,
        hand_sizes: Sequence[int] | None = None,
        current: int = 0,
        turn_number: int = 1,
        closed: Sequence[str] = (),
        eliminated: Sequence[int] = (),
        rules: BoardRules | str | dict[str, Any] | None = None,
        board: Board | str | dict[str, Any] = "classic",
        bag: Sequence[Tile | str] | None = None,
        seed: int | None = 0,
    ) -> BoardGame:
        """A game set up at a given position (for puzzles, tests and search), like a chess FEN.

        ``seated`` maps chairs to tiles (``"USAm"``, or ``"JOKf=USA"`` for a
        joker and its given nation).  The bag holds the tiles not placed
        anywhere else, shuffled with ``seed``; or ``bag`` gives it in draw
        order, and tiles it leaves out are out of the game.  Such a game has
        no record of its own: its history starts here.
        """
        game = cls(players, rules=rules, board=board, seed=seed)
        n = len(game.players)
        s = State.empty(len(game.board.chair_ids), len(game.board.table_ids), n)
        used: list[Tile] = []
        for chair, code in (seated or {}).items():
            tile_code, _, nation_code = code.partition("=")
            tile = Tile.parse(tile_code)
            if tile.is_joker and not nation_code:
                raise RecordError(T("the joker on {chair} needs a given nation, like JOKf=USA", chair=chair))
            nation = Nation.parse(nation_code) if tile.is_joker else TILE_NATION[tile]
            game._sit(s, tile, game._chair(chair), nation)
            used.append(tile)
        used += fill_hands(s, hands)
        s.stools = tuple(map(as_tile, bar))
        used += map(Tile, s.stools)
        for chair in closed:
            c = game._chair(chair)
            s.occ[c] = CLOSED
            s.open_chairs -= 1
        for seat in eliminated:
            s.eliminated = with_item(s.eliminated, seat, True)
            s.elim_order += (seat,)
        rest = remainder(full_set(), used, N_("more {item} tiles than the game has"))
        if bag is None:
            random.Random(seed).shuffle(rest)
            order = rest
        else:
            order = [as_tile(t) for t in bag]
            rest = remainder(rest, order, N_("the bag holds more {item} tiles than are left"))
        game.bag = tuple(used) + tuple(order)
        s.bag_pos = len(used)
        s.removed = len(rest) if bag is not None else 0
        s.scores = list(scores) if scores is not None else [0] * n
        s.hand_size = tuple(hand_sizes) if hand_sizes is not None else (HAND,) * n
        s.current = current
        s.turn_no = turn_number
        game._s = s
        game.from_setup = True
        return game

    # ------------------------------------------------------------------ reading the position

    def bag_count(self) -> int:
        return len(self.bag) - self._s.bag_pos

    def occupant(self, chair: str) -> tuple[Tile, Nation] | None:
        """The guest on a chair and the nation it counts as, or None (a free or closed chair)."""
        c = self._chair(chair)
        s = self._s
        return None if s.occ[c] < 0 else (Tile(s.occ[c]), Nation(s.nat[c]))

    def table_value(self, table: str) -> int:
        """What a table is worth as it stands (RULES.md §2.4)."""
        return self._value(self._s, self.board.table_index[table])

    def random_step(self, rng: random.Random) -> Step:
        """A uniformly random legal step, usually without generating them all (for simulations).

        Candidates (every step the rules could allow by nation and hand, a
        chair counted taken or free) are drawn uniformly, each tried once, and
        the first legal one is returned, which is uniform over the legal steps.
        """
        s = self._s
        if s.over:
            raise Violation("R2.8", T("the game is over"))
        if s.legal is not None:
            return rng.choice(s.legal)
        if s.reg_table >= 0 or (s.first_zero and len(s.placed) == 1):
            return self._random_nearby_step(s, rng)
        targets = self.topo.tile_targets
        hand = s.hands[s.current]
        tiles = list(compress(range(TILE_TYPES), hand))  # the tiles held, in order
        sizes = [len(targets[tile]) for tile in tiles]
        seats = sum(sizes)  # every chair of a hand tile's nation, taken or not: nothing is listed
        first = not s.placed
        exchanges = list(self._exchanges(s)) if first and s.jokers else []
        others = len(tiles) + len(exchanges) if first else 1  # the bar and the exchanges, or stop
        occ = s.occ
        total = seats + others
        tried: set[int] = set()
        while len(tried) < total:
            # Drawn with replacement, each tried once: the first legal one drawn is uniform over the legal steps,
            # and a draw costs less than a step of random_order (most candidates are legal or fail at once).
            k = int(rng.random() * total)  # uniform to 2**-53, and far cheaper than randrange
            if k in tried:
                continue
            tried.add(k)
            if k < seats:
                i = 0
                while k >= sizes[i]:
                    k -= sizes[i]
                    i += 1
                tile = tiles[i]
                c, n, step = targets[tile][k]
                if occ[c] == FREE and not self._check_turn(s, tile, c, n):
                    return step
                continue
            k -= seats
            if not first:
                if self._can_stop(s):
                    return STOP
            elif k < len(tiles):
                if self._check_bar(s, tiles[k], raise_=False):
                    return self.topo.bar_steps[tiles[k]]
            else:
                c, tile, _joker = exchanges[k - len(tiles)]
                return self.topo.exchange_steps[tile, c]
        return PASS

    def _random_nearby_step(self, s: State, rng: random.Random) -> Step:
        """:meth:`random_step` in a regulars turn or for a second guest that must join the first: the few
        candidates are listed."""
        candidates = self._seat_triples(s)  # (tile, chair, nation)
        if self._can_stop(s):
            candidates.append((-1, 0, 0))
        for k in random_order(len(candidates), rng):
            tile, c, n = candidates[k]
            if tile < 0:
                return STOP
            if not self._check_turn(s, tile, c, n):
                return self.topo.seat_steps[tile, c, n]
        return PASS

    def step_points(self, step: Step) -> int:
        """What a legal step would score at once: a guest's table points, a stool's value, else 0.

        A regulars table's 20 or 40 is not included: it is paid when its turn ends.
        """
        s = self._s
        if step.kind is Kind.SEAT:
            tile, c, nation = self._seat_args(step)
            return self._effect(s, tile, c, nation)[0]
        if step.kind is Kind.BAR and len(s.stools) < len(self.rules.bar_values):
            return self.rules.bar_values[len(s.stools)]
        return 0

    def best_step(self, rng: random.Random) -> Step:
        """The legal guest scoring most at once (ties at random), or the bar when its stool pays more;
        else ``stop`` if allowed, else a random legal step.

        The fast path of the search's rollouts: candidates are ranked by
        their points and checked best first, so the legal steps are rarely
        all generated.
        """
        s = self._s
        ranked = []
        for tile, c, n in self._seat_triples(s):
            score, _, bad = self._effect(s, tile, c, n)
            if score > 0 and bad < 0:
                ranked.append((score + rng.random(), tile, c, n))
        stool = len(s.stools)
        bar_value = self.rules.bar_values[stool] if not s.placed and stool < len(self.rules.bar_values) else 0
        for points, tile, c, n in sorted(ranked, reverse=True):
            if points < bar_value:
                break
            if not self._check_turn(s, tile, c, n):
                return self.topo.seat_steps[tile, c, n]
        if bar_value > 0:
            hand = s.hands[s.current]
            tiles = [tile for tile in range(JOKER_F) if hand[tile]]
            if tiles:
                return self.topo.bar_steps[rng.choice(tiles)]
        if s.placed and self._can_stop(s):
            return STOP
        return self.random_step(rng)

    def check(self, step: Step) -> None:
        """Raise :class:`IllegalStepError` (with its rule id) unless ``step`` is legal now."""
        s = self._s
        if s.over:
            raise Violation("R2.8", T("the game is over"))
        kind = step.kind
        if kind is Kind.SEAT:
            tile, c, nation = self._seat_args(step)
            self._need_tile(s, tile)
            code = self._check_seat(s, tile, c, nation)
            if code:
                raise self._explain_seat(s, code, tile, c, nation)
        elif kind is Kind.STOP:
            if not s.placed:
                raise Violation("R2.2", T("'stop' ends a turn after its first guest; no guest is seated yet"))
            if not self._can_stop(s):
                first = s.placed[0]
                raise Violation(
                    "R2.3.3",
                    T(
                        "{guest} on {chair} would be alone at the end of the turn",
                        guest=Tile(s.occ[first]).subject(),
                        chair=self.board.chair_ids[first],
                    )
                    if s.reg_table < 0
                    else T("a regulars turn seats 3 or 4 guests at {table}", table=self.board.table_ids[s.reg_table]),
                )
        elif s.placed:
            raise Violation(
                "R2.2", T("{step} cannot follow a guest seated this turn; seat a second guest or stop", step=str(step))
            )
        elif kind is Kind.BAR:
            self._check_bar(s, self._tile_of(step))
        elif kind is Kind.EXCHANGE:
            self._check_exchange(s, self._tile_of(step), self._chair(step.place))
        elif kind is Kind.PASS:
            if self.legal_steps() != [PASS]:
                raise Violation("R2.2", T("a player may pass only when no action is legal"))
        else:
            raise Violation("R2.2", T("'{step}' is a step of the card game", step=str(step)))

    def view(self, seat: int | None = None) -> BoardView:
        """What ``seat`` may see (None: a spectator); never the bag order."""
        s = self._s
        board = self.board
        shown = self.hands_shown(seat)
        return BoardView(
            **self._view_fields(seat, shown, tuple(self.turns())),
            board=board,
            guests=tuple(self._guest(t, c, s.nat[c]) for c, t in enumerate(s.occ) if t >= 0),
            closed_chairs=tuple(board.chair_ids[c] for c, t in enumerate(s.occ) if t == CLOSED),
            bar=tuple(TILES[t] for t in s.stools),
            bar_values=self.rules.bar_values,
            hand_sizes=tuple(s.hand_size),
            eliminated=tuple(s.eliminated),
            bag_count=self.bag_count(),
        )

    def _guest(self, tile: int, c: int, nation: int) -> SeatedGuest:
        """A seated guest as views show it (made once per board; a position set up by hand may hold others)."""
        found = self.topo.guests.get((tile, c, nation))
        return found if found is not None else SeatedGuest(self.board.chair_ids[c], TILES[tile], NATIONS[nation])

    def hands_shown(self, seat: int | None) -> list[bool]:
        """Whose hands ``seat`` sees: all, as hands are open (RULES.md §5); with surprise guests only its own
        until the game is over."""
        hidden = self.rules.surprise_guests and not self._s.over
        return [not hidden or p == seat for p in range(len(self.players))]

    def places(self) -> tuple[int, ...] | None:
        """Each seat's place (1 = first; shared places repeat) once the game is over (RULES.md §2.8).

        Players still in rank by score, then by fewer tiles in hand; the
        eliminated follow, the last eliminated first.
        """
        s = self._s
        if not s.over:
            return None
        active = [p for p in range(len(self.players)) if not s.eliminated[p]]
        places = rank(active, [(-score, held) for score, held in zip(s.scores, s.hand_n, strict=True)])
        for i, p in enumerate(reversed(s.elim_order)):
            places[p] = len(active) + i + 1
        return tuple(places[p] for p in range(len(self.players)))

    # ------------------------------------------------------------------ internals: reading steps

    def _chair(self, place: str | None) -> int:
        index = self.board.chair_index.get(place or "")
        if index is None:
            raise Violation(
                "R1.1", T("there is no chair {chair!r} on the {board} board", chair=place, board=self.board.name)
            )
        return index

    def _tile_of(self, step: Step) -> int:
        if step.tile is None:
            raise Violation("R7.1", T("{kind} needs a tile", kind=step.kind.value))
        return int(step.tile)

    def _seat_args(self, step: Step) -> tuple[int, int, int]:
        interned = self.topo.seat_args.get(id(step))
        if interned is not None:
            return interned
        tile = self._tile_of(step)
        c = self._chair(step.place)
        if tile >= JOKER_F:
            if step.nation is None:
                raise Violation("R7.1", T("a joker names its given nation"))
            return tile, c, int(step.nation)
        if step.nation is not None:
            raise Violation("R7.1", T("only a joker is given a nation"))
        return tile, c, TILE_NATION[tile]

    def _need_tile(self, s: State, tile: int) -> None:
        if s.hands[s.current][tile] <= 0:
            raise Violation(
                "R2.2", T("{player} has no {tile} in hand", player=self.players[s.current], tile=Tile(tile).name)
            )

    # ------------------------------------------------------------------ internals: the seating rules

    def _value(self, s: State, t: int) -> int:
        n = s.t_guests[t]
        return self._values[n][s.t_native[t] == n] if n < 5 else 0

    def _check_seat(self, s: State, tile: int, c: int, nation: int, exception_ok: bool = True) -> int:
        """0 if seating ``tile`` on chair ``c`` as ``nation`` is legal now, else the reason's code.

        Rules 1 and 2 of RULES.md §2.3 are checked on the placement; rules 3-5
        and the regulars variant (§2.9) on the turn, by looking ahead.  This
        runs for every candidate of every legal-step generation, so it returns
        a code; :meth:`_explain_seat` turns a code into a message.
        """
        if s.occ[c] != FREE:
            return CLOSED_CHAIR if s.occ[c] == CLOSED else TAKEN
        if nation not in self.topo.chair_nations[c]:
            return WRONG_NATION
        return self._check_turn(s, tile, c, nation, exception_ok)

    def _check_turn(self, s: State, tile: int, c: int, nation: int, exception_ok: bool = True) -> int:
        """:meth:`_check_seat` for a free chair that the tile may take by nation (a candidate)."""
        topo = self.topo
        k = len(s.placed)
        reg = s.reg_table
        if k and self._turn_full(s):
            return TURN_FULL
        if reg >= 0:
            if c not in topo.table_chairs[reg]:
                return NOT_AT_REGULARS_TABLE
            if TILE_GENDER[tile] != TILE_GENDER[s.occ[s.placed[0]]]:
                return REGULARS_MIXED
        score, broken, bad = self._effect(s, tile, c, nation)
        if bad >= 0:
            return GENDER
        if broken >= 0:  # a regulars turn starts: it must reach 3 guests at its table
            return 0 if self._lookahead(s, tile, c, nation, score, broken) else REGULARS_SHORT
        if reg >= 0:
            return 0
        if k == 0:
            if score > 0 or (s.turn_no == 0 and exception_ok and self._exception(s)):
                return 0
            return 0 if self._first_completes(s, tile, c, nation) else ZERO_ALONE
        if s.first_zero and c not in topo.near[s.placed[0]]:
            return FIRST_LEFT_ALONE
        return 0 if score else NO_SCORE

    def _explain_seat(self, s: State, code: int, tile: int, c: int, nation: int) -> Violation:
        """The message for a refusal code of :meth:`_check_seat`."""
        chair = self.board.chair_ids[c]
        guest = Tile(tile)
        if code == TAKEN:
            return Violation("R2.3.1", T("chair {chair} is taken", chair=chair))
        if code == CLOSED_CHAIR:
            return Violation("R2.9", T("chair {chair} is closed: it belongs to a regulars table", chair=chair))
        if code == WRONG_NATION:
            tables = [self.board.table_ids[t] for t in self.topo.chair_tables[c]]
            if guest.is_joker:
                nations = "/".join(Nation(n).name for n in self.topo.chair_nations[c])
                message = T(
                    "a joker on {chair} takes the nation of one of its tables ({nations})", chair=chair, nations=nations
                )
            elif len(tables) == 1:
                message = T(
                    "{guest} cannot take {chair}: it belongs to {table}",
                    guest=guest.subject(),
                    chair=chair,
                    table=tables[0],
                )
            else:
                message = T(
                    "{guest} cannot take {chair}: it belongs to {table} and {other}",
                    guest=guest.subject(),
                    chair=chair,
                    table=tables[0],
                    other=tables[1],
                )
            return Violation("R2.3.1", message)
        if code == TURN_FULL:
            return Violation("R2.2", T("this turn has seated all the guests it may"))
        if code == NOT_AT_REGULARS_TABLE:
            return Violation(
                "R2.9", T("every guest of this regulars turn sits at {table}", table=self.board.table_ids[s.reg_table])
            )
        if code == REGULARS_MIXED:
            return Violation("R2.9", T("the guests of a regulars turn are all of one gender"))
        if code == GENDER:
            t = self._effect(s, tile, c, nation)[2]
            lady = TILE_GENDER[tile] == 0
            ladies, gents = s.t_ladies[t] + lady, s.t_gents[t] + (not lady)
            return Violation("R2.3.2", gender_problem(ladies, gents, self.board.table_ids[t]))
        if code == REGULARS_SHORT:
            table = self.board.table_ids[self._effect(s, tile, c, nation)[1]]
            return Violation("R2.9", T("a regulars turn at {table} needs a third guest", table=table))
        if code == ZERO_ALONE:
            return Violation(
                "R2.3.4",
                T(
                    "{guest} on {chair} scores 0 and no guest in the hand can join it",
                    guest=guest.subject(),
                    chair=chair,
                ),
            )
        if code == FIRST_LEFT_ALONE:
            first = s.placed[0]
            return Violation(
                "R2.3.3",
                T(
                    "{guest} on {chair} scored 0, so the second guest must join one of its tables",
                    guest=Tile(s.occ[first]).subject(),
                    chair=self.board.chair_ids[first],
                ),
            )
        return Violation(
            "R2.3.4", T("{guest} on {chair} scores 0; every placement must score", guest=guest.subject(), chair=chair)
        )

    def _may_start_regulars(self, s: State, t: int) -> bool:
        """Would breaking the gender rule at table ``t`` start a regulars turn there (RULES.md §2.9)?"""
        return (
            self.rules.regulars
            and len(s.placed) == 1
            and s.t_guests[t] == 1
            and t in self.topo.chair_tables[s.placed[0]]
        )

    def _first_completes(self, s: State, tile: int, c: int, nation: int) -> bool:
        """Can a first guest that scores 0 on chair ``c`` be joined by a second this turn?

        The answer does not depend on the guest's nation (its tables are
        empty), and without the regulars variant only its gender matters (the
        partner is of the other gender), so it is memoised per position.
        """
        key = (tile if self.rules.regulars else TILE_GENDER[tile] + JOKER_F) * 256 + c
        memo = s.completes
        if memo is None:
            memo = s.completes = {}
        found = memo.get(key)
        if found is None:
            found = self._partner_beside(s, tile, c)
            if not found and (self.rules.regulars or s.exception):
                found = self._lookahead(s, tile, c, nation, 0, -1)  # a regulars turn, or the exception's full turn
            memo[key] = found
        return found

    def _partner_beside(self, s: State, tile: int, c: int) -> bool:
        """:meth:`_first_completes` without seating anyone: does the hand hold a guest of the other gender who may
        take a free chair sharing a table with ``c``, every table's genders staying right?

        Such a partner is legal and scores (its table with ``c`` then seats two), and no other is: one of the
        first guest's gender would break the gender rule at that table.  Only the regulars variant allows that
        (it starts a regulars turn), and only the first turn's exception fills a turn after one guest, so there
        a no is checked by the look-ahead.
        """
        if s.exception:
            return False
        topo = self.topo
        lady = TILE_GENDER[tile] == 0  # the first guest; the partner is of the other gender
        partner = 1 - TILE_GENDER[tile]
        hand = s.hands[s.current]
        joker = hand[JOKER_F + partner] > 0
        first_tables = topo.chair_tables[c]
        for d in topo.near[c]:
            if s.occ[d] != FREE:
                continue
            if not joker and not any(hand[n * 2 + partner] for n in topo.chair_nations[d]):
                continue
            fits = True
            for t in topo.chair_tables[d]:
                shared = t in first_tables
                ladies = s.t_ladies[t] + (not lady) + (lady and shared)
                gents = s.t_gents[t] + lady + (not lady and shared)
                if not GENDER_OK[ladies][gents]:
                    fits = False
                    break
            if fits:
                return True
        return False

    def _lookahead(self, s: State, tile: int, c: int, nation: int, score: int, broken: int) -> bool:
        """After this placement, can the turn still be completed legally?"""
        saved = self._place(s, tile, c, nation, score, broken)
        try:
            return self._can_stop(s) or self._any_seat(s)
        finally:
            self._unplace(s, c, saved)

    def _turn_full(self, s: State) -> bool:
        """The turn has seated as many guests as it can: it ends by itself."""
        k = len(s.placed)
        if s.reg_table >= 0:
            return k >= 4
        return k >= 2 or (k == 1 and s.first_zero and bool(s.exception))

    def _can_stop(self, s: State) -> bool:
        k = len(s.placed)
        if s.reg_table >= 0:
            return k >= 3
        return k == 1 and not s.first_zero

    def _exception(self, s: State) -> bool:
        """RULES.md §2.3 rule 5: on the game's first turn, no scoring table turn exists."""
        if s.exception is None:
            s.exception = not any(
                not self._check_turn(s, tile, c, n, exception_ok=False) for tile, c, n in self._seat_triples(s)
            )
        return s.exception

    # ------------------------------------------------------------------ internals: candidates

    def _seat_triples(self, s: State) -> list[tuple[int, int, int]]:
        """(tile, chair, nation) for every free chair a hand tile could take by nation this turn."""
        topo = self.topo
        hand = s.hands[s.current]
        occ = s.occ
        tiles = list(compress(range(TILE_TYPES), hand))  # the tiles held, in order
        if s.reg_table >= 0:
            return self._triples_at(s, tiles, topo.table_chairs[s.reg_table])
        if len(s.placed) == 1 and s.first_zero:
            return self._triples_at(s, tiles, topo.near[s.placed[0]])  # the second guest must join the first
        out: list[tuple[int, int, int]] = []
        for tile in tiles:
            if tile >= JOKER_F:
                out += [(tile, c, n) for c, t in enumerate(occ) if t == FREE for n in topo.chair_nations[c]]
            else:
                n = TILE_NATION[tile]
                out += [(tile, c, n) for c in topo.chairs_by_nation[n] if occ[c] == FREE]
        return out

    def _triples_at(self, s: State, tiles: list[int], chairs: Iterable[int]) -> list[tuple[int, int, int]]:
        """:meth:`_seat_triples` restricted to a few chairs."""
        out: list[tuple[int, int, int]] = []
        for c in chairs:
            if s.occ[c] != FREE:
                continue
            nations = self.topo.chair_nations[c]
            for tile in tiles:
                if tile >= JOKER_F:
                    out += [(tile, c, n) for n in nations]
                elif TILE_NATION[tile] in nations:
                    out.append((tile, c, TILE_NATION[tile]))
        return out

    def _seat_candidates(self, s: State) -> list[tuple[int, int, int]]:
        """(tile, chair, nation) of every legal seat step."""
        return [(tile, c, n) for tile, c, n in self._seat_triples(s) if not self._check_turn(s, tile, c, n)]

    def _any_seat(self, s: State) -> bool:
        """Whether a seat step is legal (the first found ends the search)."""
        return any(not self._check_turn(s, tile, c, n) for tile, c, n in self._seat_triples(s))

    def _generate(self, s: State) -> list[Step]:
        seat_steps = self.topo.seat_steps
        out = [seat_steps[key] for key in self._seat_candidates(s)]
        if s.placed:
            if self._can_stop(s):
                out.append(STOP)
            return out
        hand = s.hands[s.current]
        for tile in range(TILE_TYPES):
            if hand[tile] and self._check_bar(s, tile, raise_=False):
                out.append(self.topo.bar_steps[tile])
        for c, tile, _joker in self._exchanges(s):
            out.append(self.topo.exchange_steps[tile, c])
        if not out:
            out.append(PASS)
        return out

    def _exchanges(self, s: State) -> Iterator[tuple[int, int, int]]:
        """(chair, hand tile, joker) for every legal joker exchange."""
        if not s.jokers:
            return
        hand = s.hands[s.current]
        either = self.rules.joker_exchange == "either-nation"
        for c in s.jokers:
            joker = s.occ[c]
            nations = self.topo.chair_nations[c] if either else (s.nat[c],)
            for n in nations:
                tile = n * 2 + TILE_GENDER[joker]
                if hand[tile]:
                    yield c, tile, joker

    def _check_bar(self, s: State, tile: int, raise_: bool = True) -> bool:
        problem: Violation | None = None
        if s.hands[s.current][tile] <= 0:
            problem = Violation(
                "R2.2", T("{player} has no {tile} in hand", player=self.players[s.current], tile=Tile(tile).name)
            )
        elif len(s.stools) >= len(self.rules.bar_values):
            problem = Violation("R2.5", T("every stool of the bar is taken"))
        elif tile >= JOKER_F:
            if self.rules.joker_to_bar == "never":
                problem = Violation("R2.5", T("jokers may not go to the bar"))
            elif self._can_seat_at_tables(s, tile):
                problem = Violation(
                    "R2.5",
                    T("{joker} may go to the bar only when no legal turn can seat it", joker=Tile(tile).subject()),
                )
        if problem is not None and raise_:
            raise problem
        return problem is None

    def _can_seat_at_tables(self, s: State, joker: int) -> bool:
        """Does a legal table turn exist that seats this joker (option joker_to_bar)?"""
        for tile, c, n in self._seat_candidates(s):
            if tile == joker:
                return True
            score, broken, _ = self._effect(s, tile, c, n)
            saved = self._place(s, tile, c, n, score, broken)
            try:
                if not self._turn_full(s) and self._can_seat_at_tables(s, joker):
                    return True
            finally:
                self._unplace(s, c, saved)
        return False

    def _check_exchange(self, s: State, tile: int, c: int) -> None:
        joker = s.occ[c]
        cid = self.board.chair_ids[c]
        if joker < JOKER_F:
            raise Violation("R2.6", T("there is no joker on {chair}", chair=cid))
        self._need_tile(s, tile)
        if tile >= JOKER_F:
            raise Violation("R2.6", T("a joker is exchanged for a guest, never for a joker"))
        if TILE_GENDER[tile] != TILE_GENDER[joker]:
            raise Violation(
                "R2.6",
                T("the joker on {chair} is a lady", chair=cid)
                if TILE_GENDER[joker] == Gender.F
                else T("the joker on {chair} is a gentleman", chair=cid),
            )
        nations = self.topo.chair_nations[c] if self.rules.joker_exchange == "either-nation" else (s.nat[c],)
        if TILE_NATION[tile] not in nations:
            allowed = "/".join(Nation(n).name for n in nations)
            raise Violation(
                "R2.6",
                T("the joker on {chair} can be exchanged only for a guest of {nations}", chair=cid, nations=allowed),
            )

    # ------------------------------------------------------------------ internals: changing the state

    def _effect(self, s: State, tile: int, c: int, nation: int) -> tuple[int, int, int]:
        """(points, regulars table started or -1, table breaking the gender rule or -1) of a placement.

        Points are those of the chair's tables after the placement; a regulars
        table is left out, since it scores once at the end of its turn.
        """
        topo = self.topo
        values = self._values
        reg = s.reg_table
        lady = TILE_GENDER[tile] == 0
        broken = -1
        score = 0
        for t in topo.chair_tables[c]:
            if t == reg:
                continue
            if not GENDER_OK[s.t_ladies[t] + lady][s.t_gents[t] + (not lady)]:
                if broken < 0 and self._may_start_regulars(s, t):
                    broken = t
                    continue
                return 0, broken, t
            n = s.t_guests[t] + 1
            score += values[n][s.t_native[t] + (nation == topo.table_nation[t]) == n]
        return score, broken, -1

    def _sit(self, s: State, tile: int, c: int, nation: int) -> None:
        """Put a guest on chair ``c`` and count it at the chair's tables."""
        s.occ[c] = tile
        s.nat[c] = nation
        if tile >= JOKER_F:
            s.jokers = tuple(sorted((*s.jokers, c)))
        s.open_chairs -= 1
        lady = TILE_GENDER[tile] == 0
        table_nation = self.topo.table_nation
        for t in self.topo.chair_tables[c]:
            if lady:
                s.t_ladies[t] += 1
            else:
                s.t_gents[t] += 1
            s.t_guests[t] += 1
            if nation == table_nation[t]:
                s.t_native[t] += 1

    def _unsit(self, s: State, c: int) -> int:
        """Take the guest off chair ``c`` (the inverse of :meth:`_sit`); return its tile."""
        tile, nation = s.occ[c], s.nat[c]
        s.occ[c] = FREE
        s.nat[c] = FREE
        if tile >= JOKER_F:
            s.jokers = tuple(j for j in s.jokers if j != c)
        s.open_chairs += 1
        lady = TILE_GENDER[tile] == 0
        table_nation = self.topo.table_nation
        for t in self.topo.chair_tables[c]:
            if lady:
                s.t_ladies[t] -= 1
            else:
                s.t_gents[t] -= 1
            s.t_guests[t] -= 1
            if nation == table_nation[t]:
                s.t_native[t] -= 1
        return tile

    def _place(
        self, s: State, tile: int, c: int, nation: int, score: int, broken: int
    ) -> tuple[tuple[int, ...], bool, int, list[int]]:
        """Seat a hand tile and advance the turn's bookkeeping; return what :meth:`_unplace` needs."""
        saved = (s.placed, s.first_zero, s.reg_table, s.hands[s.current])
        self._sit(s, tile, c, nation)
        self._change_hand(s, s.current, tile, -1)
        if not s.placed:
            s.first_zero = score == 0
        if broken >= 0:
            s.reg_table = broken
        s.placed = (*s.placed, c)
        return saved

    def _unplace(self, s: State, c: int, saved: tuple[tuple[int, ...], bool, int, list[int]]) -> None:
        self._unsit(s, c)
        s.hand_n[s.current] += 1
        s.placed, s.first_zero, s.reg_table, s.hands[s.current] = saved

    def _draw(self, s: State, seat: int, count: int) -> int:
        drawn = 0
        hand = s.hands[seat] = s.hands[seat].copy()
        while drawn < count and s.bag_pos < len(self.bag):
            hand[self.bag[s.bag_pos]] += 1
            s.bag_pos += 1
            drawn += 1
        s.hand_n[seat] += drawn
        return drawn

    def _apply_step(self, s: State, step: Step, player: int) -> StepResult:
        kind = step.kind
        if kind is Kind.SEAT:
            return self._apply_seat(s, step, player)
        if kind is Kind.STOP:
            return self._end_turn(s, StepResult(step, player), refill=True)
        if kind is Kind.BAR:
            return self._apply_bar(s, step, player)
        if kind is Kind.EXCHANGE:
            tile = self._tile_of(step)
            c = self._chair(step.place)
            joker = self._unsit(s, c)
            hand = s.hands[player] = s.hands[player].copy()
            hand[joker] += 1
            hand[tile] -= 1
            self._sit(s, tile, c, TILE_NATION[tile])
            return self._end_turn(s, StepResult(step, player), refill=False)
        s.passes += 1  # pass
        return self._end_turn(s, StepResult(step, player), refill=False)

    def _apply_seat(self, s: State, step: Step, player: int) -> StepResult:
        if s.turn_no == 0 and not s.placed:
            # the opening exception is a fact of the turn's start, which ends the turn (_turn_full): known before the
            # first guest changes the position, even where no check or list of legal steps has computed it (simulate)
            self._exception(s)
        tile, c, nation = self._seat_args(step)
        score, broken, _ = self._effect(s, tile, c, nation)
        self._place(s, tile, c, nation, score, broken)
        s.scores[player] += score
        table_ids = self.board.table_ids
        table_points: list[tuple[str, int]] = []
        completed: list[str] = []
        for t in self.topo.chair_tables[c]:
            if t == s.reg_table:
                continue
            table_points.append((table_ids[t], self._value(s, t)))
            if s.t_native[t] == 4:  # four guests of its nation (no table seats more)
                completed.append(table_ids[t])
        change = self._lower_hand_size(s, player, len(completed)) if completed else 0
        result = StepResult(step, player, score, tuple(table_points), tuple(completed), change)
        if self._turn_full(s):
            return self._end_turn(s, result, refill=True)
        return result

    def _apply_bar(self, s: State, step: Step, player: int) -> StepResult:
        tile = self._tile_of(step)
        value = self.rules.bar_values[len(s.stools)]
        s.stools = (*s.stools, tile)
        self._change_hand(s, player, tile, -1)
        if s.scores[player] + value < 0:
            s.eliminated = with_item(s.eliminated, player, True)
            s.elim_order = (*s.elim_order, player)
            s.removed += s.hand_n[player]
            s.hands[player] = [0] * TILE_TYPES
            s.hand_n[player] = 0
            return self._end_turn(s, StepResult(step, player, eliminated=True), refill=False)
        s.scores[player] += value
        return self._end_turn(s, StepResult(step, player, points=value), refill=True)

    def _lower_hand_size(self, s: State, player: int, by: int) -> int:
        if not by:
            return 0
        before = s.hand_size[player]
        s.hand_size = with_item(s.hand_size, player, max(0, before - by))
        return s.hand_size[player] - before

    def _end_reason(self, s: State, player: int) -> str | None:
        """Which end condition of RULES.md §2.8 holds after ``player``'s turn (a key of END_REASONS)."""
        if len(s.stools) >= len(self.rules.bar_values):
            return "bar"
        if s.open_chairs == 0:
            return "board"
        if len(self.bag) - s.bag_pos <= BAG_END:
            return "bag"
        if s.hand_size[player] == 0 and s.hand_n[player] == 0 and not s.eliminated[player]:
            return "out"
        active = len(s.eliminated) - s.eliminated.count(True)
        if active < 2:
            return "players"
        if s.passes >= active:
            return "passes"
        return None

    def _end_turn(self, s: State, result: StepResult, refill: bool) -> StepResult:
        player = result.player
        points, change = result.points, result.hand_size_change
        table_points, completed = result.table_points, result.completed
        reg = s.reg_table
        if reg >= 0:
            single = s.t_native[reg] == s.t_guests[reg]
            bonus = REGULARS_SINGLE_NATION if single else REGULARS_SCORE
            s.scores[player] += bonus
            points += bonus
            table_id = self.board.table_ids[reg]
            table_points += ((table_id, bonus),)
            for c in self.topo.table_chairs[reg]:
                if s.occ[c] == FREE:
                    s.occ[c] = CLOSED
                    s.open_chairs -= 1
            if single and s.t_guests[reg] == 4:
                completed += (table_id,)
                change += self._lower_hand_size(s, player, 1)
        if result.step is not PASS:
            s.passes = 0
        drawn = 0
        if refill and not s.eliminated[player]:
            drawn = self._draw(s, player, max(0, s.hand_size[player] - s.hand_n[player]))
        s.placed, s.first_zero, s.reg_table, s.exception = (), False, -1, None
        s.turn_no += 1
        s.end_reason = self._end_reason(s, player)
        s.over = s.end_reason is not None
        if s.over:
            s.penalties = end_penalties(s)
            for p, penalty in enumerate(s.penalties):
                s.scores[p] -= penalty
        else:
            nxt = (player + 1) % len(self.players)
            while s.eliminated[nxt]:
                nxt = (nxt + 1) % len(self.players)
            s.current = nxt
        return StepResult(
            result.step, player, points, table_points, completed, change, result.eliminated, True, drawn, s.over
        )


def end_penalties(s: State) -> list[int]:
    """What each seat's hand would cost if the game ended now (RULES.md §2.8): 5 points a guest, 10 a joker, and
    nothing for a seat out of the game."""
    return [
        0 if out else PENALTY_TILE * sum(hand[:JOKER_F]) + PENALTY_JOKER * sum(hand[JOKER_F:])
        for out, hand in zip(s.eliminated, s.hands, strict=True)
    ]


def _shuffled(seed: int | None) -> tuple[Tile, ...]:
    tiles = full_set()
    random.Random(seed).shuffle(tiles)
    return tuple(tiles)


def _check_bag(bag: Sequence[Tile | str]) -> tuple[Tile, ...]:
    """A bag given in a record: exactly the 100 tiles, in draw order."""
    return read_set(bag, as_tile, "bag", full_set(), N_("the bag must hold exactly the 100 tiles"))
