"""A match-up played in parts on different deals (``bench/arena.py --scale 0.5 --seed ...``), combined as if
played at once: per player the games, wins, win rate with its Wilson interval and its interval over deals, mean
score and longest turn.

    python bench/combine.py A.json B.json [...] [--only NAME ...]

Each file is a ``bench/arena.py --out`` report, every match-up found in all of them combined (or those named), or
the single match's report that ``bench/ingredients.py`` prints (combined as the match-up ``match``); printed as
one JSON object per match-up.  Parts that share a deal are refused.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cafe.arena.report import combine


def by_match_up(report: dict[str, Any]) -> dict[str, Any]:
    """An arena report's match-ups by name; a single match's report (bench/ingredients.py) as the match-up
    ``match``.  What a file in bench/results says of its run (command, commit, machine, date) is no match-up."""
    if "results" in report:
        return {"match": report}
    return {name: value for name, value in report.items() if isinstance(value, dict) and "results" in value}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("parts", nargs="+", type=Path, help="bench/arena.py --out files of the same match-ups")
    parser.add_argument("--only", nargs="*", help="combine only these match-ups")
    args = parser.parse_args()
    parts = [by_match_up(json.loads(path.read_text())) for path in args.parts]
    names = [name for name in parts[0] if all(name in part for part in parts) and name in (args.only or [name])]
    if not names:
        parser.error("no match-up is in every file")
    for name in names:
        reports = [part[name] for part in parts]
        try:
            print(json.dumps({name: combine(reports)}))
        except ValueError as error:
            parser.error(f"{name}: {error}")


if __name__ == "__main__":
    main()
