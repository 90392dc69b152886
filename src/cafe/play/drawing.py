"""The terminal's drawings: the café (or the X) as styled text, with a nation's colour on its tables and guests,
and the footer's key names in the language of the game.  Shared by the game (app.py) and its review (review.py)."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.dom import DOMNode

from cafe.i18n import translate
from cafe.text import CELL, board_grid, cards_grid
from cafe.view import BoardView, View

# one colour per nation (terminal colour names), for tables and guests; without colour the codes still read
NATION_COLOURS = {
    "AFR": "dark_orange", "CHN": "red", "CUB": "bright_cyan", "ESP": "yellow", "FRA": "blue",
    "GBR": "magenta", "GER": "grey70", "IND": "orange1", "ITA": "green", "RUS": "bright_red",
    "TUR": "cyan", "USA": "bright_blue",
}  # fmt: skip


def translate_bindings(node: DOMNode) -> None:
    """The footer's words in the language of the game: a class's BINDINGS are made (in English, marked with N_)
    when its module is imported, before the language is chosen."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=translate(b.description)) for b in bindings]


def cafe_map(view: View, marked: set[str]) -> Text:
    """The café (or the X) as styled text; ``marked`` places are shown in reverse video."""
    if isinstance(view, BoardView):
        grid = board_grid(view)[0]
        empty = "."
    else:
        grid, empty = cards_grid(view), ""
    cols, rows = view.board.size
    out = Text()
    for y in range(rows - 1, -1, -1):
        out.append(f"{y + 1:>2} ", style="dim")
        for x in range(cols):
            cell = grid.get((x, y), empty)
            name = f"{chr(ord('a') + x)}{y + 1}"
            out.append(cell.center(CELL), style=_style(cell, name in marked))
        out.append("\n")
    out.append("   " + "".join(chr(ord("a") + x).center(CELL) for x in range(cols)), style="dim")
    return out


def _style(cell: str, marked: bool) -> str:
    if marked:
        return "reverse bold"
    code = cell.strip("[]*")[:3]
    if code in NATION_COLOURS:
        return f"bold {NATION_COLOURS[code]}" if cell.startswith("[") else NATION_COLOURS[code]
    if cell in ("BAR", "##") or cell.startswith(("+", "-")):
        return "bold" if cell == "BAR" else "dim"
    return "dim"
