"""Every shipped puzzle confirmed again: the search, at a budget larger than the one the puzzle was confirmed with
and with a seed of its own, must still find the accepted answer the best whole turn.

    python bench/puzzles.py [--edition board|cards] [--budget 1024] [--seed 1] [--jobs N]

Prints one JSON object: per edition the puzzles checked, those the search still agrees with, and the ids of any it
does not (with its best turn and the answer's value); exit status 1 if there are any.  tests/test_puzzles_search.py
checks a sample of them in the slow lane.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from cafe.learn.puzzles import EDITIONS, by_id, confirmed, shipped
from cafe.parallel import as_finished

BUDGET = 1024  # four times the shipped puzzles' confirming budget, twice their last check's


def judged(puzzle_id: str, budget: int, seed: int) -> dict[str, Any]:
    puzzle = by_id(puzzle_id)
    assert puzzle is not None
    agrees, ranked = confirmed(puzzle, budget, seed)
    answer = next(value for turn, value in ranked if turn == puzzle.answers[0])  # the searched answer, as written
    return {"id": puzzle_id, "agrees": agrees, "best": ranked[0][0], "best_value": round(ranked[0][1], 2),
            "answer_value": round(answer, 2)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", choices=EDITIONS, default=None)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    report: dict[str, Any] = {"budget": args.budget, "seed": args.seed}
    started = time.process_time()
    failed = False
    for edition in EDITIONS if args.edition is None else (args.edition,):
        calls = [(p.id, args.budget, args.seed) for p in shipped(edition)]
        results = list(as_finished(judged, calls, args.jobs))
        disagree = sorted((r for r in results if not r["agrees"]), key=lambda r: r["id"])
        report[edition] = {"checked": len(results), "agree": len(results) - len(disagree), "disagree": disagree}
        failed = failed or bool(disagree)
    report["cpu_seconds_here"] = round(time.process_time() - started, 1)
    json.dump(report, sys.stdout, indent=1)
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
