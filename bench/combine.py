"""A match-up played in parts on different deals (``bench/arena.py --scale 0.5 --seed ...``), combined as if
played at once: per player the games, wins, win rate with its Wilson interval and its interval over deals, mean
score and longest turn.

    python bench/combine.py A.json B.json [...] [--only NAME ...]

Each file is a ``bench/arena.py --out`` report; every match-up found in all of them is combined (or those named)
and printed as one JSON object per match-up.  Parts that share a deal are refused.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cafe.arena.report import combine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("parts", nargs="+", type=Path, help="bench/arena.py --out files of the same match-ups")
    parser.add_argument("--only", nargs="*", help="combine only these match-ups")
    args = parser.parse_args()
    parts = [json.loads(path.read_text()) for path in args.parts]
    names = [name for name in parts[0] if all(name in part for part in parts) and name in (args.only or [name])]
    if not names:
        parser.error("no match-up is in every file")
    for name in names:
        reports = [part[name] for part in parts]
        if any("wins_by_deal" not in report["results"][0] for report in reports):
            parser.error(f"{name}: a file without each deal's wins (written before bench/arena.py kept them)")
        try:
            print(json.dumps({name: combine(reports)}))
        except ValueError as error:
            parser.error(f"{name}: {error}")


if __name__ == "__main__":
    main()
