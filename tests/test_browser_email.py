"""E-mail in a real browser (Debian's Chromium, Playwright) against a real `cafe serve --smtp` and a real SMTP
server on loopback (aiosmtpd): Ann adds her address and verifies it by the link mailed to her; on another device,
having forgotten her password, she asks for a link, opens it, chooses a new password and signs in with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive
from servers import free_port, start_server
from smtp_box import Mailbox, smtp_server
from test_browser_access import serious_violations
from test_browser_accounts import claim

pytestmark = pytest.mark.browser

NEW = "a new and better password"


@pytest.fixture
def mailing_cafe(tmp_path: Path) -> Iterator[tuple[str, Mailbox]]:
    """A real ``cafe serve`` that mails through a real SMTP server: its address, and the mailbox."""
    with smtp_server() as (box, url):
        port = free_port()
        site = f"http://127.0.0.1:{port}/"
        server = start_server(port, tmp_path, "--smtp", url, "--public-url", site)
        try:
            yield site, box
        finally:
            server.kill()
            server.wait()


def verify(page: Page, site: str, box: Mailbox, address: str) -> None:
    """The person of the page, signed in and in their account panel, adds ``address`` and opens the link mailed to
    it."""
    form = page.locator("form.account-form", has_text="E-mail address")
    form.get_by_label("E-mail address").fill(address)
    form.get_by_role("button", name="Send a link to verify it").click()
    expect(page.locator(".mail-status")).to_have_text(f"{address} is not verified yet: open the link we sent to it.")
    page.goto(f"{site}#account&verify={box.wait(address).link('verify')}")
    expect(page.locator(".account p.done")).to_have_text(f"Your e-mail address {address} is verified.")


def test_ann_verifies_her_address_by_the_mailed_link_and_resets_a_forgotten_password(
    mailing_cafe: tuple[str, Mailbox], browser: Browser
) -> None:
    site, box = mailing_cafe
    ann = arrive(browser, site, "Ann")
    claim(ann)
    verify(ann, site, box, "ann@example.org")
    assert "verify=" not in ann.url  # the token left the address bar
    ann.reload()
    expect(ann.locator(".mail-status")).to_have_text("ann@example.org is verified.")
    assert serious_violations(ann) == [], "the account panel with its address and notices"

    # another device: Ann forgot her password
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(site)
    phone.click("text=Have an account? Sign in")
    forgot = phone.locator("form.account-form", has_text="Forgot your password?")
    forgot.get_by_label("Name or e-mail address").fill("ann")
    forgot.get_by_role("button", name="Send me a link").click()
    expect(phone.locator(".account p.done").first).to_contain_text("a link to choose a new password is on its way")
    phone.goto(f"{site}#account&reset={box.wait('ann@example.org', 2).link('reset')}")
    reset = phone.locator("form.account-form", has_text="Choose a new password")
    reset.get_by_label("New password").fill(NEW)
    reset.get_by_role("button", name="Change the password").click()
    expect(phone.locator(".account p.done").filter(has_text="changed")).to_have_text(
        "Your password is changed and you are signed out everywhere: sign in with the new one."
    )
    sign_in = phone.locator("form.account-form", has_text="Sign in")
    sign_in.get_by_label("Name").fill("Ann")
    sign_in.get_by_label("Password").fill(NEW)
    sign_in.get_by_role("button", name="Sign in").click()
    expect(phone.locator("#who a.me")).to_have_text("Ann")
