"""What the Ray cluster costs and carries: the same arena locally and on a local Ray, and the data per game.

    python bench/cluster.py [--games 40] [--players mcts:200 greedy] [--selfplay-games 8]

- arena: games per second with --jobs (this machine's cores) and with --cluster ray (a Ray started on this
  machine for the run: with its start, and after its first result);
- per game: one Ray task; the bytes a task returns (the pickled outcome and record);
- self-play: rows and Parquet bytes per game (mcts:100, 2-player board game).

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import tempfile
import time
from pathlib import Path

from cafe.arena.run import ArenaPlan, play_task, run_arena
from cafe.selfplay.shards import Run, load, play_shard, shard_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", nargs="+", default=["mcts:200", "greedy"])
    parser.add_argument("--selfplay-games", type=int, default=8)
    args = parser.parse_args()
    plan = ArenaPlan(tuple(args.players), args.games)
    started = time.perf_counter()
    run_arena(plan, jobs=os.cpu_count())
    local = time.perf_counter() - started
    first: list[float] = []
    started = time.perf_counter()
    run_arena(plan, cluster="ray", progress=lambda done, _: first.append(time.perf_counter()) if done == 1 else None)
    on_ray = time.perf_counter() - started
    task_bytes = len(pickle.dumps(play_task(plan, 0, plan.seatings[0])))
    with tempfile.TemporaryDirectory() as tmp:
        shard = Run("mcts:100", args.selfplay_games, shard_games=args.selfplay_games)
        _, data = play_shard(shard, 0)
        shard_path(Path(tmp), 0).write_bytes(data)
        rows = len(load(tmp)["actions"])
    games = len(plan.tasks())
    print(
        json.dumps(
            {
                "arena": {"players": list(plan.players), "games": games, "cores": os.cpu_count()},
                "local_games_per_second": round(games / local, 1),
                "ray_games_per_second": round(games / on_ray, 1),
                "ray_games_per_second_after_start": round((games - 1) / (started + on_ray - first[0]), 1),
                "ray_seconds_to_first_result": round(first[0] - started, 2),
                "tasks_per_game": 1,
                "bytes_per_task_result": task_bytes,
                "selfplay": {
                    "player": "mcts:100",
                    "games": args.selfplay_games,
                    "rows_per_game": rows / args.selfplay_games,
                    "parquet_bytes_per_game": round(len(data) / args.selfplay_games),
                },
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
