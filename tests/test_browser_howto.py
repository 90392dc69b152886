"""How to play in Chromium: opened from the lobby and from a room, its sections and the engine's drawings of the
examples are there, keyboard and screen reader find their way, and closing it leaves the person at their seat."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive
from cafe.learn import howto
from test_browser_access import serious_violations
from test_browser_phone import SMALL_TARGETS, SMALL_TEXTS

pytestmark = pytest.mark.browser

BOARD_EXAMPLES = [e for s in howto.BOARD for e in s.examples]
CARD_EXAMPLES = [e for s in howto.CARDS for e in s.examples]


def sections(page: Page) -> list[str]:
    return page.locator("dialog.howto .howto-section h3").all_inner_texts()


def test_how_to_play_from_the_lobby_shows_both_editions_drawn_and_is_left_by_keyboard(
    cafe: str, browser: Browser
) -> None:
    page = arrive(browser, cafe, "Ann")
    opener = page.locator(".top .howto-open")
    expect(opener).to_have_text("How to play")
    opener.click()
    dialog = page.locator("dialog.howto")
    expect(dialog).to_have_attribute("data-edition", "board")
    expect(dialog.locator("h2")).to_have_text("How to play the board game")
    assert sections(page) == [
        "The aim", "The material", "A turn", "Seating guests", "What a table is worth", "The bar", "Jokers",
        "Single-nation tables and refilling", "The end", "Variants",
    ]  # fmt: skip
    figures = dialog.locator("figure.howto-example")
    expect(figures).to_have_count(len(BOARD_EXAMPLES))
    example_d = dialog.locator("figure[data-example=D]")
    expect(example_d.locator("figcaption")).to_contain_text("The turn scores 17")
    expect(example_d.locator("svg [data-guest=USAf][data-at=g2]")).to_have_count(1)  # the engine's position after D
    # a screen reader hears each drawing as a picture named by its caption
    assert example_d.locator("svg").get_attribute("role") == "img"
    expect(example_d.locator("svg")).to_have_accessible_name(example_d.locator("figcaption").inner_text())
    assert serious_violations(page) == [], "How to play over the lobby"

    dialog.locator("[data-edition=cards]").click()
    expect(dialog).to_have_attribute("data-edition", "cards")
    expect(dialog.locator("h2")).to_have_text("How to play the card game")
    expect(dialog.locator("figure.howto-example")).to_have_count(len(CARD_EXAMPLES))
    assert sections(page)[-1] == "Variant: tribe and little circle"
    expect(dialog.locator("figure[data-example=full] figcaption")).to_contain_text("The card scores 10")

    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()  # back where the person was
    expect(page.locator(".lobby")).to_be_visible()


def test_how_to_play_from_a_room_in_german_leaves_the_player_seated_in_a_game_going_on(
    cafe: str, browser: Browser
) -> None:
    page = arrive(browser, cafe, "Jürgen", locale="de-DE")
    page.select_option("select[name=edition]", "cards")
    page.click(".create button[type=submit]")
    expect(page.locator(".room-head h2")).to_have_text("Jürgens Tisch")
    page.select_option(".host select", "easy")
    page.click(".host [data-focus=bot]")
    expect(page.locator(".seats li")).to_have_count(2)
    page.click(".host button.go")
    expect(page.locator("#board svg")).to_be_visible()
    room = page.evaluate("() => location.hash")

    opener = page.locator(".top .howto-open")
    expect(opener).to_have_text("So wird gespielt")
    opener.focus()
    page.keyboard.press("Enter")  # by keyboard alone
    dialog = page.locator("dialog.howto")
    expect(dialog).to_have_attribute("data-edition", "cards")  # the room's own edition
    expect(dialog.locator("h2")).to_have_text("So spielt man das Kartenspiel")
    assert sections(page) == [
        "Ziel des Spiels", "Spielmaterial", "Plätze", "Ein Spielzug", "Wertung", "Volle Tische", "Spielende",
        "Variante: Sippe und kleiner Kreis",
    ]  # fmt: skip
    expect(dialog.locator("figure[data-example=three] figcaption")).to_contain_text("bringt 11 Punkte")
    expect(dialog.locator("figure[data-example=three] svg [data-table]")).to_have_count(5)  # the X of five tables
    # the contents lead to a section within the dialog, and the room's address stays as it is
    dialog.locator(".howto-contents a", has_text="Volle Tische").click()
    expect(dialog.locator("#howto-full")).to_be_focused()
    assert page.evaluate("() => location.hash") == room

    dialog.locator(".howto-close").click()
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()
    assert page.evaluate("() => location.hash") == room
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator(".players")).to_contain_text("Jürgen")
    expect(page.locator(".room-head")).to_contain_text("Platz verlassen")  # still in the seat, in the same game
    expect(page.locator("#status")).to_have_attribute("data-status", "online")


def test_on_a_phone_how_to_play_fills_the_screen_and_nothing_is_wider_than_it(cafe: str, browser: Browser) -> None:
    page = arrive(browser, cafe, "Pauline", phone=True)
    page.click(".top .howto-open")
    dialog = page.locator("dialog.howto")
    expect(dialog.locator("figure.howto-example")).to_have_count(len(BOARD_EXAMPLES))
    box = dialog.bounding_box()
    assert box is not None and box["width"] == 390
    widest = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('dialog.howto .howto-body *:not(svg *)')]"
        ".map((n) => n.getBoundingClientRect().right))"
    )  # a drawing's own parts outside its window are cut by it, and are not counted
    assert widest <= 390
    body = "document.querySelector('.howto-body')"
    assert page.evaluate(f"() => {body}.scrollWidth <= {body}.clientWidth")  # nothing to pan sideways
    for button in dialog.locator(".howto-head button").all():  # a finger's target
        size = button.bounding_box()
        assert size is not None and size["height"] >= 44
    assert page.evaluate(SMALL_TARGETS) == [] and page.evaluate(SMALL_TEXTS) == []  # the drawings' texts too
    dialog.locator("[data-edition=cards]").click()
    expect(dialog.locator("figure.howto-example")).to_have_count(len(CARD_EXAMPLES))
    assert page.evaluate(SMALL_TARGETS) == [] and page.evaluate(SMALL_TEXTS) == []
    assert serious_violations(page) == [], "How to play on a phone"
