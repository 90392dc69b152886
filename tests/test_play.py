"""The terminal game, driven as a person would: keys into the real Textual app (its test pilot)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from cafe import BoardGame
from cafe.card_game import CardGame
from cafe.cli import build_parser
from cafe.errors import CafeError
from cafe.play.app import CafeApp, PassKeyboard
from cafe.play.command import build_session
from cafe.play.drawing import cafe_map
from cafe.play.session import Seat, SeatError, Session, parse_seats
from cafe.record import Record

SIZE = (170, 50)


def drive(session: Session, script: Callable[[CafeApp, Pilot[None]], Awaitable[None]]) -> None:
    """Run the app headless and let ``script`` press keys."""

    async def main() -> None:
        app = CafeApp(session, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await script(app, pilot)

    asyncio.run(main())


async def settle(app: CafeApp, pilot: Pilot[None]) -> None:
    """Wait until bots have moved and the app is idle."""
    for _ in range(200):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.workers:
            return


async def type_line(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


def status(app: CafeApp) -> str:
    return str(app.query_one("#status", Static).render())


def session_for(seats: str, edition: str = "board", seed: int = 3, tmp: Path | None = None, **rules: Any) -> Session:
    return Session.new(edition, parse_seats(seats, edition), rules or None, seed, (tmp or Path(".")) / "game.json")


def test_play_starts_at_once_with_you_against_three_medium_bots(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "--save", str(tmp_path / "g.json"), "--seed", "1"])
    session = build_session(args)
    assert [seat.spec for seat in session.seats] == ["human", "medium", "medium", "medium"]
    assert session.seats[0].name == "You" and isinstance(session.game.view(0).hands[1], tuple)


def test_play_with_a_number_of_players_seats_you_against_medium_bots_and_a_resumed_game_saves_where_asked(
    tmp_path: Path,
) -> None:
    args = build_parser().parse_args(["play", "--players", "2", "--save", str(tmp_path / "g.json")])
    session = build_session(args)
    assert [seat.spec for seat in session.seats] == ["human", "medium"]
    session.save()
    elsewhere = tmp_path / "elsewhere.json"
    resumed = build_session(build_parser().parse_args(["play", "--resume", str(tmp_path / "g.json"), "--save",
                                                      str(elsewhere)]))  # fmt: skip
    assert resumed.record_path == elsewhere and [seat.spec for seat in resumed.seats] == ["human", "medium"]


def test_an_illegal_move_is_refused_with_its_reason_and_changes_nothing(tmp_path: Path) -> None:
    session = session_for("you,greedy", tmp=tmp_path)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        before = session.game.state.key()
        await type_line(pilot, "USAm@a1")
        assert "R1.1: there is no chair 'a1'" in status(app)
        app.query_one(Input).value = ""
        await type_line(pilot, "dancing bear")
        assert "R7.1" in status(app)
        assert session.game.state.key() == before

    drive(session, script)


def test_a_legal_move_then_undo_then_a_whole_turn(tmp_path: Path) -> None:
    session = session_for("you,greedy", tmp=tmp_path)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        game = session.game
        first = next(s for s in game.legal_steps() if s.kind.value == "seat" and game.step_points(s) == 0)
        await type_line(pilot, str(first))
        assert [str(s) for s in game.this_turn()] == [str(first)]
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert game.this_turn() == [] and "took back" in status(app)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert "nothing to undo" in status(app)
        turn = max(game.legal_steps(), key=game.step_points)
        await type_line(pilot, str(turn))
        if game.this_turn():
            await type_line(pilot, "stop")
        await settle(app, pilot)
        assert game.turn_number >= 2 and game.current_player == 0  # the bot answered
        log = "\n".join(str(line) for line in app.query_one("#log").lines)
        assert "turn 1: You" in log and "turn 2: Greedy bot 2" in log

    drive(session, script)


def test_typing_a_guest_marks_its_chairs_with_their_points(tmp_path: Path) -> None:
    session = session_for("you,greedy", tmp=tmp_path)
    tile = session.game.hand(0)[0]

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        await pilot.press(*tile.name)
        await pilot.pause()
        targets = session.targets(tile.name)
        assert targets and app.marked == {step.split("@")[1].split("=")[0] for step, _ in targets}
        assert f"{targets[0][0]} {targets[0][1]:+d}" in status(app)
        app.query_one(Input).value = targets[0][0]
        await pilot.pause()
        assert f"{targets[0][0]}: {targets[0][1]:+d} points" in status(app)

    drive(session, script)


def test_words_work_as_well_as_notation(tmp_path: Path) -> None:
    session = session_for("you,greedy", tmp=tmp_path)
    step = next(s for s in session.game.legal_steps() if s.kind.value == "seat" and s.tile and not s.tile.is_joker)
    assert step.tile is not None
    words = f"{step.tile.describe()} {step.place}"  # "American lady h1"

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, words)
        assert session.game.this_turn() == [step]

    drive(session, script)


def test_a_hint_names_a_legal_step(tmp_path: Path) -> None:
    session = session_for("you,greedy", tmp=tmp_path)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+h")
        await settle(app, pilot)
        text = status(app)
        assert text.startswith("Hint: ")
        hinted = text.removeprefix("Hint: ").split(" ")[0]
        assert hinted in {str(s) for s in session.game.legal_steps()}

    drive(session, script)


def test_hot_seat_hides_hands_while_the_keyboard_changes_hands(tmp_path: Path) -> None:
    session = session_for("human:Ann,human:Bob", edition="cards", tmp=tmp_path)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        assert session.watcher == 0 and not isinstance(app.screen, PassKeyboard)  # Ann has the keyboard
        await type_line(pilot, "draw")
        assert isinstance(app.screen, PassKeyboard)
        panel = str(app.query_one("#players", Static).render())
        assert panel.count("hidden") == 2  # neither hand shows
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, PassKeyboard) and session.watcher == 1
        panel = str(app.query_one("#players", Static).render())
        assert panel.count("hidden") == 1 and "Bob" in status(app)

    drive(session, script)


def test_save_and_resume_keep_the_seats_and_the_turn_in_progress(tmp_path: Path) -> None:
    session = session_for("you,hard", tmp=tmp_path)
    game = session.game
    first = next(s for s in game.legal_steps() if s.kind.value == "seat" and game.step_points(s) == 0)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, str(first))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved to" in status(app)

    drive(session, script)
    path = tmp_path / "game.json"
    saved = json.loads(path.read_text())
    assert saved["seats"] == ["human", "hard"] and saved["this_turn"] == [str(first)]
    args = build_parser().parse_args(["play", "--resume", str(path)])
    resumed = build_session(args)
    assert resumed.game.this_turn() == [first]
    assert resumed.game.state.key() == game.state.key()
    assert [seat.spec for seat in resumed.seats] == ["human", "hard"]


def test_a_short_game_against_a_bot_ends_with_a_summary_and_a_saved_record(tmp_path: Path) -> None:
    # a game played nearly to its end, saved, then finished at the keyboard
    rng = random.Random(8)
    session = session_for("you,greedy", edition="cards", seed=8, tmp=tmp_path)
    game = session.game
    assert isinstance(game, CardGame)
    while game.deck_count() > 6 or game.this_turn():
        game.push(game.random_step(rng))
    session.save()
    resumed = Session.resume(tmp_path / "game.json")

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        for _ in range(200):
            if resumed.game.is_over():
                break
            step = resumed.game.legal_steps()[0]
            app.query_one(Input).value = str(step)
            await pilot.press("enter")
            await settle(app, pilot)
        assert resumed.game.is_over()
        log = "\n".join(str(line) for line in app.query_one("#log").lines)
        assert "wins!" in log or "shared first place" in log
        assert "Game over." in status(app)

    drive(resumed, script)
    record = Record.load(tmp_path / "game.json")
    assert record.replay().is_over()


def test_quitting_saves_an_unfinished_game(tmp_path: Path) -> None:
    session = session_for("you,greedy", tmp=tmp_path)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+q")
        await pilot.pause()

    drive(session, script)
    assert Record.load(tmp_path / "game.json").turns == session.game.turns()


def test_the_map_marks_and_colours_without_losing_the_codes() -> None:
    session = session_for("you,greedy")
    text = cafe_map(session.view(), {"h3"})
    plain = text.plain
    assert "[USA1]" in plain and " h3 " in plain
    assert any("reverse" in str(span.style) for span in text.spans)


@pytest.mark.parametrize(
    ("seats", "edition", "message"),
    [
        ("you", "board", "takes 2 to 4 players, not 1"),
        ("you,medium,medium,medium,medium", "board", "takes 2 to 4 players, not 5"),
        ("you,wizard", "board", "seat 2: unknown player 'wizard'"),
    ],
)
def test_bad_seats_are_refused_clearly(seats: str, edition: str, message: str) -> None:
    with pytest.raises(SeatError, match=message):
        parse_seats(seats, edition)


def test_seats_name_people_and_bots() -> None:
    seats = parse_seats("human:Ann, hard, you, mcts:0.2s", "board")
    assert seats == [
        Seat("Ann", "human"),
        Seat("Hard bot 2", "hard"),
        Seat("You", "human"),
        Seat("Mcts bot 4", "mcts:0.2s"),
    ]
    assert parse_seats("you, master", "cards") == [Seat("You", "human"), Seat("Master bot 2", "master")]


def test_a_bot_never_moves_for_a_person() -> None:
    session = session_for("greedy,you")
    with pytest.raises(CafeError, match="Greedy bot 1's turn"):
        session.play("stop")


def finished_record(seed: int) -> Record:
    game = BoardGame(["Ann", "Bob"], seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.push(game.random_step(rng))
    return Record.of(game)


def test_a_saved_game_is_reviewed_turn_by_turn_and_analysed() -> None:
    from cafe.play.review import ReviewApp

    record = finished_record(4)

    async def main() -> None:
        app = ReviewApp(record, budget=4, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.review

            def said() -> str:
                return str(screen.query_one("#review-status", Static).render())

            assert screen.turn == len(record.turns) and "Press a to analyse" in said()
            await pilot.press("home")
            assert "The start of the game" in said()
            await pilot.press("right", "right", "right")
            assert screen.turn == 3 and said().startswith(f"Turn 3/{len(record.turns)}: Ann {record.turns[2]}")
            await pilot.press("left")
            assert screen.turn == 2 and "Bob" in said()
            await pilot.press("a")
            for _ in range(600):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if screen.reviews:
                    break
            assert len(screen.reviews) == len(record.turns)
            shown = said()
            assert any(v in shown for v in ("best", "good", "inaccuracy", "mistake", "blunder"))
            listing = str(screen.query_one("#turns", Static).render())
            assert f"{screen.reviews[1].verdict} ({screen.reviews[1].loss:.1f})" in listing
            await pilot.press("q")

    asyncio.run(main())


def test_the_review_opens_from_a_finished_game_and_play_review_reads_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cafe.cli import main
    from cafe.play.review import ReviewScreen

    session = session_for("you,random", tmp=tmp_path)

    async def script(app: CafeApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+r")
        assert "once the game is over" in status(app)
        app.game_over()
        await pilot.press("ctrl+r")
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("q")
        assert not isinstance(app.screen, ReviewScreen)

    drive(session, script)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["play", "--review", str(bad)]) == 1
    assert capsys.readouterr().err.startswith("cafe play: ")


def test_play_takes_rule_options_by_name(tmp_path: Path) -> None:
    parser = build_parser()
    args = parser.parse_args(["play", "--rules", "brettspielwelt", "--option", "surprise_guests=true",
                              "--option", "bar_values=straight", "--save", str(tmp_path / "g.json")])  # fmt: skip
    rules = build_session(args).game.rules
    assert rules.surprise_guests and rules.joker_exchange == "either-nation" and rules.bar_values[5] == -2
    cards = parser.parse_args(["play", "--edition", "cards", "--option", "tribe_and_circle=true"])
    assert build_session(cards).game.rules.tribe_and_circle
    for wrong, says in (("regulars=maybe", "true or false"), ("tribe_and_circle=true", "other edition"),
                        ("surprise_guests", "KEY=VALUE")):  # fmt: skip
        with pytest.raises(CafeError, match=says):
            build_session(parser.parse_args(["play", "--option", wrong]))


def test_the_terminal_game_in_german(tmp_path: Path) -> None:
    """As `cafe play --lang de` (or LANG=de_DE.UTF-8) plays it: the seat, the panels, refusals and keys in German."""
    from cafe import i18n

    i18n.use("de")
    try:
        args = build_parser().parse_args(["play", "--seats", "you,greedy", "--save", str(tmp_path / "g.json")])
        session = build_session(args)
        assert session.seats[0].name == "Du"

        async def script(app: CafeApp, pilot: Pilot[None]) -> None:
            assert session.game.current_player == 0  # the first seat begins
            assert status(app) == "Du, du bist am Zug."
            players = str(app.query_one("#players", Static).render())
            assert "Pkt" in players and "Beutel: " in players and "Hand" in players
            footer = {b.description for bindings in app._bindings.key_to_bindings.values() for b in bindings}
            assert {"Schritt zurücknehmen", "Tipp", "Speichern und beenden"} <= footer
            before = session.game.state.key()
            await type_line(pilot, "USAm@a1")
            assert status(app) == "R1.1: auf dem Spielplan classic gibt es keinen Stuhl 'a1'"
            app.query_one(Input).value = ""
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert status(app) == "in diesem Zug gibt es nichts zurückzunehmen"
            assert session.game.state.key() == before

        drive(session, script)
    finally:
        i18n.use("en")
