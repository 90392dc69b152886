"""The tutorial's lessons: data (``lessons/*.json``), read and played here, the same for the terminal and the café.

A lesson is a position (the keyword arguments of ``BoardGame.from_position`` or ``CardGame.from_position``), what
to achieve, the turns that achieve it (in the notation of RULES.md §7.1), what the position must show once one of
them is played, and a nudge for each kind of mistake, keyed by the rule id that the engine's refusal carries (or
``other``: a legal step that is not what the lesson asks).  Every text in a lesson is an English catalog message:
``scripts/catalogs.py`` gathers them through :func:`messages`.

A person's attempt is the steps played so far: :func:`attempt` replays them and tries one more, so that a refused
step changes nothing, and a server needs to keep nothing between two steps.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.errors import CafeError
from cafe.i18n import N_, T, Text
from cafe.steps import parse_step, parse_turn

FOLDER = Path(__file__).parent / "lessons"
TEXTS = ("title", "intro", "goal", "done")  # a lesson's fields that a person reads
OTHER = "other"  # the nudge for a legal step that the lesson does not ask for
# what each edition's lessons must teach, together (RULES.md §2 and §4: every section, every rule of §2.3)
RULE_IDS = {
    "board": ("R2.1", "R2.2", "R2.3", "R2.3.1", "R2.3.2", "R2.3.3", "R2.3.4", "R2.3.5", "R2.3.6", "R2.4", "R2.5",
              "R2.6", "R2.7", "R2.8", "R2.9"),
    "cards": ("R4.1", "R4.2", "R4.3", "R4.4", "R4.5", "R4.6", "R4.7"),
}  # fmt: skip
PLAYERS = (N_("You"), "Ada")  # the learner, and the one other seat a lesson's position needs

Game = BoardGame | CardGame


class LessonError(CafeError):
    """No such lesson, or a lesson file that does not hold together."""


@dataclass(frozen=True)
class Mistake:
    """A kind of mistake: the rule its refusal names (or ``other``), the nudge, and steps that make it (the last
    is the one refused), which the tests try."""

    rule: str
    nudge: str
    example: tuple[str, ...]


@dataclass(frozen=True, eq=False)  # one object per lesson: compared and hashed as itself
class Lesson:
    """One idea, taught by one turn of the learner (seat 0)."""

    id: str
    edition: str
    title: str
    rules: tuple[str, ...]  # the rule ids it teaches
    intro: str
    goal: str
    done: str
    position: dict[str, Any]
    accepted: tuple[str, ...]  # turns in notation
    expect: dict[str, Any]  # what holds after an accepted turn: points (of the turn), over, hand_size, penalties
    mistakes: tuple[Mistake, ...]

    def start(self, language: str | None = None) -> Game:
        """The lesson's position, the learner to move."""
        players = [T(PLAYERS[0]).render(language), PLAYERS[1]]
        kind = BoardGame if self.edition == "board" else CardGame
        return kind.from_position(players, **self.position)

    @property
    def paths(self) -> tuple[tuple[str, ...], ...]:
        """Each accepted turn as the steps a person takes, ``stop`` included where the turn does not end by itself."""
        return _paths(self)

    def nudge(self, rule: str) -> str:
        """The lesson's line for a refusal of ``rule`` (empty where it names none)."""
        return next((m.nudge for m in self.mistakes if m.rule == rule), "")


@dataclass(frozen=True)
class Outcome:
    """What one more step did: played (``game`` holds it) or refused (``game`` is as it was), and whether the lesson
    is done."""

    game: Game
    steps: tuple[str, ...]  # the attempt's steps, the new one too if it was played
    refusal: Text | None = None  # the engine's message (or the lesson's word that the step is not the one asked)
    rule: str = ""  # the refusal's rule id, or "other"
    nudge: str = ""  # the lesson's line for it (a catalog message)
    done: bool = False

    def said(self, language: str | None = None) -> str:
        """The refusal as a person reads it: the rule id and the engine's message (no rule id for a legal step that
        is merely not the lesson's)."""
        if self.refusal is None:
            return ""
        text = self.refusal.render(language)
        return text if self.rule == OTHER else f"{self.rule}: {text}"


@cache
def lessons() -> tuple[Lesson, ...]:
    """Every lesson, in teaching order (the order of the files' names): the board game's, then the card game's."""
    return tuple(_read(path) for path in sorted(FOLDER.glob("*.json")))


def lesson(lesson_id: str) -> Lesson:
    for found in lessons():
        if found.id == lesson_id:
            return found
    raise LessonError(T("there is no lesson {lesson!r}", lesson=lesson_id))


def attempt(lesson: Lesson, steps: Sequence[str], step: str, language: str | None = None) -> Outcome:
    """The lesson after ``steps`` (played before, each on an accepted path) and one more step, or its refusal."""
    game = lesson.start(language)
    done: list[str] = []
    for text in steps:
        if not _on_path(lesson, [*done, text]):
            raise LessonError(T("'{step}' is not a step of this lesson", step=text))
        game.push(text)
        done.append(text)
    try:
        parsed = parse_step(step)
        game.check(parsed)
    except CafeError as error:
        return Outcome(game, tuple(done), error.text, error.rule, lesson.nudge(error.rule))
    if not _on_path(lesson, [*done, str(parsed)]):
        refusal = T("that is allowed, but it is not what this lesson asks")
        return Outcome(game, tuple(done), refusal, OTHER, lesson.nudge(OTHER))
    game.push(parsed)
    done.append(str(parsed))
    return Outcome(game, tuple(done), done=tuple(done) in lesson.paths)


def messages() -> Iterator[tuple[str, str]]:
    """Every text of every lesson, with the file it is in (for the catalogs)."""
    for path in sorted(FOLDER.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key in TEXTS:
            yield data[key], path.name
        for mistake in data["mistakes"]:
            yield mistake["nudge"], path.name


def _on_path(lesson: Lesson, steps: Sequence[str]) -> bool:
    return any(tuple(steps) == path[: len(steps)] for path in lesson.paths)


@cache
def _paths(lesson: Lesson) -> tuple[tuple[str, ...], ...]:
    out = []
    for turn in lesson.accepted:
        game = lesson.start()
        results = game.push_turn(turn)
        out.append(tuple(str(r.step) for r in results))
    return tuple(out)


def _read(path: Path) -> Lesson:
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        mistakes = tuple(Mistake(m["rule"], m["nudge"], tuple(m["example"].split(","))) for m in data["mistakes"])
        found = Lesson(
            id=data["id"],
            edition=data["edition"],
            title=data["title"],
            rules=tuple(data["rules"]),
            intro=data["intro"],
            goal=data["goal"],
            done=data["done"],
            position=data["position"],
            accepted=tuple(data["accepted"]),
            expect=data.get("expect", {}),
            mistakes=mistakes,
        )
        for turn in found.accepted:
            parse_turn(turn)
        return found
    except (KeyError, TypeError, ValueError) as error:
        raise LessonError(T("the lesson file {file} does not hold together: {problem}", file=path.name,
                            problem=str(error))) from None  # fmt: skip
