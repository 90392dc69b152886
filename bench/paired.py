"""Two versions of a player on the same deals, compared deal by deal: how much its win rate changed, with a
95% interval from the deals resampled in pairs (``cafe.arena.report.paired``).

    python bench/paired.py BEFORE.json [...] --after AFTER.json [...] [--only NAME] [--player NAME]

Each file is a ``bench/arena.py --out`` report or the single match's report that ``bench/ingredients.py`` prints
(the match-up ``match``).  Deals are matched by their seed; those played on one side only are left out and
counted.  The player compared is the match-up's first (in the master's match-ups, the master) unless named, and
must play in every file under that name.  Printed as one JSON object.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from combine import by_match_up  # bench/combine.py, beside this file

from cafe.arena.report import paired


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", nargs="+", type=Path, help="reports of the player before")
    parser.add_argument("--after", nargs="+", type=Path, required=True, help="reports of the player after")
    parser.add_argument("--only", help="the match-up to compare (default: the one match-up in every file)")
    parser.add_argument("--player", help="the player compared (default: the match-up's first)")
    args = parser.parse_args()
    sides = [[by_match_up(json.loads(path.read_text())) for path in paths] for paths in (args.before, args.after)]
    names = [name for name in sides[0][0] if all(name in part for side in sides for part in side)]
    name = args.only or (names[0] if len(names) == 1 else None)
    if name not in names:
        parser.error("name the match-up with --only: " + (", ".join(names) or "no match-up is in every file"))
    before, after = ([part[name] for part in side] for side in sides)
    try:
        print(json.dumps({name: paired(before, after, args.player or before[0]["results"][0]["player"])}))
    except ValueError as error:
        parser.error(f"{name}: {error}")


if __name__ == "__main__":
    main()
