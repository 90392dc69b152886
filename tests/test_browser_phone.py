"""The café on a phone (390 x 844, Debian's Chromium): the lobby's options fit the screen, a game shows the café,
the hand and the step's controls at once, every target is a finger's and every text readable, a refusal never
covers the café, the end comes into view by itself; the replay's buttons are drawn; axe-core finds nothing serious
on any page at that size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, expect

from browsing import arrive, my_turn, plies
from test_browser_access import open_table_with_a_computer_player, serious_violations

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
MAX_CLICKS = 3000

# every visible thing a finger must hit, measured on the screen (the café's chairs and stools are buttons too)
SMALL_TARGETS = """() => [...document.querySelectorAll(
        "button, a[href], input, select, summary, [role=button], [tabindex='0']")]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden"
        && !e.closest(".announcer"))
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([e, box]) => (box.width < 24 || box.height < 24) && !e.matches("ol, ul"))
    .map(([e, box]) => `${e.tagName} ${e.getAttribute("aria-label") ?? e.textContent.trim().slice(0, 20)}: `
        + `${box.width.toFixed(1)}x${box.height.toFixed(1)}`)"""

# every visible text under 11 CSS px, SVG text at the size it is drawn
SMALL_TEXTS = """() => {
    const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const e = node.parentElement;
        if (!node.textContent.trim() || !e.getClientRects().length || e.closest(".announcer, noscript")) continue;
        let size = parseFloat(getComputedStyle(e).fontSize);
        if (e instanceof SVGElement) size *= e.getScreenCTM().a;
        if (size < 11) small.push(`${node.textContent.trim().slice(0, 20)}: ${size.toFixed(1)} px`);
    }
    return small;
}"""


def box(page: Page, selector: str | Locator) -> FloatRect:
    found = (page.locator(selector) if isinstance(selector, str) else selector).first.bounding_box()
    assert found is not None, selector
    return found


def within_screen(page: Page, selector: str | Locator) -> bool:
    """Whether the whole of the element is on the screen, as the page is scrolled now."""
    b = box(page, selector)
    return (
        b["x"] >= 0
        and b["y"] >= 0
        and b["x"] + b["width"] <= PHONE["width"] + 0.5
        and (b["y"] + b["height"] <= PHONE["height"] + 0.5)
    )


def overlap(a: FloatRect, b: FloatRect) -> bool:
    return (
        a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
    )  # fmt: skip


def test_more_options_keep_the_lobby_within_the_screen(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann", phone=True)
    ann.click(".create summary")
    expect(ann.locator(".create .options select").first).to_be_visible()
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    ann.locator(".create button[type=submit]").scroll_into_view_if_needed()
    assert within_screen(ann, ".create button[type=submit]")  # "Create room" is whole
    assert ann.evaluate(SMALL_TARGETS) == [] and ann.evaluate(SMALL_TEXTS) == []
    assert serious_violations(ann) == [], "the lobby with its options open, on a phone"

    bob = arrive(browser, cafe, "Bob")  # on a desktop, the column keeps its width
    width = box(bob, ".lobby aside")["width"]
    bob.click(".create summary")
    expect(bob.locator(".create .options select").first).to_be_visible()
    assert box(bob, ".lobby aside")["width"] == width


def test_a_game_on_a_phone_shows_the_cafe_the_hand_and_the_controls_at_once(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann", phone=True)
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    open_table_with_a_computer_player(ann)
    expect(ann.locator(".room-view")).to_have_attribute("data-mine", "true")
    ann.evaluate("() => window.scrollTo(0, 0)")
    for part in ("#board", ".hand .tiles", ".controls"):
        assert within_screen(ann, part), f"{part} is not on the screen: {box(ann, part)}"
    assert ann.evaluate(SMALL_TARGETS) == []
    assert ann.evaluate(SMALL_TEXTS) == []
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # the café pans in its frame
    assert serious_violations(ann) == [], "a room in play, on a phone"

    # a refusal is said where the café is not
    ann.locator("button.tile:not([disabled])").first.click()
    expect(ann.locator("#board .lit").first).to_be_attached()
    lit = ann.locator("#board .lit")  # where the guest may go is in view: some of it (the café pans on a phone)
    assert any(within_screen(ann, lit.nth(k)) for k in range(lit.count()))
    ann.locator("#board [data-chair]:not(.lit)").first.click()
    expect(ann.locator("#notice")).to_be_visible()
    assert not overlap(box(ann, "#notice"), box(ann, "#board"))
    assert ann.evaluate(SMALL_TARGETS) == [] and ann.evaluate(SMALL_TEXTS) == []
    assert errors == []


def test_on_a_phone_the_end_comes_into_view_and_the_replay_has_drawn_buttons(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann", phone=True)
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    open_table_with_a_computer_player(ann)
    for _ in range(MAX_CLICKS):  # to the end, by finger
        if ann.locator(".game-over").count():
            break
        if not my_turn(ann):
            ann.wait_for_timeout(50)
            continue
        before = plies(ann)
        if not ann.locator(".tile.selected").count() and ann.locator("button.tile:not([disabled])").count():
            ann.locator("button.tile:not([disabled])").first.click()
            continue
        ann.locator(".chooser .nation, #board .lit, .controls .buttons button:not(.quiet)").first.click()
        moved = f"document.querySelector('.room-view').dataset.plies !== '{before}'"
        ann.wait_for_function(f"() => {moved} || !!document.querySelector('.chooser, dialog[open]')")
        if ann.locator("dialog[open]").count():  # a step that cannot be undone is asked first: yes
            ann.locator("dialog[open] button[value=yes]").click()
            ann.wait_for_function(f"() => {moved}")
    else:
        raise AssertionError("the game did not end")
    expect(ann.locator(".game-over table")).to_be_in_viewport(ratio=1)  # the end came into view by itself
    ann.reload()
    expect(ann.locator(".game-over table")).to_be_in_viewport(ratio=1)  # and does when the room is opened at its end
    assert ann.evaluate(SMALL_TARGETS) == [] and ann.evaluate(SMALL_TEXTS) == []
    assert serious_violations(ann) == [], "the game over, on a phone"

    # the replay: drawn icons on its buttons, steps and the hand in words and tiles, no frame around the page
    ann.click(".replay-link")
    replay = ann.locator(".replay")
    expect(replay).to_have_attribute("data-plies", re.compile(r"^\d+$"))
    expect(replay).to_have_attribute("data-ply", str(plies_of(ann)))
    buttons = ann.locator(".replay-buttons button")
    expect(buttons).to_have_count(6)
    for k in range(6):
        icon = buttons.nth(k).locator("svg")
        expect(icon).to_be_visible()
        drawn = icon.bounding_box()
        assert drawn is not None and drawn["width"] >= 12 and drawn["height"] >= 12
        assert buttons.nth(k).locator("svg path").count() >= 1
        assert buttons.nth(k).inner_text().strip() == ""  # no character a font might lack
    ann.keyboard.press("Home")
    ann.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-ply", "1")
    # the page has the focus for its arrow keys; after keys were pressed, as when it opens from the keyboard
    ann.evaluate("() => { document.activeElement.blur(); document.querySelector('.replay').focus(); }")
    assert ann.evaluate("() => document.activeElement.matches('.replay:focus-visible')")
    assert ann.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "none"  # no frame
    expect(ann.locator(".own-hand .tile").first).to_be_visible()  # the hand then, as tiles
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(ann) == [], "the replay, on a phone"
    ann.click("button.analyse")
    expect(ann.locator(".analysis")).to_be_visible(timeout=120_000)
    assert "\u22120.0" not in ann.locator(".replay-log").inner_text()
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(ann) == [], "the analysis, on a phone"

    ann.goto(cafe + "#player=1")  # Ann's page: the first player of this café
    expect(ann.locator(".player-page h2")).to_have_text("Ann")
    assert ann.evaluate(SMALL_TARGETS) == [] and ann.evaluate(SMALL_TEXTS) == []
    assert serious_violations(ann) == [], "the player's page, on a phone"
    assert errors == []


def plies_of(page: Page) -> int:
    """The steps of the finished game on the replay page."""
    return int(page.locator(".replay").get_attribute("data-plies") or 0)
