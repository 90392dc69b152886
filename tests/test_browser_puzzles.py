"""Puzzles in Chromium: a person goes from the lobby to the puzzles, solves one by mouse and fails another, and
both ratings (theirs and the puzzle's) move each time; once in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive
from cafe.ai.turns import complete_turns
from cafe.learn.puzzle_mining import world
from cafe.learn.puzzles import by_id, check
from cafe.steps import format_turn, parse_step

pytestmark = pytest.mark.browser


def play_turn(page: Page, turn: str) -> None:
    """A whole turn played by mouse as a person would: a guest from the hand, then a lit chair (or the bar's button,
    a joker's nation, draw ...); the turn ended with "End turn" if it could go on."""
    root = page.locator(".puzzles")
    for k, text in enumerate(turn.split(",")):
        step = parse_step(text)
        if step.tile is not None:
            page.locator(f".hand .tile[data-tile={step.tile.name}]").first.click()
        if step.kind in ("seat", "exchange"):
            page.locator(f"#board [data-chair='{step.place}'], #board [data-place='{step.place}']").first.click()
            if step.nation is not None and page.locator(".chooser").count():
                page.locator(f".chooser [data-nation={step.nation.name}]").click()
        else:
            name = ".controls button.bar" if step.kind == "bar" else None
            page.locator(name or f".controls button[data-step={step.kind}]").first.click()
        expect(root).to_have_attribute("data-steps", str(k + 1))
    if not page.locator(".result").count():
        page.locator(".controls button[data-step=stop]").click()


def ratings(page: Page) -> tuple[int, int, int, int]:
    """The person's rating before and after the try, and the puzzle's, as the verdict shows them."""
    mine = [int(n) for n in re.findall(r"\d+", page.locator(".your-rating").inner_text())[:2]]
    its = [int(n) for n in re.findall(r"\d+", page.locator(".its-rating").inner_text())[:2]]
    return mine[0], mine[1], its[0], its[1]


def wrong_turn(puzzle_id: str) -> str:
    """A legal turn that is not the puzzle's answer, of steps the page offers as buttons or chairs."""
    puzzle = by_id(puzzle_id)
    assert puzzle is not None
    turns = sorted(format_turn(list(o.steps)) for o in complete_turns(world(puzzle.position())))
    return next(t for t in turns if not check(puzzle, t) and "down" not in t)


def solve_and_fail(page: Page, solved: str, failed: str) -> None:
    page.click("a[href='#puzzles']")
    expect(page.locator(".puzzles")).to_have_attribute("data-puzzle", re.compile(r"^[bc]\d+-\d+$"))
    first = page.locator(".puzzles").get_attribute("data-puzzle") or ""
    puzzle = by_id(first)
    assert puzzle is not None
    play_turn(page, puzzle.answers[0])
    expect(page.locator(".result.solved h3")).to_have_text(solved)
    mine_before, mine_after, its_before, its_after = ratings(page)
    assert mine_before == 1500 < mine_after and its_after < its_before
    expect(page.locator(".puzzle-standing")).to_contain_text(str(mine_after))
    page.locator(".result button.go").click()
    expect(page.locator(".puzzles")).not_to_have_attribute("data-puzzle", re.compile(f"^({first})?$"))
    second = page.locator(".puzzles").get_attribute("data-puzzle") or ""
    play_turn(page, wrong_turn(second))
    expect(page.locator(".result.failed h3")).to_have_text(failed)
    before, after, its_before, its_after = ratings(page)
    assert before == mine_after and after < before and its_after > its_before
    solution = page.locator(".result .solution")  # in words for people, in notation for programs
    expect(solution).to_have_attribute("data-answers", re.compile(re.escape(by_id(second).answers[0])))  # type: ignore[union-attr]
    assert not re.search(r"@|\b[A-Z]{3}[fm]\b", solution.inner_text())  # "Chinese lady on h13", not "CHNf@h13"


def test_a_person_solves_a_puzzle_and_fails_one_and_both_ratings_move(cafe: str, browser: Browser) -> None:
    page = arrive(browser, cafe, "Ann")
    solve_and_fail(page, "Solved!", "Not the best turn.")


def test_the_puzzles_in_german(cafe: str, browser: Browser) -> None:
    page = arrive(browser, cafe, "Jürgen", locale="de-DE")
    expect(page.locator("a[href='#puzzles']")).to_have_text("Rätsel lösen")
    solve_and_fail(page, "Gelöst!", "Nicht der beste Zug.")
    expect(page.locator(".result .reason")).not_to_be_empty()
