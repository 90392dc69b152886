"""Shared helpers: hand-built positions and a small custom board."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from cafe import BoardGame
from cafe.server.storage.store import SQLiteStore, Store
from cafe.tiles import Tile, full_set
from servers import free_port, fresh_database, start_server

# CI runs the property tests on a fixed set of examples; elsewhere they explore afresh each run.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Two tables sharing one chair (c2): proves the engine is not tied to the classic board.
DUO_BOARD: dict[str, Any] = {
    "name": "duo",
    "tables": [{"id": "USA1", "nation": "USA", "cell": "b2"}, {"id": "GER1", "nation": "GER", "cell": "d2"}],
    "chairs": [
        {"id": "a2", "tables": ["USA1"]},
        {"id": "b1", "tables": ["USA1"]},
        {"id": "b3", "tables": ["USA1"]},
        {"id": "c2", "tables": ["USA1", "GER1"]},
        {"id": "d1", "tables": ["GER1"]},
        {"id": "d3", "tables": ["GER1"]},
        {"id": "e2", "tables": ["GER1"]},
    ],
}


def bag_with_hands(*hands: list[str], seed: int = 0) -> list[str]:
    """A full bag whose first tiles deal these hands (5 each, in seat order), the rest shuffled."""
    rest = full_set()
    head: list[str] = []
    for hand in hands:
        assert len(hand) == 5
        for code in hand:
            rest.remove(Tile.parse(code))
            head.append(code)
    random.Random(seed).shuffle(rest)
    return head + [t.name for t in rest]


def legal(game: BoardGame) -> set[str]:
    return {str(s) for s in game.legal_steps()}


def play_random(game: BoardGame, rng: random.Random, max_steps: int = 10_000) -> BoardGame:
    for _ in range(max_steps):
        if game.is_over():
            return game
        game.push(rng.choice(game.legal_steps()))
    raise AssertionError("the game did not end")


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


@pytest.fixture
def cafe(tmp_path: Path) -> Iterator[str]:
    """A real ``cafe serve`` on a free port, with its data in the test's folder: its address.  What the server
    printed last is printed at the end, so that a failing test's report shows it."""
    port = free_port()
    server = start_server(port, tmp_path)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.kill()
        server.wait()
        printed = (tmp_path / f"serve-{port}.log").read_text(errors="replace").splitlines()
        print("the server's last lines:", *printed[-40:], sep="\n")


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never a browser Playwright downloads)."""
    from playwright.sync_api import sync_playwright

    from browsing import CHROMIUM, FLAGS

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Any]:
    """A café whose computer players answer at once, and where the tests' clients may send as fast as they like."""
    from cafe.server.app import create_app
    from test_server import served

    with served(create_app(tmp_path, bot_delay=0.0, away_seconds=0.2, rate=1000.0, burst=1000)) as client:
        yield client


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each store in turn: a fresh SQLite file, and a fresh PostgreSQL database (under scripts/with-services.sh)."""
    if request.param == "sqlite":
        opened: Store = SQLiteStore(tmp_path / "cafe.sqlite3")
        yield opened
        opened.close()
        return
    from cafe.server.storage.postgres import PostgresStore

    with fresh_database() as url:
        opened = PostgresStore(url)
        yield opened
        opened.close()
