"""A game at the keyboard, apart from how it is drawn: who sits where, moves, undo, hints, saving.

The interface (``cafe.play.app``) only draws what a session says and passes on
what the person types, so everything a person can do is testable here too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cafe.ai.base import Player
from cafe.ai.levels import LEVELS, make_player, strongest
from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.errors import CafeError, IllegalStepError, NotationError
from cafe.friendly import parse_friendly
from cafe.game import players_problem
from cafe.i18n import T, _, n_
from cafe.record import Record
from cafe.steps import Kind, Step, parse_step
from cafe.view import View

Game = BoardGame | CardGame
HUMAN = "human"


class SeatError(CafeError):
    """A seat description that names neither a person nor a bot."""


@dataclass(frozen=True)
class Seat:
    """One seat: a person (``human``) or a bot (a player string, see cafe.ai.levels), and a name."""

    name: str
    spec: str

    @property
    def human(self) -> bool:
        return self.spec == HUMAN


def parse_seats(text: str, edition: str) -> list[Seat]:
    """Seats from ``human,medium,human:Bob,hard`` (a person may be named after a colon)."""
    seats: list[Seat] = []
    for i, item in enumerate(filter(None, (part.strip() for part in text.split(",")))):
        kind, _colon, name = item.partition(":")
        if kind.lower() in (HUMAN, "you", "person"):
            seats.append(Seat(name or (_("You") if kind.lower() == "you" else _("Player {n}", n=i + 1)), HUMAN))
            continue
        try:
            make_player(item)
        except CafeError as error:
            raise SeatError(T("seat {n}: {problem}", n=i + 1, problem=error.text)) from None
        level = item if item in LEVELS else item.split(":")[0]
        seats.append(Seat(f"{level.capitalize()} bot {i + 1}", item))
    low, high = (2, 4) if edition == "board" else (2, 5)
    if not low <= len(seats) <= high:
        raise SeatError(players_problem(edition, low, high, len(seats)))
    return seats


def read_step(text: str) -> Step:
    """A step typed by a person: the canonical notation, or the friendly form."""
    text = text.strip()
    if not text:
        raise NotationError(T("type a move, for example USAm@h3 or 'american gentleman h3'"))
    try:
        return parse_step(text)
    except NotationError:
        return parse_friendly(text)


class Session:
    """A game with its seats: persons move by typing, bots by being asked."""

    def __init__(self, game: Game, seats: Sequence[Seat], record_path: Path | None = None, seed: int | None = None):
        self.game = game
        self.seats = list(seats)
        self.record_path = record_path
        humans = [p for p, seat in enumerate(seats) if seat.human]
        self.watcher: int | None = humans[0] if humans else None  # whose view is on the screen
        rng = random.Random(seed)
        self.bots: dict[int, Player] = {
            p: make_player(seat.spec, rng.randrange(1 << 30)) for p, seat in enumerate(seats) if not seat.human
        }

    @classmethod
    def new(
        cls,
        edition: str,
        seats: Sequence[Seat],
        rules: Any = None,
        seed: int | None = None,
        record_path: Path | None = None,
    ) -> Session:
        names = [seat.name for seat in seats]
        game: Game = (
            BoardGame(names, rules=rules, seed=seed) if edition == "board" else CardGame(names, rules=rules, seed=seed)
        )
        return cls(game, seats, record_path, seed)

    @classmethod
    def resume(cls, path: Path) -> Session:
        """A saved game, with its seats and the steps of a turn in progress."""
        record = Record.load(path)
        game = record.replay()
        saved = record.extra.get("seats")
        if not isinstance(saved, list) or len(saved) != len(game.players):
            saved = [HUMAN] * len(game.players)
        seats = [Seat(name, str(spec)) for name, spec in zip(game.players, saved, strict=True)]
        for text in record.extra.get("this_turn", []):
            game.push(text)
        return cls(game, seats, path)

    # ------------------------------------------------------------------ reading

    @property
    def current(self) -> Seat:
        return self.seats[self.game.current_player]

    def humans(self) -> list[int]:
        return [p for p, seat in enumerate(self.seats) if seat.human]

    def view(self) -> View:
        """What the screen may show: the view of the person at the keyboard (``watcher``, who stays
        while bots move; None hides every hand), and everything once the game is over."""
        game = self.game
        return game.view(None if game.is_over() else self.watcher)

    def hands_hidden(self) -> bool:
        """Do the rules hide hands from other players (the card game, surprise guests)?"""
        return isinstance(self.game, CardGame) or bool(self.game.rules.surprise_guests)

    def preview(self, text: str) -> str:
        """What typing ``text`` would do: the points of a legal step, or why it is not legal."""
        try:
            step = read_step(text)
            self.game.check(step)
        except CafeError as error:
            return str(error)
        points = self.game.step_points(step)
        if step.kind in (Kind.SEAT, Kind.BAR):
            return n_("{step}: {points:+d} point", "{step}: {points:+d} points", points, step=str(step), points=points)
        return _("{step}: legal", step=str(step))

    def targets(self, text: str) -> list[tuple[str, int]]:
        """For a guest (``USAm``, ``american gentleman``) in hand: the places it may take now, with their points."""
        words = text.strip()
        out: list[tuple[str, int]] = []
        for step in self.game.legal_steps():
            if step.kind is Kind.SEAT and step.tile is not None and _names_tile(words, step):
                out.append((f"{step}", self.game.step_points(step)))
        return out

    def completions(self) -> list[str]:
        """Every legal step in notation (for completing what is typed)."""
        return [str(step) for step in self.game.legal_steps()]

    # ------------------------------------------------------------------ moving

    def play(self, text: str) -> str:
        """Play a typed step for the current person; return what happened.  Illegal input changes nothing."""
        if not self.current.human:
            raise IllegalStepError(T("it is {name}'s turn, not a person's", name=self.current.name))
        step = read_step(text)
        result = self.game.push(step)
        said = _("{name} played {step}", name=self.seats[result.player].name, step=str(step))
        return f"{said} ({result.points:+d})" if result.points else said

    def undo(self) -> str:
        """Take back the last step of the turn in progress (never a step of an earlier turn)."""
        if not self.game.this_turn():
            raise IllegalStepError(T("there is nothing to undo in this turn"))
        return _("took back {step}", step=str(self.game.pop()))

    def bot_step(self) -> Step:
        """The current bot's choice (it sees only its own view)."""
        seat = self.game.current_player
        return self.bots[seat].choose(self.game.view(seat), self.game.legal_steps())

    def hint(self) -> Step:
        """What the search would play here for the current person."""
        seat = self.game.current_player
        return strongest(seed=0).choose(self.game.view(seat), self.game.legal_steps())

    # ------------------------------------------------------------------ saving

    def save(self, path: Path | None = None) -> Path:
        """Write the record (with the seats and the turn in progress) and return where."""
        path = path or self.record_path or Path("cafe-game.json")
        record = Record.of(self.game).to_json()
        record["seats"] = [seat.spec for seat in self.seats]
        if self.game.this_turn():
            record["this_turn"] = [str(step) for step in self.game.this_turn()]
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        self.record_path = path
        return path

    def summary(self) -> list[str]:
        """The result: places, final scores, penalties, and the winner."""
        game = self.game
        places = game.places() or tuple(range(1, len(self.seats) + 1))
        penalties = game.penalties()
        lines = []
        for p in sorted(range(len(self.seats)), key=lambda q: places[q]):
            penalty = " " + _("(penalty -{n})", n=penalties[p]) if penalties[p] else ""
            score = n_("{n} point", "{n} points", game.scores[p])
            lines.append(f"{places[p]}. {self.seats[p].name}: {score}{penalty}")
        winner = game.winner()
        lines.append(_("A shared first place.") if winner is None else _("{name} wins!", name=self.seats[winner].name))
        return lines


def _names_tile(words: str, step: Step) -> bool:
    """Does ``words`` name the step's tile (``USAm``, ``usam``, ``american gentleman``, ``joker lady``)?"""
    assert step.tile is not None
    if words.lower() == step.tile.name.lower():
        return True
    try:
        probe = parse_friendly(f"{words} {step.place}" + (f" {step.nation.name}" if step.nation else ""))
    except NotationError:
        return False
    return probe == step
