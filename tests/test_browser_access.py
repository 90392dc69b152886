"""The café for everyone, in Chromium: German and Czech, a whole game by keyboard alone with names a screen
reader says and a live region, and axe-core (npm's package, injected into the page) finding nothing serious."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive, my_turn, plies

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
MAX_ACTIONS = 2000  # far above a whole game's


def open_table_with_a_computer_player(page: Page, edition: str = "board") -> None:
    """Opens a table (any language: the form's own elements), seats an easy computer player and starts."""
    page.select_option("select[name=edition]", edition)
    page.click(".create button[type=submit]")
    page.select_option(".host select", "easy")
    page.click(".host button:not(.quiet):not(.go)")  # add the computer player
    expect(page.locator(".seats li")).to_have_count(2)
    page.click(".host button.go")  # start
    expect(page.locator("#board svg")).to_be_visible()


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds of serious or critical impact on the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`)"""
    )
    return list(found)


# ---------------------------------------------------------------------- languages


@pytest.mark.parametrize(
    "locale,words,taken",
    [
        ("de-DE", ("Einen Tisch eröffnen", "Deine Hand"), "Stuhl {chair} ist besetzt."),
        ("cs-CZ", ("Otevřít stůl", "Vaši hosté"), "Židle {chair} je obsazená."),
    ],
)
def test_a_game_in_german_or_czech_refuses_an_illegal_step_in_that_language(
    cafe: str, browser: Browser, locale: str, words: tuple[str, str], taken: str
) -> None:
    ann = arrive(browser, cafe, "Ann", locale=locale)  # the browser's language chooses the café's
    expect(ann.locator("html")).to_have_attribute("lang", locale[:2])
    expect(ann.locator(".create h2")).to_have_text(words[0])
    open_table_with_a_computer_player(ann)
    expect(ann.locator(".hand h3")).to_have_text(words[1])
    for _ in range(MAX_ACTIONS):  # play until a guest sits on the board and Ann may pick a guest of hers
        if not my_turn(ann):
            ann.wait_for_timeout(50)
            continue
        selected = ann.locator(".tile.selected").count()
        playable = ann.locator("button.tile:not([disabled])").count()
        if ann.locator("#board [data-guest]").count() and not selected and playable:
            break
        before = plies(ann)
        if not selected and playable:
            ann.locator("button.tile:not([disabled])").first.click()
            continue
        targets = (".chooser button.nation", "#board [data-chair].lit", "#board .lit, .controls .buttons button")
        if not selected:  # no guest of hers may go anywhere: the turn can only be ended (or passed)
            targets = (".controls .buttons button:not(.quiet)",)
        target = next(ann.locator(t) for t in targets if ann.locator(t).count())  # a chair before the bar
        target.first.click()
        ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'"
                              " || !!document.querySelector('.chooser')")  # fmt: skip
    else:
        status = ann.locator("#status").get_attribute("data-status")
        seen = {"status": status, "plies": plies(ann), "panel": ann.locator(".panel").inner_text()[:300]}
        raise AssertionError(f"no guest was seated: {seen}")
    before = plies(ann)
    chair = ann.locator("#board [data-guest]").first.get_attribute("data-at")
    ann.locator("button.tile:not([disabled])").first.click()
    ann.locator(f"#board [data-chair='{chair}']").click()  # a taken chair: the server refuses, in Ann's language
    refusal = taken.format(chair=chair)  # a whole sentence
    expect(ann.locator(".chat-lines .error").last).to_have_text(f"✗ {refusal}")
    expect(ann.locator("#notice")).to_have_text(f"{refusal} (R2.3.1)")
    expect(ann.locator(".room-view > .announcer p").last).to_have_text(refusal)  # and a screen reader hears it
    assert plies(ann) == before


def test_the_language_can_be_changed_on_every_page_and_is_remembered(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    expect(ann.locator(".create h2")).to_have_text("Open a table")
    ann.select_option("#language", "fr")
    expect(ann.locator(".create h2")).to_have_text("Ouvrir une table")
    expect(ann.locator("#status")).to_have_text("en ligne")
    ann.reload()
    expect(ann.locator(".create h2")).to_have_text("Ouvrir une table")  # remembered
    ann.goto(cafe + "#player=1")
    expect(ann.locator("#language")).to_have_value("fr")
    ann.select_option("#language", "cs")
    expect(ann.locator(".player-page")).to_contain_text("Zpět do herny")


# ---------------------------------------------------------------------- keyboard, screen readers, axe


def focus(page: Page, predicate: str, limit: int = 120) -> bool:
    """Press Tab until the element with the focus satisfies ``predicate`` (a JS function of it), as a keyboard user
    moves through the page."""
    for _ in range(limit):
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!e && ({predicate})(e); }}"):
            return True
        page.keyboard.press("Tab")
    return False


PLAYABLE_TILE = "(e) => e.matches('button.tile:not(:disabled)')"
WHERE_IT_GOES = "(e) => e.matches('#board .lit, .controls .buttons button, .chooser button')"
A_CONTROL = "(e) => e.matches('.controls .buttons button:not(.quiet)')"


def keyboard_action(page: Page) -> None:
    """One thing done on one's turn with the keyboard alone: a guest chosen from the hand (the focus then goes to
    where it may go), a lit place or control pressed, a joker's nation chosen; returns once the page shows it."""
    before = plies(page)
    moved = (
        f"() => document.querySelector('.room-view').dataset.plies !== '{before}'"
        " || !!document.querySelector('.chooser') || !!document.querySelector('.tile.selected')"
    )
    if not page.locator(".tile.selected").count() and not page.locator(".chooser").count():
        if focus(page, PLAYABLE_TILE):
            page.keyboard.press("Enter")
            expect(page.locator(".tile.selected")).to_have_count(1)
            return
        assert focus(page, A_CONTROL), page.locator(".panel").inner_text()  # draw, stop, close ...
    else:
        assert focus(page, WHERE_IT_GOES), page.locator(".panel").inner_text()
    page.keyboard.press("Enter")
    page.wait_for_function(moved.replace(" || !!document.querySelector('.tile.selected')", ""))


def test_a_whole_card_game_by_keyboard_alone_with_names_announcements_and_no_serious_axe_finding(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann")
    page_errors: list[str] = []
    ann.on("pageerror", lambda error: page_errors.append(str(error)))
    assert serious_violations(ann) == [], "the lobby"
    open_table_with_a_computer_player(ann, "cards")

    # the café's places are buttons with names; the arrow keys move between them
    expect(ann.locator(".room-view")).to_have_attribute("data-mine", "true")
    assert focus(ann, "(e) => e.matches('#board [data-place]')")
    first = ann.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert re.fullmatch(r"[a-z]\d, .+, (free|.+)", first), first
    ann.keyboard.press("ArrowRight")
    second = ann.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert second != first and ann.evaluate("() => document.activeElement.matches('#board [data-place]')")
    assert ann.locator("#board [data-table][role=img]").count() == 5  # the X's five tables have names too

    # every text the live region speaks, kept as it is spoken (each is a line added to the region)
    ann.evaluate(
        """() => { window.spokenTexts = []; const region = document.querySelector('.room-view > .announcer');
            new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) =>
              window.spokenTexts.push(n.textContent)))).observe(region, { childList: true }); }"""
    )
    named_points = in_play_checked = False
    for _ in range(MAX_ACTIONS):
        if ann.locator(".game-over").count():
            break
        if not my_turn(ann):
            ann.wait_for_timeout(50)
            continue
        if ann.locator(".tile.selected").count() and ann.locator("#board .lit").count() and not named_points:
            label = ann.locator("#board .lit").first.get_attribute("aria-label") or ""
            assert re.fullmatch(r"[a-z]\d, .+, free, -?\d+ points?", label), label  # "c4, b4 France, free, 2 points"
            named_points = True
        if plies(ann) > 6 and not in_play_checked:
            assert serious_violations(ann) == [], "a room in play"
            in_play_checked = True
        keyboard_action(ann)
    else:
        raise AssertionError("the game did not end")
    assert named_points and in_play_checked
    spoken = ann.evaluate("() => window.spokenTexts")
    # every step is said in words, Ann's own and the computer player's: "Ann seats the French lady on c4 (+2)."
    assert any(re.fullmatch(r"Ann (seats|draws|lays) .+\.", text) for text in spoken), spoken[-5:]
    assert any(re.fullmatch(r"Easy bot 2 (seats|draws|lays) .+\.", text) for text in spoken), spoken[-5:]
    assert not [text for text in spoken if re.search(r"@|down:|\b(draw|stop|pass)\b", text)], spoken

    expect(ann.locator(".game-over h3")).to_contain_text("Game over")
    assert serious_violations(ann) == [], "the game-over panel"
    record = json.loads(
        ann.request.get(cafe + f"records/{ann.locator('.room-view').get_attribute('data-room')}.json").text()
    )
    assert record["edition"] == "cards" and record["players"][0] == "Ann"
    assert page_errors == []  # no script error on the way
