"""Calls over this machine's processes (cafe.parallel): stopped at once on Ctrl-C or when the caller stops, not
after every call still queued."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from cafe.errors import CafeError
from cafe.parallel import as_finished

CALLS = 100


def noted(folder: str, i: int) -> int:
    """A call that takes a while, and leaves a file saying it ran."""
    Path(folder, str(i)).touch()
    time.sleep(0.2)
    return i


def killed(i: int) -> int:
    """A call whose worker dies on call 2, as one killed for want of memory would."""
    if i == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return i


def refused(i: int) -> int:
    if i == 3:
        raise CafeError(f"call {i} refused")
    return i


def test_a_caller_that_stops_taking_results_stops_the_calls_still_to_come(tmp_path: Path) -> None:
    others = set(multiprocessing.active_children())  # what earlier tests in this process may have left running
    results = as_finished(noted, [(str(tmp_path), i) for i in range(CALLS)], 2)
    first = next(results)
    results.close()
    assert 0 <= first < CALLS
    assert set(multiprocessing.active_children()) <= others
    assert len(list(tmp_path.iterdir())) < CALLS


def test_ctrl_c_stops_every_worker_at_once_with_no_traceback_from_them(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from cafe.parallel import as_finished
        from test_parallel import noted

        try:
            for _ in as_finished(noted, [({str(tmp_path)!r}, i) for i in range({CALLS})], 2):
                pass
        except KeyboardInterrupt:
            sys.exit(130)
    """)
    # its own process group, as a terminal's Ctrl-C reaches the command and its workers alike
    process = subprocess.Popen(
        [sys.executable, "-c", script], start_new_session=True, stderr=subprocess.PIPE, text=True
    )
    while not any(tmp_path.iterdir()):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)
    _, errors = process.communicate(timeout=120)  # without the stop, all the calls play out first (20 s)
    assert process.returncode == 130
    assert "Traceback" not in errors
    assert len(list(tmp_path.iterdir())) < CALLS


def test_an_error_in_one_call_reaches_the_caller_as_itself() -> None:
    with pytest.raises(CafeError, match="call 3 refused"):
        list(as_finished(refused, [(i,) for i in range(8)], 2))


def test_a_worker_that_dies_fails_the_run_instead_of_hanging_it() -> None:
    with pytest.raises(BrokenProcessPool):
        list(as_finished(killed, [(i,) for i in range(8)], 2))
