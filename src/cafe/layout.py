"""The board game's board as data: tables, chairs and the bar's place.

A board file (RULES.md §1.1) lists tables (id, nation, cell) and chairs (id =
cell, the one or two tables it belongs to).  :func:`load_board` validates it
and precomputes the integer tuples the engine's hot path uses.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cafe.errors import BoardFileError
from cafe.i18n import T, Text
from cafe.tiles import Nation

CELL_RE = re.compile(r"^[a-z]([1-9][0-9]?)$")
TABLE_ID_RE = re.compile(r"^[A-Z]{3}[0-9]{1,2}$")


def cell_xy(cell: str) -> tuple[int, int]:
    """Column and row (from 0, bottom-left) of a cell name such as ``h3``."""
    return ord(cell[0]) - ord("a"), int(cell[1:]) - 1


def grid_size(cells: list[str]) -> tuple[int, int]:
    """Columns and rows of the smallest grid from a1 that holds these cells."""
    return max(cell_xy(c)[0] for c in cells) + 1, max(cell_xy(c)[1] for c in cells) + 1


@dataclass(frozen=True)
class Board:
    """A validated board topology.  Indices are positions in ``tables``/``chairs``."""

    name: str
    title: str
    table_ids: tuple[str, ...]
    table_nations: tuple[int, ...]
    table_cells: tuple[str, ...]
    chair_ids: tuple[str, ...]
    chair_tables: tuple[tuple[int, ...], ...]
    table_chairs: tuple[tuple[int, ...], ...]
    bar_cells: str | None
    source: dict[str, Any]
    # chair and table id -> index: built once by parse_board (a compiled class has no __dict__ for cached_property)
    chair_index: dict[str, int] = field(repr=False, compare=False)
    table_index: dict[str, int] = field(repr=False, compare=False)

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows of the grid the cells live on."""
        grid = self.source.get("grid", {})
        cols, rows = grid_size([*self.chair_ids, *self.table_cells])
        files = grid.get("files")
        return (max(cols, len(files)) if isinstance(files, str) else cols, max(rows, int(grid.get("ranks", 0))))

    def chairs_of_nation(self, nation: int) -> tuple[int, ...]:
        """Chairs a guest of this nation may take (at least one of its tables is the nation's)."""
        return tuple(
            c for c, tables in enumerate(self.chair_tables) if any(self.table_nations[t] == nation for t in tables)
        )

    def to_json(self) -> dict[str, Any]:
        return self.source

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its board file (a compiled frozen dataclass cannot be rebuilt field by field)."""
        return parse_board, (self.source,)


def _fail(message: Text) -> BoardFileError:
    return BoardFileError(T("board file: {message}", message=message))


def parse_board(data: Any) -> Board:
    """Validate a board object (the parsed JSON of a board file) and build a :class:`Board`."""
    if not isinstance(data, dict):
        raise _fail(T("must be a JSON object with 'tables' and 'chairs'"))
    tables = data.get("tables")
    chairs = data.get("chairs")
    if not isinstance(tables, list) or not tables:
        raise _fail(T("'tables' must be a non-empty list"))
    if not isinstance(chairs, list) or not chairs:
        raise _fail(T("'chairs' must be a non-empty list"))
    table_ids: list[str] = []
    nations: list[int] = []
    cells: list[str] = []
    for i, table in enumerate(tables):
        if not isinstance(table, dict):
            raise _fail(T("table #{i} must be an object with id, nation and cell", i=i + 1))
        tid, nation, cell = table.get("id"), table.get("nation"), table.get("cell")
        if not isinstance(tid, str) or not TABLE_ID_RE.match(tid):
            raise _fail(T("table #{i}: id {tid!r} must be a nation code and a number, like USA1", i=i + 1, tid=tid))
        if tid in table_ids:
            raise _fail(T("table id {tid} appears twice", tid=tid))
        if not isinstance(nation, str) or nation not in Nation.__members__:
            raise _fail(
                T(
                    "table {tid}: nation {nation!r} is not one of {codes}",
                    tid=tid,
                    nation=nation,
                    codes=" ".join(Nation.__members__),
                )
            )
        if not isinstance(cell, str) or not CELL_RE.match(cell):
            raise _fail(T("table {tid}: cell {cell!r} must be a cell name like h2", tid=tid, cell=cell))
        table_ids.append(tid)
        nations.append(Nation[nation])
        cells.append(cell)
    index = {t: i for i, t in enumerate(table_ids)}
    chair_ids: list[str] = []
    chair_tables: list[tuple[int, ...]] = []
    for i, chair in enumerate(chairs):
        if not isinstance(chair, dict):
            raise _fail(T("chair #{i} must be an object with id and tables", i=i + 1))
        cid, its = chair.get("id"), chair.get("tables")
        if not isinstance(cid, str) or not CELL_RE.match(cid):
            raise _fail(T("chair #{i}: id {cid!r} must be a cell name like h3", i=i + 1, cid=cid))
        if cid in chair_ids:
            raise _fail(T("chair id {cid} appears twice", cid=cid))
        if cid in cells:
            raise _fail(T("chair {cid} is on the cell of a table", cid=cid))
        if not isinstance(its, list) or not 1 <= len(its) <= 2:
            raise _fail(T("chair {cid} must belong to 1 or 2 tables, not {its!r}", cid=cid, its=its))
        for tid in its:
            if tid not in index:
                raise _fail(T("chair {cid} names unknown table {tid!r}", cid=cid, tid=tid))
        twice = [t for t in its if its.count(t) > 1]
        if twice:
            raise _fail(T("chair {cid} names table {table} twice", cid=cid, table=twice[0]))
        chair_ids.append(cid)
        chair_tables.append(tuple(index[t] for t in its))
    table_chairs = tuple(tuple(c for c, ts in enumerate(chair_tables) if t in ts) for t in range(len(table_ids)))
    for t, its in enumerate(table_chairs):
        if len(its) != 4:
            raise _fail(T("table {table} has {n} chairs; every table has exactly 4", table=table_ids[t], n=len(its)))
    bar = data.get("bar")
    bar_cells = bar.get("cells") if isinstance(bar, dict) and isinstance(bar.get("cells"), str) else None
    return Board(
        name=str(data.get("name", "custom")),
        title=str(data.get("title", data.get("name", "custom board"))),
        table_ids=tuple(table_ids),
        table_nations=tuple(nations),
        table_cells=tuple(cells),
        chair_ids=tuple(chair_ids),
        chair_tables=tuple(chair_tables),
        table_chairs=table_chairs,
        bar_cells=bar_cells,
        source=data,
        chair_index={c: i for i, c in enumerate(chair_ids)},
        table_index=index,
    )


_BUILTIN: dict[str, Board] = {}


def load_board(spec: object = "classic") -> Board:
    """A board by built-in name (``"classic"``), by file path, or from a parsed object (anything else is refused
    with a BoardFileError)."""
    if not isinstance(spec, (str, Path)):
        return parse_board(spec)
    if spec == "classic":
        if spec not in _BUILTIN:
            text = resources.files("cafe").joinpath("data").joinpath("classic.json").read_text(encoding="utf-8")
            _BUILTIN[spec] = parse_board(json.loads(text))
        return _BUILTIN[spec]
    path = Path(spec)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise _fail(T("cannot read {path}: {reason}", path=str(path), reason=str(exc.strerror or exc))) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(
            T("{path} is not valid JSON: {msg} at line {lineno}", path=str(path), msg=exc.msg, lineno=exc.lineno)
        ) from None
    return parse_board(data)


@dataclass(frozen=True)
class CardBoard:
    """The card game's table layout (``cards-x.json``): slots for table cards and the places around them."""

    name: str
    slots: tuple[str, ...]  # cells where table cards lie, in the order they are laid
    place_ids: tuple[str, ...]
    place_slots: tuple[tuple[int, ...], ...]  # place -> the slots (tables) it touches
    slot_places: tuple[tuple[int, ...], ...]  # slot -> its 4 places
    source: dict[str, Any]
    place_index: dict[str, int] = field(repr=False, compare=False)  # place id -> index, built by parse_card_board

    @property
    def size(self) -> tuple[int, int]:
        return grid_size([*self.place_ids, *self.slots])

    def to_json(self) -> dict[str, Any]:
        return self.source

    def __reduce__(self) -> tuple[Any, ...]:
        return parse_card_board, (self.source,)


def parse_card_board(data: Any) -> CardBoard:
    """Validate a card-game layout: every slot has exactly 4 places, every place touches 1 to 3 slots."""
    if not isinstance(data, dict):
        raise _fail(T("must be a JSON object with 'table_slots' and 'places'"))
    slots, places = data.get("table_slots"), data.get("places")
    if not isinstance(slots, list) or not slots or not all(isinstance(s, str) and CELL_RE.match(s) for s in slots):
        raise _fail(T("'table_slots' must be a non-empty list of cell names"))
    if len(set(slots)) != len(slots):
        raise _fail(T("a table slot appears twice"))
    if not isinstance(places, list) or not places:
        raise _fail(T("'places' must be a non-empty list"))
    index = {s: i for i, s in enumerate(slots)}
    ids: list[str] = []
    touching: list[tuple[int, ...]] = []
    for i, place in enumerate(places):
        pid = place.get("id") if isinstance(place, dict) else None
        its = place.get("slots") if isinstance(place, dict) else None
        if not isinstance(pid, str) or not CELL_RE.match(pid) or pid in index:
            raise _fail(T("place #{i}: id {pid!r} must be a cell name that is not a table slot", i=i + 1, pid=pid))
        if pid in ids:
            raise _fail(T("place id {pid} appears twice", pid=pid))
        if not isinstance(its, list) or not 1 <= len(its) <= 3 or any(s not in index for s in its):
            raise _fail(T("place {pid} must touch 1 to 3 of the table slots, not {its!r}", pid=pid, its=its))
        ids.append(pid)
        touching.append(tuple(index[s] for s in its))
    slot_places = tuple(tuple(p for p, ts in enumerate(touching) if s in ts) for s in range(len(slots)))
    for s, its in enumerate(slot_places):
        if len(its) != 4:
            raise _fail(T("table slot {slot} has {n} places; every table has exactly 4", slot=slots[s], n=len(its)))
    place_index = {p: i for i, p in enumerate(ids)}
    return CardBoard(
        str(data.get("name", "custom")), tuple(slots), tuple(ids), tuple(touching), slot_places, data, place_index
    )


def load_card_board(spec: object = "cards-x") -> CardBoard:
    """The card game's layout by built-in name (``"cards-x"``) or from a parsed object (anything else is refused)."""
    if not isinstance(spec, str):
        return parse_card_board(spec)
    if spec != "cards-x":
        raise _fail(T("unknown card layout {spec!r} (the card game is played on 'cards-x')", spec=spec))
    if spec not in _BUILTIN_CARDS:
        text = resources.files("cafe").joinpath("data").joinpath("cards-x.json").read_text(encoding="utf-8")
        _BUILTIN_CARDS[spec] = parse_card_board(json.loads(text))
    return _BUILTIN_CARDS[spec]


_BUILTIN_CARDS: dict[str, CardBoard] = {}
