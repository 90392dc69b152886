"""The mutable state of a card game, as flat lists of small integers (see board_state.py for the pattern)."""

from __future__ import annotations

from cafe.steps import Step

FREE = -1
CARD_TYPES = 24  # 12 nations x 2 genders, no jokers


# Every field of the state, in order (key() compares them; a compiled class has no __slots__ to read)
FIELDS = (
    "cleared",
    "current",
    "deck_pos",
    "down",
    "end_reason",
    "hand_n",
    "hands",
    "held",
    "legal",
    "occ",
    "over",
    "penalties",
    "pending",
    "placed",
    "removed",
    "scores",
    "slot_clients",
    "slot_gents",
    "slot_ladies",
    "slot_nat",
    "slot_native",
    "table_pos",
    "tables_removed",
    "tables_shared",
    "tribe",
    "turn_no",
)  # fmt: skip


class CardState:
    """Everything that changes during a card game.  Indices as in :class:`cafe.layout.CardBoard`."""

    __slots__ = FIELDS

    slot_nat: tuple[int, ...]  # slot -> the nation of the table card lying there
    occ: list[int]  # place -> card, or FREE
    slot_ladies: list[int]
    slot_gents: list[int]
    slot_clients: list[int]
    slot_native: list[int]  # clients of the table's nation
    hands: list[list[int]]  # seat -> count per card (a step copies the current player's before changing it)
    hand_n: list[int]
    down: tuple[tuple[int, ...], ...]  # seat -> cards laid face down, in order
    scores: list[int]
    deck_pos: int  # the next client card to draw
    table_pos: int  # the next table card to lay
    removed: int  # client cards removed with full tables
    tables_removed: int
    current: int
    turn_no: int
    over: bool
    end_reason: str | None
    penalties: list[int] | None
    placed: tuple[int, ...]  # places played this turn
    pending: tuple[int, ...]  # slots of a card that scored 0: the next card must touch one and score
    cleared: bool  # full tables were removed this turn
    tribe: tuple[int, ...]  # in a tribe/circle turn: the tables that may still be its table T
    held: tuple[int, ...]  # per slot: points held back at a possible tribe table, paid if it is not T
    legal: list[Step] | None
    tables_shared: bool  # occ and the slots' counts are shared with the state this one was copied from

    @classmethod
    def empty(cls, places: int, slots: int, seats: int) -> CardState:
        s = cls()
        s.slot_nat = (FREE,) * slots
        s.occ = [FREE] * places
        s.slot_ladies = [0] * slots
        s.slot_gents = [0] * slots
        s.slot_clients = [0] * slots
        s.slot_native = [0] * slots
        s.hands = [[0] * CARD_TYPES for _ in range(seats)]
        s.hand_n = [0] * seats
        s.down = ((),) * seats
        s.scores = [0] * seats
        s.deck_pos = s.table_pos = s.removed = s.tables_removed = 0
        s.current = s.turn_no = 0
        s.over = False
        s.end_reason = None
        s.penalties = None
        s.placed = s.pending = s.tribe = ()
        s.cleared = False
        s.held = (0,) * slots
        s.legal = None
        s.tables_shared = False
        return s

    def copy(self) -> CardState:
        s = CardState()
        s.slot_nat = self.slot_nat
        # shared until a card is seated (most steps seat none): see unshare_tables
        s.occ, s.slot_ladies, s.slot_gents = self.occ, self.slot_ladies, self.slot_gents
        s.slot_clients, s.slot_native = self.slot_clients, self.slot_native
        s.tables_shared = True
        s.hands = self.hands.copy()  # the lists inside are shared until a step copies one to change it
        s.hand_n = self.hand_n.copy()
        s.down = self.down
        s.scores = self.scores.copy()
        s.deck_pos, s.table_pos = self.deck_pos, self.table_pos
        s.removed, s.tables_removed = self.removed, self.tables_removed
        s.current, s.turn_no = self.current, self.turn_no
        s.over, s.end_reason, s.penalties = self.over, self.end_reason, self.penalties
        s.placed, s.pending = self.placed, self.pending
        s.cleared, s.tribe, s.held = self.cleared, self.tribe, self.held
        s.legal = None
        return s

    def unshare_tables(self) -> None:
        """Copy the lists a seated card changes, before the first card seated since this state was copied.  (A
        look-ahead may seat a card on shared lists, as on a shared hand, if it takes it away again.)"""
        if self.tables_shared:
            self.occ = self.occ.copy()
            self.slot_ladies, self.slot_gents = self.slot_ladies.copy(), self.slot_gents.copy()
            self.slot_clients, self.slot_native = self.slot_clients.copy(), self.slot_native.copy()
            self.tables_shared = False

    def clear_caches(self) -> None:
        self.legal = None

    def key(self) -> tuple[object, ...]:
        """Every field but the cache, for equality checks in tests."""
        out: list[object] = []
        for name in FIELDS:
            if name in ("legal", "tables_shared"):
                continue
            value = getattr(self, name)
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            out.append(value)
        return tuple(out)
