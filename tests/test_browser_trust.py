"""The café does what its people chose, in Chromium against a real `cafe serve`: the rules of a room are the ones the
form showed, the others' guests are in view (the board game's hands are open), a person comes back to their seat,
the keyboard seats a guest at a chair, leaving asks first, the game over lists the players by place, a room keeps
its last chat lines and says who comes and goes, and a finished game's address leads to its replay."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive, my_turn, plies
from cafe.options import make_rules
from servers import free_port, start_server
from test_browser_access import serious_violations

pytestmark = pytest.mark.browser

MAX_ACTIONS = 2000  # far above a whole game's


def lobby_rooms(page: Page) -> list[dict[str, Any]]:
    """The rooms as the server lists them, asked over a WebSocket of the page's own (its player's token)."""
    return list(
        page.evaluate(
            """() => new Promise((done) => {
                const socket = new WebSocket(`ws://${location.host}/ws`);
                socket.onopen = () => socket.send(JSON.stringify({ type: "hello",
                    token: localStorage.getItem("cafe-token") }));
                socket.onmessage = (event) => {
                    const message = JSON.parse(event.data);
                    if (message.type === "lobby") { socket.close(); done(message.rooms); }
                };
            })"""
        )
    )


@pytest.mark.parametrize(
    "preset,shown,key,value,words",
    [
        ("original-1989", "basic", "scoring", "bonus", "Scoring: with the bonus"),
        ("brettspielwelt", "when-unplaceable", "joker_to_bar", "never", "Jokers at the bar: never"),
    ],
)
def test_a_preset_shows_its_options_and_every_option_set_is_played(
    cafe: str, browser: Browser, preset: str, shown: str, key: str, value: str, words: str
) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.select_option("select[name=rules]", preset)
    ann.click("text=More options")
    expect(ann.locator(f"select[name={key}]")).to_have_value(shown)  # the preset's own value, not the printed one
    ann.select_option(f"select[name={key}]", value)  # back to the printed rules' value
    form = {
        o: ann.locator(f"[name={o}]").input_value() for o in ("scoring", "bar_values", "joker_to_bar", "joker_exchange")
    } | {o: ann.locator(f"[name={o}]").is_checked() for o in ("surprise_guests", "regulars")}
    ann.click("text=Create room")
    expect(ann.locator(".room-view .facts")).to_contain_text(words)
    assert serious_violations(ann) == [], "a waiting table"
    room = ann.locator(".room-view").get_attribute("data-room")
    rules = next(r for r in lobby_rooms(ann) if r["id"] == room)["rules"]
    assert rules == {"preset": preset, key: value}  # the chosen preset, and what differs from it
    assert make_rules("board", rules) == make_rules("board", {"preset": "printed", **form})


def test_the_form_to_open_a_table_keeps_what_was_chosen_while_the_cafes_rooms_change(
    cafe: str, browser: Browser
) -> None:
    ann, bob = arrive(browser, cafe, "Ann"), arrive(browser, cafe, "Bob")
    ann.select_option("select[name=rules]", "brettspielwelt")
    ann.click("text=More options")
    ann.select_option("select[name=joker_to_bar]", "never")
    ann.fill("input[name=name]", "Ann's corner")
    ann.focus("input[name=name]")
    bob.click(".create button[type=submit]")  # another table opens: Ann's lobby lists it
    expect(ann.locator(".rooms [data-room]")).to_have_count(1)
    expect(ann.locator("select[name=rules]")).to_have_value("brettspielwelt")
    expect(ann.locator("select[name=joker_to_bar]")).to_have_value("never")
    expect(ann.locator("input[name=name]")).to_have_value("Ann's corner")
    expect(ann.locator("input[name=name]")).to_be_focused()
    expect(ann.locator(".create details.more")).to_have_attribute("open", "")
    ann.click("text=Create room")
    expect(ann.locator(".room-view .facts")).to_contain_text("BrettspielWelt + Jokers at the bar: never")


def start_against_a_computer_player(page: Page) -> str:
    """Opens a table from the lobby, seats a computer player and starts: the room's id."""
    page.click(".create button[type=submit]")
    expect(page.locator(".host")).to_be_visible()
    page.click(".host button:not(.quiet):not(.go)")
    expect(page.locator(".seats li")).to_have_count(2)
    page.click(".host button.go")
    expect(page.locator("#board svg")).to_be_visible()
    return page.locator(".room-view").get_attribute("data-room") or ""


@pytest.mark.parametrize("surprise", [False, True])
def test_the_others_guests_are_seen_unless_they_are_a_surprise(cafe: str, browser: Browser, surprise: bool) -> None:
    ann = arrive(browser, cafe, "Ann")
    if surprise:
        ann.click("text=More options")
        ann.check("[name=surprise_guests]")
    start_against_a_computer_player(ann)
    bot = ann.locator(".players tr:not(.you):not(.open-hand)").last
    expect(bot).to_contain_text("bot")
    guests = ann.locator(".players tr.open-hand [role=list]")
    if surprise:  # hands are hidden: only how many
        expect(guests).to_have_count(0)
        return
    expect(guests).to_have_attribute("aria-label", re.compile(r"^Medium bot \d's guests$"))
    held = int(bot.locator("td").last.inner_text())
    expect(guests.locator(".tile")).to_have_count(held)  # as many as the hand column says, each one seen
    assert all(
        re.fullmatch(r"(AFR|CHN|CUB|ESP|FRA|GBR|GER|IND|ITA|RUS|TUR|USA|JOK)[mf]", tile or "")
        for tile in guests.locator(".tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)")
    )
    ann.click(".room-head button:has-text('Lobby')")
    expect(ann.locator(".rooms li.room")).to_have_count(1)  # her game is listed, and is not open: it is under way
    expect(ann.locator(".rooms .total")).to_have_text("0 open rooms")


def test_a_picked_guest_says_where_it_may_go_or_why_no_chair_is_lit(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    start_against_a_computer_player(ann)
    for _ in range(MAX_ACTIONS):
        if my_turn(ann):
            break
        ann.wait_for_timeout(50)
    tiles = ann.locator(".hand .tile:not(:disabled)")
    for k in range(tiles.count()):
        tiles.nth(k).click()
        expect(ann.locator(".tile[aria-pressed=true]")).to_have_count(1)
        line = ann.locator(".controls .turn-line").inner_text()
        if ann.locator("#board .lit[data-chair]").count():
            assert "choose a lit chair" in line, line
        else:  # the bar, or another guest: never "a lit chair" where none is lit
            assert "no chair can take this guest now" in line, line
        tiles.nth(k).click()  # put back


def test_the_cafes_plain_address_in_a_new_tab_brings_a_seated_person_back_to_the_game(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann")
    first = start_against_a_computer_player(ann)
    again = ann.context.new_page()  # a new tab at the café's plain address
    again.goto(cafe)
    expect(again.locator(".room-view")).to_have_attribute("data-room", first)
    expect(again.locator(".players tr.you")).to_contain_text("Ann")

    ann.click(".room-head button.quiet >> nth=0")  # to the lobby, and a second game
    expect(ann.locator(".yours li")).to_have_count(1)  # the first game, to resume
    second = start_against_a_computer_player(ann)
    third = ann.context.new_page()
    third.goto(cafe)  # two games running: the lobby, "Your games" first, each to resume
    expect(third.locator(".yours li")).to_have_count(2)
    expect(third.locator(".yours h2")).to_have_text("Your games")
    assert third.locator(".lobby section").first.get_attribute("class") == "yours"
    expect(third.locator(f".rooms [data-room='{first}'] button")).to_have_text("Resume")
    assert serious_violations(third) == [], "the lobby with your games"
    third.locator(f".yours [data-room='{second}'] button").click()
    expect(third.locator(".room-view")).to_have_attribute("data-room", second)


ACCENT = "rgb(232, 89, 12)"  # the ring of the targets a picked guest may take


def test_enter_enter_seats_a_guest_at_a_chair_and_never_at_the_bar(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    start_against_a_computer_player(ann)
    seated = 0
    ways: Counter[str] = Counter()  # what the loop did instead of seating, said if it fails
    for _ in range(MAX_ACTIONS):
        if seated >= 3 or ann.locator(".game-over").count():
            break
        if not my_turn(ann) or ann.locator(".tile.selected").count():
            ways["waited" if not my_turn(ann) else "waited with a guest picked"] += 1
            ann.wait_for_timeout(50)
            continue
        stool = ann.locator("#board .next-stool")
        if stool.count():  # before a guest is picked, the next stool wears no target's ring
            assert stool.evaluate("(e) => getComputedStyle(e).stroke") != ACCENT
        before = plies(ann)
        for _ in range(60):
            if ann.evaluate("() => document.activeElement.matches('button.tile:not(:disabled)')"):
                break
            ann.keyboard.press("Tab")
        else:  # no guest to play: the turn ends by its button
            ways["no guest reached by Tab"] += 1
            ann.locator(".controls .buttons button.go, .controls .buttons button").first.click()
            ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'")
            continue
        ann.keyboard.press("Enter")
        expect(ann.locator(".tile.selected")).to_have_count(1)
        if not ann.locator("#board .lit[data-chair]").count():  # no chair for it: the focus stays in the hand
            assert not ann.evaluate("() => document.activeElement.matches('[data-stool]')")
            ways["to the bar"] += 1
            ann.locator(".controls .buttons button").first.click()  # to the bar, by its own button
            ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'")
            continue
        assert ann.evaluate("() => document.activeElement.matches('#board .lit[data-chair]')")
        chair = ann.evaluate("() => document.activeElement.dataset.chair")
        ann.keyboard.press("Enter")  # the second Enter: at that chair
        ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'"
                              " || !!document.querySelector('.chooser')")  # fmt: skip
        if ann.locator(".chooser").count():  # a joker: its nation is chosen next, and the focus is there
            assert ann.evaluate("() => document.activeElement.matches('.chooser button.nation')")
            ann.keyboard.press("Enter")
            ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'")
        expect(ann.locator(f"#board [data-guest][data-at='{chair}']")).to_have_count(1)  # seated there
        seated += 1
    assert seated >= 3, f"seated {seated}; {dict(ways)}; game over: {bool(ann.locator('.game-over').count())}"


def test_leaving_a_seat_in_a_game_is_asked_first_and_a_computer_player_takes_it(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    start_against_a_computer_player(ann)
    ann.click(".room-head button.leave")
    dialog = ann.locator("dialog.ask")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("A computer player takes it for the rest of the game")
    expect(dialog.locator("button.quiet")).to_be_focused()  # the safe answer first
    assert serious_violations(ann) == [], "the question before leaving"
    ann.keyboard.press("Escape")  # no: nothing happens
    expect(dialog).to_have_count(0)
    expect(ann.locator(".players tr.you")).to_contain_text("Ann")
    ann.click(".room-head button.leave")
    ann.click("dialog.ask button.go")
    expect(ann.locator(".players tr.you")).to_have_count(0)
    expect(ann.locator(".players")).to_contain_text("Ann (bot)")


def to_the_bar_every_turn(ann: Page) -> int:
    """Ann takes the bar every turn until the game ends (a stool that puts her out, she takes once asked); how
    often she was asked."""
    asked = 0
    for _ in range(MAX_ACTIONS):
        if ann.locator(".game-over").count():
            return asked
        if not my_turn(ann):
            ann.wait_for_timeout(50)
            continue
        before = plies(ann)
        if not ann.locator(".tile.selected").count():
            ann.locator("button.tile:not([disabled]):not([data-tile^=JOK])").first.click()
            continue
        bar = ann.locator(".controls button.bar")
        if bar.count():
            out = "you would be out" in bar.inner_text()
            bar.click()
            if out:
                expect(ann.locator("dialog.ask")).to_contain_text("below 0")
                asked += 1
                ann.click("dialog.ask button.go")
        else:
            ann.locator(".controls button.go").click()  # the turn's end
        ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'")
    raise AssertionError("the game did not end")


def test_a_bar_stool_below_0_is_asked_once_and_the_game_over_lists_players_by_place(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann")
    for _ in range(4):  # the computer player may go out first, or fill the bar: then another game
        start_against_a_computer_player(ann)
        asked = to_the_bar_every_turn(ann)
        if asked:
            break
        ann.get_by_role("button", name="Back to the lobby").click()  # not the rematch, the game-over's first button
    else:
        raise AssertionError("Ann never met a stool that would put her out")
    rows = ann.locator(".game-over .standings tr[data-seat]")
    expect(rows).to_have_count(2)
    places = [int(text) for text in rows.locator("td:first-child").all_inner_texts()]
    assert places == sorted(places) and places[0] == 1
    assert asked == 1  # asked once; Ann went out: the computer player wins, and Ann is last, marked, whatever her score
    expect(rows.nth(0)).to_contain_text("bot")
    expect(rows.nth(1)).to_contain_text("Ann (eliminated)")

    ann.click("#who a")  # her own page, from her name in the header
    page = ann.locator(".player-page")
    expect(page.locator("h2")).to_have_text("Ann")
    expect(page.locator(".rating")).to_have_text(
        "Not rated yet: games between two or more players with accounts are rated."
    )
    expect(page.locator(".how")).to_contain_text("never shown below 0")
    assert serious_violations(ann) == [], "the player page"
    cells = page.locator("tr").nth(1).locator("td").all_inner_texts()
    assert cells[0] and "bot" in cells[3] and cells[4] == "2" and cells[5] == "unrated", cells


class RestartedCafe:
    """A real ``cafe serve`` with its data in ``data``, which a test may stop and start again on the same port."""

    def __init__(self, data: Path) -> None:
        self.data, self.port = data, free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.server = start_server(self.port, data)

    def restart(self) -> None:
        self.stop()
        self.server = start_server(self.port, self.data)

    def stop(self) -> None:
        self.server.kill()
        self.server.wait()


def test_a_rooms_last_chat_lines_are_there_after_a_reload_and_after_a_restart(browser: Browser, tmp_path: Path) -> None:
    cafe = RestartedCafe(tmp_path)
    try:
        ann = arrive(browser, cafe.url, "Ann")
        ann.click(".create button[type=submit]")
        expect(ann.locator(".host")).to_be_visible()
        ann.fill("input[name=chat]", "Who plays with me?")
        ann.press("input[name=chat]", "Enter")
        expect(ann.locator(".chat-lines li.chat")).to_have_text(re.compile(r"^Ann #\d+: Who plays with me\?$"))
        ann.reload()
        expect(ann.locator(".chat-lines li.chat")).to_have_text(re.compile(r"^Ann #\d+: Who plays with me\?$"))
        cafe.restart()
        ann.reload()
        expect(ann.locator(".chat-lines li.chat")).to_have_text(re.compile(r"^Ann #\d+: Who plays with me\?$"))
        expect(ann.locator(".chat-lines li.chat .from")).to_have_text("Ann")  # the speaker's name stands out
    finally:
        cafe.stop()


def test_a_finished_games_address_after_a_restart_opens_its_replay(browser: Browser, tmp_path: Path) -> None:
    cafe = RestartedCafe(tmp_path)
    try:
        ann = arrive(browser, cafe.url, "Ann")
        room = start_against_a_computer_player(ann)
        to_the_bar_every_turn(ann)  # the quickest way to the game's end
        cafe.restart()  # the café again: a finished game is no longer a room
        ann.goto(f"{cafe.url}#room={room}")
        expect(ann.locator(".replay")).to_have_attribute("data-game", room)
        expect(ann.locator("#notice")).to_contain_text("This game is over: here is its replay")
        expect(ann.locator(".replay")).to_have_attribute("data-plies", re.compile(r"^[1-9]\d*$"))
    finally:
        cafe.stop()


def test_a_table_hears_who_left_and_who_is_back_and_the_level_menu_keeps_its_level(
    browser: Browser, tmp_path: Path
) -> None:
    port = free_port()
    cafe = f"http://127.0.0.1:{port}/"
    server = start_server(port, tmp_path, "--limit", "left_seconds=0.2")
    try:
        ann = arrive(browser, cafe, "Ann")
        ann.click(".create button[type=submit]")
        room = ann.locator(".room-view").get_attribute("data-room")
        ann.select_option(".host select", "hard")
        ann.click(".host button:not(.quiet):not(.go)")
        expect(ann.locator(".seats li")).to_have_count(2)
        expect(ann.locator(".host select")).to_have_value("hard")  # not back to medium
        bob = arrive(browser, cafe, "Bob")
        bob.locator(f"[data-room='{room}'] button").click()
        bob.click("text=Take a seat")
        expect(ann.locator(".seats li").nth(2)).to_contain_text("Bob · here")
        context = bob.context
        bob.close()  # Bob's only tab
        expect(ann.locator(".chat-lines li.info").last).to_have_text("Bob has left")
        expect(ann.locator(".seats li").nth(2)).to_contain_text(re.compile(r"Bob · away 0:0\d"))
        assert serious_violations(ann) == [], "a table with someone away"
        back = context.new_page()
        back.goto(cafe)  # the plain address: back at his table
        expect(back.locator(".room-view")).to_have_attribute("data-room", room or "")
        expect(ann.locator(".chat-lines li.info").last).to_have_text("Bob is back")
        expect(ann.locator(".seats li").nth(2)).to_contain_text("Bob · here")
    finally:
        server.kill()
        server.wait()


def test_a_hint_marks_the_guest_in_the_hand_and_the_turns_steps_in_order(cafe: str, browser: Browser) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.click(".create button[type=submit]")
    expect(ann.locator(".host")).to_be_visible()
    expect(ann.locator(".hints-note")).to_have_count(0)  # nobody to play against yet: nothing said of hints
    ann.click(".host button:not(.quiet):not(.go)")
    expect(ann.locator(".seats li")).to_have_count(2)
    expect(ann.locator(".host")).not_to_contain_text("Allow hints")  # against computer players hints work anyway
    expect(ann.locator(".hints-note")).to_be_visible()
    ann.click(".host button.go")
    for _ in range(MAX_ACTIONS):
        if my_turn(ann) and ann.locator("button.hint").count():
            break
        ann.wait_for_timeout(50)
    ann.click("button.hint")
    line = ann.locator(".chat-lines li.info", has_text="Hint: ")
    expect(line).to_have_count(1)
    assert "@" not in line.inner_text() and "~" not in line.inner_text()  # said in words, not in notation
    steps = (line.get_attribute("data-steps") or "").split()
    assert line.inner_text().count(" → ") == len(steps) - 1 and steps, line.inner_text()
    placed = [step for step in steps if "@" in step or "~" in step]
    assert placed, steps
    for k, step in enumerate(placed[:2]):  # each step marked in turn: the guest in the hand, where it goes
        tile, target = step.split("@")[0].split("~")[0], step.replace("~", "@").split("@")[1].split("=")[0]
        expect(ann.locator(".tile.hinted")).to_have_attribute("data-tile", tile)
        where = ".next-stool" if target == "bar" else f"[data-chair='{target}']"
        expect(ann.locator(f"#board {where}.hinted")).to_have_count(1)
        expect(ann.locator("#board text.order")).to_have_count(len(placed) - k)
        numbers = sorted(int(text) for text in ann.locator("#board text.order").all_text_contents())  # drawing order
        assert numbers == sorted(steps.index(left) + 1 for left in placed[k:]), (numbers, steps)
        before = plies(ann)
        ann.locator(".tile.hinted").click()
        ann.locator(f"#board {where}").click()
        ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'"
                              " || !!document.querySelector('.chooser')")  # fmt: skip
        if ann.locator(".chooser").count():
            ann.locator(f".chooser [data-nation='{step.split('=')[1]}']").click()
            ann.wait_for_function(f"() => document.querySelector('.room-view').dataset.plies !== '{before}'")


def test_more_options_neither_widens_the_column_nor_puts_labels_in_different_places(
    cafe: str, browser: Browser
) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.set_viewport_size({"width": 1366, "height": 850})
    aside = ann.locator(".lobby aside")
    closed = aside.bounding_box()
    ann.click("text=More options")
    expect(ann.locator(".create .option").first).to_be_visible()
    opened = aside.bounding_box()
    assert closed and opened and opened["width"] == closed["width"] and opened["x"] == closed["x"]
    assert serious_violations(ann) == [], "the options"
    for option in ann.locator(".create .option").all():  # each name beside its control, on one line
        name = option.locator("span").bounding_box()
        control = option.locator("input, select").bounding_box()
        assert name and control and abs((name["y"] + name["height"] / 2) - (control["y"] + control["height"] / 2)) < 8
        assert control["x"] + control["width"] <= opened["x"] + opened["width"]
    ann.set_viewport_size({"width": 390, "height": 844})  # a phone: the open options fit its width
    assert ann.evaluate("document.documentElement.scrollWidth") == 390
