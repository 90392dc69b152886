"""cafe selfplay on this machine: shards of every chosen step, read back as arrays; a run finished after a stop."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cafe import BoardGame
from cafe.card_game import CardGame
from cafe.cli import main
from cafe.envs.actions import actions_of
from cafe.envs.observation import observation_size
from cafe.selfplay.shards import load, shard_path


def selfplay(out: Path, *options: str) -> int:
    return main(["selfplay", "--out", str(out), "--jobs", "1", *options])


@pytest.mark.parametrize("edition", ["board", "cards"])
def test_shards_hold_every_chosen_step_with_shapes_of_the_encodings(tmp_path: Path, edition: str) -> None:
    assert selfplay(tmp_path, "--player", "mcts:15", "--games", "3", "--shard-games", "2", "--edition", edition) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json", "shard-000000.parquet", "shard-000001.parquet"]
    data = load(tmp_path)
    game = BoardGame(2, seed=0) if edition == "board" else CardGame(2, seed=0)
    rows, size, actions = len(data["actions"]), observation_size(game.view(0)), actions_of(game).n
    assert data["observations"].shape == (rows, size) and data["observations"].dtype == np.float32
    assert data["masks"].shape == data["policies"].shape == (rows, actions)
    assert data["margins"].shape == (rows, 2) and sorted(set(data["games"].tolist())) == [0, 1, 2]
    assert data["masks"][np.arange(rows), data["actions"]].all()  # the chosen action was legal
    assert not (data["policies"] * ~data["masks"]).any()  # visits only on legal actions
    assert np.allclose(data["policies"].sum(axis=1), 1.0)
    searched = ~np.isnan(data["values"])
    assert searched.any() and ((data["values"][searched] > 0) & (data["values"][searched] < 1)).all()
    for g in range(3):  # each game's steps once, in order; its margins are those of the end, zero-sum for two
        plies = data["plies"][data["games"] == g]
        assert plies.tolist() == sorted(set(plies.tolist()))
        margins = data["margins"][data["games"] == g]
        assert (margins == margins[0]).all() and margins[0].sum() == 0


def test_a_run_started_again_plays_only_the_missing_shards(tmp_path: Path) -> None:
    options = ("--player", "greedy", "--games", "5", "--shard-games", "2")
    assert selfplay(tmp_path, *options) == 0
    first = {p.name: p.read_bytes() for p in tmp_path.glob("shard-*")}
    shard_path(tmp_path, 1).unlink()  # as if the run had stopped before writing it
    kept = shard_path(tmp_path, 0).stat().st_mtime_ns
    assert selfplay(tmp_path, *options) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.glob("shard-*")} == first  # the same games again
    assert shard_path(tmp_path, 0).stat().st_mtime_ns == kept  # a finished shard is not played again
    assert sorted(set(load(tmp_path)["games"].tolist())) == [0, 1, 2, 3, 4]


def test_bad_input_gets_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay(tmp_path, "--player", "greedy", "--games", "2") == 0
    assert selfplay(tmp_path, "--player", "random", "--games", "2") == 1
    assert "holds another run's shards (player=greedy)" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert selfplay(blocker / "out", "--player", "greedy", "--games", "1") == 1
    assert "cannot write to" in capsys.readouterr().err
    assert selfplay(tmp_path / "x", "--player", "nosuch", "--games", "1") == 1
    err = capsys.readouterr().err
    assert "unknown player 'nosuch'" in err and len(err.strip().splitlines()) == 1
    assert main(["arena", "greedy", "random", "--cluster", "spark://x"]) == 1
    assert "--cluster takes ray or ray://HOST:PORT" in capsys.readouterr().err
