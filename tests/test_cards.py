"""The card game (RULES.md §4), every rule both ways on hand-built positions; views, records, replay."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cafe import IllegalStepError, Step, Tile
from cafe.card_game import CardGame
from cafe.cli import main
from cafe.record import Record
from cafe.svg import view_svg
from cafe.text import view_text
from cafe.tiles import Nation, full_set

# slots in order c3 (centre), b4, d4, b2, d2; b4's places are b5 a4 (outer), c4 b3 (inner)
TABLES = ["FRA", "ITA", "GER", "USA", "CHN"]


def position(hand: list[str], clients: dict[str, str] | None = None, **kwargs: Any) -> CardGame:
    others = kwargs.pop("others", [["RUSm"]])
    return CardGame.from_position(1 + len(others), [hand, *others], tables=kwargs.pop("tables", TABLES),
                                  clients=clients or {}, **kwargs)  # fmt: skip


def rule_of(game: CardGame, step: str) -> str:
    with pytest.raises(IllegalStepError) as info:
        game.check(Step.parse(step))
    return info.value.rule


def legal(game: CardGame) -> set[str]:
    return {str(s) for s in game.legal_steps()}


def test_r4_1_setup() -> None:
    game = CardGame(["A", "B", "C"], seed=3)
    for seat in range(3):
        assert sorted(game.hand(seat)) == sorted(game.deck[7 * seat : 7 * seat + 7])
    assert game.deck_count() == 96 - 21 and game.table_pile_count() == 19
    assert [game.table_at(slot) for slot in ("c3", "b4", "d4", "b2", "d2")] == list(game.table_cards[:5])
    assert sorted(game.deck) == sorted(full_set(jokers=False)) and Tile.JOKf not in game.deck
    with pytest.raises(ValueError, match="2 to 5 players"):
        CardGame(6)


def test_r4_2_nation_of_a_table_the_place_touches() -> None:
    game = position(["ITAm", "GERf", "RUSf"], {"b5": "ITAf"})
    assert rule_of(game, "RUSf@a4") == "R4.2"  # a4 touches only the Italian table
    assert game.push("ITAm@a4").points == 4  # Italian pair at the Italian table
    game = position(["GERf"], {"c4": "ITAm"})
    result = game.push("GERf@d3")  # d3 touches c3 (France: a foreigner there), d4 (Germany) and d2
    assert dict(result.table_points) == {"c3": 2, "d4": 3, "d2": 0}


def test_r4_2_gender_at_every_table_the_card_touches() -> None:
    game = position(["FRAm", "FRAf"], {"c4": "ITAm"})
    # b3 touches c3 (with the Italian gentleman) and b4 (with him too): a second gentleman breaks both
    with pytest.raises(IllegalStepError, match="two gentlemen and no lady at c3"):
        game.check(Step.parse("FRAm@b3"))
    assert "FRAf@b3" in legal(game)


def test_r4_3_a_zero_card_needs_a_scoring_card_joining_it() -> None:
    game = position(["ITAm", "ITAf", "GERm"])
    assert "ITAm@b5" in legal(game)  # alone, but the Italian lady can join
    lonely = position(["ITAm", "RUSm"])
    assert rule_of(lonely, "ITAm@b5") == "R4.3"
    game.push("ITAm@b5")
    assert rule_of(game, "stop") == "R4.3"
    assert rule_of(game, "GERm@d5") == "R4.3"  # must touch the Italian table
    assert game.push("ITAf@a4").points == 4
    assert "stop" in legal(game)


def test_r4_3_at_most_three_cards_and_stop_after_any_scoring_card() -> None:
    game = position(["FRAf", "FRAm", "ITAf", "ITAm"], {"c4": "GERf", "b3": "GERm"})
    game.push("FRAm@d3")  # c3 and d4 now hold clients
    assert "stop" in legal(game)
    game.push("ITAf@a4")
    result = game.push("ITAm@b5")  # third card: the turn ends
    assert result.turn_over and game.current_player == 1


def test_r4_3_draw_only_below_twelve_and_down_only_at_twelve() -> None:
    game = position(["RUSm"] * 4 + ["TURm"] * 4 + ["AFRm"] * 3, others=[["CUBf"]])
    assert "draw" in legal(game) and not any(s.startswith("down") for s in legal(game))
    result = game.push("draw")
    assert result.turn_over and result.drawn == 1 and len(game.hand(0)) == 12
    twelve = position(["RUSm"] * 4 + ["TURm"] * 4 + ["AFRm"] * 4, others=[["CUBf"]])
    assert rule_of(twelve, "draw") == "R4.3"
    assert {"down:RUSm", "down:TURm", "down:AFRm"} <= legal(twelve)
    twelve.push("down:TURm")
    assert len(twelve.hand(0)) == 11 and twelve.state.down[0] == (Tile.TURm,)
    assert rule_of(position(["RUSm"]), "down:RUSm") == "R4.3"


def test_r4_3_no_draw_after_a_card() -> None:
    game = position(["ITAm", "ITAf"])
    game.push("ITAm@b5")
    assert rule_of(game, "draw") == "R4.3"


@pytest.mark.parametrize(
    "clients,value",
    [
        ({"b5": "FRAf"}, 0),
        ({"b5": "FRAf", "a4": "FRAm"}, 4),
        ({"b5": "FRAf", "a4": "ITAm"}, 3),
        ({"b5": "FRAf", "a4": "FRAm", "c4": "ITAm"}, 5),
        ({"b5": "FRAf", "a4": "FRAm", "c4": "ITAm", "b3": "GERf"}, 6),
        ({"b5": "FRAf", "a4": "FRAm", "c4": "FRAm", "b3": "FRAf"}, 8),
        ({"b5": "ITAf"}, 0),
    ],
)
def test_r4_4_table_values(clients: dict[str, str], value: int) -> None:
    game = position(["RUSm"], clients, tables=["ITA", "FRA", "GER", "USA", "CHN"])
    assert game.table_value("b4") == value


def test_r4_5_a_full_table_leaves_with_every_client_around_it() -> None:
    tables = ["FRA", "ITA", "GER", "USA", "CHN"]
    clients = {"b5": "ITAf", "a4": "ITAm", "c4": "ITAf", "d3": "GERm"}
    game = position(["FRAm", "RUSf"], clients, tables=tables, table_pile=["ESP", "TUR"])
    result = game.push("FRAm@b3")  # fills b4 (Italy)
    assert result.completed == ("b4",) and not result.turn_over
    assert result.points == dict(result.table_points)["b4"] + dict(result.table_points)["c3"]
    assert game.table_at("b4") == Nation.ESP and game.table_pile_count() == 1
    assert game.occupant("c4") is None and game.occupant("b3") is None and game.occupant("b5") is None
    assert game.occupant("d3") == Tile.GERm  # the centre table keeps its other client
    assert game.table_value("c3") == 0
    assert game.state.removed == 4
    assert "stop" in legal(game)  # the player may go on


def test_r4_5_a_removal_can_leave_a_table_irregular_until_a_card_touches_it() -> None:
    clients = {"b5": "ITAf", "a4": "ITAm", "c4": "ITAf", "d3": "GERm", "d5": "GERm"}
    game = position(["FRAm", "GERm", "GERf"], clients, table_pile=["ESP", "TUR"])
    game.push("FRAm@b3")  # b4 leaves; d4 keeps two gentlemen (d3, d5): irregular but legal
    assert game.table_value("d4") == 4
    assert rule_of(game, "GERm@e4") == "R4.2"
    assert "GERf@e4" in legal(game)


def test_r4_6_the_game_ends_when_the_pile_cannot_replace_a_full_table() -> None:
    clients = {"b5": "ITAf", "a4": "ITAm", "c4": "ITAf"}
    game = position(["ITAm", "RUSf"], clients, table_pile=[])
    result = game.push("ITAm@b3")
    assert result.game_over and game.end_reason == "the table pile cannot replace the full tables"
    assert result.points > 0 and game.scores[0] == result.points - 2  # the card's points stand; RUSf costs 2


def test_r4_6_drawing_the_last_card_ends_the_game() -> None:
    game = position(["RUSm"], deck=["TURm"], others=[["CUBf", "CUBm"]], face_down=[[], ["AFRm"]])
    result = game.push("draw")
    assert result.game_over and game.end_reason == "the last client card was drawn"
    assert game.penalties() == (4, 6)  # 2 a card in hand or face down
    assert game.scores == (-4, -6) and game.places() == (1, 2)


def test_r4_6_close_after_emptying_the_hand_or_draw_later() -> None:
    game = position(["ITAm"], {"b5": "ITAf"}, others=[["CUBf"]])
    game.push("ITAm@a4")
    assert legal(game) == {"stop", "close"}
    closing = game.copy()
    assert closing.push("close").game_over and closing.end_reason == "a player with an empty hand closed the game"
    game.push("stop")
    game.push("draw")  # the other player
    assert legal(game) == {"draw"}  # an empty hand at the start of a turn must draw
    assert rule_of(position(["ITAm", "ITAf"], {"b5": "ITAf"}), "close") == "R4.3"


def test_r4_6_ties_go_to_fewer_penalty_points_then_are_shared() -> None:
    game = position(["RUSm"], deck=["TURm"], scores=[10, 8], others=[["CUBf"]])
    game.push("draw")  # ends: 10 - 4 = 6 against 8 - 2 = 6, fewer penalty points wins
    assert game.scores == (6, 6) and game.places() == (2, 1) and game.winner() == 1
    tied = position(["RUSm"], deck=["TURm"], scores=[8, 8], others=[["CUBf", "CUBm"]])
    tied.push("draw")
    assert tied.places() == (1, 1) and tied.winner() is None


def test_r5_card_views_hide_hands_and_face_down_cards() -> None:
    game = CardGame(3, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        game.push(rng.choice(game.legal_steps()))
    for seat in range(3):
        view = game.view(seat).to_json()
        assert [h is not None for h in view["hands"]] == [p == seat for p in range(3)]
        assert [d is not None for d in view["face_down"]] == [p == seat for p in range(3)]
        assert "deck" not in view and "table_cards" not in view
        text = json.dumps(view)
        upcoming = [t.name for t in game.deck[game.state.deck_pos :]]
        assert json.dumps(upcoming[:5])[1:-1] not in text
    spectator = game.view(None)
    assert all(h is None for h in spectator.hands)


def test_r5_others_see_down_without_the_card() -> None:
    hand = ["RUSm"] * 4 + ["TURm"] * 4 + ["AFRm"] * 4
    game = position(hand, others=[["CUBf"]])
    game.push("down:TURm")
    assert game.view(0).turns == ("down:TURm",)
    assert game.view(1).turns == ("down",)


def test_card_steps_round_trip_and_games_replay_from_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(8):
        game = CardGame(2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            for step in game.legal_steps():
                assert Step.parse(str(step)) == step
            game.push(rng.choice(game.legal_steps()))
        record = Record.of(game)
        assert record.to_json()["edition"] == "cards" and len(record.deck) == 96 and len(record.table_cards) == 24
        replayed = Record.loads(record.dumps()).replay()
        assert replayed.state.key() == game.state.key()
        path = tmp_path / f"cards{seed}.json"
        path.write_text(record.dumps())
        assert main(["replay", str(path), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["scores"] == list(game.scores) and data["over"] is True
        assert data["hand_counts"] == [len(game.hand(p)) for p in range(len(game.players))]
        assert data["winner"] == game.winner() and data["eliminated"] == [False] * len(game.players)


def test_card_replay_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = CardGame(2, seed=1)
    record = Record.of(game).to_json()
    record["turns"] = ["draw", "draw", "XYZm@c4"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--json"]) == 1
    assert capsys.readouterr().err.startswith("turn 3: R7.1")
    record["turns"] = ["GERf@c9"]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.startswith("turn 1: R4.2: there is no place 'c9'")
    record["deck"] = record["deck"][:-1]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    assert "96 client cards" in capsys.readouterr().err


def test_card_rendering() -> None:
    game = position(["FRAf"], {"c4": "ITAm", "b5": "ITAf"})
    text = view_text(game.view())
    assert "[FRA]" in text and "ITAm" in text and "Deck:" in text
    svg = view_svg(game.view())
    assert svg.count('data-table="') == 5 and svg.count('data-place="') == 12 and svg.count('data-guest="') == 2


TRIBES = {"tribe_and_circle": True}


def test_r4_7_a_little_circle_of_four_ladies() -> None:
    hand = ["ITAf", "ITAf", "FRAf", "USAf", "RUSm"]
    plain = position(hand)
    assert rule_of(plain, "ITAf@b5") == "R4.3"  # alone, and no gentleman to join her
    game = position(hand, rules=TRIBES, table_pile=["ESP"])
    assert game.push("ITAf@b5").points == 0
    assert game.push("ITAf@a4").points == 0  # two ladies at Italy: the circle begins; its values wait
    assert rule_of(game, "stop") == "R4.7"
    assert game.push("FRAf@c4").points == 0
    last = game.push("USAf@b3")  # four ladies at the Italian table, two of them Italian
    assert ("b4", 20) in last.table_points and last.points == 20 + 3  # and 3 at France (FRAf, USAf)
    assert last.turn_over and last.completed == ("b4",)
    assert game.table_at("b4") == Nation.ESP and game.occupant("c4") is None and game.occupant("b3") is None
    assert game.scores[0] == 23


def test_r4_7_a_tribe_of_one_nation_scores_40() -> None:
    game = position(["ITAm"] * 4 + ["RUSf"], rules=TRIBES)
    for step in ("ITAm@b5", "ITAm@a4", "ITAm@c4"):
        assert not game.push(step).turn_over
    last = game.push("ITAm@b3")
    assert ("b4", 40) in last.table_points and last.turn_over


def test_r4_7_a_tribe_must_be_completed_and_only_with_the_variant() -> None:
    short = position(["ITAf", "ITAf", "FRAf", "RUSm"], rules=TRIBES)
    assert rule_of(short, "ITAf@b5") == "R4.3"  # three ladies cannot fill the Italian table
    assert rule_of(position(["ITAf", "ITAf"], {"b5": "ITAf"}), "ITAf@a4") == "R4.2"
    game = position(["ITAf", "ITAf", "FRAf", "USAf"], rules=TRIBES)
    game.push("ITAf@b5")
    game.push("ITAf@a4")
    assert rule_of(game, "FRAf@d3") == "R4.7"  # every card of the circle touches its table


def test_r4_7_the_last_card_of_a_circle_may_fill_another_table_too() -> None:
    # France (c3) holds two clients already; the circle's third card, on c4, brings it to three
    game = position(["ITAf", "ITAf", "ITAf", "FRAf", "RUSm"], {"d3": "FRAm", "c2": "FRAf"}, rules=TRIBES,
                    table_pile=["ESP", "TUR"])  # fmt: skip
    for step in ("ITAf@b5", "ITAf@a4", "ITAf@c4"):
        assert not game.push(step).turn_over
    assert "FRAf@b3" in legal(game)
    last = game.push("FRAf@b3")  # four ladies at Italy, and the fourth client at France
    points = dict(last.table_points)
    assert points["b4"] == 20  # the circle, once
    assert points["c3"] == 4 + 3  # France full as usual: four clients, three of them French
    assert points["b2"] == 2  # the USA table: c2 and b3, nobody American
    assert last.points == 20 + 7 + 2 and last.turn_over
    assert last.completed == ("c3", "b4")  # both leave together, replaced in slot order
    assert game.table_at("c3") == Nation.ESP and game.table_at("b4") == Nation.TUR
    assert all(game.occupant(p) is None for p in ("b5", "a4", "c4", "b3", "d3", "c2"))


def test_r4_7_one_card_completing_two_circles_scores_both() -> None:
    # b3 touches c3 and b4; every card of the turn touches both, and both end with four ladies
    game = position(["ITAf", "FRAf", "FRAf", "RUSm"], {"b5": "ITAf", "a4": "ITAf", "d3": "FRAf", "c2": "FRAf"},
                    rules=TRIBES, table_pile=["ESP", "TUR"])  # fmt: skip
    game.push("ITAf@c4")
    last = game.push("FRAf@b3")
    points = dict(last.table_points)
    assert points["b4"] == 20 and points["c3"] == 20 and last.completed == ("c3", "b4")


def test_refusals_name_the_rule() -> None:
    game = position(["ITAm", "ITAf", "GERm"], {"b5": "ITAf"})
    assert rule_of(game, "ITAm@b5") == "R4.2"  # taken
    assert rule_of(game, "FRAf@a4") == "R4.3"  # not in hand
    assert rule_of(game, "JOKf@a4=ITA") == "R4.1"  # no jokers in the card game
    assert rule_of(game, "USAm@bar") == "R4.3"  # a step of the board game
    game.push("ITAm@a4")
    assert rule_of(game, "close") == "R4.6"  # the hand is not empty
    twelve = position(["RUSm"] * 4 + ["TURm"] * 4 + ["AFRm"] * 4, others=[["CUBf"]])
    assert rule_of(twelve, "down:CUBf") == "R4.3"


def test_a_finished_card_game_takes_no_step() -> None:
    game = position(["RUSm"], deck=["TURm"])
    game.push("draw")
    assert rule_of(game, "draw") == "R4.6" and game.legal_steps() == []
    with pytest.raises(IllegalStepError, match="over"):
        game.random_step(random.Random(1))


def test_random_step_uses_the_cached_legal_steps() -> None:
    game = CardGame(3, seed=4)
    legal_now = game.legal_steps()
    assert all(game.random_step(random.Random(i)) in legal_now for i in range(20))


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"hands": [["RUSm"]]}, "one hand per player"),
        ({"hands": [["RUSm"], []], "tables": ["FRA"]}, "5 table cards"),
        ({"hands": [["RUSm"] * 5, []]}, "more RUSm"),
        ({"hands": [["RUSm"], []], "table_pile": ["FRA", "FRA"]}, "more FRA"),
    ],
)
def test_impossible_card_positions_are_refused(kwargs: dict[str, Any], message: str) -> None:
    kwargs.setdefault("tables", TABLES)
    with pytest.raises(ValueError, match=message):
        CardGame.from_position(2, **kwargs)


def test_card_records_refuse_unknown_cards_and_tables() -> None:
    data = Record.of(CardGame(2, seed=1)).to_json()
    with pytest.raises(ValueError, match=r"deck\[0\]: not a client card"):
        Record.from_json({**data, "deck": [99, *data["deck"][1:]]}).replay()
    with pytest.raises(ValueError, match=r"table_cards\[1\]: not a nation code"):
        Record.from_json({**data, "table_cards": ["FRA", "XXX", *data["table_cards"][2:]]}).replay()
    with pytest.raises(ValueError, match="two of each"):
        Record.from_json({**data, "table_cards": ["FRA"] * 24}).replay()
    with pytest.raises(ValueError, match="'deck' must be"):
        Record.from_json({k: v for k, v in data.items() if k != "deck"})
