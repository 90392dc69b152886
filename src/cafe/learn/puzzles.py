"""Puzzles: positions where one whole turn is clearly the best, the shipped ones and the checking of an answer.

A puzzle holds its mover's view (:meth:`cafe.view.GameView.to_json`) at the start of a turn, never the game: the
bag's order, others' hidden hands and face-down cards are not in it.  Its game is a world sampled from that view
(:func:`cafe.learn.puzzle_mining.world`), and what the mover may play, and so the answer's check, is the same in
every such world.  The shipped puzzles were made with ``cafe puzzles make`` (docs/puzzles.md).
"""

from __future__ import annotations

import functools
import gzip
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cafe.ai.analysis import review_turn
from cafe.ai.decisions import decided
from cafe.errors import CafeError
from cafe.i18n import N_, T, Text
from cafe.learn.puzzle_mining import MARGIN, key, mine_game, world
from cafe.steps import parse_turn
from cafe.view import View, view_from_json

EDITIONS = ("board", "cards")
FILE = "puzzles-{edition}.json.gz"
FORMAT = "cafe-puzzles-1"
# why each theme's answer is best, in words shown with the solution
REASONS = {
    "exchange": N_(
        "The exchange scores nothing now, but wins back a joker: later it can complete a table that no other guest can."
    ),
    "joker": N_("A joker is worth most where it completes or saves a table that no guest in hand can."),
    "single_nation": N_("A table of one nation counts double: completing one is worth more than points elsewhere."),
    "bar": N_("The bar's stools are worth less and less: a guest sent there at the right moment pays."),
    "close": N_("Closing ends the game while the others still hold cards that cost them points."),
    "draw_or_play": N_("Sometimes drawing is better than playing a card that helps the next player more."),
    "face_down": N_("With twelve cards in hand one goes face down: which one you give up matters."),
    "full_table": N_("Filling a table takes its points and clears it away before the next player can use it."),
    "deny": N_("Fewer points now, but the next player is left without the table they needed."),
    "points": N_("The most points now, and nothing left open for the next player."),
}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the mover's view, the accepted answers in notation, its theme, difficulty and margin."""

    id: str
    edition: str
    view: dict[str, Any]  # the mover's view as JSON: what the mover could see, nothing more
    answers: tuple[str, ...]
    theme: str
    difficulty: str
    margin: float  # points the answer beat every other turn by at the confirming budget
    points: int  # what the answer scores at once
    budget: int  # the mining budget; confirmed at confirm_budget
    confirm_budget: int

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            id=data["id"], edition=data["edition"], view=data["view"], answers=tuple(data["answers"]),
            theme=data["theme"], difficulty=data["difficulty"], margin=data["margin"], points=data["points"],
            budget=data["budget"], confirm_budget=data["confirm_budget"],
        )  # fmt: skip

    @property
    def mover(self) -> int:
        return int(self.view["current_player"])

    def position(self) -> View:
        return view_from_json(self.view)

    def reason(self) -> Text:
        return T(REASONS[self.theme])

    def to_json(self) -> dict[str, Any]:
        """What ``cafe puzzles --json`` prints of a puzzle: the view loads with :func:`cafe.view.view_from_json`."""
        return {
            "id": self.id, "edition": self.edition, "position": self.view, "mover": self.mover,
            "answers": list(self.answers), "theme": self.theme, "difficulty": self.difficulty,
            "margin": self.margin, "points": self.points,
        }  # fmt: skip


class AnswerError(CafeError):
    """A try that is no legal turn in the puzzle's position."""


def check(puzzle: Puzzle, turn: str, seed: int = 0) -> bool:
    """Whether ``turn`` (notation, any order of its guests) solves the puzzle: compared as an answer is
    (:func:`cafe.ai.decisions.decided`), so steps after one that lays a new table card mid-turn are not
    looked at (but for a ``close``): the check is the same whatever the hidden parts are.  An illegal turn raises the
    engine's own error (with its rule id), a malformed one a notation error."""
    game = world(puzzle.position(), seed)
    tried = key(decided(game, parse_turn(turn)))
    return any(key(decided(game, parse_turn(accepted))) == tried for accepted in puzzle.answers)


def confirmed(puzzle: Puzzle, budget: int, seed: int = 0) -> tuple[bool, list[tuple[str, float]]]:
    """Whether the search, at ``budget`` iterations below each candidate turn and with its own ``seed``, still finds
    an accepted answer the best turn; and the candidates it valued, best first."""
    game = world(puzzle.position(), seed)
    ranked, _ = review_turn(game, decided(game, parse_turn(puzzle.answers[0])), budget, seed, decided)
    accepted = {key(parse_turn(answer)) for answer in puzzle.answers}
    return key(parse_turn(ranked[0][0])) in accepted, ranked


def path(edition: str) -> Path:
    return Path(str(resources.files("cafe").joinpath("data").joinpath(FILE.format(edition=edition))))


@functools.cache
def shipped(edition: str) -> tuple[Puzzle, ...]:
    """The puzzles that ship with the package, in their file's order (none if the file is missing)."""
    return load(path(edition))


def load(source: Path) -> tuple[Puzzle, ...]:
    if not source.exists():
        return ()
    with gzip.open(source, "rt", encoding="utf-8") as file:
        data = json.load(file)
    return tuple(Puzzle.from_json(item) for item in data["puzzles"])


def by_id(puzzle_id: str) -> Puzzle | None:
    return next((p for edition in EDITIONS for p in shipped(edition) if p.id == puzzle_id), None)


def pick(count: int, edition: str | None = None, seed: int | None = None) -> list[Puzzle]:
    """``count`` shipped puzzles (of one edition, or both), chosen at random from ``seed`` without repeats."""
    pool = [p for e in EDITIONS if edition in (None, e) for p in shipped(e)]
    if count < 1:
        raise CafeError(T("--count must be at least 1"))
    return random.Random(seed).sample(pool, min(count, len(pool)))


@dataclass(frozen=True)
class Plan:
    """What ``cafe puzzles make`` mines: games ``seed`` .. ``seed + games - 1`` of one edition."""

    edition: str
    games: int
    seed: int
    budget: int
    margin: float = MARGIN
    per_game: int = 2  # puzzles kept of one theme from one game: many games rather than one game's many turns


Runner = Callable[[Callable[..., Any], Sequence[tuple[Any, ...]]], Iterator[Any]]
Progress = Callable[[str, int, int, int], None]  # (stage: "games" or "check", done, of how many, puzzles kept)


def make(plan: Plan, run: Runner, progress: Progress | None = None) -> tuple[list[dict[str, Any]], int]:
    """Mine every game of the plan, then search every puzzle kept once more (:func:`recheck`); ``run`` spreads the
    calls over processes or a cluster.  The puzzles sorted by game and turn, whatever order the calls finish in,
    and the positions analysed."""
    calls = [(plan.edition, seed, plan.budget, plan.margin) for seed in range(plan.seed, plan.seed + plan.games)]
    kept: list[dict[str, Any]] = []
    analysed = 0
    for done, mined in enumerate(run(mine_game, calls), start=1):
        analysed += mined.analysed
        kept += _varied(mined.puzzles, plan.per_game)
        if progress is not None:
            progress("games", done, plan.games, len(kept))
    kept.sort(key=lambda p: (p["seed"], int(p["id"].rsplit("-", 1)[1])))
    agree: dict[str, bool] = {}
    for done, (puzzle_id, agrees) in enumerate(run(recheck, [(p,) for p in kept]), start=1):
        agree[puzzle_id] = agrees
        if progress is not None:
            progress("check", done, len(kept), sum(agree.values()))
    return [p for p in kept if agree[p["id"]]], analysed


RECHECKS = (2, 4)  # the last searches' budgets, in confirming budgets


def recheck(puzzle: dict[str, Any]) -> tuple[str, bool]:
    """A kept puzzle searched twice more, at twice and four times its confirming budget, each with a seed of its own
    (neither the mining's nor bench/puzzles.py's): whether its answer is still the best turn, by the margin again,
    both times.  A margin that was the search's luck in the worlds it sampled does not hold twice, and a turn that
    only a larger search sees through shows at four times."""
    found = Puzzle.from_json(puzzle)
    turn = int(found.id.rsplit("-", 1)[1])
    for k, times in enumerate(RECHECKS):
        agrees, ranked = confirmed(found, times * found.confirm_budget, seed=puzzle["seed"] * 1_000 + turn + 2 + k)
        if not (agrees and len(ranked) > 1 and ranked[0][1] - ranked[1][1] >= MARGIN):
            return found.id, False
    return found.id, True


def _varied(puzzles: Sequence[dict[str, Any]], per_theme: int) -> list[dict[str, Any]]:
    """Of one game, the widest margins first: one puzzle of each answer (an exchange open for several turns is one
    puzzle), and at most ``per_theme`` of each theme."""
    out: list[dict[str, Any]] = []
    answers: set[tuple[str, ...]] = set()
    for puzzle in sorted(puzzles, key=lambda p: -p["margin"]):
        answer = key(parse_turn(puzzle["answers"][0]))
        if answer not in answers and sum(p["theme"] == puzzle["theme"] for p in out) < per_theme:
            answers.add(answer)
            out.append(puzzle)
    return out


def write(target: Path, plan: Plan, puzzles: list[dict[str, Any]], analysed: int) -> None:
    """The puzzles as a gzipped JSON file, with how they were made (byte for byte the same for the same plan)."""
    data = {"format": FORMAT, "edition": plan.edition, "games": plan.games, "seed": plan.seed,
            "budget": plan.budget, "margin": plan.margin, "analysed": analysed, "puzzles": puzzles}  # fmt: skip
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as file:
        file.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
