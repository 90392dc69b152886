"""The browser client in a real browser: Debian's Chromium driven by Playwright against a real `cafe serve`.

Two people, each in their own browser context (Bob on a phone-sized screen), open a room, play a
whole board game against each other and a computer player by clicking, chat, are refused an
illegal click, take a step back, and one reloads the page and is back at the seat.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browsing import arrive, my_turn, plies

pytestmark = pytest.mark.browser

MAX_CLICKS = 3000  # far above a whole game's
CLICK_MS = 10_000  # a button found on the page is clicked this soon, or it went away
# what a page shows, for a failure's message: its step count, whose turn, the picked guest, the turn's line, chat
PAGE = """() => ({plies: document.querySelector('.room-view')?.dataset.plies,
    mine: document.querySelector('.room-view')?.dataset.mine,
    picked: document.querySelector('.tile.selected')?.textContent,
    chooser: !!document.querySelector('.chooser'), line: document.querySelector('.controls .turn-line')?.textContent,
    chat: [...document.querySelectorAll('.chat-lines li')].slice(-6).map((li) => li.textContent)})"""
# whether it is the page's turn, whether a guest is picked, how many guests of the hand can be played, the turn's line
SEEN = """() => [document.querySelector('.room-view')?.dataset.mine === 'true',
    !!document.querySelector('.tile.selected'), document.querySelectorAll('.hand button.tile:not([disabled])').length,
    document.querySelector('.controls .turn-line')?.textContent ?? '']"""


def click_something_legal(page: Page) -> None:
    """One thing a person might do on their turn, clicking: a guest, then a lit chair (a joker's nation), the bar,
    or the turn's end; it returns once the page shows the result."""
    before = plies(page)
    changed = f"document.querySelector('.room-view').dataset.plies !== '{before}'"
    moved = f"() => {changed} || !!document.querySelector('.chooser, dialog[open]')"
    tile = page.locator("button.tile:not([disabled])")
    if not page.locator(".tile.selected").count() and tile.count():
        tile.first.click()
        expect(page.locator(".tile.selected")).to_have_count(1)
        return
    for selector in (".chooser .nation", "#board [data-chair].lit", "#board [data-place].lit", "#board .lit",
                     "button:has-text('End turn')", "button:has-text('Pass')", "button:has-text('Draw a card')",
                     "button:has-text('Lay face down')", "button:has-text('Close')"):  # fmt: skip
        found = page.locator(selector)
        if found.count():
            try:
                found.first.click(timeout=CLICK_MS)
            except PlaywrightTimeout:  # gone before the click: only the turn moving on may take it away
                if plies(page) != before or not my_turn(page):
                    return
                raise AssertionError(f"{selector} went away on my turn; the page: {page.evaluate(PAGE)}") from None
            page.wait_for_function(moved)
            if page.locator("dialog[open]").count():  # a stool that would put the player out is asked first: yes
                page.locator("dialog[open] button[value=yes]").click()
                page.wait_for_function(f"() => {changed}")
            return
    if not my_turn(page):  # the turn ended on its own (an automatic end) between the check and the click
        return
    raise AssertionError(f"nothing to click on my turn: {page.locator('.panel').inner_text()}")


def play_to_the_end(*pages: Page) -> None:
    """The people on ``pages`` play their game to its end, each clicking something legal on their turn."""
    for _ in range(MAX_CLICKS):
        if all(page.locator(".game-over").count() for page in pages):
            return
        page = next((p for p in pages if p.locator(".room-view").count() and my_turn(p)), None)
        if page is None:
            pages[0].wait_for_timeout(50)
            continue
        click_something_legal(page)
    raise AssertionError("the game did not end")


def test_two_people_and_a_bot_play_a_whole_game_in_the_browser(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.click("text=Create room")
    expect(ann.locator("text=Waiting for players")).to_be_visible()
    room = ann.locator(".room-view").get_attribute("data-room")

    bob = arrive(browser, cafe, "Bob", phone=True)
    bob.locator(f"[data-room='{room}'] button").click()  # the new room is listed in Bob's lobby
    bob.click("text=Take a seat")
    expect(ann.locator(".seats")).to_contain_text("Bob")
    ann.click("text=Add computer player")
    expect(ann.locator(".seats")).to_contain_text("Medium bot 3")
    expect(ann.locator(".seats")).not_to_contain_text("computer, medium")  # the name says the level once
    ann.click("text=Start the game")
    for page in (ann, bob):
        expect(page.locator("#board svg")).to_be_visible()

    bob.fill("input[name=chat]", "Good luck, Ann!")
    bob.press("input[name=chat]", "Enter")
    expect(ann.locator(".chat-lines")).to_contain_text(re.compile(r"Bob #\d+: Good luck, Ann!"))
    expect(ann.locator(".chat-lines .speaker").last).to_have_text(re.compile(r"#\d+"))  # the server's, not typed

    people = {"Ann": ann, "Bob": bob}
    refused = undone = reloaded = False
    for _ in range(MAX_CLICKS):
        if ann.locator(".game-over").count() and bob.locator(".game-over").count():
            break
        page = next((p for p in people.values() if p.locator(".room-view").count() and my_turn(p)), None)
        if page is None:
            ann.wait_for_timeout(50)  # a computer player's turn
            continue
        before = plies(page)
        assert page.locator("button.hint").count() == 0  # a game between people: no hints unless the host allowed them
        if not refused:  # a guest onto a chair that is not lit: the server says no, nothing changes
            page.locator("button.tile:not([disabled])").first.click()
            page.locator("#board [data-chair]:not(.lit)").first.click()
            expect(page.locator(".chat-lines .error")).to_be_visible()
            expect(page.locator("#notice")).to_be_visible()
            assert plies(page) == before
            refused = True
            continue
        if not undone and page.locator("button:has-text('Undo')").count():
            page.click("button:has-text('Undo')")
            expect(page.locator(".room-view")).to_have_attribute("data-plies", str(before - 1))
            undone = True
            continue
        if not reloaded and page is bob and before > 10:
            bob.reload()
            expect(bob.locator(".players tr.you")).to_contain_text("Bob (you)")
            expect(bob.locator(".room-view")).to_have_attribute("data-plies", str(before))
            reloaded = True
            continue
        mine, picked, playable, line = page.evaluate(SEEN)  # at one moment: the turn may end by itself meanwhile
        if mine and not picked:  # the line says what can be done: the hand only if something in it can be played
            if playable:
                assert line == "Your turn: pick from your hand.", line
            else:
                assert "pick from your hand" not in line and line.startswith("Your turn"), line
        click_something_legal(page)
    else:
        raise AssertionError("the game did not end")
    assert refused and undone and reloaded

    for page in (ann, bob):
        expect(page.locator(".game-over h3")).to_contain_text("Game over")
    link = ann.locator("a.record")
    record = json.loads(ann.request.get(cafe.rstrip("/") + (link.get_attribute("href") or "")).text())
    assert record["players"] == ["Ann", "Bob", "Medium bot 3"] and record["edition"] == "board"
    places = [int(cell) for cell in ann.locator(".game-over tr td:nth-child(1)").all_inner_texts()]
    assert sorted(places) == places and len(places) == 3  # by final place, winner first


def test_a_match_is_opened_from_the_lobby_and_its_standing_shown(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.select_option("select[name=match]", "5")
    ann.fill("input[name=name]", "Ann's league night")
    ann.click("text=Create room")
    expect(ann.locator(".match")).to_have_text("A match: best of 5")
    ann.click("text=Add computer player")
    ann.click("text=Start the game")
    expect(ann.locator(".match")).to_have_text("Match, best of 5, game 1: Ann 0, Medium bot 2 0")
    cid = arrive(browser, cafe, "Cid")
    expect(cid.locator(".room")).to_contain_text("match, game 1 of 5 at most")


def test_a_card_game_against_a_computer_player_is_played_to_its_end_then_replayed_and_analysed(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann")
    page_errors: list[str] = []  # a script error on the page would leave the café half drawn: say it if one happens
    ann.on("pageerror", lambda error: page_errors.append(str(error)))
    ann.select_option("select[name=edition]", "cards")
    ann.click("text=Create room")
    ann.click("text=Add computer player")
    ann.click("text=Start the game")
    expect(ann.locator("#board svg [data-place]").first).to_be_attached()
    hinted = False
    for _ in range(MAX_CLICKS):
        if ann.locator(".game-over").count():
            break
        if my_turn(ann) and not hinted and ann.locator("button.hint").count():
            ann.click("button.hint")  # against a computer player, a hint is there for the asking
            expect(ann.locator(".chat-lines")).to_contain_text("Hint: ")
            hinted = True
        elif my_turn(ann):
            click_something_legal(ann)
        else:
            ann.wait_for_timeout(50)
    else:
        raise AssertionError("the card game did not end")
    assert hinted
    expect(ann.locator(".game-over h3")).to_contain_text("Game over")
    assert "Ann:" in ann.locator(".log").inner_text()
    expect(ann.locator(".log")).to_contain_text("(hint)")  # the turn log says a hint was used

    ann.click("text=Replay and analyse this game")  # the game's own page, at its end
    replay = ann.locator(".replay")
    expect(replay).to_have_attribute("data-plies", re.compile(r"^\d+$"))
    total = int(replay.get_attribute("data-plies") or 0)
    expect(replay).to_have_attribute("data-ply", str(total))
    assert total > 10 and "#game=" in ann.url
    ann.keyboard.press("Home")
    expect(replay).to_have_attribute("data-ply", "0")
    ann.keyboard.press("ArrowRight")
    ann.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-ply", "2")
    # the step in words (the line is read out as it changes), and the turns' draws and cards laid down in words
    expect(ann.locator(".ply")).to_have_text(re.compile(r"Step 2 of \d+ · \S.* (seats|draws|lays) [^@]+"))
    assert not re.search(r"\bdraw\b|down:[A-Z]", ann.locator(".replay-log").inner_text())
    ann.keyboard.press("ArrowDown")  # the next turn's first step
    assert int(replay.get_attribute("data-ply") or 0) > 2 or ann.wait_for_timeout(200) is None
    ann.locator(".replay-log li").nth(3).click()
    expect(ann.locator(".replay-log li.current")).to_have_count(1)
    expect(ann.locator(".own-hand")).to_contain_text("Your hand then")  # her own hand, and only hers

    shared = browser.new_context().new_page()  # the page's address works for anyone
    shared.goto(ann.url)
    expect(shared.locator(".replay")).to_have_attribute("data-ply", str(total))
    expect(shared.locator(".own-hand")).to_have_count(0)

    ann.click("text=Analyse this game")
    expect(ann.locator(".replay-log .verdict").first).to_be_visible(timeout=120_000)
    expect(ann.locator(".analysis")).to_contain_text("mean loss")
    # the best alternative is outlined where a turn begins: a turn whose best seats a card at a place (a best that
    # only draws or lays face down has nothing to outline), reached from the start by the keyboard
    game = f"{cafe.rstrip('/')}/games/{ann.url.split('#game=')[1]}"
    judged = ann.request.get(f"{game}/analysis").json()["analysis"]["turns"]
    starts = [turn["start"] for turn in ann.request.get(f"{game}.json").json()["turns"]]
    assert len(judged) == len(starts), f"{len(judged)} turns judged of {len(starts)}"
    outlined = next((k for k, turn in enumerate(judged) if re.search(r"@(?!bar)|~", turn["best"])), None)
    assert outlined is not None, f"no turn's best alternative seats a card: {[turn['best'] for turn in judged]}"
    ann.keyboard.press("Home")
    expect(replay).to_have_attribute("data-ply", "0")
    for _ in range(outlined):
        ann.keyboard.press("ArrowDown")
    expect(replay).to_have_attribute("data-ply", str(starts[outlined]))
    expect(ann.locator(".best-line")).to_contain_text("Best found")
    unseen = f"turn {outlined + 1}'s best alternative, {judged[outlined]['best']}, is not outlined"
    expect(ann.locator("#board .best").first, unseen).to_be_attached()
    assert page_errors == []


def test_every_variant_can_be_chosen_when_opening_a_table(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.click("text=More options")
    ann.check("input[name=surprise_guests]")
    expect(ann.locator(".create")).to_contain_text("hands are hidden")  # each option says what it does
    ann.select_option("select[name=joker_to_bar]", "when-unplaceable")
    ann.click("text=Create room")
    played = "printed rules + Jokers at the bar: when no table can take it + Surprise guests"  # values in words
    expect(ann.locator(".room-view .facts")).to_contain_text(played)
    bob = arrive(browser, cafe, "Bob", phone=True)
    bob.select_option("select[name=edition]", "cards")
    bob.click("text=More options")
    bob.check("input[name=tribe_and_circle]")
    bob.click("text=Create room")
    expect(bob.locator(".room-view .facts")).to_contain_text("printed rules + Tribe and little circle")

    cid = arrive(browser, cafe, "Cid")
    expect(cid.locator(".rooms")).to_contain_text(played)
    expect(cid.locator(".rooms")).to_contain_text("printed rules + Tribe and little circle")
