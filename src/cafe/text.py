"""Plain-text rendering of a board-game view, for terminals and logs (no colour, no dependencies).

The café is drawn on its grid like ``classic-map.txt``: tables as ``[USA1]``,
free chairs by their name, seated guests by their code (a joker as the guest it
stands for, with a ``*``), closed chairs as ``##``, and the bar's stools with
their values or the guest on them.
"""

from __future__ import annotations

from cafe.i18n import _, n_, translate
from cafe.layout import Board, cell_xy
from cafe.view import BoardView, CardView, GameView

CELL = 7


def bar_stool_cells(board: Board, stools: int) -> dict[tuple[int, int], int]:
    """Grid cell -> stool index, filling the bar's rectangle row by row under its title row."""
    if not board.bar_cells or "-" not in board.bar_cells:
        return {}
    first, last = board.bar_cells.split("-")
    (x0, y0), (x1, y1) = cell_xy(first), cell_xy(last)
    cells = [(x, y) for y in range(y1 - 1, y0 - 1, -1) for x in range(x0, x1 + 1)]
    return {cell: i for i, cell in enumerate(cells[:stools])}


def bar_title_cell(board: Board) -> tuple[int, int] | None:
    if not board.bar_cells or "-" not in board.bar_cells:
        return None
    first, last = board.bar_cells.split("-")
    return cell_xy(first)[0], cell_xy(last)[1]


def view_text(view: BoardView | CardView) -> str:
    """Draw a view of either edition as text."""
    return cards_text(view) if isinstance(view, CardView) else board_text(view)


def grid_lines(
    grid: dict[tuple[int, int], str],
    cols: int,
    rows: int,
    empty: str,
    xs: range | None = None,
    ys: range | None = None,
) -> list[str]:
    """The cells of a grid (or of its files ``xs`` and ranks ``ys``), top row first, with rank numbers on the left
    and files below, and a blank line."""
    xs = range(cols) if xs is None else xs
    lines = []
    for y in reversed(range(rows) if ys is None else ys):
        row = "".join(grid.get((x, y), empty).center(CELL) for x in xs)
        lines.append(f"{y + 1:>2} {row.rstrip()}")
    lines.append("   " + "".join(chr(ord("a") + x).center(CELL) for x in xs))
    lines.append("")
    return lines


def closing_lines(view: GameView) -> list[str]:
    """The result once the game is over, else the steps of the turn in progress."""
    if view.over:
        result = _("shared first place") if view.winner is None else _("{name} wins", name=view.players[view.winner])
        return [_("Game over ({reason}): {result}.", reason=translate(view.end_reason or ""), result=result)]
    return [_("This turn so far: {steps}", steps=",".join(view.this_turn))] if view.this_turn else []


def guest_code(tile: str, nation: str) -> str:
    """A seated guest's short code: ``USAm``, or ``USAf*`` for a joker given USA."""
    return f"{nation}{tile[-1]}*" if tile.startswith("JOK") else tile


def board_text(view: BoardView) -> str:
    """The café, the bar and the players, as lines of plain text."""
    grid, has_stools = board_grid(view)
    lines = grid_lines(grid, *view.board.size, empty=".")
    lines.extend(status_lines(view, with_bar=not has_stools))
    return "\n".join(lines)


def board_grid(view: BoardView) -> tuple[dict[tuple[int, int], str], bool]:
    """The café's cells as text (tables, chairs, guests, closed chairs, stools); and whether the bar is drawn."""
    board = view.board
    grid: dict[tuple[int, int], str] = {}
    for cell, tid in zip(board.table_cells, board.table_ids, strict=True):
        grid[cell_xy(cell)] = f"[{tid}]"
    for cid in board.chair_ids:
        grid[cell_xy(cid)] = cid
    for cid in view.closed_chairs:
        grid[cell_xy(cid)] = "##"
    for g in view.guests:
        grid[cell_xy(g.chair)] = guest_code(g.tile.name, g.nation.name)
    stools = bar_stool_cells(board, len(view.bar_values))
    for xy, i in stools.items():
        grid[xy] = view.bar[i].name if i < len(view.bar) else f"{view.bar_values[i]:+d}"
    title = bar_title_cell(board)
    if title is not None:
        grid[title] = "BAR"
    return grid, bool(stools)


def status_lines(view: BoardView, with_bar: bool = True) -> list[str]:
    """Scores, hands and whose turn it is."""
    lines = []
    if with_bar:
        taken = " ".join(t.name for t in view.bar) or _("empty")
        lines.append(
            _("Bar: {guests} ({taken}/{stools} stools)", guests=taken, taken=len(view.bar), stools=len(view.bar_values))
        )
    nxt = view.next_bar_value
    bag = n_("Bag: {n} tile", "Bag: {n} tiles", view.bag_count)
    lines.append(bag + "   " + _("Next bar stool: {value}", value=_("full") if nxt is None else f"{nxt:+d}"))
    for p, name in enumerate(view.players):
        marker = ">" if p == view.current_player and not view.over else " "
        hand = view.hands[p]
        if view.eliminated[p]:
            shown = _("removed")
        elif hand is None:
            shown = n_("{n} hidden tile", "{n} hidden tiles", view.hand_counts[p])
        else:
            shown = " ".join(t.name for t in hand) or _("empty")
        state = "  " + _("(out of the game)") if view.eliminated[p] else ""
        penalty = "  " + _("penalty -{n}", n=view.penalties[p]) if view.over and view.penalties[p] else ""
        player = _(
            "{points:>4} pts  hand {hand}  (size {size})",
            points=view.scores[p],
            hand=shown,
            size=view.hand_sizes[p],
        )
        lines.append(f"{marker} {name:<12} {player}{penalty}{state}")
    return lines + closing_lines(view)


def cards_grid(view: CardView) -> dict[tuple[int, int], str]:
    """The X's cells as text: table cards, free places, clients."""
    board = view.board
    grid: dict[tuple[int, int], str] = {}
    for slot, nation in zip(board.slots, view.tables, strict=True):
        grid[cell_xy(slot)] = f"[{nation.name}]"
    for place in board.place_ids:
        grid[cell_xy(place)] = place
    for place, card in view.clients:
        grid[cell_xy(place)] = card.name
    return grid


def cards_text(view: CardView) -> str:
    """The X of tables with their clients, and the players, as plain text."""
    lines = grid_lines(cards_grid(view), *view.board.size, empty="")
    deck = n_("Deck: {n} card", "Deck: {n} cards", view.deck_count)
    lines.append(deck + "   " + n_("Table pile: {n} table", "Table pile: {n} tables", view.table_pile_count))
    for p, name in enumerate(view.players):
        marker = ">" if p == view.current_player and not view.over else " "
        hand = view.hands[p]
        hidden = n_("{n} hidden card", "{n} hidden cards", view.hand_counts[p])
        shown = " ".join(t.name for t in hand) if hand is not None else hidden
        down = "  " + _("face down {n}", n=view.face_down_counts[p]) if view.face_down_counts[p] else ""
        penalty = "  " + _("penalty -{n}", n=view.penalties[p]) if view.over and view.penalties[p] else ""
        player = _("{points:>4} pts  hand {hand}", points=view.scores[p], hand=shown or _("empty"))
        lines.append(f"{marker} {name:<12} {player}{down}{penalty}")
    return "\n".join(lines + closing_lines(view))
