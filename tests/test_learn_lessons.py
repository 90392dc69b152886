"""The tutorial's lessons: each accepted turn is legal in its position and does what the lesson says, each kind of
mistake a lesson names is refused with that rule's id, and together the lessons teach every rule of RULES.md §2
and §4."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cafe import i18n
from cafe.cli import main
from cafe.i18n import LANGUAGES, translate
from cafe.learn.lesson import OTHER, RULE_IDS, Lesson, LessonError, attempt, lesson, lessons, messages

LESSONS = lessons()


def played(lesson: Lesson, steps: tuple[str, ...]) -> tuple[str, ...]:
    """The steps, one after the other, as a person takes them; each must be played."""
    done: tuple[str, ...] = ()
    for step in steps:
        outcome = attempt(lesson, done, step)
        assert outcome.refusal is None, (lesson.id, step, outcome.refusal)
        done = outcome.steps
    return done


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_every_accepted_turn_is_legal_and_achieves_the_goal(lesson: Lesson) -> None:
    assert lesson.accepted and lesson.paths
    for turn, path in zip(lesson.accepted, lesson.paths, strict=True):
        game = lesson.start()
        results = game.push_turn(turn)  # legal in the engine's own terms, with the stop a turn string leaves out
        assert results[-1].turn_over
        seen = {
            "points": sum(r.points for r in results),
            "over": game.is_over(),
            "penalties": list(game.penalties()),
            "hand_count": len(game.hand(0)),
            "hand_size": game.state.hand_size[0] if lesson.edition == "board" else None,
        }
        assert {key: seen[key] for key in lesson.expect} == lesson.expect, turn
        outcome = attempt(lesson, path[:-1], path[-1])
        assert outcome.done and outcome.refusal is None
        assert played(lesson, path) == path


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_each_mistake_a_lesson_names_is_refused_with_its_rule_and_changes_nothing(lesson: Lesson) -> None:
    assert lesson.mistakes
    for mistake in lesson.mistakes:
        before = played(lesson, mistake.example[:-1])
        outcome = attempt(lesson, before, mistake.example[-1])
        assert outcome.rule == mistake.rule and outcome.refusal is not None, (mistake, outcome.refusal)
        assert outcome.nudge == mistake.nudge and not outcome.done
        assert outcome.steps == before  # the position stays as it was
        assert outcome.game.state.key() == _replayed(lesson, before).state.key()
        if mistake.rule != OTHER:
            assert re.fullmatch(r"R\d\.\d(\.\d)?", mistake.rule)


def _replayed(lesson: Lesson, steps: tuple[str, ...]):  # type: ignore[no-untyped-def]
    game = lesson.start()
    for step in steps:
        game.push(step)
    return game


def test_a_mistake_no_lesson_names_still_gets_the_engines_message() -> None:
    first = LESSONS[0]
    outcome = attempt(first, (), "USAf@z9")
    assert outcome.rule == "R1.1" and outcome.nudge == "" and "z9" in outcome.refusal.render()  # type: ignore[union-attr]
    outcome = attempt(first, (), "dancing bear")
    assert outcome.rule == "R7.1" and outcome.refusal is not None


def test_steps_off_the_lessons_paths_are_not_taken_as_played() -> None:
    with pytest.raises(LessonError):
        attempt(LESSONS[0], ("USAf@f3",), "stop")  # a step the lesson never took
    with pytest.raises(LessonError):
        lesson("no-such-lesson")


def test_together_the_lessons_teach_every_rule_of_sections_2_and_4() -> None:
    for edition, wanted in RULE_IDS.items():
        taught = {rule for found in LESSONS if found.edition == edition for rule in found.rules}
        assert set(wanted) <= taught, set(wanted) - taught
    # the list the lessons must cover is every heading of §2 and §4 and every rule of §2.3
    assert [r for r in RULE_IDS["board"] if r.count(".") == 1] == [f"R2.{n}" for n in range(1, 10)]
    assert [r for r in RULE_IDS["board"] if r.startswith("R2.3.")] == [f"R2.3.{n}" for n in range(1, 7)]
    assert list(RULE_IDS["cards"]) == [f"R4.{n}" for n in range(1, 8)]


def test_the_steps_the_whole_tutorial_takes_are_the_figure_docs_give() -> None:
    steps = sum(min(map(len, found.paths)) for found in LESSONS)
    board = sum(min(map(len, found.paths)) for found in LESSONS if found.edition == "board")
    text = (Path(__file__).parent.parent / "docs" / "learn.md").read_text()
    assert f"**{steps} steps**" in text and f"{board} for the board game's" in text
    assert f"{len(LESSONS)} short lessons" in text.replace("Twenty-one", "21")


def test_lessons_come_in_teaching_order_board_first_each_id_once() -> None:
    ids = [found.id for found in LESSONS]
    assert len(set(ids)) == len(ids)
    editions = [found.edition for found in LESSONS]
    assert editions == sorted(editions)  # "board" before "cards"
    assert ids[0] == "board-nation"


def test_every_text_of_every_lesson_is_translated() -> None:
    for message, _file in messages():
        for language in LANGUAGES:
            if language != "en":
                assert translate(message, language) != message, (language, message)


def test_cafe_learn_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [item["id"] for item in listed] == [found.id for found in LESSONS]
    assert listed[0] == {"id": "board-nation", "title": "Seat a guest at a table of its nation", "edition": "board",
                         "rules": ["R2.1", "R2.3.1"]}  # fmt: skip
    try:
        assert main(["--lang", "de", "learn", "--list", "--json"]) == 0
    finally:
        i18n.use("en")  # the language --lang chose is the process's: back to English for the tests after this one
    assert json.loads(capsys.readouterr().out)[0]["title"] == translate(LESSONS[0].title, "de")


def test_cafe_learn_list_shows_each_lesson_numbered_with_its_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == " 1. board-nation           Seat a guest at a table of its nation  (R2.1, R2.3.1)"
    assert [line.split()[:2] for line in lines] == [[f"{n}.", found.id] for n, found in enumerate(LESSONS, 1)]
