"""Calls spread over this machine's processes, each result taken as it finishes (cafe.cluster does it on Ray)."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
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

    On Ctrl-C, an error, or when the caller stops taking results, the worker processes are stopped at once, the
    calls not yet finished with them: a long arena or self-play run ends when asked, not after every call still
    queued.  The workers ignore Ctrl-C themselves, so that it is this process that stops them, with no traceback
    from each."""
    jobs = min(jobs or os.cpu_count() or 1, len(calls))
    if jobs <= 1:
        yield from ((i, function(*call)) for i, call in enumerate(calls))
        return
    with multiprocessing.Pool(jobs, initializer=_ignore_interrupts) as pool:  # leaving it terminates the workers
        yield from pool.imap_unordered(_numbered, [(function, i, call) for i, call in enumerate(calls)])


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _numbered(task: tuple[Callable[..., R], int, tuple[Any, ...]]) -> tuple[int, R]:
    function, i, call = task
    return i, function(*call)
