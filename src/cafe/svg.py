"""SVG rendering of a board-game view: a pure function of the position, like ``chess.svg``.

>>> from cafe import BoardGame
>>> svg = board_svg(BoardGame(2, seed=1).view())
>>> svg.startswith("<svg")
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from cafe.layout import Board, cell_xy
from cafe.text import bar_stool_cells, bar_title_cell
from cafe.tiles import Nation, Tile
from cafe.view import BoardView, CardView

NATION_COLOURS: dict[str, str] = {
    "AFR": "#8d5524",
    "CHN": "#e03131",
    "CUB": "#1971c2",
    "ESP": "#f59f00",
    "FRA": "#3b5bdb",
    "GBR": "#1b2a6b",
    "GER": "#212529",
    "IND": "#fd7e14",
    "ITA": "#237a36",
    "RUS": "#a61e4d",
    "TUR": "#0b7285",
    "USA": "#5f3dc4",
}
LIGHT = {"ESP", "IND"}  # nations whose colour wants dark text
UNIT = 44
MARGIN = 26


class SvgText(str):
    """An SVG document; shows itself in Jupyter."""

    def _repr_svg_(self) -> str:
        return self


def board_svg(
    view: BoardView,
    *,
    size: int | None = None,
    highlight: Iterable[str] = (),
    coordinates: bool = True,
) -> SvgText:
    """Draw the café of ``view``.  ``highlight`` lists chairs to mark (for example legal targets)."""
    board = view.board
    cols, rows = board.size
    root, centre = _canvas(cols, rows, size, coordinates, "cafe-board")
    _draw_bar(root, view, board, rows)
    lit = set(highlight)
    closed = set(view.closed_chairs)
    for cid, tables in zip(board.chair_ids, board.chair_tables, strict=True):
        its = " ".join(board.table_ids[t] for t in tables)
        _seat_box(root, centre(cid), cid, "data-chair", its, lit=cid in lit, closed=cid in closed)
    for tid, nation, cell in zip(board.table_ids, board.table_nations, board.table_cells, strict=True):
        code = Nation(nation).name
        cx, cy = centre(cell)
        ET.SubElement(
            root, "circle", cx=f"{cx}", cy=f"{cy}", r="19", fill=NATION_COLOURS[code], stroke="#3d3425",
            attrib={"data-table": tid, "data-nation": code},
        )  # fmt: skip
        _text(root, cx, cy + 4, tid, 10, "#111" if code in LIGHT else "#fff", bold=True)
    for g in view.guests:
        _guest(root, *centre(g.chair), g.tile, g.nation.name, g.chair)
    return SvgText(ET.tostring(root, encoding="unicode"))


def cards_svg(view: CardView, *, size: int | None = None, highlight: Iterable[str] = ()) -> SvgText:
    """Draw the X of table cards of a card game, with the clients on their places."""
    board = view.board
    cols, rows = board.size
    root, centre = _canvas(cols, rows, size, True, "cafe-cards")
    lit = set(highlight)
    for place, slots in zip(board.place_ids, board.place_slots, strict=True):
        its = " ".join(board.slots[t] for t in slots)
        _seat_box(root, centre(place), place, "data-place", its, lit=place in lit, closed=False)
    for slot, nation in zip(board.slots, view.tables, strict=True):
        cx, cy = centre(slot)
        code = nation.name
        ET.SubElement(
            root, "rect", x=f"{cx - 19}", y=f"{cy - 19}", width="38", height="38", rx="4", fill=NATION_COLOURS[code],
            stroke="#3d3425", attrib={"data-table": slot, "data-nation": code},
        )  # fmt: skip
        _text(root, cx, cy + 4, code, 11, "#111" if code in LIGHT else "#fff", bold=True)
    for place, card in view.clients:
        _guest(root, *centre(place), card, card.name[:3], place)
    return SvgText(ET.tostring(root, encoding="unicode"))


def view_svg(view: BoardView | CardView) -> SvgText:
    """Draw a view of either edition."""
    return cards_svg(view) if isinstance(view, CardView) else board_svg(view)


def _canvas(
    cols: int, rows: int, size: int | None, coordinates: bool, css: str
) -> tuple[ET.Element, Callable[[str], tuple[float, float]]]:
    """An empty drawing of a cols x rows grid with its coordinates, and the centre of a cell."""
    width, height = cols * UNIT + 2 * MARGIN, rows * UNIT + 2 * MARGIN
    root = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width} {height}",
        width=str(size or width),
        height=str(round((size or width) * height / width)),
        attrib={"font-family": "sans-serif", "class": css},
    )
    ET.SubElement(root, "rect", x="0", y="0", width=str(width), height=str(height), fill="#f3ead7")

    def centre(cell: str) -> tuple[float, float]:
        x, y = cell_xy(cell)
        return MARGIN + (x + 0.5) * UNIT, MARGIN + (rows - y - 0.5) * UNIT

    if coordinates:
        for x in range(cols):
            for ty in (MARGIN / 2 + 4, height - MARGIN / 2 + 4):
                _text(root, MARGIN + (x + 0.5) * UNIT, ty, chr(ord("a") + x), 11, "#6b5b45")
        for y in range(rows):
            for tx in (MARGIN / 2, width - MARGIN / 2):
                _text(root, tx, MARGIN + (rows - y - 0.5) * UNIT + 4, str(y + 1), 11, "#6b5b45")
    return root, centre


def _seat_box(
    root: ET.Element, at: tuple[float, float], name: str, data: str, tables: str, lit: bool, closed: bool
) -> None:
    """A chair or a place: a rounded box with its name (a closed chair is shaded, unnamed); ``data-tables`` names
    the tables it belongs to (the table slots a place touches)."""
    cx, cy = at
    ET.SubElement(
        root, "rect", x=f"{cx - 17}", y=f"{cy - 17}", width="34", height="34", rx="7",
        fill="#d9c7a3" if closed else "#fffaf0", stroke="#e8590c" if lit else "#a08c6a",
        attrib={"stroke-width": "3" if lit else "1", data: name, "data-tables": tables},
    )  # fmt: skip
    if not closed:
        _text(root, cx, cy + 4, name, 9, "#7a6a4f")


def _guest(root: ET.Element, cx: float, cy: float, tile: Tile, nation: str, at: str) -> None:
    """A guest or client on chair or place ``at``: a disc in its nation's colour with its code and gender (a joker
    ringed in gold)."""
    joker = tile.is_joker
    ET.SubElement(
        root, "circle", cx=f"{cx}", cy=f"{cy}", r="15", fill=NATION_COLOURS[nation],
        stroke="#ffd43b" if joker else "#fff",
        attrib={"stroke-width": "3" if joker else "1.5", "data-guest": tile.name, "data-at": at, "data-nation": nation},
    )  # fmt: skip
    ink = "#111" if nation in LIGHT else "#fff"
    _text(root, cx, cy - 1, nation, 8, ink, bold=True)
    _text(root, cx, cy + 10, ("★" if joker else "") + ("♀" if tile.gender == 0 else "♂"), 10, ink)


def _draw_bar(root: ET.Element, view: BoardView, board: Board, rows: int) -> None:
    stools = bar_stool_cells(board, len(view.bar_values))
    title = bar_title_cell(board)
    if title is not None:
        tx, ty = title
        _text(root, MARGIN + (tx + 2.5) * UNIT, MARGIN + (rows - ty - 0.5) * UNIT + 6, "BAR", 18, "#6b4f2a", bold=True)
    for (x, y), i in stools.items():
        cx, cy = MARGIN + (x + 0.5) * UNIT, MARGIN + (rows - y - 0.5) * UNIT
        taken = i < len(view.bar)
        nxt = i == len(view.bar)
        ET.SubElement(
            root, "circle", cx=f"{cx}", cy=f"{cy}", r="17", fill="#e9dcc0" if taken else "#fff",
            stroke="#e8590c" if nxt else "#8a7350", attrib={"stroke-width": "3" if nxt else "1",
                                                          "data-stool": str(i + 1)},
        )  # fmt: skip
        value = view.bar_values[i]
        _text(root, cx, cy - 5 if taken else cy + 4, f"{value:+d}", 10, "#237a36" if value > 0 else "#c92a2a")
        if taken:
            _text(root, cx, cy + 9, view.bar[i].name, 8, "#3d3425")


def _text(root: ET.Element, x: float, y: float, text: str, size: int, fill: str, bold: bool = False) -> None:
    el = ET.SubElement(
        root, "text", x=f"{x:g}", y=f"{y:g}", fill=fill, attrib={"font-size": str(size), "text-anchor": "middle"}
    )
    if bold:
        el.set("font-weight", "bold")
    el.text = text
