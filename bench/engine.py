"""Engine speed, measured several times (shared machines are noisy): best and median of each figure.

    python bench/engine.py [--repeat 3] [--seconds 5]

Prints one JSON object; the same figures as ``cafe bench --json``.
"""

from __future__ import annotations

import argparse
import json
import statistics

from cafe.bench import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    runs = [run(args.seconds) for _ in range(args.repeat)]
    report = {
        key: {"best": max(r[key] for r in runs), "median": statistics.median(r[key] for r in runs)}
        for key in runs[0]
        if key != "seconds_per_measure"
    }
    print(json.dumps({"repeat": args.repeat, "seconds_per_measure": args.seconds, "figures": report}, indent=1))


if __name__ == "__main__":
    main()
