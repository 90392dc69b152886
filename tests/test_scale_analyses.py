"""The analysis queue shared by several `cafe serve` processes on one PostgreSQL database and one Redis broker:
a game asked for on two processes is analysed once, and one whose process is killed mid-analysis is analysed by
another after its lease.  Real servers, started by scripts/with-services.sh."""

from __future__ import annotations

import pytest

import test_scale
from cafe.server.storage.postgres import PostgresStore
from test_server_analyses import SLOW, add_finished_games, analyses_begun, post, status, until_done, until_running

pytestmark = pytest.mark.services

TINY = "4"  # an analysis budget that analyses a game in a moment


cluster = test_scale.cluster  # server processes on one PostgreSQL database and the test Redis


@pytest.fixture
def cafe(cluster: test_scale.Cluster) -> test_scale.Cluster:
    """The processes' database, with finished games ``g0`` ... ``g3`` in it."""
    store = PostgresStore(cluster.url)
    add_finished_games(store, 4, played=0)
    store.close()
    return cluster


def start(cafe: test_scale.Cluster, budget: str) -> int:
    """A process analysing with this budget, whose jobs are taken up a second after it dies."""
    return cafe.start(f"analysis_budget={budget}", "lease_seconds=1")


def test_a_game_asked_for_on_two_processes_is_analysed_once(cafe: test_scale.Cluster) -> None:
    one, other = start(cafe, TINY), start(cafe, TINY)
    assert post(one, "g0", "127.0.0.2")[2]["state"] in ("queued", "running")
    assert post(other, "g0", "127.0.0.3")[2]["state"] in ("queued", "running")  # the same game: nothing more
    assert until_done(one, "g0") == until_done(other, "g0")
    assert analyses_begun(one) + analyses_begun(other) == 1


def test_a_game_whose_process_is_killed_mid_analysis_is_analysed_by_another(cafe: test_scale.Cluster) -> None:
    slow = start(cafe, SLOW)
    post(slow, "g0", "127.0.0.2")
    until_running(slow, "g0")
    other = start(cafe, TINY)
    assert analyses_begun(slow) == 1 and analyses_begun(other) == 0  # the slow one analyses it
    cafe.kill(slow)
    analysis = until_done(other, "g0")["analysis"]
    assert analysis["budget"] == int(TINY) and analyses_begun(other) == 1  # analysed again, there, once


def test_an_address_has_one_game_waiting_in_the_whole_cafe(cafe: test_scale.Cluster) -> None:
    one, other = start(cafe, SLOW), start(cafe, SLOW)
    post(one, "g0", "127.0.0.2")
    until_running(one, "g0")
    post(other, "g1", "127.0.0.3")
    until_running(one, "g1")  # by the other process: each analyses one game at a time
    seen_here, seen_there = status(one, "g1"), status(other, "g1")  # where it stands, wherever asked
    assert seen_here["state"] == seen_there["state"] == "running" and seen_here["total"] == seen_there["total"] > 0
    assert post(one, "g2", "127.0.0.4")[2] == {"state": "queued", "position": 2, "workers": 1}
    code, retry, _ = post(other, "g3", "127.0.0.4")  # the same address, on the other process
    assert (code, retry) == (429, "60") and analyses_begun(one) == analyses_begun(other) == 1
