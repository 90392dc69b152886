"""The bounds on sign-ins hold across server processes: two real `cafe serve` processes on one PostgreSQL database
and one Redis count one name's (and one address's) attempts together, rather than each its own (each case failed
when every process counted in its memory).  Started by scripts/with-services.sh."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from itertools import cycle

import pytest

import test_scale
from test_scale import Cluster

pytestmark = pytest.mark.services


cluster = test_scale.cluster  # the same fixture: processes on a fresh database and the test Redis


def sign_in(port: int, name: str) -> int:
    """A sign-in with a wrong password on the process at ``port``: its HTTP status."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/account/sign-in", method="POST",
                                     data=json.dumps({"name": name, "password": "guessing"}).encode(),
                                     headers={"content-type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_one_names_sign_ins_are_bounded_across_processes(cluster: Cluster) -> None:
    limits = ("signins_per_account=4", "signins_per_address=100")
    ports = [cluster.start(*limits), cluster.start(*limits)]
    answers = [sign_in(port, "Zed") for port, _ in zip(cycle(ports), range(10), strict=False)]
    assert answers == [401] * 4 + [429] * 6  # four in all, not four on each process
    assert sign_in(ports[0], "Ann") == sign_in(ports[1], "Bob") == 401  # other names are counted apart


def test_one_addresss_sign_ins_are_bounded_across_processes(cluster: Cluster) -> None:
    limits = ("signins_per_account=100", "signins_per_address=5")
    ports = [cluster.start(*limits), cluster.start(*limits)]
    answers = [sign_in(port, f"Name{n}") for n, port in zip(range(8), cycle(ports), strict=False)]
    assert answers == [401] * 5 + [429] * 3
