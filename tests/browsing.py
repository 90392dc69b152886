"""What the browser tests share: a person arriving at the café in Debian's Chromium (driven by Playwright).

The fixtures ``cafe`` (a real ``cafe serve``) and ``browser`` are in conftest.py.
"""

from __future__ import annotations

import shutil

from playwright.sync_api import Browser, Page, expect

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# headless as root, and no calls home (this machine's network is closed: they would only fail)
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip


def arrive(
    browser: Browser, url: str, name: str, phone: bool = False, locale: str = "en-US", script: str | None = None
) -> Page:
    """A new person (their own browser context, in ``locale``) who enters the café under ``name``; ``script`` runs
    in each page before the café's own (a test's spy)."""
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(viewport=size, locale=locale)
    if script is not None:
        context.add_init_script(script)
    page = context.new_page()
    page.goto(url)
    page.fill("input[name=player]", name)
    page.press("input[name=player]", "Enter")
    expect(page.locator("#status")).to_have_attribute("data-status", "online")
    return page


def plies(page: Page) -> int:
    """The steps played in the room on the page."""
    return int(page.locator(".room-view").get_attribute("data-plies") or 0)


def my_turn(page: Page) -> bool:
    """Whether the person of the page is to play."""
    return page.locator(".room-view").get_attribute("data-mine") == "true"
