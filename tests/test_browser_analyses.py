"""A finished game's page in a real browser (Debian's Chromium) when the analysis queue is full."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from servers import free_port, start_server
from test_server_analyses import SLOW, finished_games, post, until_running

pytestmark = pytest.mark.browser


def test_a_full_analysis_queue_is_said_on_the_games_page_in_the_readers_language(
    tmp_path: Path, browser: Browser
) -> None:
    finished_games(tmp_path, 3, played=0)
    port = free_port()
    server = start_server(port, tmp_path, "--limit", f"analysis_budget={SLOW}", "--limit", "analysis_queue=1")
    try:
        post(port, "g0", "127.0.0.2")
        until_running(port, "g0")
        assert post(port, "g1", "127.0.0.3")[0] == 202  # the queue is full now
        page = browser.new_context(locale="fr-FR").new_page()
        page.goto(f"http://127.0.0.1:{port}/#game=g2")
        page.click("button.analyse")
        expect(page.locator(".replay .problem")).to_have_text(
            "la file d'attente des analyses est pleine : réessayez plus tard"
        )
        expect(page.locator("button.analyse")).to_be_visible()  # to try again later
    finally:
        server.terminate()
        server.wait()
