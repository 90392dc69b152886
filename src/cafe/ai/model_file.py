"""The file of a learned model (the master's correction, a value network, a policy prior): named numpy arrays and
``about``, the settings and figures of the run that made it as JSON, in one ``.npz`` that holds no pickles."""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np


def read_model(source: str | Path | Traversable) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays in ``source`` by name, and its ``about``."""
    path = Path(source) if isinstance(source, str) else source
    with path.open("rb") as file, np.load(file, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files if name != "about"}
        return arrays, json.loads(str(data["about"]))


def write_model(path: str | Path, arrays: dict[str, np.ndarray], about: dict[str, Any]) -> None:
    with open(path, "wb") as file:
        np.savez(file, allow_pickle=False, about=np.array(json.dumps(about, sort_keys=True)), **arrays)
