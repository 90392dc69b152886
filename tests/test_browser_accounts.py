"""Accounts in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: Ann claims her name,
plays a rated game against Bob (another account, in a context of his own), signs in in a second context and
finds her rating and her games there; while she is away, a guest cannot take her name; Bob deletes his account
and is a deleted player in her games."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive
from test_browser import play_to_the_end
from test_browser_access import serious_violations

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"


def claim(page: Page) -> None:
    """The guest of the page makes their name theirs, from the account panel in the header."""
    page.click("#account-link")
    form = page.locator("form.account-form", has_text="Keep your name")
    form.get_by_label("Choose a password").fill(PASSWORD)
    form.get_by_role("button", name="Claim the name").click()
    expect(page.locator(".account .signed-in")).to_contain_text("You are signed in as")


def test_ann_claims_her_name_plays_a_rated_game_and_finds_it_on_another_device(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    claim(ann)
    assert serious_violations(ann) == [], "the account panel"
    bob = arrive(browser, cafe, "Bob", phone=True)
    claim(bob)

    ann.click("text=Back to the lobby")
    ann.select_option("select[name=edition]", "cards")
    ann.click("text=Create room")
    expect(ann.locator("text=Waiting for players")).to_be_visible()
    room = ann.locator(".room-view").get_attribute("data-room")
    bob.click("text=Back to the lobby")
    bob.locator(f"[data-room='{room}'] button").click()
    bob.click("text=Take a seat")
    expect(ann.locator(".seats")).to_contain_text("Bob")
    ann.click("text=Start the game")
    play_to_the_end(ann, bob)

    # another device: Ann signs in with her name, written another way
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(cafe)
    phone.click("text=Have an account? Sign in")
    form = phone.locator("form.account-form", has_text="Sign in")
    form.get_by_label("Name").fill("ann")
    form.get_by_label("Password").fill("not her password")
    form.get_by_role("button", name="Sign in").click()
    expect(form.locator(".problem")).to_have_text("Wrong name or password.")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Sign in").click()
    expect(phone.locator("#status")).to_have_attribute("data-status", "online")
    expect(phone.locator("#who a.me")).to_have_text("Ann")
    own_page = phone.locator("#who a.me").get_attribute("href")
    phone.click("#who a.me")
    page = phone.locator(".player-page")
    expect(page.locator(".rating")).to_contain_text("Rating:")
    expect(page.locator("tr").nth(1)).to_contain_text("Bob")
    assert page.locator("tr").nth(1).locator("td").last.inner_text() != "unrated"

    # Ann goes away everywhere; a guest asking for her name, in any case, is refused
    for context in (ann.context, phone.context):
        context.close()
    guest = browser.new_context().new_page()
    guest.goto(cafe)
    guest.fill("input[name=player]", "ANN")
    guest.press("input[name=player]", "Enter")
    expect(guest.locator(".welcome .problem")).to_have_text(
        "'ANN' belongs to an account: sign in with its password, or choose another name."
    )
    expect(guest.locator("#status")).to_have_attribute("data-status", "unnamed")

    # Bob deletes his account, after a question: Ann's page lists him as a deleted player
    bob.click("#account-link")
    form = bob.locator("form.account-form", has_text="Delete the account")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Delete the account").click()
    bob.locator("dialog.ask").get_by_role("button", name="Delete the account").click()
    expect(bob.locator("form.welcome")).to_be_visible()  # nobody on this device any more
    guest.goto(cafe + (own_page or ""))
    expect(guest.locator(".player-page tr").nth(1)).to_contain_text("deleted player")
    expect(guest.locator(".player-page")).not_to_contain_text("Bob")
