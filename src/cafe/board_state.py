"""The mutable state of a board game, as flat lists of small integers.

Kept apart from the rules so that the rules module reads as rules.  The engine
copies a whole :class:`State` on every step (a few short ``list.copy`` calls)
and keeps the old one for undo, so ``pop`` restores the exact state.  What
changes rarely is a tuple, replaced when it changes; the hands are shared
between a state and its copy, and a step replaces a hand it changes by a
changed copy (never changing a hand list in place), so a copy costs a list
per hand less.
"""

from __future__ import annotations

from cafe.steps import Step
from cafe.tiles import TILE_TYPES

FREE = -1
CLOSED = -2  # a free chair of a table closed by regulars (RULES.md §2.9)


# Every field of the state, in order (key() compares them; a compiled class has no __slots__ to read)
FIELDS = (
    "bag_pos",
    "completes",
    "current",
    "elim_order",
    "eliminated",
    "end_reason",
    "exception",
    "first_zero",
    "hand_n",
    "hand_size",
    "hands",
    "jokers",
    "legal",
    "nat",
    "occ",
    "open_chairs",
    "over",
    "passes",
    "penalties",
    "placed",
    "reg_table",
    "removed",
    "scores",
    "stools",
    "t_gents",
    "t_guests",
    "t_ladies",
    "t_native",
    "turn_no",
)  # fmt: skip


class State:
    """Everything that changes during a board game.  Indices as in :class:`cafe.layout.Board`."""

    __slots__ = FIELDS

    occ: list[int]  # chair -> tile id, FREE or CLOSED
    nat: list[int]  # chair -> nation the guest counts as (a joker's given nation), or FREE
    jokers: tuple[int, ...]  # chairs with a joker, in order
    open_chairs: int  # chairs neither taken nor closed
    t_ladies: list[int]
    t_gents: list[int]
    t_guests: list[int]
    t_native: list[int]  # guests whose nation is the table's
    hands: list[list[int]]  # seat -> count per tile id
    hand_n: list[int]
    hand_size: tuple[int, ...]
    scores: list[int]
    eliminated: tuple[bool, ...]
    elim_order: tuple[int, ...]
    bag_pos: int  # index of the next tile to draw
    stools: tuple[int, ...]  # tile ids on the bar, in stool order
    removed: int  # tiles of eliminated players' hands, out of the game
    current: int
    turn_no: int  # turns completed
    passes: int  # passes in succession
    over: bool
    end_reason: str | None  # a key of board_game.END_REASONS once over
    penalties: list[int] | None  # end-of-game penalties per seat, once over
    # the turn in progress
    placed: tuple[int, ...]  # chairs seated this turn
    first_zero: bool  # the first guest of this turn scored 0
    reg_table: int  # the regulars table of this turn, or -1
    exception: bool | None  # the opening exception applies (computed on demand)
    legal: list[Step] | None  # cached legal steps
    completes: dict[int, bool] | None  # memo of BoardGame._first_completes for this position

    @classmethod
    def empty(cls, chairs: int, tables: int, seats: int) -> State:
        s = cls()
        s.occ = [FREE] * chairs
        s.nat = [FREE] * chairs
        s.jokers = ()
        s.open_chairs = chairs
        s.t_ladies = [0] * tables
        s.t_gents = [0] * tables
        s.t_guests = [0] * tables
        s.t_native = [0] * tables
        s.hands = [[0] * TILE_TYPES for _ in range(seats)]
        s.hand_n = [0] * seats
        s.hand_size = (5,) * seats
        s.scores = [0] * seats
        s.eliminated = (False,) * seats
        s.elim_order = ()
        s.bag_pos = 0
        s.stools = ()
        s.removed = 0
        s.current = 0
        s.turn_no = 0
        s.passes = 0
        s.over = False
        s.end_reason = None
        s.penalties = None
        s.placed = ()
        s.first_zero = False
        s.reg_table = -1
        s.exception = None
        s.legal = None
        s.completes = None
        return s

    def copy(self) -> State:
        s = State()
        s.occ = self.occ.copy()
        s.nat = self.nat.copy()
        s.jokers = self.jokers
        s.open_chairs = self.open_chairs
        s.t_ladies = self.t_ladies.copy()
        s.t_gents = self.t_gents.copy()
        s.t_guests = self.t_guests.copy()
        s.t_native = self.t_native.copy()
        s.hands = self.hands.copy()  # the lists inside are shared: a step replaces a hand it changes
        s.hand_n = self.hand_n.copy()
        s.hand_size = self.hand_size
        s.scores = self.scores.copy()
        s.eliminated = self.eliminated
        s.elim_order = self.elim_order
        s.bag_pos = self.bag_pos
        s.stools = self.stools
        s.removed = self.removed
        s.current = self.current
        s.turn_no = self.turn_no
        s.passes = self.passes
        s.over = self.over
        s.end_reason = self.end_reason
        s.penalties = self.penalties
        s.placed = self.placed
        s.first_zero = self.first_zero
        s.reg_table = self.reg_table
        s.exception = self.exception
        s.legal = None
        s.completes = None
        return s

    def clear_caches(self) -> None:
        """Forget what was computed for the position (it is about to change in place)."""
        self.legal = None
        self.completes = None

    def key(self) -> tuple[object, ...]:
        """Every field but the caches, for equality checks in tests and transpositions."""
        return tuple(
            tuple(x) if isinstance(x, list) and (not x or not isinstance(x[0], list)) else
            tuple(map(tuple, x)) if isinstance(x, list) else x
            for x in (getattr(self, f) for f in FIELDS if f not in ("legal", "exception", "completes"))
        )  # fmt: skip
