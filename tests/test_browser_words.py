"""The café in the reader's words, in Chromium: a refused name in German, rooms and computer players named in the
host's language, option values and every step in words, numbers as the language writes them, and a screen reader
hearing each step as a sentence."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from browsing import arrive, my_turn, plies

pytestmark = pytest.mark.browser

MAX_ACTIONS = 400


def test_a_name_that_is_someone_elses_is_refused_in_german_and_the_status_line_says_so(
    cafe: str, browser: Browser
) -> None:
    arrive(browser, cafe, "Lena")
    page = browser.new_context(locale="de-DE").new_page()
    page.goto(cafe)
    page.fill("input[name=player]", "lena")
    page.press("input[name=player]", "Enter")
    refusal = "„lena“ gehört hier schon jemand anderem: Wähle einen anderen Namen."
    expect(page.locator(".welcome .problem")).to_have_text(refusal)
    expect(page.locator("#status")).to_have_text("nicht angemeldet")  # not "connecting" for ever


def test_options_and_numbers_are_shown_in_words_and_in_the_readers_digits(cafe: str, browser: Browser) -> None:
    page = arrive(browser, cafe, "Jürgen", locale="de-DE")
    page.click(".more summary")
    choices = page.locator("select[name=joker_to_bar] option").all_inner_texts()
    assert choices == ["nie", "wenn kein Tisch den Joker nehmen kann (BrettspielWelt)"]  # never "never: ..."
    page.select_option("select[name=scoring]", "basic")
    page.select_option("select[name=bar_values]", "straight")
    page.select_option("select[name=joker_to_bar]", "when-unplaceable")
    page.click(".create button[type=submit]")
    expect(page.locator(".room-head .facts")).to_have_text(
        "Brettspiel · gedruckte Regeln + Wertung: einfach (1989) + Barwerte: gleichmäßig fallend"
        " + Joker an der Bar: wenn kein Tisch ihn aufnehmen kann"
    )  # never "basic", "when-unplaceable", or named bar values as "custom"
    assert page.evaluate("async () => (await import('/client/i18n.js')).number(4.4, 1)") == "4,4"


def test_a_german_card_game_names_and_says_every_step_in_words(cafe: str, browser: Browser) -> None:
    page = arrive(browser, cafe, "Jürgen", locale="de-DE")
    page.select_option("select[name=edition]", "cards")
    page.click(".create button[type=submit]")
    expect(page.locator(".room-head h2")).to_have_text("Jürgens Tisch")
    expect(page.locator(".room-head h2")).to_be_focused()  # after "Create room", not the page's body
    page.select_option(".host select", "easy")
    page.focus(".host [data-focus=bot]")
    page.keyboard.press("Enter")  # "Add computer player" by keyboard: the focus stays on it
    expect(page.locator(".seats li")).to_have_count(2)
    expect(page.locator(".seats li").nth(1)).to_contain_text("Bot 2 (leicht)")
    expect(page.locator(".seats li").nth(1)).not_to_contain_text("Computer")  # its name says its level once
    expect(page.locator(".host [data-focus=bot]")).to_be_focused()
    page.click(".host button.go")
    expect(page.locator("#board svg")).to_be_visible()
    page.evaluate(
        """() => { window.spokenTexts = []; const region = document.querySelector('.room-view > .announcer');
            new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) =>
              window.spokenTexts.push(n.textContent)))).observe(region, { childList: true }); }"""
    )
    current = page.locator(".players tr.current td").first
    expect(current).to_contain_text("am Zug: ")  # read "am Zug: Jürgen", not "am ZugJürgen"

    drew = False
    for _ in range(MAX_ACTIONS):
        spoken = page.evaluate("() => window.spokenTexts")
        if drew and any(line.startswith("Bot 2 (leicht) ") for line in spoken) and plies(page) > 4:
            break
        if page.locator(".game-over").count():
            break
        if not my_turn(page):
            page.wait_for_timeout(50)
            continue
        before = plies(page)
        draw = page.locator(".controls button", has_text="Eine Karte ziehen")
        if draw.count() and not drew:
            draw.click()
            drew = True
        elif page.locator(".tile.selected").count():
            page.locator(".chooser button.nation, #board .lit, .controls .buttons button").first.click()
        else:
            page.locator("button.tile:not([disabled]), .controls .buttons button").first.click()
            continue
        page.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'")
    else:
        raise AssertionError("the game did not go on")
    assert drew
    log = page.locator(".log").inner_text()
    assert "Jürgen: zieht eine Karte" in log and not re.search(r"\b(draw|stop|pass)\b", log), log
    spoken = page.evaluate("() => window.spokenTexts")
    assert "Jürgen zieht eine Karte." in spoken, spoken
    bot = [line for line in spoken if line.startswith("Bot 2 (leicht) ")]
    assert bot and all(
        re.fullmatch(
            r"Bot 2 \(leicht\) (setzt .+ auf [a-z]\d|zieht eine Karte|legt eine Karte verdeckt ab"
            r"|beendet den Zug|schließt die Partie)( \([+-]\d+\))?\.|Bot 2 \(leicht\) ist am Zug\.",
            line,
        )
        for line in bot
    ), bot
    assert not [line for line in spoken if re.search(r"@|down:|\b(draw|stop|pass)\b", line)], spoken
