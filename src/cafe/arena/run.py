"""Running an arena: deals played in every seating (duplicate format), in parallel, with progress."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cafe.ai.levels import make_player
from cafe.arena.match import new_game, play
from cafe.arena.stats import GameOutcome
from cafe.parallel import as_finished

PLAYERS = {"board": (2, 4), "cards": (2, 5)}


@dataclass(frozen=True)
class ArenaPlan:
    """What to play: the players (as strings), how many games (whole deals, each in every seating), which edition
    and rules."""

    players: tuple[str, ...]
    games: int
    edition: str = "board"
    seed: int = 0
    rules: Any = None

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        """Every player takes every seat once per deal: the rotations of the list (seat -> player)."""
        n = len(self.players)
        return [tuple((seat - shift) % n for seat in range(n)) for shift in range(n)]

    @property
    def deals(self) -> int:
        return math.ceil(self.games / len(self.players))

    def tasks(self) -> list[tuple[int, tuple[int, ...]]]:
        return [(deal, seating) for deal in range(self.deals) for seating in self.seatings]


def check_players(edition: str, specs: Sequence[str]) -> None:
    """Refuse, before any game starts, a number of players the edition does not take or a player that does not
    exist (an outside engine is found only when it is started)."""
    from cafe.errors import CafeError
    from cafe.game import players_problem

    low, high = PLAYERS[edition]
    if not low <= len(specs) <= high:
        raise CafeError(players_problem(edition, low, high, len(specs)))
    for spec in specs:
        if not spec.startswith("cmd:"):
            make_player(spec)


def names_of(specs: Sequence[str]) -> list[str]:
    """Display names: the spec itself, numbered when the same spec appears more than once."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if specs.count(spec) == 1 else f"{spec}#{seen[spec]}")
    return out


def play_task(plan: ArenaPlan, deal: int, seating: tuple[int, ...]) -> tuple[GameOutcome, dict[str, Any]]:
    """One game: the deal's seed fixes the bag; the players are seeded by deal and by who they are."""
    names = names_of(plan.players)
    seat_names = [names[p] for p in seating]
    players = [make_player(plan.players[p], seed=(plan.seed + deal) * 101 + p) for p in seating]
    game = new_game(plan.edition, seat_names, plan.seed + deal, plan.rules)
    try:
        seats, record = play(game, players)
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
    return GameOutcome(deal, seating, tuple(seats), game.end_reason), record


def run_arena(
    plan: ArenaPlan,
    jobs: int | None = None,
    records: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    cluster: str | None = None,
) -> list[GameOutcome]:
    """Play every game of the plan over ``jobs`` processes (default: the machine's cores), or as tasks of a Ray
    ``cluster`` (see cafe.cluster)."""
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    total = len(plan.tasks())
    outcomes: list[GameOutcome] = []
    for outcome, record in arena_games(plan, jobs, cluster):
        outcomes.append(outcome)
        if records is not None:
            rotation = plan.seatings.index(outcome.seating)
            path = records / f"deal{outcome.deal:04d}-seating{rotation + 1}.json"
            path.write_text(json.dumps(record, indent=1) + "\n")
        if progress is not None:
            progress(len(outcomes), total)
    return in_plan_order(plan, outcomes)


def in_plan_order(plan: ArenaPlan, outcomes: Sequence[GameOutcome]) -> list[GameOutcome]:
    """The games by deal, and within a deal by seating, whichever finished first (so that a report is reproducible)."""
    return sorted(outcomes, key=lambda g: (g.deal, plan.seatings.index(g.seating)))


def arena_games(
    plan: ArenaPlan, jobs: int | None = None, cluster: str | None = None
) -> Iterator[tuple[GameOutcome, dict[str, Any]]]:
    """Every game of the plan as it finishes, in no set order: its outcome and its record (for a caller that reports
    as it goes; ``run_arena`` collects them)."""
    tasks = [(plan, deal, seating) for deal, seating in plan.tasks()]
    jobs = jobs or os.cpu_count() or 1
    if cluster is not None:
        from cafe.cluster import connect, run

        connect(cluster)
        yield from run(play_task, tasks)
        return
    yield from as_finished(play_task, tasks, jobs)
