"""The master's learned evaluation: the shipped file, the numbers it reads, and `cafe train` that makes it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cafe import BoardGame
from cafe.ai.learned import EDITIONS, ValueModel, feature_count, features, shipped
from cafe.ai.levels import make_player
from cafe.ai.mcts import MCTSPlayer, evaluate, leads, squash
from cafe.arena.match import play
from cafe.card_game import CardGame
from cafe.cli import build_parser, main
from cafe.envs.numeric import fill_observation
from cafe.envs.observation import observation_size
from cafe.train.command import fill_defaults
from cafe.train.fit import PENALTIES, best_fit, ridge, rms
from cafe.train.positions import Sums, play_games
from test_ai import positions


def test_the_shipped_model_loads_with_the_documented_shapes() -> None:
    model = shipped()
    assert {e: model.weights[e].shape for e in EDITIONS} == {"board": (269,), "cards": (311,)}
    assert all(np.isfinite(model.weights[e]).all() for e in EDITIONS)
    assert model.about["command"].startswith("cafe train ")
    assert model.about["sets"] == ["board-2", "board-4"]  # the card game's correction plays worse: none ships
    assert model.about["penalty"]["cards"] is None and not model.weights["cards"].any()
    held_out = model.about["held_out_rms"]["board"]  # kept as it predicts games it was not fitted on better
    assert held_out["corrected"] < held_out["lead"]
    assert model.weights["board"].any()


@pytest.mark.parametrize(("edition", "rules"), [("board", "printed"), ("cards", "printed")])
def test_features_are_the_observation_tail_then_scaled_by_what_is_left_to_draw(edition: str, rules: Any) -> None:
    for k, game in enumerate(positions(edition, rules, games=6, seed=3)):
        if k % 7:
            continue
        seat = k % len(game.players)
        numbers = features(game, seat)
        assert len(numbers) == feature_count(edition)
        observation = np.zeros(observation_size(game.view(0)), np.float32)
        fill_observation(game, seat, observation)
        tail = (len(numbers) - 5) // 2
        assert np.allclose(numbers[:tail], observation[-tail:])  # what the seat sees, nothing more
        to_draw = game.bag_count() / 100 if isinstance(game, BoardGame) else game.deck_count() / 96
        assert np.allclose(numbers[tail : 2 * tail], np.array(numbers[:tail]) * to_draw)
        assert numbers[2 * tail + len(game.players) - 2] == 1.0 and sum(numbers[2 * tail : -1]) == 1.0
        assert numbers[-1] == 1.0


def test_features_read_only_the_hands_the_seat_may_see() -> None:
    hands = [["USAm", "USAf", "GERm", "INDf", "JOKm"], ["FRAm", "FRAf", "ITAm", "CUBf", "RUSm"]]
    other = [hands[0], ["CHNm", "CHNf", "ITAf", "CUBm", "RUSf"]]
    hidden = {"preset": "printed", "surprise_guests": True}  # hands are hidden with surprise guests
    one = BoardGame.from_position(2, hands, rules=hidden, seed=1)
    two = BoardGame.from_position(2, other, rules=hidden, seed=2)
    assert features(one, 0) == features(two, 0)
    assert features(one, 1) != features(two, 1)


def test_zero_weights_value_a_position_as_the_expert_does() -> None:
    zero = ValueModel({e: np.zeros(feature_count(e)) for e in EDITIONS}, {})
    for k, game in enumerate(positions("board", "printed", games=3, seed=4)):
        if k % 11 == 0:
            assert zero.evaluate(game, random.Random(k)) == evaluate(game, random.Random(k))


def test_the_correction_moves_each_seat_by_its_own_prediction() -> None:
    weights = {e: np.zeros(feature_count(e)) for e in EDITIONS}
    weights["board"][0] = 20.0  # 20 points per stool taken / 20: one point per stool, for every seat alike
    model = ValueModel(weights, {})
    game = BoardGame.from_position(2, [["USAm"], ["USAf"]], bar=["GERm", "GERf", "INDm"], scores=[5, 1])
    lead = leads(game, random.Random(0))
    assert model.corrections(game).tolist() == [3.0, 3.0]
    assert model.evaluate(game, random.Random(0)) == [squash(lead[0] + 3.0), squash(lead[1] + 3.0)]


def test_a_finished_game_is_valued_by_its_final_margins() -> None:
    game = positions_to_the_end(CardGame(2, seed=5))
    values = shipped().evaluate(game, random.Random(0))
    margin = game.scores[0] - game.scores[1]
    assert values == pytest.approx([squash(margin), squash(-margin)])


def positions_to_the_end(game: CardGame) -> CardGame:
    rng = random.Random(1)
    while not game.is_over():
        game.push(game.random_step(rng))
    return game


def test_a_model_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"board weights have shape \(3,\)"):
        ValueModel({"board": np.zeros(3), "cards": np.zeros(feature_count("cards"))}, {})
    model = ValueModel({e: np.arange(feature_count(e), dtype=float) for e in EDITIONS}, {"note": "round trip"})
    model.save(tmp_path / "m.npz")
    again = ValueModel.load(tmp_path / "m.npz")
    assert again.about == {"note": "round trip"}
    assert all((again.weights[e] == model.weights[e]).all() for e in EDITIONS)


def test_the_sums_fit_as_least_squares_on_the_rows() -> None:
    rng = np.random.default_rng(0)
    n = feature_count("board")
    x, y = rng.normal(size=(400, n)), rng.normal(size=400)
    sums = Sums(x.T @ x, x.T @ y, float(y @ y), 400)
    exact = np.linalg.lstsq(x, y, rcond=None)[0]
    assert np.allclose(ridge(sums, 0.0), exact, atol=1e-6)
    assert rms(sums, exact) == pytest.approx(float(np.sqrt(np.mean((x @ exact - y) ** 2))))
    assert np.linalg.norm(ridge(sums, 1.0)[:-1]) < np.linalg.norm(exact[:-1])  # the penalty shrinks


def test_the_penalty_is_the_one_best_on_held_out_rows_or_none_at_all() -> None:
    rng = np.random.default_rng(1)
    n = feature_count("board")

    def sums(rows: int, truth: np.ndarray) -> Sums:
        x = rng.normal(size=(rows, n))
        y = x @ truth + rng.normal(scale=3.0, size=rows)
        return Sums(x.T @ x, x.T @ y, float(y @ y), rows)

    truth = np.zeros(n)
    truth[:3] = [2.0, -1.0, 0.5]
    fitted, held = sums(300, truth), sums(3000, truth)  # few rows for many weights: unpenalised, it learns noise
    weights, penalty = best_fit(fitted, held)
    assert penalty is not None and penalty > PENALTIES[0]
    assert rms(held, weights) < min(rms(held, ridge(fitted, PENALTIES[0])), rms(held, 0 * weights))
    noise = np.zeros(n)  # nothing to learn: no fit predicts the held-out rows better than the lead
    weights, penalty = best_fit(sums(300, noise), sums(3000, noise))
    assert penalty is None and not weights.any()


def test_positions_of_a_game_target_its_final_margins() -> None:
    sums = play_games("board", 2, [7], "greedy")
    assert sums.rows % 2 == 0 and sums.rows > 20
    assert sums.xx[-1, -1] == sums.rows  # the constant feature, once per row
    assert sums.xy[-1] == pytest.approx(0.0)  # two players: the seats' targets cancel at every turn start


def test_cafe_train_writes_a_model_the_master_can_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "model.npz"
    assert main(["train", "--games", "2", "--out", str(out), "--jobs", "1"]) == 0  # greedy games by default
    printed = capsys.readouterr().out
    assert "board:" in printed and "cards:" in printed and str(out) in printed
    model = ValueModel.load(out)
    assert model.about["command"] == "cafe train --player greedy --games 2 --seed 0"
    assert set(model.about["penalty"].values()) <= {*PENALTIES, None}
    assert model.about["rows"]["board"] > 0 and model.about["rows"]["cards"] > 0
    again = tmp_path / "again.npz"
    assert main(["train", "--player", "greedy", "--games", "2", "--out", str(again), "--jobs", "1"]) == 0
    assert all((ValueModel.load(again).weights[e] == model.weights[e]).all() for e in EDITIONS)  # from seeds
    board = tmp_path / "board.npz"
    argv = ["train", "--player", "greedy", "--games", "2", "--edition", "board", "--out", str(board), "--jobs", "1"]
    assert main(argv) == 0
    assert "cards: not played" in capsys.readouterr().out
    alone = ValueModel.load(board)
    assert (alone.weights["board"] == model.weights["board"]).all()  # the same games, the same fit
    assert not alone.weights["cards"].any() and alone.about["rows"]["cards"] == 0
    assert alone.about["command"].endswith("--edition board") and alone.about["sets"] == ["board-2", "board-4"]


@pytest.mark.parametrize(
    ("options", "player", "games"),
    [
        ([], "greedy", 2000),
        (["--net"], "mcts:100", 600),
        (["--prior"], "mcts:100", 600),
        (["--games", "9"], "greedy", 9),
    ],
)
def test_each_model_is_made_by_default_from_its_own_self_play(options: list[str], player: str, games: int) -> None:
    args = build_parser().parse_args(["train", "--out", "m.npz", *options])
    fill_defaults(args)
    assert (args.player, args.games) == (player, games)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--games", "1"], "--games must be at least 2"),
        (["--penalty", "-1"], "--penalty must not be negative"),
        (["--player", "champion"], "unknown player 'champion'"),
        (["--out", "/no/such/folder/m.npz"], "no folder /no/such/folder"),
    ],
)
def test_cafe_train_refuses_bad_settings_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    settings = {"--player": "greedy", "--games": "2", "--out": str(tmp_path / "m.npz")}
    for flag, value in zip(options[::2], options[1::2], strict=True):
        settings[flag] = value
    argv = ["train", *(item for pair in settings.items() for item in pair)]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "m.npz").exists()


def test_the_value_network_is_fitted_for_both_editions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "net.npz"
    assert main(["train", "--net", "--edition", "cards", "--games", "2", "--out", str(out)]) != 0
    err = capsys.readouterr().err
    assert "--edition chooses the edition of the learned correction" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.training
def test_training_end_to_end_then_the_master_plays_with_what_it_learned(tmp_path: Path) -> None:
    out = tmp_path / "model.npz"
    assert main(["train", "--player", "mcts:10", "--games", "5", "--out", str(out), "--jobs", "2"]) == 0
    model = ValueModel.load(out)
    about = json.loads(json.dumps(model.about))
    assert about["rows"]["board"] > about["rows"]["cards"] > 0
    for edition in ("board", "cards"):
        game = BoardGame(2, seed=3) if edition == "board" else CardGame(2, seed=3)
        bots = [MCTSPlayer(None, iterations=20, seed=1, evaluation=model.evaluate), make_player("greedy", seed=2)]
        results, record = play(game, bots)
        assert game.is_over() and len(results) == 2 and record["turns"]
