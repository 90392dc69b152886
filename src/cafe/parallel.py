"""Calls spread over this machine's processes, each result taken as it finishes (cafe.cluster does it on Ray)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

R = TypeVar("R")


def as_finished(function: Callable[..., R], calls: Sequence[tuple[Any, ...]], jobs: int | None) -> Iterator[R]:
    """``function(*call)`` for every call over ``jobs`` processes (default: the machine's cores), each result as it
    finishes; with one process, or one call, in this process and in order."""
    return (result for _call, result in _finishing(function, calls, jobs))


def in_call_order(
    function: Callable[..., R],
    calls: Sequence[tuple[Any, ...]],
    jobs: int | None,
    finished: Callable[[int], object] = lambda call: None,
) -> list[R]:
    """``function(*call)`` for every call over ``jobs`` processes, the results in the order of the calls whichever
    finished first; ``finished(i)`` is told as call *i* finishes (for a progress bar)."""
    results: dict[int, R] = {}
    for call, result in _finishing(function, calls, jobs):
        results[call] = result
        finished(call)
    return [results[call] for call in range(len(calls))]


def _finishing(
    function: Callable[..., R], calls: Sequence[tuple[Any, ...]], jobs: int | None
) -> Iterator[tuple[int, R]]:
    """Each call's index and result as it finishes.

    On Ctrl-C, an error, or when the caller stops taking results, the calls not yet finished are dropped and the
    workers stopped at once: a long arena or self-play run ends when asked, not after every call still queued.  The
    workers ignore Ctrl-C themselves, so that it is this process that stops them, with no traceback from each.  A
    worker that dies (killed, out of memory) fails the run with BrokenProcessPool rather than hanging it."""
    jobs = min(jobs or os.cpu_count() or 1, len(calls))
    if jobs <= 1:
        yield from ((i, function(*call)) for i, call in enumerate(calls))
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts) as pool:
        try:
            futures = {pool.submit(function, *call): i for i, call in enumerate(calls)}
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:  # Ctrl-C, an error, or the caller stopping (GeneratorExit)
            _stop_at_once(pool)
            raise


def _stop_at_once(pool: ProcessPoolExecutor) -> None:
    """Drop the calls not started and end those in progress (``shutdown`` alone would wait for them)."""
    processes = list((pool._processes or {}).values())  # Python 3.14 has pool.terminate_workers() for this
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()


def _ignore_interrupts() -> None:
    """A worker's Ctrl-C does nothing.  A handler, not SIG_IGN: a handler is not inherited across exec, so a program
    the worker starts (an outside engine, ``cmd:``) still stops on Ctrl-C as it would have."""
    signal.signal(signal.SIGINT, _do_nothing)


def _do_nothing(signum: int, frame: object) -> None:
    pass
