"""Self-play shards: Parquet files of rows (see docs/research.md), written whole or not at all, and read back as
numpy arrays.

A run's folder holds ``run.json`` (its settings) and ``shard-NNNNNN.parquet`` files, shard ``i`` holding the
games ``i * shard_games`` up to the next shard's first.  A shard is written to a temporary name and renamed, so
a file that exists is complete: a run started again with the same settings plays only the missing shards.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from cafe.arena.match import new_game
from cafe.envs.actions import actions_of
from cafe.envs.observation import observation_size
from cafe.errors import CafeError
from cafe.i18n import T
from cafe.selfplay.games import play_game

SCHEMA = pa.schema(
    [
        ("game", pa.int64()),  # the game's seed
        ("ply", pa.int32()),  # steps played before this one
        ("seat", pa.int8()),  # the mover
        ("observation", pa.list_(pa.float32())),  # the mover's observation vector (cafe.envs.observation)
        ("legal", pa.list_(pa.int32())),  # the legal actions (cafe.envs.actions), in the engine's order
        ("policy", pa.list_(pa.float32())),  # the search's visit share of each legal action
        ("value", pa.float32()),  # the search's value of the position to the mover, in (0, 1); NaN: no search
        ("action", pa.int32()),  # the action chosen
        ("margins", pa.list_(pa.float32())),  # each seat's final score minus the best of the others'
    ]
)


@dataclass(frozen=True)
class Run:
    """What a self-play run plays: ``games`` games of ``player`` in every seat, from ``seed`` on."""

    player: str
    games: int
    edition: str = "board"
    players: int = 2
    seed: int = 0
    shard_games: int = 25
    rules: Any = None

    @property
    def shards(self) -> int:
        return -(-self.games // self.shard_games)

    def games_of(self, shard: int) -> range:
        first = shard * self.shard_games
        return range(self.seed + first, self.seed + min(first + self.shard_games, self.games))


def shard_path(folder: Path, shard: int) -> Path:
    return folder / f"shard-{shard:06d}.parquet"


def prepare(folder: Path, run: Run) -> list[int]:
    """Make the folder ready for ``run``; the shards still to play (those not written yet)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / "run.json"
        settings = asdict(run)
        if manifest.exists():
            earlier = json.loads(manifest.read_text())
            if earlier != settings:
                raise CafeError(
                    T("{folder} holds another run's shards ({earlier}); choose another folder", folder=str(folder),
                      earlier=", ".join(f"{k}={v}" for k, v in earlier.items() if settings.get(k) != v))
                )  # fmt: skip
        else:
            _write_atomically(manifest, (json.dumps(settings, indent=1) + "\n").encode())
    except OSError as error:
        raise CafeError(T("cannot write to {folder}: {reason}", folder=str(folder), reason=error.strerror)) from None
    return [shard for shard in range(run.shards) if not shard_path(folder, shard).exists()]


def play_shard(run: Run, shard: int) -> tuple[int, bytes]:
    """Play a shard's games; the shard as Parquet bytes (a worker of a cluster need not share the folder)."""
    rows = [
        row for seed in run.games_of(shard) for row in play_game(run.player, run.edition, run.players, seed, run.rules)
    ]
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    game = new_game(run.edition, [f"P{p}" for p in range(run.players)], 0, run.rules)
    meta = {
        "edition": run.edition, "players": str(run.players), "player": run.player,
        "observation_size": str(observation_size(game.view(0))), "actions": str(actions_of(game).n),
    }  # fmt: skip
    table = table.replace_schema_metadata(meta)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return shard, sink.getvalue().to_pybytes()


def write_shard(folder: Path, shard: int, data: bytes) -> None:
    try:
        _write_atomically(shard_path(folder, shard), data)
    except OSError as error:
        raise CafeError(T("cannot write to {folder}: {reason}", folder=str(folder), reason=error.strerror)) from None


def _write_atomically(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def load(folder: Path | str) -> dict[str, np.ndarray]:
    """Every shard of a folder as arrays for training: ``observations`` (rows x observation size, float32),
    ``masks`` (rows x actions, bool), ``policies`` (rows x actions, float32), and per row ``values``,
    ``actions``, ``seats``, ``games``, ``plies``, and ``margins`` (rows x players)."""
    paths = sorted(Path(folder).glob("shard-*.parquet"))
    if not paths:
        raise CafeError(T("no shards in {folder}", folder=str(folder)))
    table = pa.concat_tables(pq.read_table(path) for path in paths)
    meta = table.schema.metadata or {}
    size, actions = int(meta[b"observation_size"]), int(meta[b"actions"])
    rows = table.num_rows
    legal = table.column("legal").combine_chunks()
    lengths = legal.value_lengths().to_numpy()
    at = np.repeat(np.arange(rows), lengths)
    flat = legal.flatten().to_numpy()
    masks = np.zeros((rows, actions), np.bool_)
    masks[at, flat] = True
    policies = np.zeros((rows, actions), np.float32)
    policies[at, flat] = table.column("policy").combine_chunks().flatten().to_numpy()
    observations = table.column("observation").combine_chunks().flatten().to_numpy().reshape(rows, size)
    margins = table.column("margins").combine_chunks().flatten().to_numpy().reshape(rows, -1)
    return {
        "observations": observations, "masks": masks, "policies": policies, "margins": margins,
        "values": table.column("value").to_numpy(), "actions": table.column("action").to_numpy(),
        "seats": table.column("seat").to_numpy(), "games": table.column("game").to_numpy(),
        "plies": table.column("ply").to_numpy(),
    }  # fmt: skip
