"""The tutorial in a real browser (Debian's Chromium, driven by Playwright, against a real `cafe serve`): a person who
has never played is offered it first, follows the first lessons by mouse and one by keyboard alone, is refused a
wrong step with the rule's message and the lesson's nudge, reloads and finds their progress; in English and German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive
from test_browser_access import serious_violations

pytestmark = pytest.mark.browser

REFUSED = {
    "en-US": ("The American lady cannot take f3: it belongs to GER2. (R2.3.1)", "only where one of them is American"),
    "de-DE": ("Die amerikanische Dame kann nicht auf f3 sitzen: Der Stuhl gehört zu GER2. (R2.3.1)",
              "nur sitzen, wo einer davon amerikanisch ist"),
}  # fmt: skip


def lesson(page: Page) -> str:
    return page.locator(".learn-view").get_attribute("data-lesson") or ""


def steps(page: Page) -> str:
    return page.locator(".learn-view").get_attribute("data-steps") or ""


def click_step(page: Page, tile: str, chair: str) -> None:
    """A guest from the hand, then its chair, by mouse; back once the server has answered."""
    before = steps(page)
    page.click(f".hand .tile[data-tile={tile}]")
    page.click(f"#board [data-chair={chair}]")
    expect(page.locator(".learn-view")).not_to_have_attribute("data-steps", before)


def tab_to(page: Page, selector: str) -> None:
    """Tab until ``selector`` has the focus (a person who has only a keyboard)."""
    for _ in range(60):
        if page.evaluate(f"() => document.activeElement?.matches({selector!r}) ?? false"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"the keyboard never reached {selector}")


# The keys to press from the target with the focus to another, the shortest way, where each arrow leads as board.js
# works it out (``neighbour``: the nearest target that way, from the targets' centres, straight ahead counting more
# than aside).
KEYS_TO = """(goal) => {
    const boxes = [...document.querySelectorAll("#board [data-chair], #board [data-place], #board [data-stool]")];
    const at = (box, name) => Number(box.getAttribute(name));
    const centre = (box) => box.tagName === "circle" ? [at(box, "cx"), at(box, "cy")]
        : [at(box, "x") + at(box, "width") / 2, at(box, "y") + at(box, "height") / 2];
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const next = (from, [dx, dy]) => {
        const [fx, fy] = centre(from);
        let best = null, cost = Infinity;
        for (const box of boxes) {
            const [x, y] = centre(box);
            const ahead = (x - fx) * dx + (y - fy) * dy;
            if (box === from || ahead <= 1) continue;
            const c = ahead + 2 * Math.abs((x - fx) * dy + (y - fy) * dx);
            if (c < cost) [best, cost] = [box, c];
        }
        return best;
    };
    const target = document.querySelector(`#board [data-chair="${goal}"]`);
    const way = new Map([[document.activeElement, []]]);
    const queue = [document.activeElement];
    while (queue.length && !way.has(target)) {
        const at = queue.shift();
        for (const [key, direction] of Object.entries(arrows)) {
            const to = next(at, direction);
            if (to && !way.has(to)) { way.set(to, [...way.get(at), key]); queue.push(to); }
        }
    }
    return way.get(target) ?? null;
}"""


def arrow_to(page: Page, chair: str) -> None:
    """Arrow keys from the chair with the focus to ``chair``, as a person who sees the café would press them."""
    keys = page.evaluate(KEYS_TO, chair)
    assert keys is not None, f"the arrow keys cannot reach {chair}"
    for key in keys:
        page.keyboard.press(key)
    expect(page.locator(f"#board [data-chair={chair}]")).to_be_focused()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_a_newcomer_learns_by_mouse_and_keyboard_is_refused_and_comes_back(
    cafe: str, browser: Browser, locale: str
) -> None:
    page = arrive(browser, cafe, "Ann", locale=locale)
    offer = page.locator(".lobby > .learn-offer")  # first in the lobby: nothing played, no lesson done
    expect(offer).to_be_visible()
    assert serious_violations(page) == []
    offer.locator("a").click()
    expect(page.locator(".learn-view")).to_have_attribute("data-lesson", "board-nation")

    # a wrong step: refused with the engine's message, its rule and the lesson's nudge; nothing changes
    page.click(".hand .tile[data-tile=USAf]")
    page.click("#board [data-chair=f3]")
    message, nudge = REFUSED[locale]
    expect(page.locator(".refusal")).to_contain_text(message)
    expect(page.locator(".refusal .nudge")).to_contain_text(nudge)
    assert steps(page) == "0" and page.locator("#board [data-guest][data-at=f3]").count() == 0
    assert serious_violations(page) == []  # the lesson's page, a refusal on it, for a screen reader too

    # lesson 1 by mouse: the lady beside the gentleman, then the turn's end
    page.click("#board [data-chair=h1]")
    expect(page.locator(".learn-view")).to_have_attribute("data-steps", "1")
    page.click(".controls button.go")
    expect(page.locator(".learn-view")).to_have_attribute("data-done", "true")
    expect(page.locator(".lesson-done")).to_be_visible()
    page.click("button.next")

    # lesson 2 by mouse: the gentleman the table needs, then the turn's end
    expect(page.locator(".learn-view")).to_have_attribute("data-lesson", "board-balance")
    click_step(page, "USAm", "i2")
    page.click(".controls button.go")
    expect(page.locator(".learn-view")).to_have_attribute("data-done", "true")
    expect(page.locator("button.next")).to_be_focused()  # the keyboard is where the person goes on

    # lesson 3 by keyboard alone: Enter on "Next lesson"; Tab to a guest, Enter, the arrows to its chair, Enter; twice
    page.keyboard.press("Enter")
    expect(page.locator(".learn-view")).to_have_attribute("data-lesson", "board-two-guests")
    for n, (tile, chair) in enumerate((("USAm", "h3"), ("USAf", "h1")), start=1):
        tab_to(page, f".hand .tile[data-tile={tile}]")
        page.keyboard.press("Enter")
        expect(page.locator("#board .lit[data-chair]:focus")).to_have_count(1)  # the keyboard is on the café
        arrow_to(page, chair)
        page.keyboard.press("Enter")
        expect(page.locator(".learn-view")).to_have_attribute("data-steps", str(n))
    expect(page.locator(".learn-view")).to_have_attribute("data-done", "true")  # two guests: the turn is over

    # back later: the progress is this browser's
    page.reload()
    expect(page.locator(".lesson-list summary")).to_contain_text(re.compile(r"\(3 \w+ 21"))  # 3 of 21 done
    page.goto(cafe)
    expect(page.locator(".lobby > .learn-offer")).to_have_count(0)  # no longer a newcomer's first suggestion
    page.locator(".learn-link a").click()
    expect(page.locator(".learn-view")).to_have_attribute("data-lesson", "board-company")  # the first not done
    page.locator(".lesson-list summary").click()
    expect(page.locator(".lesson-list li").nth(0)).to_contain_text("✓")
    page.locator(".lesson-list li a").nth(0).click()  # a lesson done may be taken again
    expect(page.locator(".learn-view")).to_have_attribute("data-lesson", "board-nation")
    expect(page.locator(".learn-view")).to_have_attribute("data-done", "false")
