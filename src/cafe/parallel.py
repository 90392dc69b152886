"""Calls spread over this machine's processes, each result taken as it finishes (cafe.cluster does it on Ray)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

R = TypeVar("R")


def as_finished(function: Callable[..., R], calls: Sequence[tuple[Any, ...]], jobs: int | None) -> Iterator[R]:
    """``function(*call)`` for every call over ``jobs`` processes (default: the machine's cores), each result as it
    finishes; with one process, or one call, in this process and in order."""
    jobs = min(jobs or os.cpu_count() or 1, len(calls))
    if jobs <= 1:
        yield from (function(*call) for call in calls)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for future in as_completed([pool.submit(function, *call) for call in calls]):
            yield future.result()
