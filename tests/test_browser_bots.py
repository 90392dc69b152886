"""A bot account in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: its owner makes the
account a bot and gets its token on the account panel; Ann, reading the café in German, invites the bot that
`cafe bot` connected, and its seat is marked as a bot's, in her room and in another person's lobby."""

from __future__ import annotations

import signal
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive
from test_bot_client import Client, account, bot_account, cafe_bot, invited, play_out
from test_browser_access import serious_violations
from test_browser_accounts import PASSWORD, claim

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


def test_an_owner_makes_their_account_a_bot_and_its_token_connects_cafe_bot(cafe: str, browser: Browser) -> None:
    port = urlsplit(cafe).port or 0
    owner = arrive(browser, cafe, "Robo")
    claim(owner)
    owner.get_by_role("button", name="Make this account a bot").click()
    made = owner.locator("form.account-form", has_text="A new API token")
    made.get_by_label("Password").fill(PASSWORD)
    made.get_by_role("button", name="Make a new token").click()
    token = owner.locator(".bot-token code").inner_text()
    assert len(token) > 30
    assert serious_violations(owner) == [], "the bot panel"
    bot = cafe_bot(port, token, "--player", "greedy", "--lang", "en")
    try:
        assert bot.stdout is not None and "Robo" in bot.stdout.readline()
        owner.get_by_role("button", name="Revoke the token").click()
        expect(owner.locator(".bot-account")).to_contain_text("The token no longer works.")
        _, said = bot.communicate(timeout=60)
        assert bot.returncode == 1 and "signed out" in said
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()


def test_a_rated_bot_is_on_the_bots_leaderboard_of_the_lobby_and_not_on_peoples(cafe: str, browser: Browser) -> None:
    port = urlsplit(cafe).port or 0
    _, token = bot_account(port)
    bot = cafe_bot(port, token, "--player", "greedy")
    try:
        ann = Client(port, account(port, "Ann"))
        ann.send({"type": "create", "edition": "cards"})
        room = ann.expect("room")["room"]["id"]
        invited(ann, room)
        play_out(ann, room)
    finally:
        bot.send_signal(signal.SIGINT)
        bot.communicate(timeout=30)
    lou = arrive(browser, cafe, "Lou", locale="fr-FR")
    expect(lou.locator(".bots-board")).to_contain_text("Robo (bot)")
    expect(lou.locator(".leaderboard:not(.bots-board)")).to_contain_text("Ann")
    expect(lou.locator(".leaderboard:not(.bots-board)")).not_to_contain_text("Robo")
    assert serious_violations(lou) == [], "the lobby with the bots' leaderboard"
    lou.goto(f"{cafe}#game={room}")  # the game's replay names the bot as one
    expect(lou.locator("main")).to_contain_text("Robo (bot)")
    lou.goto(f"{cafe}#")
    lou.locator(".bots-board a").click()  # and so does its page
    expect(lou.locator(".player-page h2")).to_have_text("Robo (bot)")
    lou.goto(f"{cafe}#")
    lou.locator(".bots-board button.invite-bot").click()  # without a table of her own: she is told to open one
    expect(lou.locator(".bots-board .problem")).to_contain_text("ouvrez d'abord votre propre table")
    lou.click("form.create button[type=submit]")
    expect(lou.locator(".room-view")).to_have_attribute("data-status", "waiting")
    lou.goto(f"{cafe}#")
    lou.locator(".bots-board button.invite-bot").click()  # "/invite Robo" at her table, which opens to answer
    expect(lou.locator(".room-view")).to_have_attribute("data-status", "waiting")
    expect(lou.locator("#notice")).to_contain_text("Robo n'est pas connecté")  # the refusal, said on the page
