"""Per-player views (RULES.md §5): what one seat may see of a game of either edition.

Never in a view: the bag's order, the deck's or the table pile's order, or a
hand hidden from the seat.  Board-game hands are open in the printed rules;
with ``surprise_guests``, and always in the card game, a player sees only
their own hand and the others' counts.  A view is plain data (``to_json``) so
that it can cross a network.

Each edition builds its own views (``BoardGame.view``, ``CardGame.view``); this module knows neither game, and
the renderings (``text.py``, ``svg.py``) draw views, never games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cafe.errors import RecordError
from cafe.frozen import rebuilt
from cafe.i18n import T
from cafe.layout import Board, CardBoard, load_board, load_card_board
from cafe.tiles import Nation, Tile


@dataclass(frozen=True)
class SeatedGuest:
    chair: str
    tile: Tile
    nation: Nation  # the nation it counts as (a joker's given nation)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True)
class GameView:
    """What every view holds, whatever the edition (``seat`` None: a spectator)."""

    seat: int | None
    players: tuple[str, ...]
    rules: Any
    hands: tuple[tuple[Tile, ...] | None, ...]  # None where the hand is hidden from this seat
    hand_counts: tuple[int, ...]
    scores: tuple[int, ...]
    penalties: tuple[int, ...]
    current_player: int
    turn_number: int
    this_turn: tuple[str, ...]  # steps taken in the turn in progress
    turns: tuple[str, ...]
    over: bool
    end_reason: str | None
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": list(self.players),
            "rules": self.rules,
            "hands": [None if h is None else [t.name for t in h] for h in self.hands],
            "hand_counts": list(self.hand_counts),
            "scores": list(self.scores),
            "penalties": list(self.penalties),
            "current_player": self.current_player,
            "turn_number": self.turn_number,
            "this_turn": list(self.this_turn),
            "turns": list(self.turns),
            "over": self.over,
            "end_reason": self.end_reason,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class BoardView(GameView):
    """One seat's view of a board game."""

    board: Board
    guests: tuple[SeatedGuest, ...]
    closed_chairs: tuple[str, ...]
    bar: tuple[Tile, ...]
    bar_values: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    eliminated: tuple[bool, ...]
    bag_count: int

    @property
    def next_bar_value(self) -> int | None:
        return self.bar_values[len(self.bar)] if len(self.bar) < len(self.bar_values) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": "board",
            **super().to_json(),
            "board": self.board.name if self.board.name == "classic" else self.board.to_json(),
            "guests": [{"chair": g.chair, "tile": g.tile.name, "nation": g.nation.name} for g in self.guests],
            "closed_chairs": list(self.closed_chairs),
            "bar": [t.name for t in self.bar],
            "bar_values": list(self.bar_values),
            "hand_sizes": list(self.hand_sizes),
            "eliminated": list(self.eliminated),
            "bag_count": self.bag_count,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True)
class CardView(GameView):
    """One seat's view of a card game.  Others' face-down cards show only their number."""

    board: CardBoard
    tables: tuple[Nation, ...]  # the table card on each slot, in slot order
    clients: tuple[tuple[str, Tile], ...]  # (place, card)
    face_down: tuple[tuple[Tile, ...] | None, ...]  # only one's own face-down cards are shown
    face_down_counts: tuple[int, ...]
    deck_count: int
    table_pile_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": "cards",
            **super().to_json(),
            "tables": [{"slot": slot, "nation": n.name} for slot, n in zip(self.board.slots, self.tables, strict=True)],
            "clients": [{"place": place, "card": card.name} for place, card in self.clients],
            "face_down": [None if d is None else [t.name for t in d] for d in self.face_down],
            "face_down_counts": list(self.face_down_counts),
            "deck_count": self.deck_count,
            "table_pile_count": self.table_pile_count,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


View = BoardView | CardView  # what a player of either edition is shown


def view_from_json(data: Any) -> View:
    """A view back from :meth:`GameView.to_json` (what crosses a network or the engine protocol).

    Anything that is not such an object is refused with a :class:`RecordError` naming the problem.
    """
    if not isinstance(data, dict):
        raise RecordError(T("a view is a JSON object"))
    edition = data.get("edition")
    if edition not in ("board", "cards"):
        raise RecordError(T("a view's 'edition' must be 'board' or 'cards', not {edition!r}", edition=edition))
    try:
        common = {
            "seat": data["seat"],
            "players": tuple(data["players"]),
            "rules": data["rules"],
            "hands": tuple(None if h is None else tuple(Tile.parse(t) for t in h) for h in data["hands"]),
            "hand_counts": tuple(data["hand_counts"]),
            "scores": tuple(data["scores"]),
            "penalties": tuple(data["penalties"]),
            "current_player": data["current_player"],
            "turn_number": data["turn_number"],
            "this_turn": tuple(data["this_turn"]),
            "turns": tuple(data["turns"]),
            "over": data["over"],
            "end_reason": data["end_reason"],
            "winner": data["winner"],
        }
        if edition == "board":
            return BoardView(
                **common,
                board=load_board(data["board"]),
                guests=tuple(
                    SeatedGuest(g["chair"], Tile.parse(g["tile"]), Nation.parse(g["nation"])) for g in data["guests"]
                ),
                closed_chairs=tuple(data["closed_chairs"]),
                bar=tuple(Tile.parse(t) for t in data["bar"]),
                bar_values=tuple(data["bar_values"]),
                hand_sizes=tuple(data["hand_sizes"]),
                eliminated=tuple(data["eliminated"]),
                bag_count=data["bag_count"],
            )
        return CardView(
            **common,
            board=load_card_board(),
            tables=tuple(Nation.parse(t["nation"]) for t in data["tables"]),
            clients=tuple((c["place"], Tile.parse(c["card"])) for c in data["clients"]),
            face_down=tuple(None if d is None else tuple(Tile.parse(t) for t in d) for d in data["face_down"]),
            face_down_counts=tuple(data["face_down_counts"]),
            deck_count=data["deck_count"],
            table_pile_count=data["table_pile_count"],
        )
    except KeyError as error:
        raise RecordError(T("a {edition} view needs the field {error}", edition=edition, error=error)) from None
    except (TypeError, ValueError, AttributeError) as error:
        raise RecordError(T("not a valid {edition} view: {error}", edition=edition, error=error)) from None
