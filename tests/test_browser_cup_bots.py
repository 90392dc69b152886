"""A bot account in a tournament, seen in a real browser (Debian's Chromium, Playwright) against a real `cafe
serve`: the director enters it by its name over HTTP, and the tournament's page marks it as a bot in the entries,
the standings and the round's pairing, as the lobby and the rooms do; a computer player is not marked."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive
from test_bot_client import account, bot_account, post

pytestmark = pytest.mark.browser


def test_a_bot_accounts_entry_is_marked_as_a_bot_on_the_tournaments_page(cafe: str, browser: Browser) -> None:
    port = urlsplit(cafe).port or 0
    dan = account(port, "Dan")
    bot_account(port)
    status, opened, _ = post(port, "/tournaments/open", {"name": "Bot cup", "table_size": 2, "rounds": 1}, dan)
    assert status == 201
    cup = opened["id"]
    assert post(port, f"/tournaments/{cup}/enter", {"account": "Robo"}, dan)[0] == 200
    assert post(port, f"/tournaments/{cup}/enter", {"bot": "easy"}, dan)[0] == 200
    assert post(port, f"/tournaments/{cup}/start", {}, dan)[0] == 200
    page = arrive(browser, cafe, "Ann", locale="de-DE")
    page.goto(f"{cafe}#tournament={cup}")
    expect(page.locator(".tournaments h1")).to_have_text("Bot cup")
    expect(page.locator(".tournaments")).to_contain_text("Robo (Bot), ")
    expect(page.locator(".pairing li")).to_contain_text("Robo (Bot)")
    expect(page.locator(".standings")).to_contain_text("Robo (Bot)")
    expect(page.locator(".standings tr")).to_have_count(3)  # a heading and the two entries
    assert page.locator(".standings").inner_text().count("(Bot)") == 1  # the computer player is no bot account
