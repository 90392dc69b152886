"""The policy prior over whole turns (cafe.ai.prior): its file, its shares, the search it guides, its fit, and
``cafe train --prior``."""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from cafe.ai.levels import PlayerSpecError, make_player
from cafe.ai.mcts import MCTSPlayer, candidate_turns, distinct_turns, favoured_turns
from cafe.ai.prior import (
    AFTER,
    FEATURES,
    TurnPrior,
    cross_entropy,
    describe,
    kind_of,
    master_shares,
    shipped,
    softmax,
)
from cafe.ai.turns import TurnOption
from cafe.ai.worlds import Game, Worlds
from cafe.arena.match import new_game, play
from cafe.board_game import BoardGame
from cafe.cli import main
from cafe.steps import Kind
from cafe.train.prior_fit import PENALTIES, agreement, best_fit, fit, mean_cross_entropy
from cafe.train.prior_games import VALUE_TEMPERATURE, Roots, play_roots

FAVOUR_POINTS = np.eye(len(FEATURES))[0] * 0.5  # weights that favour the turns scoring most, mildly


@functools.cache
def roots(edition: str) -> Roots:
    """The roots of one self-play game."""
    return play_roots(edition, 2, [31], "mcts:16", True)


def prior_of(**weights: np.ndarray) -> TurnPrior:
    return TurnPrior(weights, {"command": "test"})


def midgame(edition: str, seed: int, steps: int = 8) -> Game:
    game = new_game(edition, 2, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        game.push(game.random_step(rng))
    while len(distinct_turns(game, game.legal_steps())) < 2:  # on to a choice between turns
        game.push(game.random_step(rng))
    return game


def test_a_prior_file_loads_with_its_documented_shapes(tmp_path: Path) -> None:
    prior = prior_of(board2=FAVOUR_POINTS, cards2=-FAVOUR_POINTS)
    prior.save(tmp_path / "prior.npz")
    loaded = TurnPrior.load(tmp_path / "prior.npz")
    assert set(loaded.weights) == {"board2", "cards2"} and loaded.about == {"command": "test"}
    assert all(w.shape == (len(FEATURES),) and w.dtype == np.float64 for w in loaded.weights.values())
    assert (loaded.weights["cards2"] == -FAVOUR_POINTS).all()
    with pytest.raises(ValueError, match=r"the board4 weights have shape \(14,\)"):
        prior_of(board4=np.zeros(len(FEATURES) + 1))
    with pytest.raises(ValueError, match=r"the board4 weights have shape \(2, 3\)"):
        prior_of(board4=np.zeros((2, 3)))


def test_shorter_weights_weigh_the_first_features_as_files_made_before_the_last_were_added() -> None:
    game = midgame("cards", 5)
    options = distinct_turns(game, game.legal_steps())
    longer = np.linspace(-1.0, 1.0, len(FEATURES))
    first = longer[: AFTER + 1]
    padded = np.concatenate([first, np.zeros(len(FEATURES) - len(first))])
    assert prior_of(cards2=first).shares(game, options) == pytest.approx(prior_of(cards2=padded).shares(game, options))
    assert [describe(game, o, AFTER) for o in options] == [describe(game, o)[:AFTER] for o in options]


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_shares_follow_the_weights_and_sum_to_one(edition: str) -> None:
    game = midgame(edition, 5)
    options = distinct_turns(game, game.legal_steps())
    kind = kind_of(game)
    assert kind == f"{edition}2" and len(options) > 1
    weights = np.linspace(-1.0, 1.0, len(FEATURES))
    shares = prior_of(**{kind: weights}).shares(game, options)
    assert len(shares) == len(options) and sum(shares) == pytest.approx(1.0)
    expected = softmax(np.array([describe(game, o) for o in options]) @ weights)
    assert shares == pytest.approx(expected.tolist())
    assert len({round(s, 9) for s in shares}) > 1  # it tells turns apart


def test_a_kind_without_weights_favours_the_best_scoring_turns_alike() -> None:
    game = midgame("board", 6)
    options = distinct_turns(game, game.legal_steps())
    shares = prior_of(cards2=FAVOUR_POINTS).shares(game, options)
    best = max(o.points for o in options)
    top = [s for s, o in zip(shares, options, strict=True) if o.points == best]
    assert min(top) == pytest.approx(max(shares)) and sum(top) > 0.99


def test_a_turn_is_described_by_what_it_scores_spends_and_leaves_the_next_player() -> None:
    game = midgame("board", 7)
    options = distinct_turns(game, game.legal_steps())
    for option in options:
        numbers = describe(game, option)
        assert len(numbers) == len(FEATURES)
        assert numbers[0] == option.points and numbers[2] == option.to_bar
        assert numbers[5] == sum(1 for step in option.steps if step.kind.name == "SEAT")
    assert game.view(game.current_player) == midgame("board", 7).view(game.current_player)  # left as it was


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_card_turn_is_described_by_the_cards_it_leaves_in_hand_and_those_with_no_place(seed: int) -> None:
    game = midgame("cards", seed)
    hand = game.hand(game.current_player)
    seatable = {step.tile for step in game.legal_steps() if step.kind is Kind.SEAT}
    options = distinct_turns(game, game.legal_steps())
    for option in options:
        named = dict(zip(FEATURES, describe(game, option), strict=True))
        drew = sum(1 for step in option.steps if step.kind is Kind.DRAW)
        assert named["held after"] == len(hand) - named["seated"] - named["face down"] + drew
        assert 0 <= named["jokers held after"] <= named["held after"]
        laid = [step.tile for step in option.steps if step.tile is not None]
        still_stuck = [tile for tile in hand if tile not in seatable]
        for tile in laid:
            if tile in still_stuck:
                still_stuck.remove(tile)
        assert len(still_stuck) <= named["held with no place"] <= named["held after"]
    assert game.view(game.current_player) == midgame("cards", seed).view(game.current_player)  # left as it was


def test_the_root_keeps_the_turns_the_prior_favours_most_first() -> None:
    game = midgame("board", 8)
    legal = game.legal_steps()
    options = distinct_turns(game, legal)
    assert len(options) > 4

    def reversed_points(_game: Game, turns: list[TurnOption] | tuple[TurnOption, ...]) -> list[float]:
        return softmax(np.array([-float(o.points) for o in turns])).tolist()

    kept, shares = favoured_turns(game, legal, 4, reversed_points)
    assert len(kept) == len(shares) == 4 and sum(shares) == pytest.approx(1.0)
    assert shares == sorted(shares, reverse=True)
    points = {o.steps: o.points for o in options}
    assert max(points[k] for k in kept) <= min(o.points for o in options if o.steps not in kept)
    plain = candidate_turns(game, legal, 4)  # without a prior: the best-scoring turns
    assert min(points[k] for k in plain) >= max(points[k] for k in kept)


def test_a_prior_without_weights_for_a_kind_of_game_leaves_the_plain_root_there() -> None:
    cards_only = prior_of(cards2=FAVOUR_POINTS)
    game = midgame("board", 8)
    legal = game.legal_steps()
    assert cards_only.learned_shares(game, distinct_turns(game, legal)) is None
    assert favoured_turns(game, legal, 4, cards_only.learned_shares) == (candidate_turns(game, legal, 4), None)
    cards = midgame("cards", 8)
    kept, shares = favoured_turns(cards, cards.legal_steps(), 4, cards_only.learned_shares)
    assert shares is not None and len(kept) == len(shares) and sum(shares) == pytest.approx(1.0)


def test_the_master_chooses_its_card_game_turns_by_the_shipped_prior_and_its_board_game_turns_by_points() -> None:
    prior = shipped()
    assert prior.weights.keys() == {"cards2"}
    named = prior.about["features"]  # the features of its day: the first of today's
    assert prior.weights["cards2"].shape == (len(named),) and tuple(named) == FEATURES[: len(named)]
    assert "--player learned:" in prior.about["command"] and "--edition cards" in prior.about["command"]
    master, expert = make_player("master"), make_player("expert")
    assert master.prior is master_shares and expert.prior is None  # type: ignore[attr-defined]
    for seed in (8, 9):
        board = midgame("board", seed)
        legal = board.legal_steps()
        assert favoured_turns(board, legal, 20, prior.learned_shares) == (candidate_turns(board, legal, 20), None)
    changed = 0
    for seed in range(8, 14):  # in card games the root is the prior's: at some positions not the best-scoring turns
        cards = midgame("cards", seed)
        legal = cards.legal_steps()
        kept, shares = favoured_turns(cards, legal, 3, prior.learned_shares)
        assert shares is not None and len(kept) == len(shares)
        changed += set(kept) != set(candidate_turns(cards, legal, 3))
    assert changed > 0


def test_the_master_named_with_a_prior_file_searches_by_that_prior_and_by_points_where_it_has_no_weights(
    tmp_path: Path,
) -> None:
    prior_of(board2=FAVOUR_POINTS).save(tmp_path / "board.npz")
    master = make_player(f"learned:{tmp_path / 'board.npz'}:40", seed=1)
    assert isinstance(master, MCTSPlayer) and master.iterations == 40 and master.prior is not None
    assert master.width == make_player("learned:40").width  # type: ignore[attr-defined]
    board, cards = midgame("board", 8), midgame("cards", 8)
    assert master.prior(board, distinct_turns(board, board.legal_steps())) is not None
    assert master.prior(cards, distinct_turns(cards, cards.legal_steps())) is None  # not the shipped card prior
    chosen = master.choose(board.view(board.current_player), board.legal_steps())
    assert chosen in board.legal_steps()


def test_puct_tries_every_turn_then_gives_the_favoured_one_more_visits_the_more_its_share_weighs() -> None:
    game = midgame("board", 9)
    seat, legal = game.current_player, game.legal_steps()
    ranked = candidate_turns(game, legal, 12)  # the plain root's turns, the best-scoring first
    target = ranked[-1]

    def favour_the_last(_world: Game, turns: list[TurnOption] | tuple[TurnOption, ...]) -> list[float]:
        """The plain root's turns, its last one favoured; the others' shares nothing, so the root is the same."""
        return [0.9 if t.steps == target else 0.1 / 11 if t.steps in ranked else 0.0 for t in turns]

    visits = {}
    for prior, puct in ((favour_the_last, 1.0), (favour_the_last, 3.0), (None, 1.0)):
        player = MCTSPlayer(iterations=200, seed=1, prior=prior, puct=puct)
        player.choose(game.view(seat), legal)
        search = player.last_search
        assert search is not None and set(search.options) == set(ranked) and len(ranked) == 12
        assert min(search.visits) >= 1 and sum(search.visits) == 200
        visits[prior is not None, puct] = search.visits[search.options.index(target)]
        if prior is not None:
            assert search.options[0] == target  # the most favoured first
    assert visits[True, 1.0] > 2 * visits[False, 1.0]
    assert visits[True, 3.0] > visits[True, 1.0]  # the share weighed more against the value


def hidden_of(game: Game) -> tuple[object, ...]:
    """What no player sees: the bag's or the deck's order, and every hand."""
    order = game.bag if isinstance(game, BoardGame) else game.deck
    return tuple(order), tuple(tuple(game.hand(seat)) for seat in range(len(game.players)))


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_the_search_with_a_prior_sees_only_the_view(edition: str, tmp_path: Path) -> None:
    prior_of(**{f"{edition}2": np.linspace(1.0, -0.5, len(FEATURES))}).save(tmp_path / "prior.npz")
    game = midgame(edition, 10, 9)
    seat = game.current_player
    chosen = make_player(f"prior:{tmp_path / 'prior.npz'}:40", seed=4).choose(game.view(seat), game.legal_steps())
    worlds = Worlds.around(game, seat)  # keeping the game's history, so the turn begun stays in the view
    for _ in range(3):  # the same view: other bags and other hidden hands
        world = worlds.sample(random.Random(_))
        assert world.view(seat) == game.view(seat)
        assert hidden_of(world) != hidden_of(game)
        player = make_player(f"prior:{tmp_path / 'prior.npz'}:40", seed=4)
        assert player.choose(world.view(seat), world.legal_steps()) == chosen


def test_the_search_plays_whole_games_with_a_prior(tmp_path: Path) -> None:
    prior_of(board2=FAVOUR_POINTS, cards2=FAVOUR_POINTS).save(tmp_path / "prior.npz")
    for edition in ("board", "cards"):
        game = new_game(edition, 2, 6)
        bots = [make_player(f"prior:{tmp_path / 'prior.npz'}:30", seed=1), make_player("greedy", seed=2)]
        results, _record = play(game, bots)
        assert game.is_over() and len(results) == 2


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_roots_hold_each_searched_turns_features_visits_and_values(edition: str) -> None:
    found = roots(edition)
    assert len(found.features) == len(found.visits) == len(found.values) > 10
    for x, v, value in zip(found.features, found.visits, found.values, strict=True):
        assert x.shape == (len(v), len(FEATURES)) and len(v) > 1
        assert v.sum() == 16 and v.min() >= 1  # every kept turn tried, the iterations all counted
        assert value.shape == v.shape and ((value > 0) & (value < 1)).all()
    assert np.ptp(np.concatenate(found.features)[:, 0]) > 0  # turns that score differently


def synthetic_roots(w: np.ndarray, count: int, seed: int) -> Roots:
    """Roots whose visit shares are the softmax of ``w``, and whose values' shares the softmax of ``-w``: what a fit
    to either should find again."""
    rng = np.random.default_rng(seed)
    features = [rng.normal(size=(int(rng.integers(3, 9)), len(FEATURES))) for _ in range(count)]
    values = [0.5 - VALUE_TEMPERATURE * (x @ w) / 10 for x in features]  # small enough to stay in (0, 1)
    return Roots(features, [softmax(x @ w) * 1000 for x in features], values)


def test_the_fit_finds_the_weights_behind_the_visits_and_lowers_held_out_cross_entropy() -> None:
    true = np.linspace(1.5, -1.0, len(FEATURES))
    fitted, held = synthetic_roots(true, 300, 1), synthetic_roots(true, 100, 2)
    w = fit(fitted, 0.0001)
    assert np.allclose(w, true, atol=0.1)
    assert mean_cross_entropy(held, w) < mean_cross_entropy(held, 0 * w) - 0.1
    assert agreement(held, w) > agreement(held, -w)
    chosen, penalty = best_fit(fitted, held, None)
    assert penalty in PENALTIES
    assert mean_cross_entropy(held, chosen) == min(mean_cross_entropy(held, fit(fitted, p)) for p in PENALTIES)
    assert best_fit(fitted, held, 0.5)[1] == 0.5  # a penalty given is used as it is
    x, v = held.features[0], held.visits[0]
    assert cross_entropy(x, v, w) == pytest.approx(float(-(v / v.sum()) @ np.log(softmax(x @ w))))


def test_the_fit_to_the_values_finds_the_weights_behind_them() -> None:
    """Values a tenth of a temperature apart per unit of ``x @ w``: their shares are the softmax of ``-w / 10``."""
    true = np.linspace(1.5, -1.0, len(FEATURES))
    fitted, held = synthetic_roots(true, 300, 1), synthetic_roots(true, 100, 2)
    w = fit(fitted, 0.0001, "values")
    assert np.allclose(w, -true / 10, atol=0.02)
    assert mean_cross_entropy(held, w, "values") < mean_cross_entropy(held, w, "visits")
    shares = held.shares("values")[0]
    assert shares.sum() == pytest.approx(1.0) and np.argmax(shares) == np.argmax(held.values[0])
    with pytest.raises(ValueError, match="visits or values, not 'value'"):
        held.shares("value")


def test_roots_join_in_order_and_no_roots_fit_nothing() -> None:
    first, second = synthetic_roots(FAVOUR_POINTS, 3, 1), synthetic_roots(FAVOUR_POINTS, 2, 2)
    joined = Roots.join([first, second])
    assert len(joined.features) == len(joined.visits) == len(joined.values) == 5
    assert joined.part(slice(3, None)).values[1] is second.values[1]
    none = Roots([], [], [])
    assert (fit(none, 0.01) == 0).all()
    assert np.isnan(mean_cross_entropy(none, FAVOUR_POINTS)) and np.isnan(agreement(none, FAVOUR_POINTS))


def test_the_fit_of_self_play_roots_beats_every_turn_alike() -> None:
    found = roots("board")
    half = len(found.features) // 2
    first, second = found.part(slice(0, half)), found.part(slice(half, None))
    w, _penalty = best_fit(first, second, None)
    assert mean_cross_entropy(second, w) < mean_cross_entropy(second, 0 * w)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("prior:40", "name the prior's file and a budget"),
        ("prior:/no/such/prior.npz:40", "cannot read the prior /no/such/prior.npz"),
        ("learned::40", "name the prior's file and a budget: learned:FILE:BUDGET"),
        ("learned:/no/such/prior.npz:40", "cannot read the prior /no/such/prior.npz"),
    ],
)
def test_a_prior_player_named_wrongly_is_refused_in_words(spec: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


@pytest.mark.parametrize(
    ("spec", "module"), [("prior:p.npz:40", "cafe.ai.prior"), ("net:v.npz:40", "cafe.ai.valuenet")]
)
def test_a_model_without_numpy_names_the_extra_it_needs(
    spec: str, module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as an installed core without numpy imports it
    with pytest.raises(PlayerSpecError, match=r"needs numpy: pip install 'cafe-international\[master\]'"):
        make_player(spec)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--games", "4"], "--games must be at least 5"),
        (["--player", "greedy"], "--player is the search or the master's search at a number of iterations"),
        (["--player", "mcts:1s"], "--player is the search or the master's search at a number of iterations"),
        (["--previous", "/no/such/prior.npz"], "cannot read the prior /no/such/prior.npz"),
        (["--penalty", "-1"], "--penalty must not be negative"),
        (["--net"], "--net and --prior fit different models"),
    ],
)
def test_cafe_train_prior_refuses_bad_settings_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    settings = ["--player", "mcts:5", "--games", "5", "--out", str(tmp_path / "p.npz")]
    assert main(["train", "--prior", *settings, *options]) != 0  # a flag given again: the last one counts
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "p.npz").exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--target", "values"], "--target chooses what the value network or the policy prior learns"),
        (["--prior", "--target", "search"], "with --prior, --target is visits or values"),
        (["--net", "--target", "visits"], "with --net, --target is td or search"),
    ],
)
def test_a_target_the_model_cannot_learn_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    assert main(["train", *options, "--games", "5", "--out", str(tmp_path / "m.npz")]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.training
def test_one_prior_training_iteration_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "prior.npz"
    argv = ["train", "--prior", "--player", "mcts:8", "--games", "5", "--penalty", "0.01", "--jobs", "2"]
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "2-player board games: " in printed and "card games: " in printed and f"written: {out}" in printed
    prior = TurnPrior.load(out)
    assert set(prior.weights) == {"board2", "board4", "cards2"}
    assert prior.about["held_out"]["board2"]["roots"] > 0 and prior.about["held_out"]["cards2"]["penalty"] == 0.01
    again = tmp_path / "again.npz"
    assert main([*argv, "--out", str(again)]) == 0  # the same settings: the same weights
    assert all((w == TurnPrior.load(again).weights[k]).all() for k, w in prior.weights.items())
    by_values = tmp_path / "values.npz"
    assert main([*argv, "--target", "values", "--out", str(by_values)]) == 0
    learned = TurnPrior.load(by_values)
    assert learned.about["command"].endswith("--target values")
    assert any((w != learned.weights[k]).any() for k, w in prior.weights.items())  # the same games, another target
    cards = tmp_path / "cards.npz"  # one edition alone: its games on the seeds they have when all are played
    assert main([*argv, "--edition", "cards", "--out", str(cards)]) == 0
    assert TurnPrior.load(cards).weights.keys() == {"cards2"}
    assert (TurnPrior.load(cards).weights["cards2"] == prior.weights["cards2"]).all()
    mastered = tmp_path / "master.npz"  # the master's search, its root by points
    argv_master = [*argv[:3], "learned:8", *argv[4:], "--edition", "cards", "--target", "values"]
    assert main([*argv_master, "--out", str(mastered)]) == 0
    by_master = TurnPrior.load(mastered)
    assert by_master.weights.keys() == {"cards2"} and "--player learned:8" in by_master.about["command"]
    assert (by_master.weights["cards2"] != learned.weights["cards2"]).any()  # other games than the plain search's
    matched = tmp_path / "matched.npz"
    assert main([*argv, "--match", "1", "--out", str(matched)]) == 0
    printed = capsys.readouterr().out
    assert "2-player board games: the search with the new prior won" in printed
    assert (f"written: {matched}" in printed) == matched.exists() != ("not written" in printed)  # only if better
    rejected = tmp_path / "matched.rejected.npz"  # a prior not kept is saved for study, under another name
    assert matched.exists() != rejected.exists() and (f"as {rejected}" in printed) == rejected.exists()
    assert TurnPrior.load(matched if matched.exists() else rejected).about["match"].keys() == {
        "board-2", "board-4", "cards-2"}  # fmt: skip
    iterated = tmp_path / "iterated.npz"  # the next iteration of the master's: its board prior, its card prior kept
    argv_next = [*argv_master[:-4], "--edition", "board", "--previous", str(mastered)]
    assert main([*argv_next, "--out", str(iterated)]) == 0
    kept = TurnPrior.load(iterated)
    assert kept.weights.keys() == {"board2", "board4", "cards2"}
    assert (kept.weights["cards2"] == by_master.weights["cards2"]).all()
    assert f"--previous {mastered}" in kept.about["command"]
    assert kept.about["previous"]["command"] == by_master.about["command"]
    capsys.readouterr()
    assert main([*argv_next, "--match", "1", "--out", str(tmp_path / "matched-again.npz")]) == 0
    printed = capsys.readouterr().out  # against the master's search with the previous prior, on board games alone
    assert "4-player board games: the search with the new prior won" in printed and "card games:" not in printed
    assert not list(tmp_path.glob("*.candidate"))
