"""The page's signals in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: a short tone
when it becomes your turn, off until turned on in the account page's settings and kept in the browser; the count
of your waiting games in the tab's title, which may be turned off.  The tone is observed through a spy on the
Web Audio API put in the page before the café's scripts: it counts the oscillators started.  And holidays: begun
and ended on the account page, read at the table by the others in their language's date format (each case failed
before the page had them)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive, my_turn
from test_browser import MAX_CLICKS, click_something_legal

pytestmark = pytest.mark.browser

SPY = """
window.tones = 0;
const RealAudioContext = window.AudioContext;
window.AudioContext = class extends RealAudioContext {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...when) => { window.tones += 1; return start(...when); };
    return tone;
  }
};
"""


def tones(page: Page) -> int:
    return int(page.evaluate("window.tones"))


def play_until_my_turn_again(page: Page) -> None:
    """The person plays their turn to its end, and waits for the computer player's to end too."""
    for _ in range(MAX_CLICKS):
        if not my_turn(page):
            break
        click_something_legal(page)
    expect(page.locator(".room-view")).to_have_attribute("data-mine", "true", timeout=30_000)


def test_a_tone_when_it_becomes_your_turn_once_turned_on_and_kept_in_the_browser(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann", script=SPY)
    ann.click("text=Create room")
    ann.click("text=Add computer player")
    ann.click("text=Start the game")
    expect(ann.locator(".room-view")).to_have_attribute("data-mine", "true")
    room = str(ann.locator(".room-view").get_attribute("data-room"))
    play_until_my_turn_again(ann)
    assert tones(ann) == 0  # off by default

    ann.click("#account-link")
    sound, count = ann.locator("input[name=cafe-sound]"), ann.locator("input[name=cafe-count]")
    expect(sound).not_to_be_checked()
    expect(count).not_to_be_checked()  # off by default too
    expect(ann).not_to_have_title(re.compile(r"^\("))
    count.check()
    expect(ann).to_have_title(re.compile(r"^\(1\) "))  # her game waits for her, and she is not at its table
    count.uncheck()
    expect(ann).not_to_have_title(re.compile(r"^\("))
    sound.check()
    ann.wait_for_function("window.tones === 2")  # the tone, heard once as she turns it on
    assert ann.evaluate("[localStorage.getItem('cafe-sound'), localStorage.getItem('cafe-count')]") == ["on", "off"]

    ann.reload()  # the settings stay with the browser
    expect(ann.locator("input[name=cafe-sound]")).to_be_checked()
    expect(ann.locator("input[name=cafe-count]")).not_to_be_checked()
    expect(ann).not_to_have_title(re.compile(r"^\("))
    assert tones(ann) == 0  # nothing sounds for a game found waiting as the page opens
    ann.goto(f"{cafe}#room={room}")
    expect(ann.locator(".room-view")).to_have_attribute("data-mine", "true")
    play_until_my_turn_again(ann)
    ann.wait_for_function("window.tones >= 2")  # her turn came again: a tone


def test_a_person_goes_on_holiday_from_the_account_page_and_the_others_see_until_when(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.click("#account-link")
    ann.fill("input[name=password]", "correct horse battery")
    ann.click("text=Claim the name")
    expect(ann.locator(".holiday-status")).to_have_text("You have 21 days of holiday left this year.")
    ann.click("text=Back to the lobby")
    ann.select_option("select[name=clock]", "24")
    ann.click("text=Create room")
    expect(ann.locator("text=Waiting for players")).to_be_visible()
    room = str(ann.locator(".room-view").get_attribute("data-room"))
    ben = arrive(browser, cafe, "Ben", locale="de-DE")  # reads dates as German does
    ben.goto(f"{cafe}#room={room}")
    ben.fill("input[name=chat]", "/join")
    ben.press("input[name=chat]", "Enter")
    expect(ann.locator(".seats")).to_contain_text("Ben")
    ann.click("text=Start the game")
    expect(ann.locator(".room-view")).to_have_attribute("data-mine", "true")

    ann.click("#account-link")
    ann.fill("input[name=days]", "30")
    ann.click("text=Go on holiday")
    expect(ann.locator("#holiday-problem")).to_have_text("'days' is a whole number of days, from 1 to 21.")
    ann.fill("input[name=days]", "3")
    ann.click("text=Go on holiday")
    expect(ann.locator(".holiday-status")).to_contain_text("You are on holiday until")
    note = ben.locator(".days .on-holiday")
    expect(note).to_have_text(re.compile(r"^Ann ist im Urlaub bis \d{1,2}\. [A-Z][a-zä]+ \d{4} um \d\d:\d\d$"))
    ann.click("text=End the holiday now")
    expect(ann.locator(".holiday-status")).to_have_text("You have 20 days of holiday left this year.")
    expect(note).to_have_count(0)
