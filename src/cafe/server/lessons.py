"""The tutorial in the café (docs/protocol.md, "Lessons"): the lessons, and each step a person tries, checked by the
engine.  Nothing is kept between two requests: a request carries the steps played so far, which are replayed on the
lesson's position, so a refused step changes nothing and the progress lives in the person's browser."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import T, Text, pick, translate
from cafe.learn.lesson import Game, Lesson, LessonError, attempt, lessons
from cafe.svg import view_svg

MAX_BODY = 2000  # bytes: a lesson's steps and one more, with room to spare
MAX_STEPS = 8  # steps in one lesson's attempt (the longest turn has 4)
STEP_CHARS = 20  # a step in the notation is never longer


def routes() -> list[Route]:
    return [Route("/lessons.json", listing), Route("/lessons/{lesson}", step, methods=["POST"])]


async def listing(request: Request) -> Response:
    """Every lesson with its texts, in the language asked for (``?lang=de``), and its accepted turns as steps (for
    "Show me")."""
    language = pick([request.query_params.get("lang", "")])
    return JSONResponse({"language": language, "lessons": [texts(found, language) for found in lessons()]})


def texts(found: Lesson, language: str) -> dict[str, Any]:
    return {
        "id": found.id, "edition": found.edition, "rules": list(found.rules), "title": translate(found.title, language),
        "intro": translate(found.intro, language), "goal": translate(found.goal, language),
        "done": translate(found.done, language), "paths": [list(path) for path in found.paths],
    }  # fmt: skip


async def step(request: Request) -> Response:
    """``{"steps": [...], "step": "USAf@h1", "lang": "de"}``: the lesson after ``steps`` and the new step (without
    ``step``: after ``steps`` alone), or why the step is refused, with the lesson's nudge."""
    language = pick([request.query_params.get("lang", "")])
    found = next((each for each in lessons() if each.id == request.path_params["lesson"]), None)
    if found is None:
        return JSONResponse({"error": T("there is no lesson {lesson!r}", lesson=request.path_params["lesson"])
                             .render(language)}, status_code=404)  # fmt: skip
    try:
        asked = _read(await request.body())
        language = pick([asked.get("lang") or language])
        steps, new = asked["steps"], asked.get("step")
        if new is None:
            outcome = attempt(found, steps[:-1], steps[-1], language) if steps else None
            if outcome is not None and outcome.refusal is not None:
                raise LessonError(T("'{step}' is not a step of this lesson", step=steps[-1]))
            game = outcome.game if outcome else found.start(language)
            return JSONResponse(_answer(game, tuple(steps), outcome.done if outcome else False))
        outcome = attempt(found, steps, new, language)
    except _Refused as refused:
        return JSONResponse({"error": refused.text.render(language)}, status_code=400)
    except LessonError as error:
        return JSONResponse({"error": error.text.render(language)}, status_code=400)
    answer = _answer(outcome.game, outcome.steps, outcome.done)
    if outcome.refusal is not None:
        answer["refusal"] = {"rule": outcome.rule, "message": outcome.refusal.render(language),
                             "nudge": translate(outcome.nudge, language)}  # fmt: skip
    return JSONResponse(answer)


class _Refused(Exception):
    def __init__(self, text: Text) -> None:
        super().__init__(text.render("en"))
        self.text = text


def _read(body: bytes) -> dict[str, Any]:
    """The request's fields, each checked: a JSON object with ``steps`` (a list of short strings), maybe ``step``
    (one) and ``lang``."""
    if len(body) > MAX_BODY:
        raise _Refused(T("the request is too long (at most {limit} bytes)", limit=MAX_BODY))
    try:
        asked = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise _Refused(T("not a JSON object")) from None
    if not isinstance(asked, dict):
        raise _Refused(T("not a JSON object"))
    steps = asked.get("steps", [])
    if not isinstance(steps, list) or len(steps) > MAX_STEPS or not all(_short(s) for s in steps):
        raise _Refused(T("'steps' is a list of at most {n} steps in the notation", n=MAX_STEPS))
    if "step" in asked and not _short(asked["step"]):
        raise _Refused(T("'step' is one step in the notation, like USAm@h3"))
    if asked.get("lang") is not None and not _short(asked["lang"]):
        raise _Refused(T("'lang' is a language tag such as de"))
    return {"steps": steps, "step": asked.get("step"), "lang": asked.get("lang")}


def _short(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= STEP_CHARS


def _answer(game: Game, steps: tuple[str, ...], done: bool) -> dict[str, Any]:
    """The position as the learner sees it, drawn, with the steps they may take now and what each scores."""
    legal = game.legal_steps() if not done and game.current_player == 0 and not game.is_over() else []
    return {
        "steps": list(steps), "done": done, "view": game.view(0).to_json(), "svg": view_svg(game.view()),
        "legal": [str(s) for s in legal], "points": {str(s): game.step_points(s) for s in legal}, "refusal": None,
    }  # fmt: skip
