"""Rule options and presets (RULES.md §6).  Each option's effect on play is tested both ways in test_rules.py."""

from __future__ import annotations

import pytest

from cafe import BoardGame, BoardRules, CardRules, RulesError, make_rules
from cafe.options import PRINTED_BAR, STRAIGHT_BAR, preset_catalogue, rules_from, rules_to_json


def test_printed_preset_is_all_defaults() -> None:
    assert make_rules("board", "printed") == BoardRules()
    assert BoardRules().bar_values == (1, 2, 3, 4, 5, -2, -4, -6, -8, -10, -4, -6, -8, -10, -12, -6, -8, -10, -12, -14)


def test_original_1989_preset() -> None:
    rules = make_rules("board", "original-1989")
    assert isinstance(rules, BoardRules) and rules.scoring == "basic"
    assert rules_to_json(rules) == "original-1989"


def test_brettspielwelt_preset() -> None:
    rules = make_rules("board", "brettspielwelt")
    assert isinstance(rules, BoardRules)
    assert (rules.scoring, rules.joker_to_bar, rules.joker_exchange) == ("bonus", "when-unplaceable", "either-nation")


def test_straight_bar_values() -> None:
    rules = make_rules("board", {"preset": "printed", "bar_values": "straight"})
    assert isinstance(rules, BoardRules)
    assert rules.bar_values == STRAIGHT_BAR == (1, 2, 3, 4, 5, *range(-2, -31, -2))
    assert rules_to_json(rules) == {"preset": "printed", "bar_values": list(STRAIGHT_BAR)}


def test_straight_bar_values_in_play() -> None:
    game = BoardGame.from_position(
        2, [["USAm", "CHNm"], ["GERm"]], bar=["ITAm"] * 4 + ["ITAf"] * 4 + ["RUSm"] * 2, scores=[50, 50],
        rules={"bar_values": "straight"},
    )  # fmt: skip
    assert game.push("USAm@bar").points == -12  # stool 11: -12 straight, -4 printed
    printed = BoardGame.from_position(
        2, [["USAm", "CHNm"], ["GERm"]], bar=["ITAm"] * 4 + ["ITAf"] * 4 + ["RUSm"] * 2, scores=[50, 50]
    )
    assert printed.push("USAm@bar").points == -4


def test_custom_bar_values() -> None:
    values = list(range(20, 0, -1))
    rules = make_rules("board", {"bar_values": values})
    assert isinstance(rules, BoardRules) and rules.bar_values == tuple(values)
    game = BoardGame(2, seed=1, rules=rules)
    tile = next(s for s in game.legal_steps() if s.kind == "bar")
    assert game.push(tile).points == 20


@pytest.mark.parametrize(
    "spec,message",
    [
        ({"preset": "nope"}, "unknown preset"),
        ({"scoring": "double"}, "scoring must be one of"),
        ({"bar_values": [1, 2, 3]}, "exactly 20 integers"),
        ({"bar_values": "zigzag"}, "unknown name"),
        ({"regulars": "yes"}, "true or false"),
        ({"tribe_and_circle": True}, "belongs to the other edition"),
        ({"colour": "red"}, "unknown option"),
        (42, "preset name or an object"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(spec: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make_rules("board", spec)  # type: ignore[arg-type]


def test_card_options_belong_to_the_card_game() -> None:
    assert make_rules("cards", {"tribe_and_circle": True}) == CardRules(tribe_and_circle=True)
    with pytest.raises(RulesError, match="other edition"):
        make_rules("cards", {"regulars": True})
    with pytest.raises(RulesError, match="unknown edition"):
        make_rules("chess")


def test_rules_round_trip_through_records() -> None:
    for spec in ("printed", "original-1989", "brettspielwelt", {"preset": "printed", "regulars": True},
                 {"preset": "brettspielwelt", "surprise_guests": True}):  # fmt: skip
        rules = make_rules("board", spec)
        assert make_rules("board", rules_to_json(rules)) == rules
    assert rules_to_json(make_rules("board", {"preset": "printed", "bar_values": list(PRINTED_BAR)})) == "printed"


def test_a_rooms_rules_keep_the_chosen_preset_and_name_what_differs_from_it() -> None:
    first = make_rules("board", {"preset": "original-1989", "scoring": "bonus"})
    assert rules_from("original-1989", first) == {"preset": "original-1989", "scoring": "bonus"}
    assert rules_from("brettspielwelt", make_rules("board", "brettspielwelt")) == "brettspielwelt"
    never = make_rules("board", {"preset": "brettspielwelt", "joker_to_bar": "never"})
    assert never.joker_to_bar == "never"
    assert rules_from("brettspielwelt", never) == {"preset": "brettspielwelt", "joker_to_bar": "never"}
    straight = make_rules("board", {"preset": "printed", "bar_values": "straight"})
    assert rules_from("printed", straight) == {"preset": "printed", "bar_values": "straight"}
    shown = {p["value"]: p["values"] for p in preset_catalogue("board")}
    assert shown["original-1989"]["scoring"] == "basic"
    assert shown["brettspielwelt"]["joker_to_bar"] == "when-unplaceable"
    assert shown["printed"]["bar_values"] == "printed"
