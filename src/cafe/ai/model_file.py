"""The file of a learned model (the master's correction, a value network, a policy prior): named numpy arrays and
``about``, the settings and figures of the run that made it as JSON, in one ``.npz`` that holds no pickles."""

from __future__ import annotations

import functools
import json
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np


class Model(Protocol):
    @classmethod
    def load(cls, path: str | Path) -> Any: ...


M = TypeVar("M", bound=Model)


def read_model(source: str | Path | Traversable) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays in ``source`` by name, and its ``about``."""
    path = Path(source) if isinstance(source, str) else source
    with path.open("rb") as file, np.load(file, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files if name != "about"}
        return arrays, json.loads(str(data["about"]))


def write_model(path: str | Path, arrays: dict[str, np.ndarray], about: dict[str, Any]) -> None:
    with open(path, "wb") as file:
        np.savez(file, allow_pickle=False, about=np.array(json.dumps(about, sort_keys=True)), **arrays)


@functools.lru_cache(maxsize=8)
def load_once(kind: type[M], path: str) -> M:
    """The model of ``kind`` in ``path``, read once per process (an arena makes a player for every game)."""
    model: M = kind.load(path)
    return model
