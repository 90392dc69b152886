"""The random fast path (``random_step``) and the random player: legal, and uniform over the legal steps."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from cafe import BoardGame, IllegalStepError
from cafe.ai import RandomPlayer
from cafe.steps import STOP, Kind


def test_random_step_is_always_legal() -> None:
    rng = random.Random(3)
    for seed in range(30):
        rules = {"regulars": seed % 2 == 0, "joker_to_bar": "when-unplaceable", "joker_exchange": "either-nation"}
        game = BoardGame(2 + seed % 3, seed=seed, rules=rules)
        while not game.is_over():
            step = game.random_step(rng)
            if seed % 3 == 0:
                assert step in game.legal_steps()
            game.push(step)  # push checks the step again
    with pytest.raises(IllegalStepError, match="over"):
        game.random_step(rng)
    game.legal_steps()  # an empty list, now cached
    with pytest.raises(IllegalStepError, match="over"):
        game.random_step(rng)


def _position(wanted: Callable[[BoardGame], bool], rules: dict[str, object] | None = None) -> BoardGame:
    """The first position of seeded random 4-player games where ``wanted`` holds."""
    for seed in range(100):
        game = BoardGame(4, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over():
            if wanted(game):
                return game.copy()
            game.push(game.random_step(rng))
    raise AssertionError("no such position in 100 games")


def _exchange_possible(game: BoardGame) -> bool:
    return any(step.kind is Kind.EXCHANGE for step in game.copy().legal_steps())


@pytest.mark.parametrize(
    "game",
    [
        pytest.param(BoardGame(4, seed=21), id="first-turn"),
        pytest.param(_position(lambda g: bool(g.state.placed) and STOP in g.copy().legal_steps()), id="mid-turn"),
        pytest.param(_position(lambda g: g.state.open_chairs < 20 and not g.state.placed), id="late-game"),
        pytest.param(_position(_exchange_possible, {"joker_exchange": "either-nation"}), id="joker-exchange"),
    ],
)
def test_random_step_is_uniform_over_the_legal_steps(game: BoardGame) -> None:
    legal = game.legal_steps()
    draws = 200 * len(legal)
    counts: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(draws):
        fresh = game.copy()  # no cached legal list: the rejection sampler runs
        counts[str(fresh.random_step(rng))] += 1
    assert set(counts) == {str(s) for s in legal}
    # chi-square against uniform; the 0.999 quantile for up to 60 degrees of freedom is below 100
    expected = draws / len(legal)
    chi2 = sum((counts[str(s)] - expected) ** 2 / expected for s in legal)
    assert len(legal) <= 61 and chi2 < 100


def test_random_step_mid_turn_offers_stop() -> None:
    game = BoardGame.from_position(2, [["USAf", "USAm", "CHNm", "CHNm", "CUBm"], ["AFRm"]], seated={"h1": "USAm"})
    game.push("USAf@h3")
    seen = {str(game.copy().random_step(random.Random(i))) for i in range(200)}
    assert seen == {str(s) for s in game.legal_steps()} and "stop" in seen


def test_random_step_passes_when_nothing_else_is_legal() -> None:
    board = {
        "name": "duo",
        "tables": [{"id": "USA1", "nation": "USA", "cell": "b2"}, {"id": "GER1", "nation": "GER", "cell": "d2"}],
        "chairs": [{"id": c, "tables": t} for c, t in [("a2", ["USA1"]), ("b1", ["USA1"]), ("b3", ["USA1"]),
                   ("c2", ["USA1", "GER1"]), ("d1", ["GER1"]), ("d3", ["GER1"]), ("e2", ["GER1"])]],
    }  # fmt: skip
    seated = {"a2": "USAf", "b1": "USAf", "b3": "USAm", "d1": "GERf", "d3": "GERf", "e2": "GERm"}
    bar = ["ITAm"] * 4 + ["ITAf"] * 4 + ["RUSm"] * 4 + ["RUSf"] * 4 + ["TURm"] * 3
    game = BoardGame.from_position(2, [["JOKf"], ["JOKf"]], seated=seated, board=board, bar=bar)
    assert str(game.random_step(random.Random(1))) == "pass"


def test_random_player_chooses_a_legal_step() -> None:
    game = BoardGame(3, seed=8)
    player = RandomPlayer(seed=2)
    for _ in range(30):
        step = player.choose(game.view(game.current_player), game.legal_steps())
        assert step in game.legal_steps()
        game.push(step)


def test_playout_equals_pushing_the_same_random_steps_and_leaves_the_game_unchanged() -> None:
    for seed in range(12):
        rules = {"regulars": seed % 2 == 1, "joker_to_bar": "when-unplaceable"}
        game = BoardGame(2 + seed % 3, seed=seed, rules=rules)
        for step in game.legal_steps()[:1]:
            game.push(step)  # start from mid-turn now and then
        before = game.state.key()
        scores = game.playout(random.Random(seed))
        assert game.state.key() == before and len(game.results) == 1
        reference = game.copy()
        rng = random.Random(seed)
        while not reference.is_over():
            reference.push(reference.random_step(rng), check=False)
        assert scores == reference.scores
