"""Games over days in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: Ann and Ben each
open a turn-based table and join the other's, each moves from their own browser context, Ben is offered his next
waiting game after his move, and Ann finds the game waiting for her first among "Your games", with the time left
on it, while the tab's title and a badge say so."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive, my_turn
from test_browser import MAX_CLICKS, click_something_legal

pytestmark = pytest.mark.browser
COUNTED = "localStorage.setItem('cafe-count', 'on')"  # the count of waiting games in the title and badge: asked for


def open_table(page: Page, hours: str, late: str) -> str:
    """The person of the page opens a board game table with this clock per turn: its room."""
    page.select_option("select[name=clock]", hours)
    page.select_option("select[name=late]", late)
    page.click("text=Create room")
    expect(page.locator("text=Waiting for players")).to_be_visible()
    return str(page.locator(".room-view").get_attribute("data-room"))


def play_turn(page: Page) -> None:
    """The person of the page plays their turn to its end, clicking."""
    for _ in range(MAX_CLICKS):
        if not my_turn(page):
            return
        click_something_legal(page)
    raise AssertionError("the turn did not end")


def test_two_people_play_over_days_and_the_one_to_move_finds_it_first_with_the_time_left(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann", script=COUNTED)
    other = open_table(ann, "48", "bot")  # a table of Ann's that waits for players: not for her move
    ann.click("text=Lobby")
    room = open_table(ann, "24", "end")
    expect(ann.locator(".days")).to_contain_text("1 day a turn")
    ben = arrive(browser, cafe, "Ben", phone=True, script=COUNTED)
    row = ben.locator(f".rooms [data-room='{room}']")
    expect(row).to_contain_text("1 day a turn")
    row.locator("button").click()
    ben.click("text=Take a seat")
    expect(ann.locator(".seats")).to_contain_text("Ben")
    ben.click("text=Lobby")
    his = open_table(ben, "72", "bot")  # a second game, where Ben moves first
    ann.click("text=Lobby")
    ann.locator(f".rooms [data-room='{his}'] button").click()
    ann.click("text=Take a seat")
    expect(ben.locator(".seats")).to_contain_text("Ann")
    ben.click("text=Start the game")
    expect(ben.locator(".room-view")).to_have_attribute("data-mine", "true")
    ann.click("text=Lobby")
    ann.locator(f".yours [data-room='{room}'] button").click()
    ann.click("text=Start the game")
    expect(ann.locator(".room-view")).to_have_attribute("data-mine", "true")
    expect(ann.locator(".days .turn-left")).to_contain_text(re.compile(r"your turn · .*left"))
    play_turn(ann)
    ben.click("text=Lobby")
    ben.locator(f".yours [data-room='{room}'] button").click()
    expect(ben.locator(".room-view")).to_have_attribute("data-mine", "true")
    play_turn(ben)  # from his own context
    ben.click("text=Your next game")  # his game waiting for him, offered after his move
    expect(ben.locator(".room-view")).to_have_attribute("data-room", his)

    ann.click("text=Lobby")
    yours = ann.locator(".yours li")
    expect(yours).to_have_count(3)
    expect(yours.first).to_have_attribute("data-room", room)  # the game waiting for her first
    expect(yours.first.locator(".room-turn")).to_contain_text(re.compile(r"your turn · (23 hours|1 day)"))
    expect(yours.nth(1)).to_have_attribute("data-room", his)  # then Ben's turn, then her table waiting for players
    his_turn = re.compile(r"Ben's turn · (3 days|2 days, 23 hours) left")
    expect(yours.nth(1).locator(".room-turn")).to_contain_text(his_turn)
    expect(yours.nth(2)).to_have_attribute("data-room", other)
    expect(ann.locator("#waiting-badge")).to_have_text("1 game waits for you")
    expect(ann).to_have_title(re.compile(r"^\(1\) "))
    ben.click("text=Lobby")
    expect(ben.locator(f".yours [data-room='{room}'] .room-turn")).to_contain_text("Ann's turn")
    expect(ben.locator("#waiting-badge")).to_have_text("1 game waits for you")  # his own, not Ann's
