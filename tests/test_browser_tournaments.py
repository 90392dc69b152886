"""A tournament in Chromium: a person opens one from the lobby, enters it with a computer player, plays their
round-1 table by clicking, and sees the standings and the next round's pairing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive
from test_browser import play_to_the_end

pytestmark = pytest.mark.browser


def test_a_person_enters_a_tournament_plays_round_one_and_sees_the_standings_and_the_next_pairing(
    cafe: str, browser: Browser
) -> None:
    page = arrive(browser, cafe, "Ann")
    page.click("a[href='#tournaments']")
    page.fill(".open-tournament input[name=name]", "Evening cup")
    page.fill(".open-tournament input[name=rounds]", "2")
    page.select_option(".open-tournament select[name=table_size]", "2")
    page.click(".open-tournament button[type=submit]")
    expect(page.locator(".tournaments h1")).to_have_text("Evening cup")
    page.click("button:has-text('Enter')")
    page.click("button:has-text('Add a computer player')")
    expect(page.locator(".tournaments")).to_contain_text("Entries: Ann, Medium bot 1")
    page.click("button:has-text('Start the next round')")
    expect(page.locator(".pairing")).to_contain_text("Round 1", timeout=30_000)
    cup = page.url
    page.click(".your-table a")
    play_to_the_end(page)
    page.goto(cup)
    polled = 30_000  # the page reads the standings every few seconds; a busy machine takes longer
    expect(page.locator(".pairing li")).to_contain_text(re.compile(r"\(done\)"), timeout=polled)
    expect(page.locator(".standings tr")).to_have_count(3)  # a heading and the two entries
    page.click("button:has-text('Start the next round')")
    expect(page.locator(".pairing h2")).to_have_text("Round 2", timeout=polled)
    expect(page.locator(".your-table a")).to_be_visible(timeout=polled)
