"""Invitations and rematches in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: Ann
opens a private table and copies its invitation; Ben, in a browser of his own, opens the link, chooses his name
and is seated; they play to the end, and a rematch with the seats turned begins when both accept."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive
from test_browser import play_to_the_end

pytestmark = pytest.mark.browser


def test_ann_invites_ben_by_link_and_they_play_a_rematch_with_the_seats_turned(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ann.select_option("select[name=edition]", "cards")
    ann.check("input[name=private]")
    ann.click("text=Create room")
    expect(ann.locator("text=Waiting for players")).to_be_visible()
    room = ann.locator(".room-view").get_attribute("data-room")
    ann.click("button:has-text('Invite')")
    expect(ann.locator(".invite-said")).to_have_text("The link is copied: send it to whom you invite.")
    link = ann.evaluate("navigator.clipboard.readText()")
    assert f"#room={room}&invite=" in link

    ben = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    ben.goto(link)
    ben.fill("input[name=player]", "Ben")
    ben.press("input[name=player]", "Enter")
    expect(ben.locator(".room-view")).to_have_attribute("data-room", room or "")
    expect(ann.locator(".seats")).to_contain_text("Ben")
    expect(ben.locator(".seats li").nth(1)).to_contain_text("Ben")
    assert "invite=" not in ben.url  # the code leaves the address bar

    ann.click("text=Start the game")
    play_to_the_end(ann, ben)

    ann.click("text=Rematch (seats turned)")
    expect(ben.locator(".rematch")).to_contain_text("A rematch is offered, with the seats turned.")
    expect(ann.locator(".rematch")).to_contain_text("Rematch: waiting for Ben")
    ben.click("text=Accept the rematch")
    for page in (ann, ben):
        expect(page.locator(".room-view")).to_have_attribute("data-status", "playing")
        assert page.locator(".room-view").get_attribute("data-room") != room
        expect(page.locator(".players tr").nth(1)).to_contain_text("Ben")  # Ben sits first now
        expect(page.locator(".players tr").nth(2)).to_contain_text("Ann")
