"""The tutorial in the terminal, driven as a person would: keys into the real Textual app (its test pilot)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from cafe.cli import main
from cafe.learn.lesson import lessons
from cafe.learn.progress import Progress
from cafe.learn.terminal import TutorialApp

SIZE = (170, 50)


def drive(app: TutorialApp, script: Callable[[TutorialApp, Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())


async def type_line(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


def status(app: TutorialApp) -> str:
    return str(app.query_one("#status", Static).render())


def test_a_person_follows_the_first_lessons_is_refused_skips_one_and_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "lessons.json"
    first, second, third = lessons()[:3]

    async def script(app: TutorialApp, pilot: Pilot[None]) -> None:
        assert app.lesson is first
        assert "Seat the American lady at USA1" in str(app.query_one("#text", Static).render())
        before = app.session.game.state.key()
        await type_line(pilot, "american lady f3")  # words, not notation: read as USAf@f3, refused
        assert "R2.3.1" in status(app) and "only where one of them is American" in status(app)
        assert app.session.game.state.key() == before and app.steps == ()
        await pilot.press("ctrl+a", "ctrl+k")
        await type_line(pilot, "USAf@h1")
        await type_line(pilot, "stop")
        assert "4 points" in status(app) and app.finished
        await pilot.press("enter")  # on to the next lesson
        assert app.lesson is second
        await pilot.press("ctrl+o")
        assert "USAm@i2, stop" in status(app)
        await pilot.press("ctrl+n")  # skipped
        assert app.lesson is third
        await pilot.press("ctrl+q")

    drive(TutorialApp(Progress(path)), script)
    kept = json.loads(path.read_text())
    assert kept == {"done": [first.id], "skipped": [second.id]}

    async def again(app: TutorialApp, pilot: Pilot[None]) -> None:
        assert app.lesson is third  # where the person left off
        await type_line(pilot, "USAm@h3")
        await type_line(pilot, "american lady g2")  # the turn of two guests ends by itself
        assert app.finished
        await pilot.press("ctrl+b")  # back: a lesson skipped (or done) may be taken again
        assert app.lesson is second
        await type_line(pilot, "USAm@i2")
        await type_line(pilot, "stop")
        assert app.finished
        await pilot.press("ctrl+q")

    drive(TutorialApp(Progress(path)), again)
    assert json.loads(path.read_text()) == {"done": [first.id, third.id, second.id], "skipped": []}


def test_an_unreadable_progress_file_counts_as_nothing_done_and_is_written_anew(tmp_path: Path) -> None:
    path = tmp_path / "deeper" / "lessons.json"
    path.parent.mkdir()
    path.write_text("{not json")
    progress = Progress(path)
    assert progress.done == [] and progress.next_of([found.id for found in lessons()]) == 0
    progress.mark("board-balance", done=False)
    progress.mark("board-nation", done=True)
    assert Progress(path).next_of([found.id for found in lessons()]) == 2  # done, skipped, then the next


def test_cafe_learn_refuses_an_unknown_lesson_before_the_screen_opens(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--lesson", "no-such-lesson"]) == 1
    assert capsys.readouterr().err.strip() == "cafe learn: there is no lesson 'no-such-lesson'"
