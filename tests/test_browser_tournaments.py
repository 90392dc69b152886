"""A tournament in Chromium: a person opens one from the lobby, enters it with a computer player, plays their
round-1 table by clicking, and sees the standings and the next round's pairing; a director opens one with every
setting chosen, and its page says them in words."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive
from test_browser import play_to_the_end
from test_browser_access import serious_violations

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


def test_a_director_opens_a_tournament_with_every_setting_chosen_and_its_page_says_them_in_words(
    cafe: str, browser: Browser
) -> None:
    page = arrive(browser, cafe, "Ann")
    page.click("a[href='#tournaments']")
    form = page.locator(".open-tournament")
    assert serious_violations(page) == [], "the tournaments' form"
    form.locator("input[name=name]").click()
    page.keyboard.type("Night league")
    form.locator("select[name=edition]").focus()
    page.keyboard.press("ArrowDown")  # the card game
    presets = form.locator("select[name=rules] option")
    expect(presets.first).to_have_text("printed rules")  # the card game's presets, as the lobby offers them
    form.locator("select[name=rules]").focus()
    page.keyboard.press("ArrowDown")
    preset = form.locator("select[name=rules] option:checked").inner_text()
    form.get_by_label("Round robin: every pair of players meets once").click()
    expect(form.locator("input[name=rounds]")).to_be_hidden()  # a round robin's rounds follow from its entries
    form.locator("select[name=table_size]").select_option("2")
    expect(form.locator("input[name=late]").first).to_be_hidden()  # a live game's clock is the café's own
    form.locator("select[name=clock]").select_option(label="1 day a turn")
    ended = "The others may end the game; it counts as not played, and as a forfeit for the late player."
    form.get_by_label(ended).click()
    form.locator("input[name=duplicate]").click()
    form.locator("input[name=compare]").first.focus()
    page.keyboard.press("ArrowDown")  # the margin
    day = date.today() + timedelta(days=30)  # the reader's local day, a month ahead
    form.locator("input[name=start]").fill(f"{day.isoformat()}T18:30")
    form.locator("input[name=pause]").click()
    page.keyboard.type("15")
    page.keyboard.press("Enter")
    expect(page.locator(".tournaments h1")).to_have_text("Night league")
    settings = page.locator(".cup-settings")
    for words in (
        "card game", preset, "Round robin: every pair of players meets once", "1 day a turn",
        "Every table plays a deal of its own.",
        ended,
        "Match points compare each seat's lead over its best table-mate with the same seat's at the other tables",
        re.compile(rf"Round 1 starts by itself on {day:%A}, {day:%B} {day.day}, {day.year} at 6:30\sPM\."),
        "Each next round starts by itself 15 minutes after the last one ends.",
    ):  # fmt: skip
        expect(settings).to_contain_text(words)
    for code in ("round_robin", "margin", "cards", f"{day.isoformat()}T"):
        expect(settings).not_to_contain_text(code)
    assert serious_violations(page) == [], "a tournament's page"
