"""The tutorial in the terminal (Textual): the lesson's text, the café drawn as in ``cafe play``, and a line to type
steps in, in the notation or in words.  A refused step says the rule it breaks and the lesson's nudge, and changes
nothing."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Input, Static

from cafe.errors import CafeError
from cafe.i18n import N_, _, translate
from cafe.learn.lesson import Lesson, attempt, lessons
from cafe.learn.progress import Progress
from cafe.play.app import SessionApp, StepSuggester
from cafe.play.drawing import translate_bindings
from cafe.play.session import Seat, Session, read_step


class TutorialApp(SessionApp):
    """Lesson after lesson; each is done when one of its accepted turns is played."""

    TITLE = "Café International"
    CSS = """
    #main { height: 1fr; }
    #map { width: auto; padding: 0 1; }
    #side { width: 1fr; min-width: 40; }
    #lesson { height: 1fr; padding: 0 1; border: round $primary; }
    #players { height: auto; padding: 0 1; border: round $secondary; }
    #status { height: auto; min-height: 1; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "next", N_("Next lesson")),
        Binding("ctrl+b", "previous", N_("Lesson before")),
        Binding("ctrl+r", "again", N_("Start again")),
        Binding("ctrl+o", "show", N_("Show me")),
        Binding("ctrl+q", "quit", N_("Quit")),
    ]

    def __init__(self, progress: Progress, start: str | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.progress = progress
        self.lessons = lessons()
        ids = [found.id for found in self.lessons]
        self.index = ids.index(start) if start in ids else progress.next_of(ids)
        self.steps: tuple[str, ...] = ()
        self.finished = False
        self.session = self._session()
        self.marked: set[str] = set()

    @property
    def lesson(self) -> Lesson:
        return self.lessons[self.index]

    def _session(self) -> Session:
        game = self.lesson.start()
        return Session(game, [Seat(name, "human") for name in game.players])

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield Static(id="map")
            with Vertical(id="side"):
                with VerticalScroll(id="lesson"):
                    yield Static(id="text")
                yield Static(id="players")
        yield Static(id="status")
        yield Input(placeholder=_("your step: USAm@h3, 'american lady h1', stop ..."), id="move",
                    suggester=StepSuggester(self.session))  # fmt: skip
        yield Footer()

    def on_mount(self) -> None:
        self.open_lesson()

    # ------------------------------------------------------------------ lessons

    def open_lesson(self) -> None:
        self.steps, self.finished, self.marked = (), False, set()
        self.session.game = self.lesson.start()
        self.session.watcher = 0
        lesson = self.lesson
        self.sub_title = _("Lesson {n} of {total}", n=self.index + 1, total=len(self.lessons))
        text = Text()
        text.append(translate(lesson.title) + "\n", style="bold")
        text.append(_("Rules: {rules}", rules=", ".join(lesson.rules)) + "\n\n", style="dim")
        text.append(translate(lesson.intro) + "\n\n")
        text.append(translate(lesson.goal), style="bold")
        self.query_one("#text", Static).update(text)
        self.say(_("Your turn: type a step, or ctrl+o to be shown."))
        self.refresh_view()
        field = self.query_one(Input)
        field.value = ""
        field.focus()

    # ------------------------------------------------------------------ typing

    def on_input_changed(self, event: Input.Changed) -> None:
        text = event.value.strip()
        targets = self.session.targets(text) if text and not self.finished else []
        self.marked = {step.split("@")[1].split("=")[0] for step, _points in targets}
        self.refresh_view()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.finished:
            self.action_next()
            return
        if not text:
            return
        try:
            step = str(read_step(text))
        except CafeError as error:
            self.say(str(error), "bold red")
            return
        outcome = attempt(self.lesson, self.steps, step)
        if outcome.refusal is not None:  # nothing changes; the text stays for correcting
            said = Text(f"✗ {outcome.said()}\n", style="bold red")
            said.append(translate(outcome.nudge or self.lesson.goal))  # the lesson's word, plainly
            self.query_one("#status", Static).update(said)
            return
        self.steps = outcome.steps
        self.session.game = outcome.game
        event.input.value = ""
        self.marked = set()
        self.refresh_view()
        if outcome.done:
            self.finished = True
            self.progress.mark(self.lesson.id, done=True)
            last = self.index == len(self.lessons) - 1
            after = _("That was the last lesson.") if last else _("Press Enter for the next lesson.")
            self.say(f"✓ {translate(self.lesson.done)}\n{after}", "bold green")
        else:
            self.say(_("Played {step}. Go on.", step=step))

    # ------------------------------------------------------------------ keys

    def action_next(self) -> None:
        if not self.finished:
            self.progress.mark(self.lesson.id, done=False)  # skipped
        if self.index + 1 < len(self.lessons):
            self.index += 1
            self.open_lesson()
        else:
            self.say(_("That was the last lesson. ctrl+b goes back, ctrl+q quits."), "bold")

    def action_previous(self) -> None:
        if self.index > 0:
            self.index -= 1
        self.open_lesson()

    def action_again(self) -> None:
        self.open_lesson()

    def action_show(self) -> None:
        """The first accepted turn, from where the learner is (or from the start if they left every path)."""
        path = next((p for p in self.lesson.paths if p[: len(self.steps)] == self.steps), self.lesson.paths[0])
        self.say(_("Try: {steps}", steps=", ".join(path[len(self.steps) :])), "bold")
