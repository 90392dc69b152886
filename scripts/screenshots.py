"""The café's main screens as PNG files, to look at them as a player would: `make screenshots`.

A `cafe serve` of its own (its data in a temporary folder), Debian's Chromium driven by Playwright, on a desktop
(1366x850) and a phone (390x844); in English, German, French and Czech: the lobby, the lobby with "More options"
open, a board game and a card game in play, a refusal, the game-over panel, the replay, its analysis and the
player's page. The files go to screenshots/ (or the folder given), named SIZE-LANG-SCREEN.png.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
SIZES: dict[str, ViewportSize] = {"desktop": {"width": 1366, "height": 850}, "phone": {"width": 390, "height": 844}}
LANGUAGES = ("en", "de", "fr", "cs")
PLAY = ".chooser .nation, #board .lit, .controls .buttons button:not(.quiet)"
GUEST = "button.tile:not([disabled])"  # a guest of one's own hand that may be played (the others' are not buttons)


def serve(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A café on a free port, once it answers: the process and its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(data / "serve.log", "ab")  # noqa: SIM115 - open as long as the server runs
    server = subprocess.Popen([sys.executable, "-m", "cafe", "serve", "--port", str(port), "--data", str(data)],
                              stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return server, f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the café did not start")


def mine(page: Page) -> bool:
    return page.locator(".room-view").get_attribute("data-mine") == "true"


def plies(page: Page) -> int:
    return int(page.locator(".room-view").get_attribute("data-plies") or 0)


def step(page: Page) -> None:
    """One thing done on one's turn: a guest picked from the hand, or where it goes (a control otherwise)."""
    before = plies(page)
    if not page.locator(".tile.selected").count() and page.locator(GUEST).count():
        page.locator(GUEST).first.click()
        return
    page.locator(PLAY).first.click()
    moved = f"document.querySelector('.room-view').dataset.plies !== '{before}'"
    page.wait_for_function(f"() => {moved} || !!document.querySelector('.chooser, dialog[open]')")
    if page.locator("dialog[open]").count():  # a step that cannot be undone is asked first: yes
        page.locator("dialog[open] button[value=yes]").click()
        page.wait_for_function(f"() => {moved}")


def open_game(page: Page, edition: str) -> str:
    """A table with an easy computer player, started: its room's id."""
    page.goto(page.url.split("#")[0] + "#")
    page.select_option("select[name=edition]", edition)
    page.click(".create button[type=submit]")
    page.select_option(".host select", "easy")
    page.click(".host button:not(.quiet):not(.go)")
    page.locator(".seats li").nth(1).wait_for()
    page.click(".host button.go")
    page.locator("#board svg").wait_for()
    return page.locator(".room-view").get_attribute("data-room") or ""


def play(page: Page, until: str | None, most: int = 3000) -> None:
    """Plays until the selector ``until`` shows (or to the game's end)."""
    for _ in range(most):
        if page.locator(".game-over").count() or (until and page.locator(until).count() and mine(page)):
            return
        if mine(page):
            step(page)
        else:
            page.wait_for_timeout(50)
    raise SystemExit("the game did not end")


def shoot(page: Page, folder: Path, name: str, full: bool = False) -> None:
    page.wait_for_timeout(250)  # the fonts and the last drawing settle
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full)
    print(folder / f"{name}.png")


def pick_a_guest(page: Page, base: str, room: str) -> None:
    """The room, on the player's turn, with the first guest of the hand that may go somewhere picked."""
    page.goto(f"{base}#room={room}")
    page.locator(".room-view[data-mine=true] #board svg").wait_for()
    page.locator(GUEST).first.click()


def take(base: str, size: str, folder: Path, browser: Browser) -> None:
    """Every screen at one size, in the four languages."""
    page = browser.new_context(viewport=SIZES[size], locale="en-US").new_page()
    page.goto(base)
    who = f"Lena {size}"
    page.fill("input[name=player]", who)
    page.press("input[name=player]", "Enter")
    page.locator(".create").wait_for()
    over = open_game(page, "board")
    play(page, None)
    player = next(n for n in range(1, 100) if page.request.get(f"{base}players/{n}.json").json().get("name") == who)
    page.goto(f"{base}#game={over}")
    page.locator(".replay[data-ply]").wait_for()
    page.click("button.analyse")
    page.locator(".analysis").wait_for(timeout=300_000)
    board = open_game(page, "board")
    play(page, "#board [data-guest]")
    cards = open_game(page, "cards")
    play(page, "#board [data-guest]")
    leaderboard = f"{base}#"
    for lang in LANGUAGES:
        page.evaluate(f"() => localStorage.setItem('cafe-language', '{lang}')")
        name = f"{size}-{lang}"
        page.goto(leaderboard)
        page.reload()
        page.locator(".create").wait_for()
        shoot(page, folder, f"{name}-1-lobby")
        page.click(".create summary")
        shoot(page, folder, f"{name}-2-options")
        for edition, room in (("board", board), ("cards", cards)):
            pick_a_guest(page, base, room)
            page.evaluate("() => window.scrollTo(0, 0)")
            shoot(page, folder, f"{name}-3-{edition}")
        page.goto(f"{base}#room={over}")
        page.locator(".game-over").wait_for()
        shoot(page, folder, f"{name}-5-game-over")
        page.goto(f"{base}#game={over}")
        page.locator(".replay[data-ply]").wait_for()
        page.keyboard.press("Home")
        for _ in range(7):
            page.keyboard.press("ArrowRight")
        page.locator(".replay[data-ply='7']").wait_for()
        shoot(page, folder, f"{name}-6-replay")
        page.locator(".analysis").scroll_into_view_if_needed()
        shoot(page, folder, f"{name}-7-analysis")
        page.goto(f"{base}#player={player}")
        page.locator(".player-page").wait_for()
        shoot(page, folder, f"{name}-8-player")
        page.goto(f"{base}#learn=board-nation")  # the tutorial's first lesson, a wrong step refused
        page.locator(".learn-view[data-lesson=board-nation] .tile[data-tile=USAf]").click()
        page.locator("#board [data-chair=f3]").click()
        page.locator(".learn-view .refusal").wait_for()
        page.evaluate("() => window.scrollTo(0, 0)")
        shoot(page, folder, f"{name}-9-lesson")
        pick_a_guest(page, base, cards)
        page.locator("#board [data-place]:not(.lit)").first.click()  # not where the guest may go: refused
        page.locator("#notice:not([hidden])").wait_for()
        shoot(page, folder, f"{name}-4-refusal")
        page.locator(".tile.selected").click()  # as it was
        page.locator("#notice").wait_for(state="hidden", timeout=10_000)
    page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="screenshots", type=Path)
    parser.add_argument("--size", choices=sorted(SIZES), action="append", help="only this size (repeatable)")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server, base = serve(Path(data))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
                for size in args.size or SIZES:
                    take(base, size, args.folder, browser)
                browser.close()
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
