"""Due work (cafe.server.due) over a real SQLite file, on two "processes" (two DueWork with their own owners): a job
that found the store or broker away is tried again, one that fails is not tried again and again, and one that runs
long keeps its lease so that no other process does it twice."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from cafe.server.due import DueWork
from cafe.server.storage.store import DueJob, SQLiteStore, Unavailable


def kept(path: Path) -> list[str]:
    """The jobs the store still keeps."""
    with sqlite3.connect(path) as db:
        return [key for (key,) in db.execute("SELECT key FROM due")]


async def until(condition: Callable[[], object], what: str) -> None:
    for _ in range(1200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def test_a_job_that_found_the_store_away_is_done_later_and_one_that_fails_is_not_tried_again(tmp_path: Path) -> None:
    path = tmp_path / "cafe.sqlite3"
    runs: list[str] = []

    async def run(job: DueJob) -> None:
        runs.append(job.room)
        if job.room == "away" and runs.count("away") == 1:
            raise Unavailable("the broker does not answer")
        if job.room == "broken":
            raise ValueError("a fault of the job's own")

    async def main() -> None:
        work = DueWork(SQLiteStore(path), run, lease=5.0)
        looking = asyncio.ensure_future(work.run_forever())
        try:
            work.schedule(DueJob("bot", "away", 0, time.time()))
            work.schedule(DueJob("bot", "broken", 0, time.time()))
            await until(lambda: runs.count("away") == 2 and not kept(path), "the job given back was done")
            assert runs.count("broken") == 1
        finally:
            looking.cancel()
            work.close()

    asyncio.run(main())


def test_a_long_job_keeps_its_lease_and_no_other_process_takes_it_up(tmp_path: Path) -> None:
    path = tmp_path / "cafe.sqlite3"
    runs: list[str] = []
    done = asyncio.Event()

    async def run(job: DueJob) -> None:
        runs.append(job.key)
        await done.wait()

    async def main() -> None:
        one, two = (DueWork(SQLiteStore(path), run, lease=0.3) for _ in range(2))
        looking = [asyncio.ensure_future(work.run_forever()) for work in (one, two)]
        try:
            one.schedule(DueJob("clock", "r1", 3, time.time()))
            await until(lambda: runs, "the job began")
            for _ in range(3):  # ten leases long, and both processes look for due work meanwhile
                await asyncio.sleep(1.0)
                assert runs == ["clock:r1:3"], runs
            done.set()
            await until(lambda: not kept(path), "the job was done")
            assert runs == ["clock:r1:3"]
        finally:
            for task in looking:
                task.cancel()
            one.close()
            two.close()

    asyncio.run(main())
