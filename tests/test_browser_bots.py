"""A bot account in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: Ann, reading the
café in German, invites the bot that `cafe bot` connected, and its seat is marked as a bot's, in her room and in
another person's lobby."""

from __future__ import annotations

import signal
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive
from test_bot_client import bot_account, cafe_bot

pytestmark = pytest.mark.browser


def test_an_invited_bot_sits_marked_as_a_bot_in_the_room_and_the_lobby(cafe: str, browser: Browser) -> None:
    port = urlsplit(cafe).port or 0
    _, token = bot_account(port)
    bot = cafe_bot(port, token, "--player", "greedy", "--lang", "en")
    try:
        assert bot.stdout is not None and "Robo" in bot.stdout.readline()  # at the café, waiting for invitations
        ann = arrive(browser, cafe, "Ann", locale="de-DE")
        ann.select_option("select[name=edition]", "cards")
        ann.click("form.create button[type=submit]")
        expect(ann.locator(".room-view")).to_have_attribute("data-status", "waiting")
        ann.fill("input[name=chat]", "/invite Robo")
        ann.press("input[name=chat]", "Enter")
        expect(ann.locator(".seats li").nth(1)).to_contain_text("Robo (Bot)")
        expect(ann.locator(".seats li").nth(0)).not_to_contain_text("(Bot)")
        ben = arrive(browser, cafe, "Ben")
        expect(ben.locator(".rooms .room-seats").first).to_have_text("Ann, Robo (bot)")
    finally:
        bot.send_signal(signal.SIGINT)
        bot.communicate(timeout=30)
