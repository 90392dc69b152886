"""Properties over random games (hypothesis): conservation, scores, undo, replay, termination."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cafe import BoardGame
from cafe.card_game import CardGame
from cafe.record import Record
from cafe.tiles import full_set

RULES = st.fixed_dictionaries(
    {
        "scoring": st.sampled_from(["bonus", "basic"]),
        "joker_to_bar": st.sampled_from(["never", "when-unplaceable"]),
        "joker_exchange": st.sampled_from(["given-nation", "either-nation"]),
        "regulars": st.booleans(),
        "bar_values": st.sampled_from(["printed", "straight"]),
    }
)
MAX_STEPS = 400  # far above the longest game seen (~130 steps)


def tiles_everywhere(game: BoardGame) -> int:
    s = game.state
    return game.bag_count() + sum(s.hand_n) + sum(1 for t in s.occ if t >= 0) + len(s.stools) + s.removed


def played(seed: int, players: int, rules: dict[str, object], check: bool = True) -> BoardGame:
    game = BoardGame(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    reported = [0] * players
    for _ in range(MAX_STEPS):
        if game.is_over():
            break
        before = game.state.key()
        step = rng.choice(game.legal_steps())
        result = game.push(step)
        reported[result.player] += result.points
        if check:
            assert tiles_everywhere(game) == 100
            # undo restores the exact state, then redo
            assert game.pop() == step
            assert game.state.key() == before
            game.push(step)
    else:
        raise AssertionError("the game did not end")
    finals = [r - p for r, p in zip(reported, game.penalties(), strict=True)]
    assert list(game.scores) == finals
    assert sum(game.turn_points()) == sum(reported)
    return game


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), rules=RULES)
def test_random_games_keep_every_invariant(seed: int, players: int, rules: dict[str, object]) -> None:
    game = played(seed, players, rules)
    assert game.is_over() and game.places() is not None
    assert sorted(game.bag) == sorted(full_set())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), rules=RULES)
def test_records_replay_to_the_same_final_state(seed: int, players: int, rules: dict[str, object]) -> None:
    game = played(seed, players, rules, check=False)
    replayed = Record.loads(Record.of(game).dumps()).replay()
    assert replayed.state.key() == game.state.key()
    assert replayed.turn_points() == game.turn_points()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_undo_all_the_way_back_to_the_start(seed: int) -> None:
    game = BoardGame(4, seed=seed)
    start = game.state.key()
    steps = played(seed, 4, {}, check=False).results
    for r in steps:
        game.push(r.step)  # type: ignore[arg-type]
    while game.results:
        game.pop()
    assert game.state.key() == start


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), tribes=st.booleans())
def test_card_games_keep_every_invariant(seed: int, players: int, tribes: bool) -> None:
    game = CardGame(players, seed=seed, rules={"tribe_and_circle": tribes})
    rng = random.Random(seed)
    reported = [0] * players
    for _ in range(2000):
        if game.is_over():
            break
        before = game.state.key()
        step = rng.choice(game.legal_steps())
        result = game.push(step)
        reported[result.player] += result.points
        s = game.state
        on_places = sum(1 for c in s.occ if c >= 0)
        assert game.deck_count() + sum(s.hand_n) + on_places + s.removed + sum(map(len, s.down)) == 96
        assert game.table_pile_count() + len(game.board.slots) + s.tables_removed == 24
        assert game.pop() == step and game.state.key() == before
        game.push(step)
    else:
        raise AssertionError("the card game did not end")
    assert list(game.scores) == [r - p for r, p in zip(reported, game.penalties(), strict=True)]
    replayed = Record.loads(Record.of(game).dumps()).replay()
    assert replayed.state.key() == game.state.key()


@given(st.integers(0, 10_000), st.sampled_from([BoardGame, CardGame]))
@settings(max_examples=20, deadline=None)
def test_a_deep_copy_is_an_independent_game_with_the_same_history(seed: int, edition: type) -> None:
    game = edition(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 30)):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_steps()))
    twin = copy.deepcopy(game)
    assert twin.state.key() == game.state.key() and twin.turns() == game.turns()
    before = game.state.key()
    if not twin.is_over():
        twin.push(rng.choice(twin.legal_steps()))
        assert game.state.key() == before  # the original does not move with its copy
        twin.pop()
    assert twin.state.key() == before
    twin.pop()
    game.pop()
    assert twin.state.key() == game.state.key()


@given(st.integers(0, 10_000), st.sampled_from([BoardGame, CardGame]))
@settings(max_examples=20, deadline=None)
def test_turns_taken_back_and_played_otherwise_are_written_anew(seed: int, edition: type) -> None:
    """The notation of each turn is kept once written: taking a turn back must drop it, or its old text stays."""
    game = edition(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 60)):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_steps()))
        game.turns()  # written as the game goes, as a client asks for them
        if rng.random() < 0.3 and game.results:
            game.pop()
    fresh = edition(2, seed=seed)
    for r in game.results:
        fresh.push(r.step)
    assert game.turns() == fresh.turns()
    assert game.this_turn() == fresh.this_turn()


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_a_step_may_be_taken_back_only_within_its_turn_and_if_it_showed_nothing_hidden(edition: str) -> None:
    piles = ("bag_count",) if edition == "board" else ("deck_count", "table_pile_count")
    taken_back = refused_in_turn = 0
    for seed in range(40):
        game = BoardGame(3, seed=seed) if edition == "board" else CardGame(3, seed=seed)
        rng = random.Random(seed)
        assert not game.can_take_back()
        while not game.is_over():
            before = game.view().to_json()
            game.push(rng.choice(game.legal_steps()))
            after = game.view().to_json()
            showed = any(before[k] != after[k] for k in piles)
            if game.can_take_back():
                assert not showed and game.this_turn()
                taken_back += 1
            else:
                assert showed or not game.this_turn()
                refused_in_turn += bool(game.this_turn())
    assert taken_back > 100
    assert (refused_in_turn > 0) == (edition == "cards")  # only the card game draws within a turn


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), rules=RULES)
def test_a_zero_scoring_first_guest_is_judged_as_the_look_ahead_judges_it(
    seed: int, players: int, rules: dict[str, object]
) -> None:
    """_first_completes answers without seating anyone where it can; the look-ahead (seat the guest, list what may
    follow) is the definition it must agree with, at every zero-scoring first guest of random games."""
    game = BoardGame(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    compared = 0
    while not game.is_over():
        s = game.state
        if not s.placed:
            for tile, c, n in game._seat_triples(s):
                score, broken, bad = game._effect(s, tile, c, n)
                if score == 0 and broken < 0 and bad < 0:
                    s.completes = None  # no memo: each answer afresh
                    assert game._first_completes(s, tile, c, n) == game._lookahead(s, tile, c, n, 0, -1)
                    compared += 1
        game.push(rng.choice(game.legal_steps()))
    assert compared > 0
