"""Plain-text rendering of a board-game view, for terminals and logs (no colour, no dependencies).

The café is drawn on its grid like ``classic-map.txt``: tables as ``[USA1]``,
free chairs by their name, seated guests by their code (a joker as the guest it
stands for, with a ``*``), closed chairs as ``##``, and the bar's stools with
their values or the guest on them.
"""

from __future__ import annotations

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


def grid_lines(grid: dict[tuple[int, int], str], cols: int, rows: int, empty: str) -> list[str]:
    """The cells of a grid, top row first, with rank numbers on the left and files below, and a blank line."""
    lines = []
    for y in range(rows - 1, -1, -1):
        row = "".join(grid.get((x, y), empty).center(CELL) for x in range(cols))
        lines.append(f"{y + 1:>2} {row.rstrip()}")
    lines.append("   " + "".join(chr(ord("a") + x).center(CELL) for x in range(cols)))
    lines.append("")
    return lines


def closing_lines(view: GameView) -> list[str]:
    """The result once the game is over, else the steps of the turn in progress."""
    if view.over:
        result = "shared first place" if view.winner is None else f"{view.players[view.winner]} wins"
        return [f"Game over ({view.end_reason}): {result}."]
    return [f"This turn so far: {','.join(view.this_turn)}"] if view.this_turn else []


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
        taken = " ".join(t.name for t in view.bar) or "empty"
        lines.append(f"Bar: {taken} ({len(view.bar)}/{len(view.bar_values)} stools)")
    nxt = view.next_bar_value
    lines.append(f"Bag: {view.bag_count} tiles   Next bar stool: {'full' if nxt is None else f'{nxt:+d}'}")
    for p, name in enumerate(view.players):
        marker = ">" if p == view.current_player and not view.over else " "
        hand = view.hands[p]
        if view.eliminated[p]:
            shown = "removed"
        elif hand is None:
            shown = f"{view.hand_counts[p]} hidden tiles"
        else:
            shown = " ".join(t.name for t in hand) or "empty"
        state = "  (out of the game)" if view.eliminated[p] else ""
        penalty = f"  penalty -{view.penalties[p]}" if view.over and view.penalties[p] else ""
        lines.append(
            f"{marker} {name:<12} {view.scores[p]:>4} pts  hand {shown}  (size {view.hand_sizes[p]}){penalty}{state}"
        )
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
    lines.append(f"Deck: {view.deck_count} cards   Table pile: {view.table_pile_count} tables")
    for p, name in enumerate(view.players):
        marker = ">" if p == view.current_player and not view.over else " "
        hand = view.hands[p]
        shown = " ".join(t.name for t in hand) if hand is not None else f"{view.hand_counts[p]} hidden cards"
        down = f"  face down {view.face_down_counts[p]}" if view.face_down_counts[p] else ""
        penalty = f"  penalty -{view.penalties[p]}" if view.over and view.penalties[p] else ""
        lines.append(f"{marker} {name:<12} {view.scores[p]:>4} pts  hand {shown or 'empty'}{down}{penalty}")
    return "\n".join(lines + closing_lines(view))
