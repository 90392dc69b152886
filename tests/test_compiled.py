"""The engine compiled with mypyc (scripts/compile.py, run by make) or pure Python (CAFE_PURE=1): the one chosen is
the one that runs.  The whole suite runs both ways (make test): behaviour is the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import cafe.ai.mcts
import cafe.board_game
import cafe.envs.observation
from cafe.bench import compiled

ENGINE = Path(cafe.__file__).parent
BUILT = (ENGINE / f"board_game{sysconfig.get_config_var('EXT_SUFFIX')}").exists()


def test_the_engine_runs_compiled_where_it_was_built_unless_pure_is_asked_for() -> None:
    expected = BUILT and not os.environ.get("CAFE_PURE")
    assert compiled() is expected
    for module in (cafe.board_game, cafe.envs.observation, cafe.ai.mcts):  # the engine, an interface's, the search
        assert Path(module.__file__ or "").suffix == (".so" if expected else ".py")


def test_cafe_pure_imports_every_engine_module_from_its_source() -> None:
    script = (
        "import json, sys, cafe, cafe.board_game, cafe.card_game, cafe.view, cafe.envs.actions, cafe.envs.observation,"
        " cafe.ai.mcts\n"
        "print(json.dumps(sorted(m.__file__ for n, m in sys.modules.items() if n.startswith('cafe'))))"
    )
    env = {**os.environ, "CAFE_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert all(path.endswith(".py") for path in json.loads(done.stdout))
