"""Per-player views keep secrets (RULES.md §5); text and SVG rendering are pure functions of a view."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

from cafe import BoardGame, CardGame
from cafe.flags import FLAGS
from cafe.svg import board_svg, view_svg
from cafe.text import board_text, view_text
from cafe.tiles import Nation

from conftest import DUO_BOARD, play_random


def mid_game(seed: int = 4, **kwargs: object) -> BoardGame:
    game = BoardGame(["Ann", "Bob", "Cy"], seed=seed, **kwargs)  # type: ignore[arg-type]
    rng = random.Random(seed)
    for _ in range(40):
        game.push(rng.choice(game.legal_steps()))
    return game


def test_the_bag_order_never_reaches_a_view() -> None:
    game = mid_game()
    upcoming = [t.name for t in game.bag[game.state.bag_pos :]]
    for seat in (None, 0, 1, 2):
        data = game.view(seat).to_json()
        text = json.dumps(data)
        assert "bag" not in {k for k in data if k != "bag_count"}
        assert data["bag_count"] == len(upcoming)
        # the next tiles, in order, appear nowhere as a sequence
        assert json.dumps(upcoming[:6])[1:-1] not in text


def test_surprise_guests_views_show_only_the_own_hand() -> None:
    game = mid_game(rules={"surprise_guests": True})
    for seat in range(3):
        data = game.view(seat).to_json()
        for other, hand in enumerate(data["hands"]):
            assert (hand is not None) == (other == seat)
        assert data["hand_counts"] == [len(game.hand(p)) for p in range(3)]
    assert all(h is None for h in game.view(None).to_json()["hands"])


def test_hands_are_shown_to_all_once_the_game_is_over() -> None:
    game = play_random(BoardGame(3, seed=9, rules={"surprise_guests": True}), random.Random(9))
    assert all(h is not None for h in game.view(0).hands)


def test_view_contents() -> None:
    game = mid_game()
    view = game.view(1)
    assert view.players == ("Ann", "Bob", "Cy")
    assert len(view.guests) == 68 - game.state.open_chairs - len(view.closed_chairs)
    assert list(view.scores) == list(game.scores)
    assert view.turns == tuple(game.turns())
    assert view.next_bar_value == (game.rules.bar_values[len(view.bar)] if len(view.bar) < 20 else None)


def test_text_rendering() -> None:
    game = mid_game()
    text = board_text(game.view())
    lines = text.splitlines()
    assert lines[0].startswith("13") and "[AFR1]" in lines[1]
    for guest in game.view().guests:
        assert guest.tile.name in text or f"{guest.nation.name}{guest.tile.name[-1]}*" in text
    assert "Ann" in text and "Bag:" in text and "BAR" in text
    assert view_text(game.view()) == text
    assert repr(game).startswith("<BoardGame turn ") and "Ann" in repr(game)  # a game does not draw itself


def test_text_rendering_of_a_board_without_a_bar_lists_the_bar() -> None:
    game = BoardGame(2, seed=1, board=DUO_BOARD)
    game.push(next(s for s in game.legal_steps() if s.kind == "bar"))
    text = view_text(game.view())
    assert "Bar: " in text and "[USA1]" in text and "(1/20 stools)" in text


def test_svg_rendering_is_a_pure_function_of_the_view() -> None:
    game = mid_game()
    view = game.view()
    svg = board_svg(view, highlight=["h3"])
    assert svg == board_svg(view, highlight=["h3"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    tables = [e.get("data-table") for e in root.iter(f"{ns}circle") if e.get("data-table")]
    assert sorted(tables) == sorted(game.board.table_ids)
    chairs = [e for e in root.iter(f"{ns}rect") if e.get("data-chair")]
    assert len(chairs) == 68
    assert [e.get("stroke") for e in chairs if e.get("data-chair") == "h3"] == ["#e8590c"]
    guests = [e.get("data-guest") for e in root.iter(f"{ns}circle") if e.get("data-guest")]
    assert len(guests) == len(view.guests)
    stools = [e for e in root.iter(f"{ns}circle") if e.get("data-stool")]
    assert len(stools) == 20
    labels = {e.text for e in root.iter(f"{ns}text")}
    assert {"a", "m", "1", "13", "BAR", "+5", "\u221214"} <= labels  # a true minus, as print has it
    assert view_svg(view) == board_svg(view) and view_svg(view)._repr_svg_() == board_svg(view)


def test_the_cafe_is_drawn_as_a_cafe_with_each_nations_sign_and_targets_a_finger_can_hit() -> None:
    ns = "{http://www.w3.org/2000/svg}"
    card_game = CardGame(2, seed=3)
    for svg in (board_svg(mid_game().view()), view_svg(card_game.view())):
        root = ET.fromstring(svg)
        tables = [e for e in root.iter() if e.get("data-table")]
        flags = [g for g in root.iter(f"{ns}g") if "flag" in (g.get("class") or "").split()]
        assert len(flags) == len(tables)  # a sign beside every table's code
        for table, sign in zip(tables, flags, strict=True):
            x, y = (float(v) for v in re.findall(r"[\d.]+", sign.get("transform") or "")[:2])
            cx = float(table.get("cx") or float(table.get("x") or 0) + 19)
            cy = float(table.get("cy") or float(table.get("y") or 0) + 21)
            assert abs(x + 9 - cx) < 1 and abs(y - cy) < 20  # drawn on its table
        targets = [e for e in root.iter() if e.get("data-chair") or e.get("data-place") or e.get("data-stool")]
        assert targets and all(float(e.get("width") or 2 * float(e.get("r") or 0)) >= 40 for e in targets)
        assert all(int(e.get("font-size") or 0) >= 10 for e in root.iter(f"{ns}text"))  # 11 px at a phone's zoom
        assert not list(root.iter(f"{ns}image")) and "href" not in svg  # drawn, nothing downloaded
    assert set(FLAGS) == {n.name for n in Nation}
    backs = [e for e in ET.fromstring(board_svg(mid_game().view())).iter(f"{ns}rect") if e.get("class") == "deco"]
    assert len(backs) >= 68  # every chair has its back


def test_svg_of_a_custom_board() -> None:
    game = BoardGame(2, seed=1, board=DUO_BOARD)
    root = ET.fromstring(board_svg(game.view()))
    assert root.get("viewBox") is not None
