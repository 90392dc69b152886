"""The positions that illustrate "How to play": each is set up with the engine's ``from_position``, one turn is
tried on it, and its caption states what the engine answers.

A caption's placeholders are its claims (``{points}``: what the turn scores; ``{rule}``: the rule id that refuses
it; ``{hand_size}``: the mover's hand size after it; ``{value_USA1}``: a table's value after it; ``{full}``: the
table that is full and leaves), so that the words a person reads are the data a test checks against the engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.errors import IllegalStepError
from cafe.i18n import N_, translate
from cafe.layout import cell_xy
from cafe.svg import MARGIN, UNIT, board_svg, cards_svg
from cafe.text import board_grid, cards_grid, grid_lines
from cafe.view import BoardView, CardView

Claim = int | str


@dataclass(frozen=True)
class Example:
    """A position, the turn tried there, and what the caption says the engine makes of it."""

    key: str
    edition: str  # "board" or "cards"
    caption: str  # a catalog message whose placeholders are the claims
    turn: str
    claims: Mapping[str, Claim]
    hands: tuple[tuple[str, ...], ...]
    seated: Mapping[str, str] = field(default_factory=dict)  # chairs (places) -> tiles (cards)
    mover: int = 0
    bar: tuple[str, ...] = ()
    scores: tuple[int, ...] | None = None
    tables: tuple[str, ...] = ()  # the card game's five table cards in slot order
    rules: Mapping[str, Any] | None = None
    window: str = ""  # the board's cells to draw (``f1-l4``); all of them when empty
    before: bool = False  # draw the position before the turn (a refusal, a table that leaves), else after it

    def caption_in(self, language: str | None = None) -> str:
        """The caption in ``language``, its claims filled in."""
        return translate(self.caption, language).format(**self.claims)


Game = BoardGame | CardGame
FILL = ("GERm", "CUBf", "ITAm")  # guests in hand that play no part in an example
CARD_FILL = ("GERm", "CUBf", "TURm", "ESPf")

_RULEBOOK = {"h3": "USAm", "h1": "USAf", "l1": "INDm", "k2": "INDf", "j1": "USAm"}  # after A, B and C
_SOUTH = "f1-l4"  # the American tables and their neighbours

BOARD: tuple[Example, ...] = (
    Example(
        "A",
        "board",
        N_(
            "Example A (USAm@h3,USAf@h1): an American gentleman alone at USA1 scores nothing; the American lady joins "
            "him, and the turn scores {points}."
        ),
        "USAm@h3,USAf@h1",
        {"points": 4},
        (("USAm", "USAf", *FILL), FILL, FILL, FILL),
        window=_SOUTH,
    ),
    Example(
        "B",
        "board",
        N_(
            "Example B (INDm@l1,INDf@k2): an Indian pair at IND2 scores {points}. On k2 the lady is alone at USA2 "
            "too, which is allowed: she has company at IND2."
        ),
        "INDm@l1,INDf@k2",
        {"points": 4},
        (FILL, ("INDm", "INDf", *FILL), FILL, FILL),
        seated={"h3": "USAm", "h1": "USAf"},
        mover=1,
        window=_SOUTH,
    ),
    Example(
        "C",
        "board",
        N_("Example C (USAm@j1): an American gentleman beside the Indian lady at USA2: a mixed pair, {points} points."),
        "USAm@j1",
        {"points": 2},
        (FILL, FILL, ("USAm", *FILL), FILL),
        seated={k: v for k, v in _RULEBOOK.items() if k != "j1"},
        mover=2,
        window=_SOUTH,
    ),
    Example(
        "D",
        "board",
        N_(
            "Example D (USAm@i2,USAf@g2): the gentleman on i2 sits at two tables: USA1 (three Americans, 6) and USA2 "
            "(a mixed three, 3). The lady on g2 completes USA1 with four Americans: {value_USA1} more. The turn "
            "scores {points}, and the player's hand size drops to {hand_size}."
        ),
        "USAm@i2,USAf@g2",
        {"points": 17, "value_USA1": 8, "hand_size": 4},
        (FILL, FILL, FILL, ("USAm", "USAf", *FILL)),
        seated=_RULEBOOK,
        mover=3,
        window=_SOUTH,
    ),
    Example(
        "nation",
        "board",
        N_("An Italian gentleman may not sit at an American table: h3 belongs only to USA1 (rule {rule})."),
        "ITAm@h3",
        {"rule": "R2.3.1"},
        (("ITAm", *FILL), FILL),
        window=_SOUTH,
        before=True,
    ),
    Example(
        "gender",
        "board",
        N_("USA1 already has two gentlemen and a lady: a third gentleman is refused (rule {rule})."),
        "USAm@g2",
        {"rule": "R2.3.2"},
        (("USAm", *FILL), FILL),
        seated={"h3": "USAm", "h1": "USAf", "i2": "USAm"},
        window=_SOUTH,
        before=True,
    ),
    Example(
        "bar",
        "board",
        N_("Five stools are taken: the Cuban gentleman goes to the sixth, and the turn scores {points}."),
        "CUBm@bar",
        {"points": -2},
        (("CUBm", *FILL), FILL),
        bar=("GERm", "CUBf", "ITAf", "FRAf", "TURm"),
        scores=(10, 3),
        window="e5-i9",
    ),
    Example(
        "joker",
        "board",
        N_("A joker lady given the nation USA beside an American gentleman: a single-nation pair, {points} points."),
        "JOKf@h1=USA",
        {"points": 4},
        (("JOKf", *FILL), FILL),
        seated={"h3": "USAm"},
        window=_SOUTH,
    ),
    Example(
        "exchange",
        "board",
        N_("An exchange: the American lady from the hand takes the joker's place on h1. It scores {points}."),
        "USAf~h1",
        {"points": 0},
        (("USAf", *FILL), FILL),
        seated={"h3": "USAm", "h1": "JOKf=USA"},
        window=_SOUTH,
        before=True,
    ),
    Example(
        "regulars",
        "board",
        N_("Regulars: three American gentlemen at the empty USA1 score {points}; USA1 is then closed."),
        "USAm@h3,USAm@h1,USAm@i2",
        {"points": 40},
        (("USAm", "USAm", "USAm", "GERm", "CUBf"), FILL),
        rules={"regulars": True},
        window=_SOUTH,
    ),
)

_X = ("ITA", "FRA", "ESP", "CUB", "TUR")  # the centre c3 and the corners b4, d4, b2, d2

CARDS: tuple[Example, ...] = (
    Example(
        "nation", "cards",
        N_("A French lady may take no place where no table is French: c4 touches c3 (ITA), b4 (CUB) and d4 (ESP) "
           "(rule {rule})."),
        "FRAf@c4", {"rule": "R4.2"}, (("FRAf", *CARD_FILL), CARD_FILL), tables=("ITA", "CUB", "ESP", "GER", "TUR"),
        before=True,
    ),
    Example(
        "foreigner", "cards",
        N_("An Italian gentleman on c4, beside the French lady of the French table b4: 2 for her, 1 for him, the "
           "table is worth {value_b4}. He is alone at c3 and d4 (0): the card scores {points}."),
        "ITAm@c4", {"value_b4": 3, "points": 3}, (("ITAm", *CARD_FILL), CARD_FILL), tables=_X, seated={"b5": "FRAf"},
    ),
    Example(
        "three", "cards",
        N_("A place next to the centre touches three tables, and all three score: a French lady on c4 brings "
           "{points} points."),
        "FRAf@c4", {"points": 11}, (("FRAf", *CARD_FILL), CARD_FILL), tables=("FRA", "FRA", "ITA", "CUB", "TUR"),
        seated={"b5": "FRAm", "d5": "ITAm", "c2": "FRAm"},
    ),
    Example(
        "full", "cards",
        N_("A French gentleman on c4 is the fourth client at {full}: it scores, and the full table leaves with every "
           "client touching it; a table card from the pile takes its place. The card scores {points}."),
        "FRAm@c4", {"full": "b4", "points": 10}, (("FRAm", *CARD_FILL), CARD_FILL), tables=_X,
        seated={"b5": "FRAf", "a4": "FRAm", "b3": "ITAf"}, before=True,
    ),
    Example(
        "circle", "cards",
        N_("Tribe and little circle: three French ladies join a fourth at the French table {full}, a little circle "
           "of its nation worth 40. With c3's points the turn scores {points}."),
        "FRAf@a4,FRAf@c4,FRAf@b3", {"full": "b4", "points": 42}, (("FRAf", "FRAf", "FRAf", "GERm"), CARD_FILL),
        tables=_X, seated={"b5": "FRAf"}, rules={"tribe_and_circle": True}, before=True,
    ),
)  # fmt: skip

EXAMPLES: dict[str, dict[str, Example]] = {
    "board": {e.key: e for e in BOARD},
    "cards": {e.key: e for e in CARDS},
}


def position(example: Example) -> Game:
    """The example's position, before its turn."""
    if example.edition == "cards":
        return CardGame.from_position(
            len(example.hands), example.hands, tables=example.tables, clients=dict(example.seated),
            current=example.mover, rules=dict(example.rules or {}),
        )  # fmt: skip
    return BoardGame.from_position(
        len(example.hands), example.hands, seated=example.seated, bar=example.bar, scores=example.scores,
        current=example.mover, rules=dict(example.rules or {}),
    )  # fmt: skip


def outcome(example: Example) -> dict[str, Claim]:
    """What the engine makes of the example's turn, for each kind of claim its caption makes."""
    game = position(example)
    try:
        results = game.push_turn(example.turn)
    except IllegalStepError as refused:
        return {"rule": refused.rule}
    out: dict[str, Claim] = {"points": sum(r.points for r in results)}
    completed = [t for r in results for t in r.completed]
    if completed:
        out["full"] = ",".join(completed)
    if isinstance(game, BoardGame):
        out["hand_size"] = game.state.hand_size[example.mover]
    for key in example.claims:
        if key.startswith("value_"):
            out[key] = game.table_value(key.removeprefix("value_"))
    return out


def targets(turn: str) -> list[str]:
    """The chairs or places a turn's steps use (``USAm@h3`` -> h3, ``USAf~h1`` -> h1; never the bar)."""
    found = []
    for step in turn.split(","):
        where = step.split("@")[-1] if "@" in step else step.split("~")[-1] if "~" in step else ""
        where = where.split("=")[0]
        if where and where != "bar":
            found.append(where)
    return found


def shown(example: Example) -> BoardView | CardView:
    """The position the example draws: before its turn, or after it."""
    game = position(example)
    if not example.before:
        game.push_turn(example.turn)
    return game.view()


def svg(example: Example) -> str:
    """The example drawn as SVG, its turn's chairs or places marked, cut to its window."""
    view = shown(example)
    lit = targets(example.turn)
    if isinstance(view, CardView):
        return str(cards_svg(view, highlight=lit))
    drawing = str(board_svg(view, highlight=lit, coordinates=False))
    if not example.window:
        return drawing
    (x0, y0), (x1, y1) = (cell_xy(c) for c in example.window.split("-"))
    rows = view.board.size[1]
    left, top = MARGIN + x0 * UNIT, MARGIN + (rows - y1 - 1) * UNIT  # the cells exactly: no neighbour shows
    width, height = (x1 - x0 + 1) * UNIT, (y1 - y0 + 1) * UNIT
    head, rest = drawing.split(">", 1)  # the root's own tag: its box is the window
    for name, value in (("viewBox", f"{left} {top} {width} {height}"), ("width", width), ("height", height)):
        head = re.sub(rf' {name}="[^"]*"', f' {name}="{value}"', head, count=1)
    return f"{head}>{rest}"


def text(example: Example) -> str:
    """The example drawn as text, cut to its window."""
    view = shown(example)
    if isinstance(view, CardView):
        return "\n".join(grid_lines(cards_grid(view), *view.board.size, empty="")).rstrip()
    grid, _ = board_grid(view)
    cols, rows = view.board.size
    if not example.window:
        return "\n".join(grid_lines(grid, cols, rows, empty=".")).rstrip()
    (x0, y0), (x1, y1) = (cell_xy(c) for c in example.window.split("-"))
    return "\n".join(grid_lines(grid, cols, rows, empty=".", xs=range(x0, x1 + 1), ys=range(y0, y1 + 1))).rstrip()
