"""Game records (RULES.md §7.2) and replay (§7.3).

A record is one JSON document holding everything needed to replay a game
without random numbers: the rules, the board, the players, the bag order and
the turns.  It holds the bag, so it is a secret until the game has ended.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.errors import CafeError, RecordError
from cafe.i18n import N_, T, Text
from cafe.layout import load_board
from cafe.options import BoardRules, CardRules, make_rules, rules_to_json

FORMAT = "cafe-record-1"
SECRETS = {  # what each edition's record must hold to replay without random numbers
    "board": {"bag": N_("the 100 tiles in draw order")},
    "cards": {
        "deck": N_("the 96 client cards in draw order"),
        "table_cards": N_("the 24 table nations in the order laid"),
    },
}
Game = BoardGame | CardGame


@dataclass
class Record:
    """A parsed, validated record.  ``replay()`` turns it into a game."""

    edition: str
    rules: Any
    board: Any
    players: list[str]
    bag: list[str] = field(default_factory=list)  # board game
    deck: list[str] = field(default_factory=list)  # card game
    table_cards: list[str] = field(default_factory=list)  # card game
    turns: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Validate a parsed JSON document as a record."""
        if not isinstance(data, dict):
            raise RecordError(T("a record is a JSON object"))
        if data.get("format") != FORMAT:
            raise RecordError(T("'format' must be {format!r}, not {given!r}", format=FORMAT, given=data.get("format")))
        edition = data.get("edition")
        if edition not in ("board", "cards"):
            raise RecordError(T("'edition' must be 'board' or 'cards', not {edition!r}", edition=edition))
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(T("'players' must be a list of names"))
        turns = data.get("turns", [])
        if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
            raise RecordError(T("'turns' must be a list of turn strings"))
        secrets: dict[str, list[Any]] = {}
        needs = SECRETS[edition]
        for key, what in needs.items():
            value = data.get(key)
            if not isinstance(value, list):
                raise RecordError(T("'{key}' must be {what}", key=key, what=T(what)))
            secrets[key] = list(value)
        known = {"format", "edition", "rules", "board", "players", "bag", "deck", "table_cards", "turns"}
        return cls(
            edition=edition,
            rules=data.get("rules", "printed"),
            board=data.get("board", "classic" if edition == "board" else "cards-x"),
            players=list(players),
            turns=list(turns),
            extra={k: v for k, v in data.items() if k not in known},
            **secrets,
        )

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file, with clear errors for a missing file or bad JSON."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RecordError(T("no such file: {path}", path=str(path))) from None
        except OSError as exc:
            raise RecordError(
                T("cannot read {path}: {reason}", path=str(path), reason=str(exc.strerror or exc))
            ) from None
        return cls.loads(text)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                T(
                    "not valid JSON: {msg} at line {lineno} column {colno}",
                    msg=exc.msg,
                    lineno=exc.lineno,
                    colno=exc.colno,
                )
            ) from None
        return cls.from_json(data)

    @classmethod
    def of(cls, game: Game) -> Record:
        """The full record of a game (its secrets included: give it out only after the end, or locally)."""
        if game.from_setup:
            raise RecordError(T("a game set up from a position has no record of its own"))
        if isinstance(game, CardGame):
            return cls(
                edition="cards",
                rules=rules_to_json(game.rules),
                board="cards-x",
                players=list(game.players),
                deck=[t.name for t in game.deck],
                table_cards=[n.name for n in game.table_cards],
                turns=game.turns(),
            )
        board: Any = game.board.name if game.board.name == "classic" else game.board.to_json()
        return cls(
            edition="board",
            rules=rules_to_json(game.rules),
            board=board,
            players=list(game.players),
            bag=[t.name for t in game.bag],
            turns=game.turns(),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "edition": self.edition,
            "rules": self.rules,
            "board": self.board,
            "players": self.players,
        }
        if self.edition == "board":
            out["bag"] = self.bag
        else:
            out["deck"] = self.deck
            out["table_cards"] = self.table_cards
        out["turns"] = self.turns
        out.update(self.extra)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def new_game(self) -> Game:
        """The game at its start (no turn taken)."""
        rules = make_rules(self.edition, self.rules)
        if isinstance(rules, CardRules):
            if self.board != "cards-x":
                raise RecordError(T("the card game is played on 'cards-x'"))
            return CardGame(self.players, rules=rules, deck=self.deck, table_cards=self.table_cards)
        assert isinstance(rules, BoardRules)
        board = load_board(self.board) if isinstance(self.board, (str, dict)) else None
        if board is None:
            raise RecordError(T("'board' must be a board name or a board object"))
        return BoardGame(self.players, rules=rules, board=board, bag=self.bag)

    def replay(self) -> Game:
        """Replay every turn; raise :class:`ReplayError` naming the first bad turn."""
        game = self.new_game()
        for number, turn in enumerate(self.turns, start=1):
            try:  # a turn after the end is refused by the edition's own rule (R2.8, R4.6)
                game.push_turn(turn)
            except CafeError as exc:
                raise ReplayError(number, exc.rule, exc.text) from None
        return game


class ReplayError(RecordError):
    """A record's turn that cannot be played: ``turn N: R<rule>: <what is wrong>``.

    ``turn N: R<rule>:`` is the same in every language (scripts read it); what is wrong is translated.
    """

    def __init__(self, turn: int, rule: str, message: str | Text) -> None:
        self.turn = turn
        super().__init__(message, rule)

    def message(self, language: str | None = None) -> str:
        return f"turn {self.turn}: {super().message(language)}"


def summary(game: Game) -> dict[str, Any]:
    """The replay contract's JSON object (RULES.md §7.3), plus a few readable extras."""
    s = game.state
    cards = isinstance(game, CardGame)
    extras: dict[str, Any] = (
        {"face_down_counts": [len(d) for d in s.down], "deck_count": game.deck_count(),
         "table_pile_count": game.table_pile_count()}
        if isinstance(game, CardGame)
        else {"bag_count": game.bag_count(), "bar_taken": len(s.stools)}
    )  # fmt: skip
    return {
        "over": game.is_over(),
        "end_reason": game.end_reason,
        "scores": list(s.scores),
        "turn_points": game.turn_points(),
        "hand_sizes": list(s.hand_n if cards else s.hand_size),
        "hand_counts": list(s.hand_n),
        "eliminated": [False] * len(game.players) if cards else list(s.eliminated),
        "winner": game.winner(),
        "players": list(game.players),
        "penalties": list(game.penalties()),
        "places": list(p) if (p := game.places()) is not None else None,
        "turns": game.turn_number,
        "current_player": None if game.is_over() else game.current_player,
        **extras,
    }
