"""The OpenSpiel game: pyspiel's own simulation test, chance nodes, resampling, and OpenSpiel's bots playing it."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from cafe.ai.levels import PlayerSpecError, make_player
from cafe.arena.match import play
from cafe.board_game import BoardGame
from cafe.card_game import CardGame
from cafe.envs.observation import encode
from cafe.envs.openspiel import NAME, CafeState, ISMCTSPlayer
from cafe.tiles import Tile

CASES = [("board", 2), ("board", 4), ("cards", 2), ("cards", 5)]


def load(edition: str = "board", players: int = 2, preset: str = "printed") -> pyspiel.Game:
    return pyspiel.load_game(NAME, {"edition": edition, "players": players, "preset": preset})


def deal(state: CafeState, rng: random.Random) -> None:
    """Play chance nodes until a player is to move."""
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probabilities)[0])


def play_randomly(state: CafeState, rng: random.Random, player_actions: int) -> None:
    for _ in range(player_actions):
        deal(state, rng)
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
    deal(state, rng)


@pytest.mark.parametrize(("edition", "players"), CASES)
def test_pyspiel_random_sim_test_passes(edition: str, players: int) -> None:
    pyspiel.random_sim_test(load(edition, players), num_sims=1, serialize=True, verbose=False)


def test_parameters_are_registered_and_checked() -> None:
    game = load("cards", 3, "printed")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 315
    assert load("board", 4, "brettspielwelt").num_distinct_actions() == 3564
    assert game.get_type().short_name == NAME
    with pytest.raises(Exception, match="unknown edition"):
        load("chess", 2)
    with pytest.raises(Exception, match="takes 2 to 4 players"):
        load("board", 6)


def test_the_deal_is_made_of_chance_nodes_and_reaches_the_hands() -> None:
    game = load("board", 2)
    state = game.new_initial_state()
    drawn: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        action = outcomes[len(drawn) % len(outcomes)][0]
        drawn.append(action)
        state.apply_action(action)
    assert len(drawn) == 2 * 5 + 5  # both hands, and the five draws a step can make, settled ahead
    engine = state.engine
    assert isinstance(engine, BoardGame)
    assert Counter(engine.hand(0)) == Counter(Tile(t) for t in drawn[:5])
    assert Counter(engine.hand(1)) == Counter(Tile(t) for t in drawn[5:10])
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, drawn[0]) == f"draw {Tile(drawn[0]).name}"


def test_chance_odds_are_the_undrawn_counts_and_the_engine_draws_what_chance_settled() -> None:
    state = load("cards", 2).new_initial_state()
    rng = random.Random(1)
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            pile = state.piles["deck" if state.piles["deck"].short(state._drawn("deck")) else "table_cards"]
            left = Counter(pile.order[pile.settled :])
            assert state.chance_outcomes() == [(k, v / sum(left.values())) for k, v in sorted(left.items())]
            chance_nodes += 1
        play_randomly(state, rng, 1)
    engine = state.engine
    deck, tables = state.piles["deck"], state.piles["table_cards"]
    assert [int(card) for card in engine.deck[: engine.state.deck_pos]] == deck.order[: engine.state.deck_pos]
    assert engine.state.deck_pos <= deck.settled and engine.state.table_pos <= tables.settled
    assert [int(n) + 24 for n in engine.table_cards[: engine.state.table_pos]] == tables.order[: engine.state.table_pos]
    assert chance_nodes > 0


def test_returns_are_zero_sum_margins_at_the_end() -> None:
    state = load("board", 3).new_initial_state()
    play_randomly(state, random.Random(2), 10_000)
    assert state.is_terminal()
    scores = state.engine.scores
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert returns[0] == pytest.approx(scores[0] - (scores[1] + scores[2]) / 2)


def test_tensors_and_strings_come_from_the_players_view() -> None:
    game = load("cards", 2)
    state = game.new_initial_state()
    play_randomly(state, random.Random(3), 4)
    player = state.current_player()
    assert state.information_state_tensor(player) == pytest.approx(encode(state.engine.view(player)))
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()
    other_hand = " ".join(card.name for card in state.engine.hand(1 - player))
    assert other_hand not in state.information_state_string(player)
    assert state.information_state_string(player) != state.information_state_string(1 - player)
    assert "turns" in state.information_state_string(player)  # the public history is part of it


@pytest.mark.parametrize(("edition", "players"), [("board", 2), ("cards", 3)])
def test_resampling_keeps_what_the_player_knows_and_redeals_the_rest(edition: str, players: int) -> None:
    state = load(edition, players).new_initial_state()
    play_randomly(state, random.Random(4), 12)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    orders = set()
    pile = "bag" if edition == "board" else "deck"
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        assert other.history() == state.history()
        orders.add(tuple(other.piles[pile].order))
        if edition == "cards":
            assert other.engine.hand(player) == state.engine.hand(player)
        other.apply_action(other.legal_actions()[0])  # the resampled world plays on
    assert len(orders) > 1  # the unseen tiles are dealt afresh


def test_ismcts_player_is_in_the_ladder_and_plays_legally() -> None:
    player = make_player("ismcts:3", seed=1)
    assert isinstance(player, ISMCTSPlayer) and player.name == "ismcts:3"
    with pytest.raises(PlayerSpecError, match="simulations"):
        make_player("ismcts:lots")
    game = CardGame(2, seed=5)
    for _ in range(6):
        step = player.choose(game.view(game.current_player), game.legal_steps())
        assert step in game.legal_steps()
        game.push(step)


@pytest.mark.frameworks
@pytest.mark.parametrize(("edition", "players"), [("board", 2), ("cards", 3)])
def test_openspiel_mcts_and_ismcts_bots_play_whole_games(edition: str, players: int) -> None:
    game = load(edition, players)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 30.0, 2, random_state=np.random.RandomState(1)),
        mcts.MCTSBot(game, 30.0, 2, evaluator, random_state=np.random.RandomState(2)),
    ]
    state = game.new_initial_state()
    rng = random.Random(6)
    moves = 0
    while not state.is_terminal():
        deal(state, rng)
        if state.is_terminal():
            break
        action = bots[state.current_player() % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.engine.is_over() and moves > 20
    assert abs(sum(state.returns())) < 1e-9


@pytest.mark.frameworks
def test_ismcts_player_plays_a_whole_game_in_the_arena() -> None:
    game = BoardGame(2, seed=7)
    results, _ = play(game, [make_player("ismcts:2", 1), make_player("random", 2)])
    assert game.is_over()
    assert sum(r.turns for r in results) > 20


def test_the_example_runs_openspiels_search_for_a_moment() -> None:
    example = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
    done = subprocess.run(
        [sys.executable, str(example), "--seconds", "1", "--simulations", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith(("stopped after 1 s", "game over")) and "scores ISMCTS" in last
    assert "player 0:" in done.stdout and "player 1:" in done.stdout
