"""Reading the other hands (cafe.ai.reading): worlds weighted by the last player's draw."""

from __future__ import annotations

import random
from collections import Counter

from cafe.ai.mcts import MCTSPlayer
from cafe.ai.reading import DRAW_GIVEN_BEST, after_a_draw, drawn_likelihood, single_points
from cafe.ai.worlds import TRIES, Worlds
from cafe.card_game import CardGame
from cafe.card_state import CARD_TYPES
from cafe.steps import Kind
from cafe.tiles import Tile


def after_draws(games: int, seed: int = 0) -> list[CardGame]:
    """Positions of random card games at the start of a turn that follows a draw."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = CardGame(2 + g % 2, seed=seed * 100 + g)
        while not game.is_over():
            if not game.this_turn() and game.turns() and game.turns()[-1] == "draw":
                out.append(game.copy())
            game.push(game.random_step(rng))
    return out


def test_single_points_are_the_most_a_held_card_scores_alone() -> None:
    for game in after_draws(3)[:40]:
        points = single_points(game)
        hand = game.state.hands[game.current_player]
        for card in range(CARD_TYPES):
            if hand[card] and not game.this_turn():
                alone = [
                    game.step_points(step)
                    for step in game.legal_steps()
                    if step.kind is Kind.SEAT and step.tile == Tile(card) and game.step_points(step) > 0
                ]
                assert points[card] == max(alone, default=0)


def test_the_likelier_a_draw_the_fewer_points_the_drawer_could_have_scored() -> None:
    assert list(DRAW_GIVEN_BEST) == sorted(DRAW_GIVEN_BEST, reverse=True)
    assert drawn_likelihood(0) > drawn_likelihood(8) == drawn_likelihood(20)


def test_only_a_draw_just_before_this_turn_is_read() -> None:
    rng = random.Random(5)
    game = CardGame(2, seed=5)
    while not game.is_over():
        view = game.view(game.current_player)
        read = after_a_draw(view, Worlds(view).base)
        assert (read is not None) == (not game.this_turn() and game.turns()[-1:] == ["draw"])
        game.push(game.random_step(rng))


def test_weighted_worlds_hold_what_the_draw_makes_likely() -> None:
    """Hands able to score 8 points or more are rarer in the weighted worlds than in the dealt ones."""
    strong_dealt = strong_weighted = 0
    for game in after_draws(4, seed=1)[:30]:
        view = game.view(game.current_player)
        drew = (game.current_player - 1) % len(game.players)
        worlds = Worlds(view)
        points = single_points(worlds.base)
        weight = after_a_draw(view, worlds.base)
        assert weight is not None

        def strong(world: CardGame, drew: int = drew, points: list[int] = points) -> bool:
            hand = world.state.hands[drew]
            return max((points[c] for c in range(CARD_TYPES) if hand[c]), default=0) >= 8

        rng = random.Random(0)
        strong_dealt += sum(strong(worlds.sample(rng)) for _ in range(40))
        worlds.weight = weight
        for _ in range(40):
            world = worlds.sample(rng)
            assert 0.0 < weight(world) <= 1.0
            strong_weighted += strong(world)
    assert strong_weighted < strong_dealt / 2


def test_a_world_no_weight_accepts_is_still_dealt() -> None:
    game = after_draws(1)[0]
    worlds = Worlds(game.view(game.current_player))
    calls = Counter[str]()

    def never(world: CardGame) -> float:
        calls["weighed"] += 1
        return 0.0

    worlds.weight = never
    world = worlds.sample(random.Random(0))
    assert calls["weighed"] == TRIES - 1
    assert set(world.legal_steps()) == set(game.legal_steps())


def test_the_reading_search_plays_legal_steps_on_its_view() -> None:
    player = MCTSPlayer(time_per_turn=None, iterations=30, seed=1, read_hands=True)
    for game in after_draws(2, seed=2)[:15]:
        legal = game.legal_steps()
        assert player.choose(game.view(game.current_player), legal) in legal
