"""The café's puzzles over HTTP: one suited to the person's puzzle rating, the position as a turn goes on, and a try.

Every request names its person by the ``X-Cafe-Token`` header (the token of a guest's hello), or by the sign-in
cookie of an account.  A first try at a puzzle moves the person's puzzle rating and the puzzle's own, with
OpenSkill's model as the leaderboard's (:mod:`cafe.server.ratings`): the person and the puzzle play one game, and
whoever is right wins it.  A try again is answered but rates nothing.  What a puzzle shows is its mover's view
only (cafe.learn.puzzles).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.ai.decisions import push_turn
from cafe.errors import CafeError
from cafe.i18n import T, Text, translate
from cafe.learn.puzzle_mining import DIFFICULTY_WORDS, THEME_WORDS, answer_complete, world
from cafe.learn.puzzles import Puzzle, by_id, check, shipped
from cafe.server.games import asked_language
from cafe.server.gateway import Gateway
from cafe.server.ratings import MODEL
from cafe.server.sessions import signed_in
from cafe.server.storage.store import PuzzleTry, Rating
from cafe.steps import Step, format_turn, parse_turn
from cafe.svg import view_svg

BODY_BYTES = 2_000  # a request's body is never longer
STEPS = 12  # steps of a turn in progress, at most (no turn has more)
ID_CHARS = 24
TURN_CHARS = 200
NEAREST = 24  # the next puzzle is one of the untried ones whose rating is among the nearest the person's ...
CLOSEST = 4  # ... of a theme drawn at random among theirs, and among the nearest of that theme
START = {"easy": 22.0, "medium": 25.0, "hard": 28.0}  # a puzzle's rating before any try, by its difficulty ...
START_SIGMA = 25 / 6  # ... known better than a new person's: the search graded it
SHOWN = 60  # a rating is shown as mu times this: 1500 for a new person


def shown(rating: Rating) -> int:
    return round(SHOWN * rating.mu)


class Refused(Exception):
    """A request that cannot be served: its status and the reason in words."""

    def __init__(self, status: int, why: Text, rule: str = "") -> None:
        super().__init__(why.render("en"))
        self.status, self.why, self.rule = status, why, rule


def rate(person: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """Both ratings after a try: the person and the puzzle played a game, which the right one won."""
    ranks = [1.0, 2.0] if solved else [2.0, 1.0]
    (mine,), (its,) = MODEL.rate(
        [[MODEL.rating(mu=person.mu, sigma=person.sigma)], [MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)]],
        ranks=ranks,
    )
    return Rating(mine.mu, mine.sigma, person.games + 1), Rating(its.mu, its.sigma, puzzle.games + 1)


def start(puzzle: Puzzle) -> Rating:
    fresh = MODEL.rating(mu=START[puzzle.difficulty], sigma=START_SIGMA)
    return Rating(fresh.mu, fresh.sigma, 0)


def routes(gateway: Callable[[], Gateway]) -> list[Route]:
    """The puzzle routes over the running gateway's store."""

    def person(request: Request) -> int:
        token = request.headers.get("x-cafe-token")
        if token:
            known = gateway().store.player_by_token(token) if len(token) <= 200 else None
        else:  # an account: its sign-in cookie names it
            known = signed_in(gateway(), request)
        if known is None:
            raise Refused(401, T("enter the café with your name first: puzzles are rated"))
        return known[0]

    def standing(player: int) -> tuple[Rating, int]:
        found = gateway().store.puzzle_player(player)
        if found is not None:
            return found
        fresh = MODEL.rating()
        return Rating(fresh.mu, fresh.sigma, 0), 0

    def puzzle_of(request: Request) -> Puzzle:
        name = str(request.path_params["puzzle"])
        found = by_id(name) if len(name) <= ID_CHARS else None
        if found is None:
            raise Refused(404, T("no such puzzle"))
        return found

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > BODY_BYTES:
            raise Refused(413, T("message too long (at most {limit} bytes)", limit=BODY_BYTES))
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            raise Refused(400, T("not a JSON object"))
        return data

    def answered(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def serve(request: Request) -> Response:
            try:
                return JSONResponse(await handler(request))
            except Refused as refused:
                language = asked_language(request)
                out = {"error": refused.why.render(language), **({"rule": refused.rule} if refused.rule else {})}
                return JSONResponse(out, status_code=refused.status)

        return serve

    async def next_puzzle(request: Request) -> dict[str, Any]:
        player = person(request)
        edition = request.query_params.get("edition", "board")
        if edition not in ("board", "cards"):
            raise Refused(400, T("'edition' must be 'board' or 'cards', not {edition!r}", edition=edition[:20]))
        rating, streak = standing(player)
        store = gateway().store
        tried, ratings = store.puzzles_tried(player), store.puzzle_ratings()
        fresh = [p for p in shipped(edition) if p.id not in tried] or list(shipped(edition))
        if not fresh:
            raise Refused(404, T("no puzzles are installed"))
        near = sorted(fresh, key=lambda p: abs(ratings.get(p.id, start(p)).mu - rating.mu))[:NEAREST]
        theme = random.choice(sorted({p.theme for p in near}))  # each theme as likely: few themes are common
        chosen = random.choice([p for p in near if p.theme == theme][:CLOSEST])
        return {**position(chosen, []), "rating": shown(ratings.get(chosen.id, start(chosen))),
                "difficulty": translate(DIFFICULTY_WORDS[chosen.difficulty], asked_language(request)),
                "you": {"rating": shown(rating), "tries": rating.games, "streak": streak}}  # fmt: skip

    def position(puzzle: Puzzle, steps: list[Step]) -> dict[str, Any]:
        """The puzzle's position after the steps of the turn so far: the drawing, the view and what may follow;
        ``done`` once the steps make a whole answer: the turn is over, or a new table card was laid and no
        ``close`` may follow (the rest is no puzzle's: the try is judged as it stands)."""
        game = world(puzzle.position())
        results = push_turn(game, steps, end=False)
        if len(results) < len(steps):
            raise Refused(400, T("the turn is over before '{step}'", step=str(steps[len(results)])), "R2.2")
        done = answer_complete(game, results)
        out: dict[str, Any] = {"id": puzzle.id, "edition": puzzle.edition, "mover": puzzle.mover,
                               "steps": [str(s) for s in steps], "done": done}  # fmt: skip
        if not done:  # nothing drawn from the sampled bag is shown (a table card is, of the puzzle's own world)
            view = game.view(puzzle.mover)
            legal = game.legal_steps()
            out |= {"view": view.to_json(), "svg": str(view_svg(view)), "legal": [str(s) for s in legal],
                    "points": {str(s): game.step_points(s) for s in legal}}  # fmt: skip
        return out

    def steps_of(data: dict[str, Any]) -> list[Step]:
        steps = data.get("steps")
        if not isinstance(steps, list) or len(steps) > STEPS or not all(isinstance(s, str) for s in steps):
            raise Refused(400, T("'steps' must be a list of at most {n} steps in notation", n=STEPS))
        try:
            return [Step.parse(s) for s in steps]
        except CafeError as error:
            raise Refused(400, error.text, error.rule) from None

    async def at(request: Request) -> dict[str, Any]:
        person(request)
        puzzle = puzzle_of(request)
        steps = steps_of(await body(request))
        try:
            return position(puzzle, steps)
        except CafeError as error:
            raise Refused(400, error.text, error.rule) from None

    async def attempt(request: Request) -> dict[str, Any]:
        player = person(request)
        puzzle = puzzle_of(request)
        data = await body(request)
        turn = data.get("turn")
        if not isinstance(turn, str) or not turn or len(turn) > TURN_CHARS:
            raise Refused(400, T("'turn' must be a turn in notation, at most {n} characters", n=TURN_CHARS))
        try:
            solved = check(puzzle, format_turn(parse_turn(turn)))
        except CafeError as error:
            raise Refused(400, error.text, error.rule) from None
        store = gateway().store
        before, streak = standing(player)
        old = store.puzzle_ratings().get(puzzle.id, start(puzzle))
        mine, its = rate(before, old, solved)
        streak = streak + 1 if solved else 0
        rated = store.try_puzzle(PuzzleTry(player, puzzle.id, solved, mine, streak, its))
        if not rated:
            mine, its, streak = before, old, standing(player)[1]
        language = asked_language(request)
        return {
            "solved": solved, "rated": rated, "answers": list(puzzle.answers),
            "theme": translate(THEME_WORDS[puzzle.theme], language), "reason": puzzle.reason().render(language),
            "margin": puzzle.margin, "points": puzzle.points,
            "you": {"before": shown(before), "after": shown(mine), "streak": streak, "tries": mine.games},
            "puzzle": {"before": shown(old), "after": shown(its)},
        }  # fmt: skip

    return [
        Route("/puzzles/next.json", answered(next_puzzle)),
        Route("/puzzles/{puzzle}/at", answered(at), methods=["POST"]),
        Route("/puzzles/{puzzle}/try", answered(attempt), methods=["POST"]),
    ]
