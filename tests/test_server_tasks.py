"""The server's background work ends when the server closes, even work that lost its cancel on the way."""

from __future__ import annotations

import asyncio

from cafe.server.tasks import Tasks, cancel_all

HANG_GUARD = 60.0  # seconds: far beyond the second or so these take; a test that hangs fails instead


async def _loses_its_first_cancel(rounds: list[str]) -> None:
    """Work that goes on after its first cancel, as a task inside Python 3.11's asyncio.wait_for may (its awaited
    send ending as the cancel comes), and then sleeps on as a sweeper does."""
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        rounds.append("lost")
    while True:
        rounds.append("slept on")
        await asyncio.sleep(3600)


def test_stopping_ends_work_that_lost_its_cancel() -> None:
    async def scenario() -> list[str]:
        rounds: list[str] = []
        tasks = Tasks()
        stubborn = tasks.spawn(_loses_its_first_cancel(rounds))
        plain = tasks.spawn(asyncio.sleep(3600))
        await asyncio.sleep(0)  # both started
        async with asyncio.timeout(HANG_GUARD):
            await tasks.stop()
        assert stubborn.cancelled() and plain.cancelled()
        return rounds

    assert asyncio.run(scenario()) == ["lost", "slept on"]


def test_cancel_all_waits_for_each_task_to_end() -> None:
    async def scenario() -> list[str]:
        ended: list[str] = []

        async def tidy(name: str) -> None:
            try:
                await asyncio.sleep(3600)
            finally:
                await asyncio.sleep(0.01)  # its own tidying up, awaited before cancel_all returns
                ended.append(name)

        work = [asyncio.ensure_future(tidy(name)) for name in ("a", "b")]
        await asyncio.sleep(0)
        async with asyncio.timeout(HANG_GUARD):
            await cancel_all(work)
        return sorted(ended)

    assert asyncio.run(scenario()) == ["a", "b"]
