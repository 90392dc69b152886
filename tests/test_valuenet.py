"""The value network (cafe.ai.valuenet): its file, its numpy evaluation against scikit-learn's, what it reads,
its targets, and `cafe train --net` that makes it."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cafe import BoardGame
from cafe.ai.levels import PlayerSpecError, make_player
from cafe.ai.mcts import MCTSPlayer, leads, squash, unsquash
from cafe.ai.valuenet import ValueNet, forward, observation_length, observations
from cafe.ai.worlds import Worlds
from cafe.arena.match import new_game, play, self_play
from cafe.card_game import CardGame
from cafe.cli import main
from cafe.envs.numeric import fill_observation
from cafe.train.net_fit import PENALTIES, best_fit, fit, rms_error
from cafe.train.net_games import DECIDED, Positions, play_positions, td_returns

HIDDEN = 6


@functools.cache
def fitted(edition: str) -> tuple[Positions, Any, Any]:
    """Positions of two short self-play games, and a small network fitted to them (its arrays, and scikit-learn's
    model)."""
    positions = play_positions(edition, 2, [11, 12], 8, 1.0, None)
    layers, model = fit(positions, HIDDEN, 1e-3, 0)
    return positions, layers, model


def net_of(*editions: str) -> ValueNet:
    return ValueNet({e: fitted(e)[1] for e in editions}, {"command": "test"})


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_a_network_file_loads_with_its_documented_shapes(edition: str, tmp_path: Path) -> None:
    net = net_of("board", "cards")
    net.save(tmp_path / "net.npz")
    loaded = ValueNet.load(tmp_path / "net.npz")
    game = new_game(edition, 2, 5)
    w0, b0, w1, b1 = loaded.layers[edition]
    assert (w0.shape, b0.shape, w1.shape, b1.shape) == (
        (observation_length(game), HIDDEN),
        (HIDDEN,),
        (HIDDEN, 1),
        (1,),
    )
    assert all(a.dtype == np.float32 for a in loaded.layers[edition])
    assert loaded.about == {"command": "test"}
    assert loaded.margins(game, random.Random(0)) == net.margins(game, random.Random(0))


def test_arrays_that_do_not_fit_together_are_refused() -> None:
    w0, b0, w1, b1 = fitted("board")[1]
    with pytest.raises(ValueError, match="do not fit together"):
        ValueNet({"board": (w0, b0[:-1], w1, b1)}, {})


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_the_numpy_evaluation_is_scikit_learns_prediction(edition: str) -> None:
    positions, layers, model = fitted(edition)
    rows = positions.observations[::7]
    ours = forward(layers, rows)
    theirs = model.predict(rows) * 20.0  # fitted in units of 20 points (cafe.train.net_fit)
    assert ours.shape == (len(rows),) and np.allclose(ours, theirs, rtol=1e-4, atol=1e-3)
    assert np.ptp(ours) > 0  # it tells positions apart


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_each_seat_is_valued_from_its_own_observation(edition: str) -> None:
    game = new_game(edition, 3, 8)
    rows = observations(game)
    for seat in range(3):
        expected = np.zeros(observation_length(game), np.float32)
        fill_observation(game, seat, expected)
        assert (rows[seat] == expected).all()
    net = net_of(edition)
    corrections = forward(net.layers[edition], rows)  # the final margin predicted less the lead
    expected_margins = [lead + c for lead, c in zip(leads(game, random.Random(0)), corrections, strict=True)]
    assert net.margins(game, random.Random(0)) == pytest.approx(expected_margins)
    assert net.evaluate(game, random.Random(0)) == [squash(m) for m in net.margins(game, random.Random(0))]


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_it_sees_only_the_view_not_the_bag_order_nor_hidden_hands(edition: str) -> None:
    rules = {"preset": "printed", "surprise_guests": True} if edition == "board" else None  # hidden board hands
    game = new_game(edition, 2, 21, rules)
    rng = random.Random(3)
    for _ in range(9):
        game.push(game.random_step(rng))
    net = net_of(edition)
    seat = game.current_player  # its lead counts its own best step: from its own hand
    mine = net.margins(game, random.Random(0))[seat]
    worlds = Worlds(game.view(seat), rng)
    others = []
    for _ in range(5):  # the same view, other bags and other hidden hands
        world = worlds.sample(rng)
        assert net.margins(world, random.Random(0))[seat] == pytest.approx(mine, abs=1e-4)
        others.append(forward(net.layers[edition], observations(world))[1 - seat])
    assert (
        len({round(float(m), 4) for m in others}) > 1
    )  # the other seat sees its own hand: it differs, and so its value


def test_an_edition_without_a_network_or_another_board_is_valued_by_the_lead() -> None:
    net = net_of("board")
    cards = CardGame(2, seed=4)
    assert net.margins(cards, random.Random(1)) == leads(cards, random.Random(1))
    over = BoardGame(2, seed=4)
    rng = random.Random(2)
    while not over.is_over():
        over.push(over.random_step(rng))
    assert net.margins(over, rng) == leads(over, rng)  # a finished game: its final margins


def test_td_returns_mix_the_seats_later_values_into_its_final_margin() -> None:
    # rows 0..2 with values 6, 4 and 2: row 2's return is the final margin, row 1 mixes row 2's value with it,
    # row 0 mixes row 1's value with that
    assert td_returns([6.0, 4.0, 2.0], 10.0, 0.5) == [5.0, 6.0, 10.0]
    assert td_returns([6.0, 4.0, 2.0], 10.0, 1.0) == [10.0, 10.0, 10.0]  # the final margin alone
    assert td_returns([6.0, 4.0, 2.0], 10.0, 0.0) == [4.0, 2.0, 10.0]  # the next value alone
    assert td_returns([], 10.0, 0.5) == []


def test_positions_hold_a_row_per_seat_at_every_turn_start_with_final_margins_as_targets() -> None:
    positions, layers, _model = fitted("board")
    rows = len(positions.targets)
    assert positions.observations.shape[0] == rows == len(positions.leads) == len(positions.finals) and rows % 2 == 0
    assert (positions.targets == positions.finals).all()  # λ = 1: the final margins
    assert positions.leads[0] == -positions.leads[1]  # two players: each one's lead is the other's deficit
    assert set(np.round(positions.finals[0::2] + positions.finals[1::2], 6)) == {0.0}  # two players: they cancel
    assert rms_error(None, positions) == pytest.approx(np.sqrt(np.mean((positions.leads - positions.finals) ** 2)))
    assert rms_error(layers, positions) != rms_error(None, positions)
    assert rms_error(None, positions, positions.leads) == 0.0  # measured against another truth: the leads here


def test_with_lambda_zero_a_rows_target_is_the_seats_lead_at_its_next_row() -> None:
    positions = play_positions("board", 2, [13], 8, 0.0, None)  # one game: rows alternate seat 0, seat 1
    targets, row_leads = positions.targets.reshape(-1, 2), positions.leads.reshape(-1, 2)
    assert (targets[:-1] == row_leads[1:]).all()  # the search values by the lead: the next row's is the target
    assert (targets[-1] == positions.finals[-2:]).all()  # the last row's: the final margins


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_searched_targets_are_the_movers_values_of_the_turns_its_search_played(edition: str) -> None:
    positions = play_positions(edition, 2, [14], 30, 0.9, None, searched=True)
    game, bots = self_play("mcts:30", edition, 2, 14)  # the same game again, watching each search
    expected: list[tuple[float, float, np.ndarray]] = []
    turn_start = True
    while not game.is_over():
        seat = game.current_player
        bot, before = bots[seat], getattr(bots[seat], "last_search", None)
        lead, row = leads(game, random.Random(14))[seat], observations(game)[seat]
        step = bot.choose(game.view(seat), game.legal_steps())
        search = getattr(bot, "last_search", None)
        if turn_start and search is not None and search is not before:
            value = search.values[search.chosen]
            assert search.visits[search.chosen] == max(search.visits)  # the turn played: the most visited
            if 1 - DECIDED < value < DECIDED:
                expected.append((unsquash(value), lead, row))
        turn_start = game.push(step).turn_over
    assert 10 < len(expected) == len(positions.targets)  # a row per searched turn, the mover's alone
    assert positions.targets.tolist() == pytest.approx([target for target, _lead, _row in expected])
    assert positions.leads.tolist() == [lead for _target, lead, _row in expected]
    assert (positions.observations == np.array([row for _t, _l, row in expected])).all()
    assert set(np.abs(positions.finals)) == {abs(leads(game, random.Random(14))[0])}  # each row: its seat's final
    assert (np.abs(positions.targets) < unsquash(DECIDED)).all()
    assert unsquash(squash(12.5)) == pytest.approx(12.5)


def test_the_fit_kept_is_the_one_best_on_held_out_games_or_none_at_all() -> None:
    positions, _layers, _model = fitted("board")
    half = len(positions.targets) // 2
    first, second = (Positions(*(getattr(positions, f)[part] for f in ("observations", "targets", "leads", "finals")))
                     for part in (slice(0, half), slice(half, None)))  # fmt: skip
    chosen, penalty = best_fit(first, second, HIDDEN, None, 0)
    options = [rms_error(fit(first, HIDDEN, p, 0)[0], second) for p in PENALTIES] + [rms_error(None, second)]
    assert rms_error(chosen, second) == min(options)
    assert (chosen is None) == (penalty is None) == (min(options) == options[-1])
    assert best_fit(first, second, HIDDEN, 0.5, 0)[1] == 0.5  # a penalty given is used as it is


def test_the_search_plays_whole_games_valuing_its_leaves_by_a_network(tmp_path: Path) -> None:
    net_of("board", "cards").save(tmp_path / "net.npz")
    for edition in ("board", "cards"):
        game = new_game(edition, 2, 6)
        bots = [make_player(f"net:{tmp_path / 'net.npz'}:30", seed=1), make_player("greedy", seed=2)]
        assert isinstance(bots[0], MCTSPlayer)
        results, _record = play(game, bots)
        assert game.is_over() and len(results) == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("net:40", "name the network's file and a budget"),
        ("net:/no/such/net.npz:40", "cannot read the network /no/such/net.npz"),
    ],
)
def test_a_network_player_named_wrongly_is_refused_in_words(spec: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--games", "4"], "--games must be at least 5"),
        (["--player", "greedy"], "--player is the search at a number of iterations"),
        (["--lam", "1.5"], "--lam must be between 0 and 1"),
        (["--previous", "/no/such/net.npz"], "no network file /no/such/net.npz"),
        (["--hidden", "0"], "--hidden must be at least 1"),
    ],
)
def test_cafe_train_net_refuses_bad_settings_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    settings = {"--player": "mcts:5", "--games": "5", "--out": str(tmp_path / "n.npz")}
    for flag, value in zip(options[::2], options[1::2], strict=True):
        settings[flag] = value
    assert main(["train", "--net", *(item for pair in settings.items() for item in pair)]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "n.npz").exists()


@pytest.mark.training
def test_one_training_iteration_end_to_end_then_the_next_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first.npz"
    argv = ["train", "--net", "--player", "mcts:8", "--games", "5", "--hidden", "8", "--penalty", "0.01", "--jobs", "2"]
    assert main([*argv, "--out", str(first)]) == 0
    printed = capsys.readouterr().out
    assert "board:" in printed and "cards:" in printed and f"written: {first}" in printed
    net = ValueNet.load(first)
    assert net.about["lam"] == 0.9 and net.about["held_out_rms"]["board"]["rows"] > 0
    assert set(net.layers) == {"board", "cards"} and net.about["held_out_rms"]["cards"]["penalty"] == 0.01
    again = tmp_path / "again.npz"
    assert main([*argv, "--out", str(again)]) == 0  # the same settings: the same network
    assert all(
        (a == b).all()
        for e in ("board", "cards")
        for a, b in zip(net.layers[e], ValueNet.load(again).layers[e], strict=True)
    )
    searched = tmp_path / "searched.npz"
    assert main([*argv, "--target", "search", "--out", str(searched)]) == 0
    about = ValueNet.load(searched).about
    assert about["target"] == "search" and "--target search" in about["command"]
    assert about["held_out_rms"]["board"]["targets"]["lead"] != about["held_out_rms"]["board"]["lead"]
    assert about["held_out_rms"]["board"]["rows"] < net.about["held_out_rms"]["board"]["rows"]  # the mover's alone
    second = tmp_path / "second.npz"
    assert main([*argv, "--previous", str(first), "--match", "1", "--out", str(second)]) == 0
    printed = capsys.readouterr().out
    assert "2-player board games: the new network won" in printed and "card games: the new network won" in printed
    assert (f"written: {second}" in printed) == second.exists() != ("not written" in printed)  # only if better
    rejected = tmp_path / "second.rejected.npz"  # a network not kept is saved for study, under another name
    assert second.exists() != rejected.exists() and (f"as {rejected}" in printed) == rejected.exists()
    assert "match" in ValueNet.load(second if second.exists() else rejected).about
    assert not list(tmp_path.glob("*.candidate"))
