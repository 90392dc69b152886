"""Notation (RULES.md §7.1): strict canonical steps and turns, round trips, the friendly form."""

from __future__ import annotations

import random

import pytest

from cafe import BoardGame, Kind, Nation, NotationError, Step, Tile, format_turn, parse_step, parse_turn
from cafe.errors import JokerWithoutNationError
from cafe.friendly import parse_friendly

from conftest import DUO_BOARD


@pytest.mark.parametrize(
    "text,step",
    [
        ("USAm@h3", Step(Kind.SEAT, Tile.USAm, "h3")),
        ("JOKf@i2=USA", Step(Kind.SEAT, Tile.JOKf, "i2", Nation.USA)),
        ("GERf@bar", Step(Kind.BAR, Tile.GERf)),
        ("JOKf@bar", Step(Kind.BAR, Tile.JOKf)),
        ("USAf~i2", Step(Kind.EXCHANGE, Tile.USAf, "i2")),
        ("pass", Step(Kind.PASS)),
        ("stop", Step(Kind.STOP)),
        ("draw", Step(Kind.DRAW)),
        ("close", Step(Kind.CLOSE)),
        ("down:FRAf", Step(Kind.DOWN, Tile.FRAf)),
        ("FRAf@c4", Step(Kind.SEAT, Tile.FRAf, "c4")),
        ("AFRm@b13", Step(Kind.SEAT, Tile.AFRm, "b13")),
    ],
)
def test_canonical_steps_parse_and_format(text: str, step: Step) -> None:
    assert parse_step(text) == step
    assert str(step) == text


@pytest.mark.parametrize(
    "text,message",
    [
        ("usam@h3", "cannot read step"),
        ("USAm@H3", "cannot read step"),
        ("USAm @h3", "cannot read step"),
        ("XYZm@h3", "unknown tile"),
        ("USAx@h3", "cannot read step"),
        ("JOKf@i2", "names its given nation"),
        ("USAm@h3=USA", "only a joker"),
        ("JOKf@i2=XYZ", "unknown nation"),
        ("GERf@bar=GER", "takes no nation"),
        ("Pass", "cannot read step"),
        ("", "cannot read step"),
        ("down:", "unknown tile"),
        (3, "a step must be text, not int"),  # compiled or not: the same refusal
        (None, "a step must be text, not NoneType"),
    ],
)
def test_malformed_steps_are_refused(text: object, message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        parse_step(text)
    assert info.value.rule == "R7.1"


def test_a_joker_without_its_nation_is_refused_with_the_step_it_means() -> None:
    """The café tries that step under every nation, to tell a person who clicked a chair why it is refused."""
    with pytest.raises(JokerWithoutNationError) as info:
        parse_step("JOKm@d11")
    assert (info.value.tile, info.value.chair) == (Tile.JOKm, "d11")
    for other in ("JOKm@bar", "JOKm@d11=USA", "USAm@d11=USA", "JOKm~d11"):
        try:
            parse_step(other)
        except NotationError as error:
            assert not isinstance(error, JokerWithoutNationError), other


def test_steps_made_in_code_read_as_their_notation() -> None:
    assert Step.bar(Tile.GERf) == parse_step("GERf@bar") and Step.exchange(Tile.USAf, "i2") == parse_step("USAf~i2")
    with pytest.raises(NotationError, match="a seat step needs a tile") as info:
        str(Step(Kind.SEAT))
    assert info.value.detail == "a seat step needs a tile"  # the message without its rule


def test_turn_strings() -> None:
    assert parse_turn("USAm@i2,USAf@g2") == [parse_step("USAm@i2"), parse_step("USAf@g2")]
    assert format_turn([parse_step("USAm@i2"), parse_step("stop")]) == "USAm@i2"
    with pytest.raises(NotationError, match="omits 'stop'"):
        parse_turn("USAm@j1,stop")
    with pytest.raises(NotationError):
        parse_turn("USAm@i2, USAf@g2")
    with pytest.raises(NotationError):
        parse_turn("")


def test_every_legal_step_round_trips_in_many_random_positions() -> None:
    rng = random.Random(7)
    seen = 0
    for number in range(60):
        rules = {"regulars": number % 2 == 0, "joker_to_bar": "when-unplaceable", "joker_exchange": "either-nation"}
        game = BoardGame(2 + number % 3, seed=number, rules=rules)
        while not game.is_over():
            for step in game.legal_steps():
                assert parse_step(str(step)) == step
                seen += 1
            game.push(rng.choice(game.legal_steps()))
    assert seen > 50_000


def test_custom_board_steps_round_trip() -> None:
    game = BoardGame(2, seed=3, board=DUO_BOARD)
    for step in game.legal_steps():
        assert parse_step(str(step)) == step


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("American lady h1", "USAf@h1"),
        ("american gentleman at h3", "USAm@h3"),
        ("USA f h1", "USAf@h1"),
        ("usam@h3", "USAm@h3"),
        ("USAM h3", "USAm@h3"),
        ("joker lady i2 usa", "JOKf@i2=USA"),
        ("jokf@i2=usa", "JOKf@i2=USA"),
        ("German woman to the bar", "GERf@bar"),
        ("exchange usa lady i2", "USAf~i2"),
        ("swap British gent c10", "GBRm~c10"),
        ("Great Britain man d9", "GBRm@d9"),
        ("pass", "pass"),
        (" STOP ", "stop"),
        ("draw", "draw"),
        ("lay down a french lady", "down:FRAf"),
        ("italian gentleman c4", "ITAm@c4"),
    ],
)
def test_friendly_form(text: str, canonical: str) -> None:
    assert str(parse_friendly(text)) == canonical


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "nothing to read"),
        ("american h1", "lady or gentleman"),
        ("lady h1", "which nation"),
        ("american lady", "which chair"),
        ("joker lady i2", "which nation the joker takes"),
        ("american french lady h1", "two nations"),
        ("american lady h1 please", "did not understand 'please'"),
    ],
)
def test_friendly_form_says_what_is_missing(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_friendly(text)
