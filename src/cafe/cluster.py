"""Work spread over a Ray cluster (``--cluster``; ``pip install 'cafe-international[cluster]'``).

``ray``: a Ray started on this machine for the run, or the cluster that ``RAY_ADDRESS`` names; ``ray://HOST:PORT``:
an existing cluster through Ray Client.  Each call is one task; the callers' tasks are deterministic given their
arguments, so a task that Ray runs again after its worker died gives the same answer, and each answer is taken
once, when it arrives.  An outside engine (``cmd:``) runs on the worker that plays the game: it must be installed
on every worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import ray

from cafe.engine.client import EngineError
from cafe.errors import CafeError
from cafe.i18n import T

RETRIES = 3  # runs of a task whose worker died, after the first
# Ray Client starts a server for each session, which now and then dies as it starts (ray-project/ray#63202, a race
# in Ray's proxy); Ray then says this, and a new session usually starts
SERVER_DIED = "Initialization failure from server"
CONNECT_TRIES = 3
POLL_SECONDS = 0.2  # how long a wait for the next answer lasts before Ctrl-C is looked at


def connect(cluster: str) -> None:
    """Join (or start) the Ray cluster that ``cluster`` names; one clear line if it cannot be reached."""
    if cluster != "ray" and not cluster.startswith("ray://"):
        raise CafeError(T("--cluster takes ray or ray://HOST:PORT, not {cluster!r}", cluster=cluster))
    address = os.environ.get("RAY_ADDRESS") if cluster == "ray" else cluster
    for attempt in range(1, CONNECT_TRIES + 1):
        try:
            with warnings.catch_warnings():  # Ray Client warns before it gives up; the line below says it once
                warnings.simplefilter("ignore")
                ray.init(address=address, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            return
        except (ConnectionError, TimeoutError, RuntimeError, ValueError) as error:
            reason = " ".join(str(error).split()) or type(error).__name__  # Ray's message, on one line
            if attempt < CONNECT_TRIES and SERVER_DIED in reason:
                ray.shutdown()
                continue
            raise CafeError(
                T("cannot reach the Ray cluster at {address}: {reason}", address=address, reason=reason)
            ) from None


def run(function: Callable[..., Any], calls: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
    """``function(*call)`` for every call, as Ray tasks; the answers as they arrive.  On an error, Ctrl-C or when
    the caller stops, the tasks still pending are cancelled and Ray is shut down."""
    remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(function)
    with _interrupts_noted() as interrupted:
        pending = [remote.remote(*call) for call in calls]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
                if interrupted.is_set():
                    raise KeyboardInterrupt
                if done:
                    yield _answer(done[0])
            if interrupted.is_set():  # pressed while the caller took the last answer
                raise KeyboardInterrupt
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            ray.shutdown()


def _answer(ref: Any) -> Any:
    """A finished task's answer; its error as ours where it is one of ours."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = error.cause
        if isinstance(cause, EngineError):  # an outside engine, started on the worker
            note = T("{error} (an outside engine must be installed on every worker)", error=str(cause))
            raise CafeError(note) from None
        if isinstance(cause, CafeError):
            raise cause from None
        raise


@contextlib.contextmanager
def _interrupts_noted() -> Iterator[threading.Event]:
    """Ctrl-C noted rather than raised where it lands, so that :func:`run` acts on it between two calls to Ray.

    Raised inside Ray Client's own code it may be lost (an object reference's finaliser swallows it, and the
    run goes on) or leave a half-read answer behind that the cancelling then waits for.
    """
    interrupted = threading.Event()
    if threading.current_thread() is not threading.main_thread():  # only the main thread receives signals
        yield interrupted
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: interrupted.set())
    try:
        yield interrupted
    finally:
        if previous is not None:  # None: a handler set outside Python, which signal.signal cannot put back
            signal.signal(signal.SIGINT, previous)
