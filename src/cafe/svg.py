"""SVG rendering of a board-game view: a pure function of the position, like ``chess.svg``.

The café as a place to sit in: round tables with each nation's flag beside its code (Africa's sign is the
continent's outline, as the game's Africa is a continent), chairs with their backs away from their tables, the bar
as a counter with its stools; the card game's table cards as cards.  Every text is at least 10 units high and
every chair, place and stool 40 units wide, so that at the phone's zoom (1.12 px a unit) nothing is under 11 px
and every target is 44 px.

>>> from cafe import BoardGame
>>> svg = board_svg(BoardGame(2, seed=1).view())
>>> svg.startswith("<svg")
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from cafe.flags import flag
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
SEAT = 40  # a chair's, a place's and a stool's width: a finger's target
INK = "#2d2418"
WOOD = "#6b4f2a"
FLOOR = "#f3ead7"


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
        towards = [centre(board.table_cells[t]) for t in tables]
        _seat_box(root, centre(cid), cid, "data-chair", its, towards, lit=cid in lit, closed=cid in closed)
    for tid, nation, cell in zip(board.table_ids, board.table_nations, board.table_cells, strict=True):
        code = Nation(nation).name
        cx, cy = centre(cell)
        ET.SubElement(
            root, "circle", cx=f"{cx}", cy=f"{cy}", r="21", fill=NATION_COLOURS[code], stroke="#5b3d1e",
            attrib={"data-table": tid, "data-nation": code, "stroke-width": "1.5"},
        )  # fmt: skip
        ET.SubElement(root, "circle", cx=f"{cx}", cy=f"{cy}", r="17.5", fill="#f8eedb", attrib={"class": "deco"})
        root.append(flag(code, cx - 9, cy - 15, 18))
        _text(root, cx, cy + 12, tid, 10, INK, bold=True)
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
        towards = [centre(board.slots[t]) for t in slots]
        _seat_box(root, centre(place), place, "data-place", its, towards, lit=place in lit, closed=False)
    for slot, nation in zip(board.slots, view.tables, strict=True):
        cx, cy = centre(slot)
        code = nation.name
        ET.SubElement(
            root, "rect", x=f"{cx - 19}", y=f"{cy - 21}", width="38", height="42", rx="4", fill="#fffdf7",
            stroke="#3d3425", attrib={"data-table": slot, "data-nation": code},
        )  # fmt: skip
        ET.SubElement(
            root, "rect", x=f"{cx - 16}", y=f"{cy - 18}", width="32", height="5", fill=NATION_COLOURS[code],
            attrib={"class": "deco"},
        )  # fmt: skip
        root.append(flag(code, cx - 9, cy - 10, 18))
        _text(root, cx, cy + 15, code, 10, INK, bold=True)
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
    ET.SubElement(root, "rect", x="0", y="0", width=str(width), height=str(height), fill=FLOOR)
    ET.SubElement(
        root, "rect", x=f"{MARGIN - 4}", y=f"{MARGIN - 4}", width=f"{cols * UNIT + 8}", height=f"{rows * UNIT + 8}",
        rx="10", fill="#efe0c2", stroke="#d9c29a", attrib={"class": "deco"},
    )  # fmt: skip

    def centre(cell: str) -> tuple[float, float]:
        x, y = cell_xy(cell)
        return MARGIN + (x + 0.5) * UNIT, MARGIN + (rows - y - 0.5) * UNIT

    if coordinates:
        for x in range(cols):
            for ty in (MARGIN / 2 + 4, height - MARGIN / 2 + 4):
                _text(root, MARGIN + (x + 0.5) * UNIT, ty, chr(ord("a") + x), 11, "#5c4d38")
        for y in range(rows):
            for tx in (MARGIN / 2, width - MARGIN / 2):
                _text(root, tx, MARGIN + (rows - y - 0.5) * UNIT + 4, str(y + 1), 11, "#5c4d38")
    return root, centre


def _seat_box(
    root: ET.Element,
    at: tuple[float, float],
    name: str,
    data: str,
    tables: str,
    towards: list[tuple[float, float]],
    lit: bool,
    closed: bool,
) -> None:
    """A chair or a place seen from above: its seat (the target, named, ``data-tables`` naming the tables it
    belongs to) and its back on the side away from its tables (a closed chair is shaded, unnamed)."""
    cx, cy = at
    half = SEAT / 2
    ET.SubElement(
        root, "rect", x=f"{cx - half}", y=f"{cy - half}", width=f"{SEAT}", height=f"{SEAT}", rx="8",
        fill="#d9c7a3" if closed else "#fffaf0", stroke="#e8590c" if lit else "#a08c6a",
        attrib={"stroke-width": "3" if lit else "1", data: name, "data-tables": tables},
    )  # fmt: skip
    dx = sum(x - cx for x, _ in towards)
    dy = sum(y - cy for _, y in towards)
    if abs(dx) >= abs(dy):  # the back on the left or right
        x = cx - half + 3 if dx > 0 else cx + half - 10
        box = {"x": f"{x}", "y": f"{cy - half + 5}", "width": "7", "height": f"{SEAT - 10}"}
    else:
        y = cy - half + 3 if dy > 0 else cy + half - 10
        box = {"x": f"{cx - half + 5}", "y": f"{y}", "width": f"{SEAT - 10}", "height": "7"}
    ET.SubElement(root, "rect", rx="3", fill="#9c7447" if not closed else "#8d7f69", attrib={"class": "deco", **box})
    if not closed:
        _text(root, cx + dx / max(abs(dx), abs(dy), 1) * 3, cy + 4 + dy / max(abs(dx), abs(dy), 1) * 3, name, 10,
              "#5c4d38")  # fmt: skip


def _guest(root: ET.Element, cx: float, cy: float, tile: Tile, nation: str, at: str) -> None:
    """A guest or client on chair or place ``at``: a disc in its nation's colour with its code and gender (a joker
    ringed in gold)."""
    joker = tile.is_joker
    ET.SubElement(
        root, "circle", cx=f"{cx}", cy=f"{cy}", r="17", fill=NATION_COLOURS[nation],
        stroke="#ffd43b" if joker else "#fff",
        attrib={"stroke-width": "3" if joker else "2", "data-guest": tile.name, "data-at": at, "data-nation": nation},
    )  # fmt: skip
    ink = "#111" if nation in LIGHT else "#fff"
    _text(root, cx, cy + 1, nation, 10, ink, bold=True)
    _text(root, cx, cy + 12, ("★" if joker else "") + ("♀" if tile.gender == 0 else "♂"), 10, ink)


def _draw_bar(root: ET.Element, view: BoardView, board: Board, rows: int) -> None:
    """The bar: a counter with the café's sign, and its stools in front of it with their values."""
    stools = bar_stool_cells(board, len(view.bar_values))
    title = bar_title_cell(board)

    def place(x: int, y: int) -> tuple[float, float]:
        return MARGIN + (x + 0.5) * UNIT, MARGIN + (rows - y - 0.5) * UNIT

    if title is not None and board.bar_cells:
        first, last = board.bar_cells.split("-")
        (x0, _), (x1, _) = cell_xy(first), cell_xy(last)
        left, top = MARGIN + x0 * UNIT, MARGIN + (rows - title[1] - 1) * UNIT
        ET.SubElement(
            root, "rect", x=f"{left - 2}", y=f"{top + 4}", width=f"{(x1 - x0 + 1) * UNIT + 4}", height=f"{UNIT - 8}",
            rx="8", fill="#5b3d1e", stroke="#3d2a14", attrib={"class": "deco"},
        )  # fmt: skip
        if stools:
            bottom = max(place(*cell)[1] for cell in stools) + UNIT / 2
            ET.SubElement(
                root, "rect", x=f"{left - 2}", y=f"{top + UNIT}", width=f"{(x1 - x0 + 1) * UNIT + 4}",
                height=f"{bottom - top - UNIT}", rx="8", fill="#e6d3ae", attrib={"class": "deco"},
            )  # fmt: skip
        tx, ty = title
        _text(root, MARGIN + (tx + 2.5) * UNIT, MARGIN + (rows - ty - 0.5) * UNIT + 6, "BAR", 18, "#fff", bold=True)
    for (x, y), i in stools.items():
        cx, cy = place(x, y)
        taken = i < len(view.bar)
        nxt = i == len(view.bar)
        ring = {"stroke-width": "3", "stroke-dasharray": "5 3"} if nxt else {"stroke-width": "1.5"}
        ET.SubElement(
            root, "circle", cx=f"{cx}", cy=f"{cy}", r=f"{SEAT / 2}", fill="#ecdcbc" if taken else "#fffaf0",
            stroke="#6b4f2a", attrib={**ring, "data-stool": str(i + 1)},
        )  # fmt: skip
        value = view.bar_values[i]
        label = f"{value:+d}".replace("-", "\u2212")  # a true minus, as print has it
        _text(root, cx, cy - 4 if taken else cy + 4, label, 11, "#1e6b2f" if value > 0 else "#a61e1e",
              bold=True)  # fmt: skip
        if taken:
            _text(root, cx, cy + 10, view.bar[i].name, 10, INK)


def _text(root: ET.Element, x: float, y: float, text: str, size: int, fill: str, bold: bool = False) -> None:
    el = ET.SubElement(
        root, "text", x=f"{x:g}", y=f"{y:g}", fill=fill, attrib={"font-size": str(size), "text-anchor": "middle"}
    )
    if bold:
        el.set("font-weight", "bold")
    el.text = text
