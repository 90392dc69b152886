"""The terminal interface (Textual): the café, the players, a log, and a line to type moves in.

Moves are typed in the notation (completed as you type), or in words
("american lady h1").  Typing just a guest (``USAm``, ``american gentleman``)
marks the places it may take, with their points.  Keys: ctrl+z undo a step of
this turn, ctrl+h a hint, ctrl+s save, ctrl+q quit (saving an unfinished game), and once the game is
over ctrl+r to review and analyse it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Button, Footer, Header, Input, RichLog, Static

from cafe.card_game import CardGame
from cafe.errors import CafeError
from cafe.i18n import N_, _, n_
from cafe.play.drawing import NATION_COLOURS, cafe_map, translate_bindings
from cafe.play.session import Session
from cafe.record import Record
from cafe.view import BoardView, View


def players_panel(session: Session, view: View) -> Text:
    """Scores, hands (as far as this view shows them), hand sizes, the bag and the bar."""
    out = Text()
    for p, seat in enumerate(session.seats):
        mover = p == view.current_player and not view.over
        out.append("▶ " if mover else "  ", style="bold")
        out.append(f"{seat.name:<16}", style="bold" if mover else "")
        out.append(_("{points:>4} pts", points=view.scores[p]) + "\n")
        hand = view.hands[p]
        if hand is None:
            shown = Text(n_("{n} hidden", "{n} hidden", view.hand_counts[p]))
        else:
            shown = Text()
            for tile in hand:
                shown.append(tile.name + " ", style=NATION_COLOURS.get(tile.name[:3], "bold"))
        out.append("    " + _("hand") + " ")
        out.append_text(shown)
        if isinstance(view, BoardView):
            out.append(
                " " + _("(size {n})", n=view.hand_sizes[p]) + (" " + _("out of the game") if view.eliminated[p] else "")
            )
        elif view.face_down_counts[p]:
            out.append(" " + _("({n} face down)", n=view.face_down_counts[p]))
        out.append("\n")
    if isinstance(view, BoardView):
        nxt = view.next_bar_value
        out.append("\n" + n_("Bag: {n} tile", "Bag: {n} tiles", view.bag_count) + "   ")
        out.append(_("Bar: {taken}/{stools} stools, ", taken=len(view.bar), stools=len(view.bar_values)))
        out.append(_("full") if nxt is None else _("next {value:+d}", value=nxt))
    else:
        out.append("\n" + n_("Deck: {n} card", "Deck: {n} cards", view.deck_count) + "   ")
        out.append(_("Table pile: {n}", n=view.table_pile_count))
    if view.this_turn:
        out.append("\n" + _("This turn: {steps}", steps=", ".join(view.this_turn)))
    return out


class StepSuggester(Suggester):
    """Completes what is typed to a legal step in notation."""

    def __init__(self, session: Session) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.session = session

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        for step in self.session.completions():
            if step.lower().startswith(value.lower()):
                return step
        return None


class PassKeyboard(ModalScreen[None]):
    """Between two people when hands are hidden: nothing of either hand shows until the next is ready."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", N_("Ready"))]

    def __init__(self, name: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(_("Pass the keyboard to {name}.\n\nPress Enter when {name} is ready.", name=self.player_name))
            yield Button(_("Ready"), id="ready", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()

    def action_ready(self) -> None:
        self.dismiss()


class SessionApp(App[None]):
    """What the game and the tutorial show alike: the café of a session drawn (``#map``, its ``marked`` chairs lit),
    the players beside it (``#players``), and a status line (``#status``)."""

    session: Session
    marked: set[str]

    def refresh_view(self) -> None:
        view = self.session.view()
        self.query_one("#map", Static).update(cafe_map(view, self.marked))
        self.query_one("#players", Static).update(players_panel(self.session, view))

    def say(self, text: str, style: str = "") -> None:
        self.query_one("#status", Static).update(Text(text, style=style))


class CafeApp(SessionApp):
    """Café International in the terminal."""

    TITLE = "Café International"
    CSS = """
    #main { height: 1fr; }
    #map { width: auto; padding: 0 1; }
    #side { width: 1fr; min-width: 40; }
    #players { height: auto; padding: 0 1; border: round $primary; }
    #log { height: 1fr; border: round $secondary; }
    #status { height: auto; min-height: 1; padding: 0 1; }
    #pass { align: center middle; width: 60; height: auto; padding: 2; border: thick $primary; }
    PassKeyboard { align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", N_("Undo step")),
        Binding("ctrl+h", "hint", N_("Hint")),
        Binding("ctrl+s", "save", N_("Save")),
        Binding("ctrl+q", "quit", N_("Save and quit")),
        Binding("ctrl+r", "review", N_("Review")),
    ]

    def __init__(self, session: Session, bot_delay: float = 0.4) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session
        self.bot_delay = bot_delay
        self.marked: set[str] = set()
        self.finished = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield Static(id="map")
            with Vertical(id="side"):
                yield Static(id="players")
                yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="status")
        yield Input(
            placeholder=_("your move: USAm@h3, 'american gentleman h3', USAm to see its chairs, stop ..."),
            suggester=StepSuggester(self.session),
            id="move",
        )
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self._rules_line()
        for turn, text in enumerate(self.session.game.turns()):
            self.query_one(RichLog).write(_("turn {n}: {turn}", n=turn + 1, turn=text))
        self.refresh_view()
        self.next_turn()

    # ------------------------------------------------------------------ drawing

    def log_line(self, text: str) -> None:
        self.query_one(RichLog).write(text)

    def _rules_line(self) -> str:
        game = self.session.game
        if isinstance(game, CardGame):
            return n_("card game, {n} player", "card game, {n} players", len(game.players))
        return n_("board game, {n} player", "board game, {n} players", len(game.players))

    # ------------------------------------------------------------------ turns

    def next_turn(self) -> None:
        """Hand the move to whoever is next: a bot thinks in a worker; a person may need the keyboard passed."""
        session = self.session
        if session.game.is_over():
            self.game_over()
            return
        seat = session.game.current_player
        if session.current.human:
            others = [p for p in session.humans() if p != seat]
            if session.hands_hidden() and others and session.watcher != seat and not session.game.this_turn():
                session.watcher = None  # hide every hand while the keyboard changes hands
                self.refresh_view()
                self.push_screen(PassKeyboard(session.current.name), lambda _ready: self._person_ready())
                return
            self._person_ready()
        else:
            self.query_one(Input).disabled = True
            self.say(_("{name} is thinking ...", name=session.current.name), "italic")
            self.run_worker(self._bot_move, thread=True, exclusive=True, group="bots")

    def _person_ready(self) -> None:
        self.session.watcher = self.session.game.current_player
        self.refresh_view()
        field = self.query_one(Input)
        field.disabled = False
        field.focus()
        legal = self.session.completions()
        forced = " " + _("Nothing else is possible: type {step}.", step=legal[0]) if len(legal) == 1 else ""
        self.say(_("{name}, your move.", name=self.session.current.name) + forced, "bold")

    def _bot_move(self) -> None:
        started = time.perf_counter()
        step = self.session.bot_step()
        wait = self.bot_delay - (time.perf_counter() - started)
        if wait > 0:
            time.sleep(wait)
        self.call_from_thread(self._apply_bot_step, step)

    def _apply_bot_step(self, step: object) -> None:
        game = self.session.game
        player = game.current_player
        turns_before = len(game.turns())
        result = game.push(step)  # type: ignore[arg-type]
        if result.turn_over:
            self._log_turns(turns_before, player)
        self.refresh_view()
        self.next_turn()

    def _log_turns(self, since: int, player: int) -> None:
        game = self.session.game
        points = game.turn_points()
        for i, text in enumerate(game.turns()[since:], start=since):
            name = self.session.seats[player].name
            self.log_line(_("turn {n}: {name} {turn} ({points:+d})", n=i + 1, name=name, turn=text, points=points[i]))

    def game_over(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.query_one(Input).disabled = True
        path = self.session.save()
        lines = self.session.summary()
        for line in lines:
            self.log_line(line)
        self.log_line(_("The record is saved in {path}.", path=path))
        self.refresh_view()
        self.say(_("Game over. {result}  Record: {path}.  ctrl+r reviews and analyses it, ctrl+q quits.",
                   result=lines[-1], path=path), "bold")  # fmt: skip

    # ------------------------------------------------------------------ typing

    def on_input_changed(self, event: Input.Changed) -> None:
        text = event.value.strip()
        session = self.session
        if not text or not session.current.human or session.game.is_over():
            self.marked = set()
            self.refresh_view()
            return
        targets = session.targets(text)
        if targets:
            self.marked = {step.split("@")[1].split("=")[0] for step, _points in targets}
            self.say("  ".join(f"{step} {points:+d}" for step, points in targets[:12]))
        else:
            self.marked = set()
            self.say(session.preview(text))
        self.refresh_view()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        session = self.session
        field = event.input
        text = event.value.strip()
        if not text:
            return
        game = session.game
        player, turns_before = game.current_player, len(game.turns())
        try:
            said = session.play(text)
        except CafeError as error:
            self.say(str(error), "bold red")  # the position is unchanged; the text stays for correcting
            return
        field.value = ""
        self.marked = set()
        self.say(said)
        if len(game.turns()) > turns_before:
            self._log_turns(turns_before, player)
        self.refresh_view()
        if game.is_over() or game.current_player != player or not game.this_turn():
            self.next_turn()

    # ------------------------------------------------------------------ keys

    def action_undo(self) -> None:
        if not self.session.current.human:
            return
        try:
            self.say(self.session.undo())
        except CafeError as error:
            self.say(str(error), "bold red")
        self.refresh_view()

    def action_hint(self) -> None:
        if not self.session.current.human or self.session.game.is_over():
            return
        self.say(_("thinking of a hint ..."), "italic")
        self.run_worker(self._hint, thread=True, exclusive=True, group="hint")

    def _hint(self) -> None:
        step = self.session.hint()
        points = self.session.game.step_points(step)
        self.call_from_thread(self.say, _("Hint: {step} ({points:+d})", step=str(step), points=points), "bold green")

    def action_review(self) -> None:
        """Once the game is over: step through it and analyse it (cafe.play.review)."""
        if not self.finished:
            self.say(_("The review opens once the game is over."))
            return
        from cafe.play.review import ReviewScreen

        self.push_screen(ReviewScreen(Record.of(self.session.game)))

    def action_save(self) -> None:
        path = self.session.save()
        self.say(_("Saved to {path}; resume with: cafe play --resume {path}", path=path))

    async def action_quit(self) -> None:
        """Quit; an unfinished game is saved first, so that nothing is lost."""
        if not self.session.game.is_over():
            self.session.save()
        self.exit()


def run(session: Session, bot_delay: float = 0.4) -> Path | None:
    """Play in the terminal; return where the record was saved, if it was."""
    app = CafeApp(session, bot_delay)
    app.run()
    return session.record_path
