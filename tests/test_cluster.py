"""The arena and self-play on a real Ray cluster: a head started here on loopback with 2 CPUs (``ray start``)."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cafe import cluster
from cafe.cluster import CONNECT_TRIES, SERVER_DIED
from cafe.errors import CafeError
from cafe.selfplay.shards import load
from servers import free_port

pytestmark = pytest.mark.cluster  # run alone (make slow): the cluster takes both cores

TIMING = ("think_per_turn", "longest_turn")  # measured, so never the same twice
# the cluster asks every client for this token (Ray's token authentication), as a real one should
AUTH = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16)}
HEAD = {
    # a machine busy with other work may take long to start a client's server
    "RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": "180",
    # the head's Ray Client proxy forks each session's server while gRPC is busy in its other threads, and gRPC's
    # fork handlers then now and then kill the new server (ray-project/ray#63202): a session lost, and 180 s waited
    # for it; the server is a new program at once (fork, then exec), so it needs none of them
    "GRPC_ENABLE_FORK_SUPPORT": "0",
}


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A head node on 127.0.0.1 with 2 CPUs, for this module; its addresses (GCS and Ray Client)."""
    gcs, client = free_port(), free_port()
    temp = Path(f"/tmp/ray-{os.getpid()}")  # short: Ray's socket paths must fit in 107 characters
    log = tmp_path_factory.mktemp("ray") / "head.log"
    command = [
        str(Path(sys.executable).parent / "ray"), "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
        "--port", str(gcs), "--ray-client-server-port", str(client), "--num-cpus", "2", "--include-dashboard",
        "false", "--disable-usage-stats", "--temp-dir", str(temp),
    ]  # fmt: skip
    with open(log, "wb") as out:
        head = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **AUTH, **HEAD}
        )
    try:
        try:
            _wait_for(lambda: _listening(client), 120, f"the Ray head (see {log})")
            _wait_for(lambda: _accepts_a_client(f"ray://127.0.0.1:{client}"), 300, "the Ray head's first client")
        except pytest.fail.Exception as failed:
            pytest.fail(f"{failed}\n{_client_server_logs(temp)}")
        yield {"gcs": f"127.0.0.1:{gcs}", "client": f"ray://127.0.0.1:{client}"}
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(5)  # Ray drains for up to 30 s on SIGTERM; nothing here needs draining
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        subprocess.run(["pkill", "-9", "-f", str(temp)], check=False)  # anything of this head still left
        shutil.rmtree(temp, ignore_errors=True)


def _accepts_a_client(address: str) -> bool:
    """Whether a Ray Client can join the head now (its first client sets up the head's client proxy)."""
    join = f"import ray; ray.init(address={address!r}, log_to_driver=False); ray.shutdown()"
    done = subprocess.run([sys.executable, "-c", join], env={**os.environ, **AUTH}, capture_output=True, check=False)
    return done.returncode == 0


def _client_server_logs(temp: Path) -> str:
    """The last lines of the head's Ray Client logs (its proxy's, each session's server's): why no client joined."""
    parts = []
    for log in sorted((temp / "session_latest" / "logs").glob("ray_client_server*.err")):
        parts += [f"--- {log.name}", *log.read_text(errors="replace").splitlines()[-15:]]
    return "\n".join(parts)


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _wait_for(condition: Any, seconds: float, what: str) -> None:
    """Poll until ``condition()`` holds; fail naming ``what`` if it never does (a hang, not a slow machine)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)


def _cafe(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cafe", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **AUTH, **(env or {})},
    )  # fmt: skip


def _arena(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    done = _cafe("arena", *args, "--json", env=env)
    out, err = done.communicate()
    assert done.returncode == 0, err
    report: dict[str, Any] = json.loads(out)
    for player in report["results"]:
        for key in TIMING:
            del player[key]
    return report


def _tasks_running() -> list[int]:
    """Processes of Ray workers playing an arena game now (Ray names a busy worker after its task)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"ray::play_task") or title.startswith(b"ray::play_shard"):
                found.append(int(entry.name))
    return found


def test_an_arena_on_the_cluster_gives_exactly_the_local_result(ray_head: dict[str, str]) -> None:
    match = ("greedy", "mcts:20", "random", "--games", "6", "--seed", "3")
    local = _arena(*match, "--jobs", "2")
    assert _arena(*match, "--cluster", ray_head["client"]) == local
    assert _arena(*match, "--cluster", "ray", env={"RAY_ADDRESS": ray_head["gcs"]}) == local
    assert [p["games"] for p in local["results"]] == [6, 6, 6]


def test_a_worker_killed_mid_game_is_run_again_and_counted_once(ray_head: dict[str, str], tmp_path: Path) -> None:
    match = ("mcts:150", "greedy", "--games", "6", "--seed", "1")
    run = _cafe("arena", *match, "--cluster", ray_head["client"], "--json", "--records", str(tmp_path))
    _wait_for(_tasks_running, 120, "a game on the cluster")
    os.kill(_tasks_running()[0], signal.SIGKILL)
    out, err = run.communicate()
    assert run.returncode == 0, err
    report = json.loads(out)
    for player in report["results"]:
        for key in TIMING:
            del player[key]
    assert report == _arena(*match, "--jobs", "2")
    assert len(list(tmp_path.glob("*.json"))) == 6


def test_ctrl_c_cancels_every_game_of_the_run(ray_head: dict[str, str]) -> None:
    run = _cafe("arena", "mcts:5000", "mcts:5000", "--games", "8", "--cluster", ray_head["client"])
    _wait_for(_tasks_running, 120, "a game on the cluster")
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130 and "interrupted" in err
    _wait_for(lambda: not _tasks_running(), 120, "the cluster to stop the cancelled games")


def test_ctrl_c_within_a_run_is_noted_for_the_run_to_act_on_and_the_handler_put_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    with cluster._interrupts_noted() as interrupted:
        assert not interrupted.is_set()
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt here, where Ray's code might have swallowed it
        assert interrupted.is_set()
    assert signal.getsignal(signal.SIGINT) is before


def test_selfplay_stopped_and_started_again_has_every_game_once(ray_head: dict[str, str], tmp_path: Path) -> None:
    options = ("selfplay", "--player", "mcts:300", "--games", "6", "--shard-games", "1", "--edition", "cards")
    run = _cafe(*options, "--out", str(tmp_path / "ray"), "--cluster", ray_head["client"])
    _wait_for(lambda: any((tmp_path / "ray").glob("shard-*.parquet")), 300, "the first shard")
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert len(list((tmp_path / "ray").glob("shard-*.parquet"))) < 6
    again = _cafe(*options, "--out", str(tmp_path / "ray"), "--cluster", ray_head["client"])
    _, err = again.communicate()
    assert again.returncode == 0, err
    here = _cafe(*options, "--out", str(tmp_path / "here"), "--jobs", "2")
    assert here.wait() == 0
    data, expected = load(tmp_path / "ray"), load(tmp_path / "here")
    pairs = list(zip(data["games"].tolist(), data["plies"].tolist(), strict=True))
    assert len(pairs) == len(set(pairs)) and sorted(set(data["games"].tolist())) == list(range(6))
    order, reference = np.lexsort((data["plies"], data["games"])), np.lexsort((expected["plies"], expected["games"]))
    for key in expected:  # the same games, step for step, as on this machine
        assert np.array_equal(data[key][order], expected[key][reference], equal_nan=True), key


def test_an_unreachable_cluster_is_one_clear_line() -> None:
    run = _cafe(
        "arena",
        "greedy",
        "random",
        "--cluster",
        "ray://127.0.0.1:1",
        env={"RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S": "1"},
    )
    _, err = run.communicate()
    assert run.returncode == 1
    assert err.strip().splitlines() == [
        "cafe arena: cannot reach the Ray cluster at ray://127.0.0.1:1: ray client connection timeout"
    ]


@pytest.mark.parametrize(
    ("failures", "calls", "joined"),
    [
        ([SERVER_DIED + ": psutil.ZombieProcess"], 2, True),  # the client's server died as it started: once more
        ([SERVER_DIED] * CONNECT_TRIES, CONNECT_TRIES, False),  # and so on, but not forever
        (["ray client connection timeout"], 1, False),  # nobody there: said at once
    ],
)
def test_a_session_whose_server_died_starting_is_asked_again(
    monkeypatch: pytest.MonkeyPatch, failures: list[str], calls: int, joined: bool
) -> None:
    """Ray's own race (ray-project/ray#63202) cannot be caused at will, so Ray's answers are played back here."""
    asked: list[str] = []

    def init(address: str, **options: Any) -> None:
        asked.append(address)
        if len(asked) <= len(failures):
            raise ConnectionError(failures[len(asked) - 1])

    monkeypatch.setattr(cluster.ray, "init", init)
    monkeypatch.setattr(cluster.ray, "shutdown", lambda: None)
    if joined:
        cluster.connect("ray://127.0.0.1:1")
    else:
        with pytest.raises(CafeError, match=re.escape("cannot reach the Ray cluster at ray://127.0.0.1:1: ")):
            cluster.connect("ray://127.0.0.1:1")
    assert asked == ["ray://127.0.0.1:1"] * calls


def test_an_outside_engine_missing_on_the_workers_is_said(ray_head: dict[str, str]) -> None:
    run = _cafe("arena", "greedy", "cmd:/no/such/engine", "--games", "2", "--cluster", ray_head["client"])
    _, err = run.communicate()
    assert run.returncode == 1 and "must be installed on every worker" in err and "Traceback" not in err


def test_puzzles_made_on_the_cluster_are_the_local_ones_byte_for_byte(ray_head: dict[str, str], tmp_path: Path) -> None:
    made = ("puzzles", "make", "--edition", "cards", "--games", "3", "--seed", "5", "--budget", "8")
    for where, out in ((("--jobs", "2"), "local"), (("--cluster", ray_head["client"]), "ray")):
        run = _cafe(*made, *where, "--out", str(tmp_path / f"{out}.json.gz"))
        _, err = run.communicate()
        assert run.returncode == 0, err
    assert (tmp_path / "local.json.gz").read_bytes() == (tmp_path / "ray.json.gz").read_bytes()
