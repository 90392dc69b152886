"""A slow, literal implementation of the board game's turn rules (RULES.md §2.3-2.6, §2.9).

It reads only a game's public view and rules, and decides legality by
checking whole turns against the rules as written: a step is legal when some
legal complete turn begins with the steps taken so far and that step.  It
shares no code with the engine's rules; the tests compare the two.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from cafe import BoardGame, Step
from cafe.layout import Board
from cafe.steps import Kind
from cafe.tiles import Nation, Tile

Placement = tuple[Tile, str, Nation]  # tile, chair, the nation it counts as


class BoardFacts:
    """The board by name: which tables a chair belongs to, which chairs a table has, table nations."""

    def __init__(self, board: Board) -> None:
        self.chairs = list(board.chair_ids)
        self.tables = {
            cid: [board.table_ids[t] for t in board.chair_tables[c]] for c, cid in enumerate(board.chair_ids)
        }
        self.chairs_at = {
            tid: [board.chair_ids[c] for c in board.table_chairs[t]] for t, tid in enumerate(board.table_ids)
        }
        self.nation = {tid: Nation(board.table_nations[t]) for t, tid in enumerate(board.table_ids)}
        self.chair_nations = {cid: {self.nation[t] for t in self.tables[cid]} for cid in self.chairs}
        self.chairs_for = {n: [c for c in self.chairs if n in self.chair_nations[c]] for n in Nation}


_FACTS: dict[str, BoardFacts] = {}


@dataclass
class TurnStart:
    board: BoardFacts
    rules: object
    seated: dict[str, tuple[Tile, Nation]]
    closed: set[str]
    hand: Counter[Tile]
    first_turn: bool
    stools_left: int
    scoring_turn: bool | None = None
    firsts: dict[Placement, tuple[bool, int]] = field(default_factory=dict)

    def tables_of(self, chair: str) -> list[str]:
        return self.board.tables[chair]

    def chairs_of(self, table: str) -> list[str]:
        return self.board.chairs_at[table]

    def nation_of(self, table: str) -> Nation:
        return self.board.nation[table]


def turn_start(game: BoardGame) -> tuple[TurnStart, list[Placement]]:
    """The position when the current turn began, and the placements made since."""
    view = game.view(game.current_player)
    seated = {g.chair: (g.tile, g.nation) for g in view.guests}
    hand = Counter(view.hands[view.current_player] or ())
    done: list[Placement] = []
    for text in view.this_turn:
        step = Step.parse(text)
        assert step.kind is Kind.SEAT and step.tile is not None and step.place is not None
        tile, nation = seated.pop(step.place)
        hand[tile] += 1
        done.append((tile, step.place, nation))
    key = repr(sorted(game.board.source.items()))
    if key not in _FACTS:
        _FACTS[key] = BoardFacts(game.board)
    start = TurnStart(
        board=_FACTS[key],
        rules=game.rules,
        seated=seated,
        closed=set(view.closed_chairs),
        hand=hand,
        first_turn=view.turn_number == 0,
        stools_left=len(view.bar_values) - len(view.bar),
    )
    return start, done


def gender_ok(guests: list[tuple[Tile, Nation]]) -> bool:
    ladies = sum(1 for tile, _ in guests if GENDER_OF[tile] == 0)
    gents = len(guests) - ladies
    return ladies <= 2 and gents <= 2 and abs(ladies - gents) <= 1


def table_value(start: TurnStart, seated: dict[str, tuple[Tile, Nation]], table: str) -> int:
    guests = [seated[c] for c in start.chairs_of(table) if c in seated]
    n = len(guests)
    if n < 2:
        return 0
    single = all(nation == start.nation_of(table) for _, nation in guests)
    bonus = start.rules.scoring == "bonus"
    mixed_values = {2: 2, 3: 3, 4: 4}
    single_values = {2: 4 if bonus else 2, 3: 6 if bonus else 3, 4: 8}
    return (single_values if single else mixed_values)[n]


def guests_at(seated: dict[str, tuple[Tile, Nation]], start: TurnStart, table: str) -> list[tuple[Tile, Nation]]:
    return [seated[c] for c in start.chairs_of(table) if c in seated]


def may_take(start: TurnStart, seated: dict[str, tuple[Tile, Nation]], p: Placement) -> bool:
    """Rule 1 (free chair, nation) and that the tile is a guest with a nation it may count as."""
    tile, chair, nation = p
    if chair in seated or chair in start.closed:
        return False
    nations = start.board.chair_nations[chair]
    if tile.is_joker:
        return nation in nations
    return NATION_OF[tile] == nation and nation in nations


def in_hand(start: TurnStart, seq: list[Placement]) -> bool:
    tiles = [tile for tile, _, _ in seq]
    return all(start.hand[t] >= tiles.count(t) for t in tiles)


def normal_turn_ok(start: TurnStart, seq: list[Placement]) -> bool:
    """One or two guests under rules 1-4 (not the opening exception)."""
    if not 1 <= len(seq) <= 2 or not in_hand(start, seq):
        return False
    if len(seq) == 1:
        ok, score = first_placement(start, seq[0])
        # rule 4: it scores; rule 3: it shares a table with another guest
        return ok and score > 0 and any(len(guests_at(start.seated, start, t)) >= 1 for t in start.tables_of(seq[0][1]))
    shared = len(seq) == 2 and bool(set(start.tables_of(seq[0][1])) & set(start.tables_of(seq[1][1])))
    if len(seq) == 2:
        first_ok, first_score = first_placement(start, seq[0])
        if not first_ok or (first_score == 0 and not shared):
            return False  # rules 1-2 fail for the first guest, or rule 4 (see below)
    seated = dict(start.seated)
    scores = []
    for p in seq:
        if not may_take(start, seated, p):
            return False
        seated[p[1]] = (p[0], p[2])
        if not all(gender_ok(guests_at(seated, start, t)) for t in start.tables_of(p[1])):
            return False
        scores.append(sum(table_value(start, seated, t) for t in start.tables_of(p[1])))
    for p in seq:  # rule 3: nobody seated this turn is alone at every one of its tables
        if not any(len(guests_at(seated, start, t)) >= 2 for t in start.tables_of(p[1])):
            return False
    return scores[1] > 0 and (scores[0] > 0 or shared)


def first_placement(start: TurnStart, p: Placement) -> tuple[bool, int]:
    """Rules 1-2 for one guest placed at the turn's start, and its score (memoised)."""
    if p not in start.firsts:
        seated = dict(start.seated)
        ok = may_take(start, seated, p)
        if ok:
            seated[p[1]] = (p[0], p[2])
            ok = all(gender_ok(guests_at(seated, start, t)) for t in start.tables_of(p[1]))
        score = sum(table_value(start, seated, t) for t in start.tables_of(p[1])) if ok else 0
        start.firsts[p] = (ok, score)
    return start.firsts[p]


def regulars_table(start: TurnStart, seq: list[Placement]) -> str | None:
    """The table T if ``seq`` could be (a prefix of) a regulars turn: one gender, T's chairs, T empty."""
    if not start.rules.regulars or len({GENDER_OF[tile] for tile, _, _ in seq}) != 1:
        return None
    common = set(start.tables_of(seq[0][1]))
    for _, chair, _ in seq[1:]:
        common &= set(start.tables_of(chair))
    for table in sorted(common):
        if not guests_at(start.seated, start, table):
            return table
    return None


def regulars_turn_ok(start: TurnStart, seq: list[Placement]) -> bool:
    if not 3 <= len(seq) <= 4 or not in_hand(start, seq):
        return False
    table = regulars_table(start, seq)
    if table is None:
        return False
    seated = dict(start.seated)
    for p in seq:
        if not may_take(start, seated, p):
            return False
        seated[p[1]] = (p[0], p[2])
        others = [t for t in start.tables_of(p[1]) if t != table]
        if not all(gender_ok(guests_at(seated, start, t)) for t in others):
            return False
    return True


def possible_placements(start: TurnStart, seq: list[Placement]) -> list[Placement]:
    """Placements that could follow ``seq`` by rule 1 (and hand contents).

    One consequence of the rules prunes the search: after a first guest that
    scored 0, every later guest of a legal turn sits at one of its tables
    (rule 4 for a normal turn; in a regulars turn all guests share table T).
    """
    near: set[str] | None = None
    if seq and first_placement(start, seq[0]) == (True, 0):
        near = set(start.tables_of(seq[0][1]))
    seated = dict(start.seated)
    for tile, chair, nation in seq:
        seated[chair] = (tile, nation)
    left = start.hand - Counter(tile for tile, _, _ in seq)
    out = []
    for tile in left:
        for nation in Nation if tile.is_joker else (NATION_OF[tile],):
            for chair in start.board.chairs_for[nation]:
                if near is not None and not near & set(start.tables_of(chair)):
                    continue
                if may_take(start, seated, (tile, chair, nation)):
                    out.append((tile, chair, nation))
    return out


NATION_OF = {tile: tile.nation for tile in Tile}
GENDER_OF = {tile: tile.gender for tile in Tile}


def complete_ok(start: TurnStart, seq: list[Placement], exception: bool) -> str | None:
    """The kind of legal complete turn ``seq`` is, or None."""
    if normal_turn_ok(start, seq):
        return "normal"
    if regulars_turn_ok(start, seq):
        return "regulars"
    opening = exception and len(seq) == 1 and start.first_turn  # rule 5: one guest alone, scoring 0
    if opening and in_hand(start, seq) and may_take(start, start.seated, seq[0]) and not scoring_turn_exists(start):
        return "exception"
    return None


def scoring_turn_exists(start: TurnStart) -> bool:
    """Rule 5's condition: some legal table turn exists without the exception (computed once)."""
    if start.scoring_turn is None:
        start.scoring_turn = any(extendable(start, [p], exception=False) for p in possible_placements(start, []))
    return start.scoring_turn


def extendable(start: TurnStart, seq: list[Placement], exception: bool = True) -> bool:
    """Some legal complete turn starts with ``seq``."""
    if complete_ok(start, seq, exception):
        return True
    limit = 4 if regulars_table(start, seq) else 2
    if len(seq) >= limit:
        return False
    return any(extendable(start, [*seq, p], exception) for p in possible_placements(start, seq))


def seats_joker(start: TurnStart, joker: Tile, seq: list[Placement]) -> bool:
    """Some legal complete turn starting with ``seq`` seats ``joker``."""
    if any(tile == joker for tile, _, _ in seq) and complete_ok(start, seq, True):
        return True
    limit = 4 if seq and regulars_table(start, seq) else 2
    if len(seq) >= limit:
        return False
    return any(
        seats_joker(start, joker, [*seq, p]) for p in possible_placements(start, seq) if extendable(start, [*seq, p])
    )


def step_of(p: Placement) -> Step:
    tile, chair, nation = p
    return Step.seat(tile, chair, nation if tile.is_joker else None)


def legal_steps(game: BoardGame) -> set[str]:
    """Every legal step, by the rules as written."""
    if game.is_over():
        return set()
    start, done = turn_start(game)
    out: set[str] = set()
    for p in possible_placements(start, done):
        if extendable(start, [*done, p]):
            out.add(str(step_of(p)))
    if done:
        kind = complete_ok(start, done, True)
        full = {"normal": 2, "regulars": 4, "exception": 1}
        if kind is not None and len(done) < full[kind]:
            out.add("stop")
        return out
    rules = game.rules
    if start.stools_left > 0:
        for tile in start.hand:
            if not tile.is_joker or (rules.joker_to_bar == "when-unplaceable" and not seats_joker(start, tile, [])):
                out.add(f"{tile}@bar")
    for chair, (joker, nation) in start.seated.items():
        if not joker.is_joker:
            continue
        nations = start.board.chair_nations[chair] if rules.joker_exchange == "either-nation" else {nation}
        for tile in start.hand:
            if not tile.is_joker and tile.gender == joker.gender and tile.nation in nations:
                out.add(f"{tile}~{chair}")
    return out or {"pass"}
