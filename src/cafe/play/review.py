"""Looking back at a saved game in the terminal: step through its turns, and analyse it.

Keys: ←/→ a turn back or forward, home/end the start or the end, a to analyse (every turn judged
against the search's best, docs/analysis.md), q to leave.  Once analysed, each turn in the list
shows its class and loss, and the status line the best turn found.
"""

from __future__ import annotations

import os
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from cafe.ai.analysis import DEFAULT_BUDGET, VERDICT_WORDS, TurnReview, review_record
from cafe.i18n import N_, _, translate
from cafe.play.drawing import cafe_map, translate_bindings
from cafe.record import Record

VERDICT_STYLES = {"best": "green", "good": "", "inaccuracy": "yellow", "mistake": "orange1", "blunder": "bold red"}


class ReviewScreen(Screen[None]):
    """A record's positions turn by turn, with the analysis of each turn once it is made."""

    CSS = """
    #review { height: 1fr; }
    #review-map { width: auto; padding: 0 1; }
    #turns { width: 1fr; min-width: 44; padding: 0 1; border: round $secondary; }
    #review-status { height: auto; min-height: 2; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "back", N_("Turn back")),
        Binding("right", "forward", N_("Turn forward")),
        Binding("home", "start", N_("Start")),
        Binding("end", "end", N_("End")),
        Binding("a", "analyse", N_("Analyse")),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, record: Record, budget: int = DEFAULT_BUDGET, jobs: int | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.record = record
        self.budget, self.jobs = budget, jobs or os.cpu_count() or 1
        self.turn = len(record.turns)  # turns taken in the position shown: the end, at first
        self.reviews: list[TurnReview] = []
        self.analysing = False
        game = record.replay()
        self.points = game.turn_points()
        self.movers = [game.players[r.player] for r in game.results if r.turn_over]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="review"):
            yield Static(id="review-map")
            with Vertical():
                yield Static(id="turns")
        yield Static(id="review-status")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        """The position after ``self.turn`` turns, the list of turns, and what the status line says."""
        game = self.record.new_game()
        for turn in self.record.turns[: self.turn]:
            game.push_turn(turn)
        self.query_one("#review-map", Static).update(cafe_map(game.view(), set()))
        self.query_one("#turns", Static).update(self._turn_list())
        self.query_one("#review-status", Static).update(self._status())

    def _turn_list(self) -> Text:
        out = Text()
        first = max(0, min(self.turn - 10, len(self.record.turns) - 20))
        for n in range(first, min(len(self.record.turns), first + 20)):
            current = n + 1 == self.turn
            out.append("▶ " if current else "  ", style="bold")
            line = f"{n + 1:>3}. {self.record.turns[n]:<24} {self.points[n]:+d}"
            out.append(line, style="reverse" if current else "")
            if n < len(self.reviews):
                review = self.reviews[n]
                out.append(
                    f"  {translate(VERDICT_WORDS[review.verdict])} ({review.loss:.1f})",
                    style=VERDICT_STYLES[review.verdict],
                )
            out.append("\n")
        return out

    def _status(self) -> Text:
        total = len(self.record.turns)
        if self.turn == 0:
            text = Text(_("The start of the game (0/{total}).", total=total))
        else:
            n = self.turn - 1
            turn = f"{self.movers[n]} {self.record.turns[n]} ({self.points[n]:+d})"
            text = Text(_("Turn {n}/{total}: {turn}.", n=self.turn, total=total, turn=turn))
            if n < len(self.reviews):
                review = self.reviews[n]
                best = _("the best turn found") if review.best == review.played else _("best {turn}", turn=review.best)
                said = _(
                    "{verdict}: {best} ({value:+.1f}), lost {loss:.1f}",
                    verdict=translate(VERDICT_WORDS[review.verdict]),
                    best=best,
                    value=review.best_value,
                    loss=review.loss,
                )
                text.append("  " + said, style=VERDICT_STYLES[review.verdict])
        if self.analysing:
            text.append("\n" + _("Analysing ..."), style="dim")
        elif not self.reviews:
            text.append("\n" + _("Press a to analyse every turn."), style="dim")
        return text

    def action_back(self) -> None:
        self.turn = max(0, self.turn - 1)
        self.show()

    def action_forward(self) -> None:
        self.turn = min(len(self.record.turns), self.turn + 1)
        self.show()

    def action_start(self) -> None:
        self.turn = 0
        self.show()

    def action_end(self) -> None:
        self.turn = len(self.record.turns)
        self.show()

    def action_analyse(self) -> None:
        if self.analysing or self.reviews:
            return
        self.analysing = True
        self.show()
        self.run_worker(self._analyse, thread=True)

    def _analyse(self) -> None:
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        reviews = review_record(self.record, self.budget, 0, self.jobs, progress)
        self.app.call_from_thread(self._analysed, reviews)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#review-status", Static).update(
            Text(_("Analysing: {done}/{total} turns", done=done, total=total), style="dim")
        )

    def _analysed(self, reviews: list[TurnReview]) -> None:
        self.reviews, self.analysing = reviews, False
        self.show()

    def action_leave(self) -> None:
        if isinstance(self.app, ReviewApp):
            self.app.exit()
        else:  # back to the game it was opened from
            self.app.pop_screen()


class ReviewApp(App[None]):
    """`cafe play --review RECORD`: the review screen alone."""

    TITLE = "Café International: review"

    def __init__(self, record: Record, budget: int = DEFAULT_BUDGET, jobs: int | None = None) -> None:
        super().__init__()
        self.review = ReviewScreen(record, budget, jobs)

    def on_mount(self) -> None:
        self.push_screen(self.review)
