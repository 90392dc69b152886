"""The package's layers are one-way: no module imports, even lazily, one that imports it back; no module imports
one of a layer above its own; the rules know nothing of their renderings; the players' registry does not reach up
into the research adapters."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).parent.parent / "src"


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(SRC).with_suffix("").parts)
    return name.removesuffix(".__init__")


def imported(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports anywhere (in functions too), leaving out ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
    return out & modules


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in (SRC / "cafe").rglob("*.py")}
    modules = set(paths)
    return {name: imported(path, modules) - {name} for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# The layers from the bottom: the rules and what they stand on (every module of cafe not named here), the players,
# what stands on one player (the research interfaces, the engine protocol, the terminal game), the machines games
# are spread over, the arena that plays many games, tournaments (their pairing, scoring and standings, no server in
# them), what teaches the game (how to play, lessons, puzzles), what learns from games or serves them (self-play,
# training, the café), and the command line.  A package imports its own modules and those of layers below it only.
LAYERS = (
    ("cafe.ai",),
    ("cafe.envs", "cafe.engine", "cafe.play"),
    ("cafe.cluster",),
    ("cafe.arena",),
    ("cafe.tournament",),
    ("cafe.learn",),
    ("cafe.selfplay", "cafe.train", "cafe.server", "cafe.bot"),
    ("cafe.cli",),
    ("cafe.__main__",),
)


def part(module: str) -> tuple[int, str]:
    """The layer of ``module`` (0: the rules) and the package (or module) of that layer it belongs to."""
    for level, parts in enumerate(LAYERS, start=1):
        for name in parts:
            if module == name or module.startswith(name + "."):
                return level, name
    return 0, "cafe"


def reaching_up(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports from a module to one of a higher layer, or to another package of its own layer."""
    found = []
    for source, targets in sorted(graph.items()):
        level, name = part(source)
        for target in sorted(targets):
            other_level, other = part(target)
            if other_level > level or (other_level == level and other != name):
                found.append((source, target))
    return found


def test_no_module_imports_one_of_a_layer_above() -> None:
    assert reaching_up(import_graph()) == []


def test_the_check_would_see_an_import_reaching_up() -> None:
    graph = {
        "cafe.ai.learned": {"cafe.envs.observation", "cafe.features"},
        "cafe.ai.levels": {"cafe.engine.client", "cafe.ai.mcts"},
        "cafe.engine.client": {"cafe.ai.levels", "cafe.view"},
        "cafe.envs.numeric": {"cafe.play.terminal"},
        "cafe.view": {"cafe.layout"},
    }
    assert reaching_up(graph) == [
        ("cafe.ai.learned", "cafe.envs.observation"),
        ("cafe.ai.levels", "cafe.engine.client"),
        ("cafe.envs.numeric", "cafe.play.terminal"),
    ]


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert cycles(import_graph()) == []


def test_the_check_would_see_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_rules_know_nothing_of_their_renderings_and_views_nothing_of_the_games() -> None:
    graph = import_graph()
    for rules in ("cafe.game", "cafe.board_game", "cafe.card_game", "cafe.board_state", "cafe.card_state"):
        assert not graph[rules] & {"cafe.svg", "cafe.text"}, rules
    assert not graph["cafe.view"] & {"cafe.game", "cafe.board_game", "cafe.card_game"}
    assert not any(name.startswith("cafe.envs") for name in graph["cafe.ai.levels"])


def test_playing_a_game_loads_neither_renderer_nor_adapter() -> None:
    script = (
        "import sys; from cafe import BoardGame, CardGame\n"
        "for game in (BoardGame(4, seed=1), CardGame(3, seed=1)):\n"
        "    while not game.is_over(): game.push(game.legal_steps()[0])\n"
        "    game.view(0)\n"
        "import json; print(json.dumps(sorted(m for m in sys.modules if m.startswith('cafe'))))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    assert {"cafe.board_game", "cafe.card_game", "cafe.view"} <= loaded
    assert not loaded & {"cafe.svg", "cafe.text", "cafe.ai.levels"} and not any("envs" in m for m in loaded)


# The café's server from the top: the gateway (connections and their messages) calls the tables (the rooms held and
# changed) and the due work (computer players, clocks, the sweeper), which call the storage; a lower part tells an
# upper one through the hooks it was given, never by importing it.
SERVER_PARTS = ("cafe.server.gateway", "cafe.server.chores", "cafe.server.tables", "cafe.server.storage")


def reached(graph: dict[str, set[str]], module: str) -> set[str]:
    """Every module that ``module`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for target in graph.get(todo.pop(), set()) - seen:
            seen.add(target)
            todo.append(target)
    return seen


def server_reaching_up(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports, direct or not, from a part of the server to a part above it (or to the old hub)."""
    found = []
    for source in sorted(graph):
        level = next((k for k, p in enumerate(SERVER_PARTS) if source == p or source.startswith(p + ".")), None)
        if level is None:
            continue
        above = {*SERVER_PARTS[:level], "cafe.server.hub"}
        found += [(source, target) for target in sorted(reached(graph, source)) if target in above]
    return found


def test_the_server_calls_down_from_gateway_to_tables_to_storage() -> None:
    graph = import_graph()
    storage = [name for name in graph if name.startswith("cafe.server.storage.")]
    assert {"cafe.server.storage.store", "cafe.server.storage.postgres"} <= set(storage)
    assert not any(name.endswith("_rows") for name in set(graph) - set(storage))  # every table's rows are there
    assert "cafe.server.gateway" in reached(graph, "cafe.server.app")
    assert server_reaching_up(graph) == []


def test_the_check_would_see_the_server_reaching_up() -> None:
    graph = {
        "cafe.server.gateway": {"cafe.server.tables"},
        "cafe.server.tables": {"cafe.server.rooms"},
        "cafe.server.rooms": {"cafe.server.gateway"},  # the tables reach the gateway through the rooms
        "cafe.server.storage.store": {"cafe.server.hub"},
        "cafe.server.hub": set(),
    }
    assert server_reaching_up(graph) == [
        ("cafe.server.storage.store", "cafe.server.hub"),
        ("cafe.server.tables", "cafe.server.gateway"),
    ]
