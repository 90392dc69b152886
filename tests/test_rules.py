"""Every rule of RULES.md §2, both ways, on small hand-built positions.

Test names carry the rule id (r2_3_2 = §2.3 rule 2); docs/rules.md links here.
"""

from __future__ import annotations

import pytest

from cafe import BoardGame, IllegalStepError, Step, Tile
from cafe.steps import parse_step

from conftest import DUO_BOARD, legal

FILLER = ["CHNm", "CHNm", "CUBm", "CUBm"]


def game_at(hand: list[str], seated: dict[str, str] | None = None, **kwargs: object) -> BoardGame:
    """Seat 1 to move with ``hand``; the other seats hold filler tiles."""
    players = kwargs.pop("players", 2)
    assert isinstance(players, int)
    others = kwargs.pop("others", [["AFRm"]] * (players - 1))
    return BoardGame.from_position(players, [hand, *others], seated=seated or {}, **kwargs)  # type: ignore[arg-type]


def rule_of(game: BoardGame, step: str) -> str:
    with pytest.raises(IllegalStepError) as info:
        game.check(Step.parse(step))
    return info.value.rule


# ---------------------------------------------------------------- §2.1 setup


def test_r2_1_setup_deals_five_face_up_tiles_in_blocks() -> None:
    game = BoardGame(["A", "B", "C"], seed=4)
    for seat in range(3):
        assert sorted(game.hand(seat)) == sorted(game.bag[5 * seat : 5 * seat + 5])
    assert game.bag_count() == 85
    assert game.current_player == 0
    assert list(game.state.hand_size) == [5, 5, 5]
    assert all(h is not None for h in game.view(1).hands)


# ---------------------------------------------------------------- §2.3 seating


def test_r2_3_1_nation_of_one_of_the_chairs_tables() -> None:
    game = game_at(["USAm", "FRAf", *FILLER[:3]], {"h1": "USAf", "j1": "USAm"})
    assert rule_of(game, "USAm@k4") == "R2.3.1"  # k4 belongs to FRA2 and IND1
    assert game.is_legal(Step.parse("USAm@h3"))
    assert game.is_legal(Step.parse("FRAf@j3"))  # j3 is shared by FRA2 and USA2


def test_r2_3_1_chair_must_be_free() -> None:
    game = game_at(["USAm", *FILLER], {"h1": "USAf", "h3": "USAm"})
    assert rule_of(game, "USAm@h3") == "R2.3.1"


def test_r2_3_1_joker_takes_a_nation_of_its_chair() -> None:
    game = game_at(["JOKf", *FILLER], {"h1": "USAm"})
    assert rule_of(game, "JOKf@h3=GER") == "R2.3.1"
    assert game.push("JOKf@h3=USA").points == 4  # single-nation pair
    game = game_at(["JOKf", *FILLER], {"h1": "USAm"})
    assert game.push("JOKf@g2=GER").points == 2  # counts as German at USA1: mixed pair
    assert game.occupant("g2") == (Tile.JOKf, Tile.GERf.nation)


def test_r2_3_2_gender_balance() -> None:
    game = game_at(["USAm", "JOKm", "USAf", *FILLER[:2]], {"h1": "USAm"})
    assert rule_of(game, "USAm@h3") == "R2.3.2"
    assert rule_of(game, "JOKm@h3=USA") == "R2.3.2"  # a joker counts with its printed gender
    assert game.is_legal(Step.parse("USAf@h3"))
    game = game_at(["USAm", *FILLER], {"h1": "USAm", "h3": "USAf", "i2": "USAm"})
    with pytest.raises(IllegalStepError, match="three gentlemen at USA1"):
        game.check(Step.parse("USAm@g2"))


def test_r2_3_2_gender_holds_at_both_tables_of_a_shared_chair() -> None:
    game = game_at(["INDm", *FILLER], {"j1": "USAm", "l1": "INDf"})
    with pytest.raises(IllegalStepError, match="two gentlemen and no lady at USA2"):
        game.check(Step.parse("INDm@k2"))
    assert game.is_legal(Step.parse("INDm@m2"))


def test_r2_3_2_allowed_mixes_score() -> None:
    game = game_at(["USAf", *FILLER], {"h1": "USAm", "h3": "USAf"})
    assert game.push("USAf@g2").points == 6  # (2,1), all American


def test_r2_3_3_first_guest_must_not_be_left_alone() -> None:
    game = game_at(["USAm", "USAf", "GERf", *FILLER[:2]], {"f1": "GERm"})
    game.push("USAm@h3")
    assert game.state.first_zero
    assert rule_of(game, "GERf@f3") == "R2.3.3"  # scores at GER2 but leaves the American alone
    assert rule_of(game, "stop") == "R2.3.3"
    assert legal(game) >= {"USAf@h1", "USAf@g2", "USAf@i2"}
    assert "GERf@f3" not in legal(game)
    assert game.push("USAf@h1").points == 4


def test_r2_3_4_every_placement_must_score() -> None:
    game = game_at(["USAm", "GERm", "FRAm", "INDm", "CUBm"])
    assert rule_of(game, "USAm@h3") == "R2.3.4"  # no partner in hand
    assert not any(s.kind == "seat" for s in game.legal_steps())
    game = game_at(["USAm", "GERf", *FILLER[:3]], {"h1": "USAf", "f1": "GERm"})
    game.push("USAm@h3")
    assert rule_of(game, "GERf@d1") == "R2.3.4"  # a second guest at an unrelated empty table scores 0
    assert game.push("GERf@f3").points == 4


def test_r2_3_4_zero_first_guest_needs_a_completing_second() -> None:
    game = game_at(["USAm", "USAf", *FILLER[:3]])
    assert "USAm@h3" in legal(game)
    assert "CHNm@h13" not in legal(game)  # no Chinese lady or joker to join him


def test_r2_3_5_opening_exception_on_the_first_turn_only() -> None:
    gentlemen = ["USAm", "GERm", "FRAm", "INDm", "CUBm"]
    first = game_at(gentlemen, turn_number=0)
    result = first.push("USAm@h3")
    assert result.points == 0 and result.turn_over and result.drawn == 1
    assert first.turns() == ["USAm@h3"]
    later = game_at(gentlemen, turn_number=1)
    assert rule_of(later, "USAm@h3") == "R2.3.4"


def test_r2_3_5_opening_exception_ends_the_turn_in_a_search_s_copy_too() -> None:
    # simulate checks nothing and lists no legal steps: the exception must still be known before the guest sits
    gentlemen = ["USAm", "GERm", "FRAm", "INDm", "CUBm"]
    copy = game_at(gentlemen, turn_number=0).copy()
    result = copy.simulate(parse_step("USAm@h3"))
    assert result.turn_over and copy.current_player == 1 and copy.legal_steps()


def test_r2_3_5_opening_exception_with_a_joker_choosing_the_nation() -> None:
    game = game_at(["JOKm", "USAm", "GERm", "FRAm", "INDm"], turn_number=0)
    assert {"JOKm@g2=GER", "JOKm@g2=USA", "USAm@h3"} <= legal(game)
    assert game.push("JOKm@g2=GER").turn_over


def test_r2_3_5_no_exception_when_a_scoring_turn_exists() -> None:
    game = game_at(["GERm", "USAm", "USAf", *FILLER[:2]], turn_number=0)
    assert rule_of(game, "GERm@d1") == "R2.3.4"
    assert "USAm@h3" in legal(game)


def test_r2_3_5_exception_lapses_after_a_bar_move() -> None:
    gentlemen = ["USAm", "GERm", "FRAm", "INDm", "CUBm"]
    game = game_at(gentlemen, others=[["USAm", "GERm", "FRAm", "INDm", "CUBm"]], turn_number=0)
    game.push("CUBm@bar")
    assert game.current_player == 1
    assert rule_of(game, "USAm@h3") == "R2.3.4"


def test_r2_3_6_a_seated_guest_never_moves() -> None:
    game = game_at(["USAf", *FILLER], {"h1": "USAm"})
    game.push("USAf@h3")
    assert game.occupant("h1") == (Tile.USAm, Tile.USAm.nation)
    assert game.occupant("h3") == (Tile.USAf, Tile.USAf.nation)


# ---------------------------------------------------------------- §2.4 values


@pytest.mark.parametrize(
    "seated,bonus,basic",
    [
        ({"h1": "USAm"}, 0, 0),
        ({"h1": "USAm", "h3": "USAf"}, 4, 2),
        ({"h1": "USAm", "g2": "GERf"}, 2, 2),
        ({"h1": "USAm", "h3": "USAf", "i2": "USAm"}, 6, 3),
        ({"h1": "USAm", "h3": "USAf", "g2": "GERf"}, 3, 3),
        ({"h1": "USAm", "h3": "USAf", "i2": "USAm", "g2": "USAf"}, 8, 8),
        ({"h1": "USAm", "h3": "USAf", "i2": "USAm", "g2": "GERf"}, 4, 4),
        ({"h1": "USAm", "h3": "JOKf=USA"}, 4, 2),
        ({"h1": "USAm", "g2": "JOKf=GER"}, 2, 2),
    ],
)
def test_r2_4_table_values(seated: dict[str, str], bonus: int, basic: int) -> None:
    for scoring, expected in (("bonus", bonus), ("basic", basic)):
        game = game_at([*FILLER, "AFRm"], seated, rules={"scoring": scoring})
        assert game.table_value("USA1") == expected, scoring


def test_r2_4_a_placement_scores_every_table_of_its_chair() -> None:
    game = game_at(["USAm", *FILLER], {"h1": "USAm", "h3": "USAf", "k2": "INDf"})
    result = game.push("USAm@i2")
    assert dict(result.table_points) == {"USA1": 6, "USA2": 2}
    assert result.points == 8


# ---------------------------------------------------------------- §2.5 the bar


def test_r2_5_bar_stools_in_order_with_their_values() -> None:
    game = game_at(["USAm", "USAm", "GERf", "GERf", "FRAm"], others=[["CHNm", "CHNm", "CUBm", "CUBm", "AFRm"]])
    points = [game.push(step).points for step in ("USAm@bar", "CHNm@bar", "GERf@bar", "CUBm@bar")]
    assert points == [1, 2, 3, 4]
    assert [t.name for t in game.view().bar] == ["USAm", "CHNm", "GERf", "CUBm"]


def test_r2_5_bar_allowed_even_when_a_table_move_exists() -> None:
    game = game_at(["USAf", *FILLER], {"h1": "USAm"})
    assert {"USAf@h3", "USAf@bar"} <= legal(game)


def test_r2_5_jokers_never_go_to_the_bar_by_default() -> None:
    game = game_at(["JOKf", *FILLER])
    assert rule_of(game, "JOKf@bar") == "R2.5"


def duo_almost_full(hand: list[str], **kwargs: object) -> BoardGame:
    seated = {"a2": "USAf", "b1": "USAf", "b3": "USAm", "d1": "GERf", "d3": "GERf", "e2": "GERm"}
    return game_at(hand, seated, board=DUO_BOARD, **kwargs)


def test_r2_5_joker_to_bar_when_unplaceable_option() -> None:
    rules = {"joker_to_bar": "when-unplaceable"}
    game = duo_almost_full(["JOKf", "JOKm", "CHNm", "CHNm", "CUBm"], rules=rules)
    assert "JOKf@bar" in legal(game)  # c2 would take a third lady at both tables
    assert rule_of(game, "JOKm@bar") == "R2.5"  # the gentleman joker can sit on c2
    assert "JOKm@c2=USA" in legal(game)
    never = duo_almost_full(["JOKf", "JOKm", "CHNm", "CHNm", "CUBm"])
    assert rule_of(never, "JOKf@bar") == "R2.5"


def test_r2_5_joker_placeable_only_as_a_second_guest_may_not_go_to_the_bar() -> None:
    rules = {"joker_to_bar": "when-unplaceable"}
    game = game_at(["JOKf", "USAm", "CHNm", "CHNm", "CUBm"], rules=rules)
    assert rule_of(game, "JOKf@bar") == "R2.5"


def test_r2_5_elimination_when_a_stool_costs_more_than_the_score() -> None:
    game = game_at(
        ["USAm", "GERf", "CHNm", "CHNm", "CUBm"], players=3, others=[["AFRm"], ["AFRf"]],
        bar=["ITAm"] * 4 + ["ITAf"], scores=[1, 50, 50],
    )  # fmt: skip
    bag_before = game.bag_count()
    result = game.push("USAm@bar")  # stool 6 is worth -2
    assert result.eliminated and result.points == 0 and result.turn_over
    assert game.state.eliminated[0] and game.scores[0] == 1
    assert game.hand(0) == [] and game.bag_count() == bag_before
    assert len(game.view().bar) == 6
    assert game.current_player == 1
    game.push("AFRm@bar")
    assert game.current_player == 2
    game.push("AFRf@bar")
    assert game.current_player == 1  # seat 1 is passed over


def test_r2_5_no_bar_when_every_stool_is_taken() -> None:
    game = game_at(["USAm", *FILLER], bar=["ITAm"] * 4 + ["ITAf"] * 4 + ["RUSm"] * 4 + ["RUSf"] * 4 + ["TURm"] * 4)
    assert rule_of(game, "USAm@bar") == "R2.5"


# ---------------------------------------------------------------- §2.6 joker exchange


def test_r2_6_exchange_a_joker_for_a_guest_of_its_given_nation() -> None:
    game = game_at(["USAf", "GERf", "USAm", "CHNm", "CUBm"], {"h1": "USAm", "h3": "JOKf=USA"})
    assert rule_of(game, "GERf~h3") == "R2.6"
    assert rule_of(game, "USAm~h3") == "R2.6"  # the joker is a lady
    assert rule_of(game, "USAf~h1") == "R2.6"  # no joker there
    bag = game.bag_count()
    result = game.push("USAf~h3")
    assert result.points == 0 and result.turn_over and result.drawn == 0
    assert game.bag_count() == bag
    assert Tile.JOKf in game.hand(0) and Tile.USAf not in game.hand(0)
    assert game.occupant("h3") == (Tile.USAf, Tile.USAf.nation)
    assert game.current_player == 1  # the won joker cannot be played this turn


def test_r2_6_either_nation_option() -> None:
    seated = {"h1": "USAm", "g2": "JOKf=USA"}
    strict = game_at(["GERf", *FILLER], seated)
    assert rule_of(strict, "GERf~g2") == "R2.6"
    loose = game_at(["GERf", *FILLER], seated, rules={"joker_exchange": "either-nation"})
    assert "GERf~g2" in legal(loose)
    loose.push("GERf~g2")
    assert loose.table_value("USA1") == 2


def test_r2_6_exchange_never_changes_a_hand_size() -> None:
    seated = {"h1": "USAm", "h3": "USAf", "i2": "USAm", "g2": "JOKf=GER"}
    game = game_at(["USAf", *FILLER], seated, rules={"joker_exchange": "either-nation"})
    game.push("USAf~g2")
    assert game.table_value("USA1") == 8  # now complete and single-nation
    assert game.state.hand_size[0] == 5


# ---------------------------------------------------------------- §2.7 refilling


def test_r2_7_refill_to_the_hand_size() -> None:
    game = game_at(["USAm", "USAf", *FILLER[:3]], others=[["AFRm"] * 4 + ["AFRf"]])
    results = game.push_turn("USAm@h3,USAf@h1")
    assert results[-1].drawn == 2 and len(game.hand(0)) == 5


def test_r2_7_completing_two_single_nation_tables_at_once() -> None:
    seated = {"h1": "USAf", "h3": "USAm", "g2": "USAf", "j1": "USAm", "j3": "USAf", "k2": "USAf"}
    game = game_at(["USAm", *FILLER], seated)
    result = game.push("USAm@i2")
    assert set(result.completed) == {"USA1", "USA2"}
    assert result.hand_size_change == -2
    assert game.state.hand_size[0] == 3 and len(game.hand(0)) == 4  # a hand above its size draws nothing


def test_r2_7_going_out_ends_the_game() -> None:
    seated = {"h1": "USAf", "h3": "USAm", "g2": "USAf"}
    game = game_at(["USAm"], seated, hand_sizes=[1, 5])
    assert not game.push("USAm@i2").turn_over
    assert legal(game) == {"stop"}  # the turn ends by itself only after its last possible guest
    assert game.push("stop").game_over and game.end_reason == "a player has gone out"


def test_r2_7_hand_size_zero_with_tiles_plays_on_without_drawing() -> None:
    seated = {"h1": "USAf", "h3": "USAm", "g2": "USAf"}
    game = game_at(["USAm", "CHNm"], seated, hand_sizes=[1, 5])
    result = game.push("USAm@i2")
    assert not result.game_over and result.drawn == 0
    assert game.state.hand_size[0] == 0 and game.hand(0) == [Tile.CHNm]


# ---------------------------------------------------------------- §2.8 the end


def test_r2_8_every_chair_taken_ends_the_game_with_penalties_and_ranking() -> None:
    seated = {"a2": "USAf", "b1": "USAm", "b3": "USAf", "d1": "GERf", "d3": "GERm", "e2": "GERf"}
    game = BoardGame.from_position(
        4, [["USAm"], ["GERm", "GERm"], ["GERm"], ["JOKf"]], seated=seated, board=DUO_BOARD,
        scores=[0, 20, 15, 20], hand_sizes=[1, 5, 5, 5],
    )  # fmt: skip
    assert game.push("USAm@c2").points == 12  # USA1 complete, all American (8) + GER1 mixed four (4)
    assert game.push("stop").game_over and game.end_reason == "every chair is taken"
    assert game.penalties() == (0, 10, 5, 10)  # 5 a tile, 10 a joker
    assert game.scores == (12, 10, 10, 10)
    assert game.places() == (1, 4, 2, 2)  # ties broken by fewer tiles in hand; still tied: shared
    assert game.winner() == 0
    assert rule_of(game, "GERm@bar") == "R2.8"
    assert game.legal_steps() == []


def test_r2_8_shared_first_place_has_no_winner() -> None:
    seated = {"a2": "USAf", "b1": "USAm", "b3": "USAf", "d1": "GERf", "d3": "GERm", "e2": "GERf"}
    game = BoardGame.from_position(
        2, [["USAm"], ["GERm"]], seated=seated, board=DUO_BOARD, scores=[0, 17], hand_sizes=[1, 5]
    )
    game.push_turn("USAm@c2")
    assert game.scores == (12, 12) and game.places() == (1, 2)  # fewer tiles (0 against 1) wins
    tied = BoardGame.from_position(2, [["USAm"], []], seated=seated, board=DUO_BOARD, scores=[0, 12], hand_sizes=[1, 5])
    tied.push_turn("USAm@c2")
    assert tied.places() == (1, 1) and tied.winner() is None


def test_r2_8_fewer_than_two_players_and_elimination_order() -> None:
    game = BoardGame.from_position(
        3, [["USAm"], ["CHNm"], ["GERf", "CUBm"]], scores=[5, 9, 0], eliminated=[1], current=2,
        bar=["ITAm"] * 4 + ["ITAf"],
    )  # fmt: skip
    result = game.push("GERf@bar")
    assert result.eliminated and game.end_reason == "fewer than two players remain"
    assert game.places() == (1, 3, 2)  # the last eliminated ranks first among the eliminated
    assert game.penalties() == (5, 0, 0)
    assert game.winner() == 0


def test_r2_8_bar_full_ends_the_game() -> None:
    game = game_at(["USAm", *FILLER], bar=["ITAm"] * 4 + ["ITAf"] * 4 + ["RUSm"] * 4 + ["RUSf"] * 4 + ["TURm"] * 3)
    assert game.push("CUBm@bar").points == -14 or game.is_over()
    assert game.end_reason == "every stool of the bar is taken"


def test_r2_8_bag_with_four_tiles_or_fewer_ends_the_game() -> None:
    hands = [["USAm", "USAf", "CHNm", "CHNm", "CUBm"], ["AFRm"] * 4 + ["AFRf"]]
    game = BoardGame.from_position(2, hands, bag=["GERm", "GERf", "ITAm", "ITAf", "RUSm", "RUSf"])
    assert game.bag_count() == 6
    game.push("USAm@bar")
    assert not game.is_over() and game.bag_count() == 5
    game.push_turn("AFRm@b13,AFRf@a12")
    assert game.end_reason == "the bag holds 4 tiles or fewer" and game.bag_count() == 3


def test_r2_8_every_player_passing_in_succession_ends_the_game() -> None:
    full_bar = ["ITAm"] * 4 + ["ITAf"] * 4 + ["RUSm"] * 4 + ["RUSf"] * 4 + ["TURm"] * 4
    seated = {"a2": "USAf", "b1": "USAf", "b3": "USAm", "d1": "GERf", "d3": "GERf", "e2": "GERm"}
    game = BoardGame.from_position(2, [["JOKf"], ["JOKf"]], seated=seated, board=DUO_BOARD, bar=full_bar[:19])
    assert legal(game) == {"pass"}
    assert rule_of(game, "JOKf@c2=USA") == "R2.3.2"
    game.push("pass")
    assert not game.is_over()
    game.push("pass")
    assert game.end_reason == "every player passed in succession"
    assert game.penalties() == (10, 10)


def test_r2_2_pass_only_when_no_action_is_legal() -> None:
    game = game_at(["USAm", *FILLER])
    assert rule_of(game, "pass") == "R2.2"
    assert "pass" not in legal(game)


def test_r2_2_one_action_per_turn() -> None:
    game = game_at(["USAf", "USAm", *FILLER[:3]], {"h1": "USAm"})
    game.push("USAf@h3")
    assert rule_of(game, "USAm@bar") == "R2.2"
    assert rule_of(game, "pass") == "R2.2"
    game.push("USAm@i2")
    assert game.current_player == 1  # two guests end the turn


def test_r2_2_tile_must_be_in_hand() -> None:
    game = game_at(["USAf", *FILLER], {"h1": "USAm"})
    assert rule_of(game, "GERf@f3") == "R2.2"
    assert rule_of(game, "GERf@bar") == "R2.2"


# ---------------------------------------------------------------- §2.9 variants


def test_r2_9_surprise_guests_hide_other_hands() -> None:
    open_game = BoardGame(3, seed=2)
    assert all(h is not None for h in open_game.view(0).hands)
    hidden = BoardGame(3, seed=2, rules={"surprise_guests": True})
    view = hidden.view(1)
    assert view.hands[1] is not None and view.hands[0] is None and view.hands[2] is None
    assert view.hand_counts == (5, 5, 5)
    assert all(h is None for h in hidden.view(None).hands)
    assert {str(s) for s in hidden.legal_steps()} == {str(s) for s in open_game.legal_steps()}


def test_r2_9_regulars_three_gentlemen_at_an_empty_table() -> None:
    hand = ["USAm", "USAm", "USAm", "CHNf", "CHNm"]
    plain = game_at(hand)
    assert rule_of(plain, "USAm@h3") == "R2.3.4"  # alone, and no lady can join him
    game = game_at(hand, rules={"regulars": True})
    game.push("USAm@h3")
    game.push("USAm@h1")
    assert game.state.reg_table == 0 or game.board.table_ids[game.state.reg_table] == "USA1"
    assert rule_of(game, "stop") == "R2.3.3"
    assert rule_of(game, "CHNf@h11") == "R2.9"  # every guest of the turn sits at USA1
    result = game.push("USAm@g2")
    assert not result.turn_over
    end = game.push("stop")
    assert end.turn_over and ("USA1", 40) in end.table_points  # all three American
    assert game.scores[0] == 40
    assert game.view().closed_chairs == ("i2",)
    assert game.state.hand_size[0] == 5  # three guests: no reduction


def test_r2_9_regulars_four_guests_end_the_turn_and_lower_the_hand_size() -> None:
    game = game_at(["USAf", "USAf", "JOKf", "USAf", "CHNm"], rules={"regulars": True})
    for step in ("USAf@h3", "USAf@h1", "JOKf@i2=USA"):
        assert not game.push(step).turn_over
    result = game.push("USAf@g2")
    assert result.turn_over and result.points == 40 and "USA1" in result.completed
    assert game.state.hand_size[0] == 4


def test_r2_9_regulars_table_with_a_foreign_guest_scores_20() -> None:
    game = game_at(["GERf", "GERf", "USAf", "CHNm", "CUBm"], rules={"regulars": True})
    game.push_turn("GERf@f3,GERf@f1,USAf@g2")
    assert game.scores[0] == 20
    assert set(game.view().closed_chairs) == {"e2"}


def test_r2_9_regulars_must_reach_three_guests() -> None:
    game = game_at(["USAm", "USAm", "CHNf", "CHNm", "CUBm"], rules={"regulars": True})
    assert rule_of(game, "USAm@h3") == "R2.3.4"
    game = game_at(["USAm", "USAm", "USAf", "CHNm", "CUBm"], rules={"regulars": True})
    game.push("USAm@h3")
    assert rule_of(game, "USAm@h1") == "R2.9"


def test_r2_9_regulars_keep_the_gender_rule_at_other_tables() -> None:
    seated = {"f3": "GERf", "f1": "GERf"}
    game = game_at(["USAf", "USAf", "USAf", "CHNm", "CUBm"], seated, rules={"regulars": True})
    game.push("USAf@h3")
    game.push("USAf@h1")
    assert rule_of(game, "USAf@g2") == "R2.3.2"  # a third lady at GER2
    assert "USAf@i2" in legal(game)


def test_r2_9_closed_chairs_cannot_be_used_and_count_as_taken() -> None:
    game = game_at(["USAm", "USAm", "USAm", "CHNm", "CUBm"], rules={"regulars": True}, others=[["USAm"]])
    game.push_turn("USAm@h3,USAm@h1,USAm@g2")
    assert rule_of(game, "USAm@i2") == "R2.9"
    assert game.occupant("i2") is None and game.occupant("g2") == (Tile.USAm, Tile.USAm.nation)
    assert game.state.open_chairs == 68 - 4


# ---------------------------------------------------------------- setting up positions


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"hands": [["USAm"]]}, "one hand per player"),
        ({"hands": [["USAm"] * 5, []]}, "more USAm tiles than the game has"),
        ({"hands": [[], []], "seated": {"h3": "JOKf"}}, "needs a given nation"),
        ({"hands": [[], []], "seated": {"h3": "XYZf"}}, "unknown tile"),
        ({"hands": [["USAm"] * 4, []], "bag": ["USAm"]}, "more USAm tiles than are left"),
    ],
)
def test_from_position_refuses_impossible_positions(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BoardGame.from_position(2, **kwargs)  # type: ignore[arg-type]


def test_from_position_counts_left_out_tiles_as_out_of_the_game() -> None:
    game = BoardGame.from_position(2, [["USAm"], ["USAf"]], bag=["GERm", "GERf", "ITAm", "ITAf", "RUSm", "RUSf"])
    assert game.bag_count() == 6 and game.state.removed == 100 - 2 - 6
