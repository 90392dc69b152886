"""The user docs cite tests by name; every cited test must exist."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_test_cited_in_the_rules_page_exists() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    cited = set(re.findall(r"`(test_[a-z0-9_*]+)`", text))
    defined = {
        m for f in (ROOT / "tests").glob("test_*.py") for m in re.findall(r"^def (test_\w+)", f.read_text(), re.M)
    }
    assert len(cited) >= 25
    missing = [name for name in cited if not fnmatch.filter(defined, name)]
    assert missing == []


def test_every_rule_section_of_the_engine_is_documented() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    source = (ROOT / "src" / "cafe" / "board_game.py").read_text()
    source += (ROOT / "src" / "cafe" / "card_game.py").read_text()
    rules_used = set(re.findall(r'"(R[24](?:\.\d)+)"', source))
    sections = {r if r.count(".") == 1 else r.rsplit(".", 1)[0] for r in rules_used}
    for rule in sorted(rules_used | sections):
        assert rule in text, rule


def test_tests_cited_by_path_exist() -> None:
    for page in (ROOT / "docs").glob("*.md"):
        for path, name in re.findall(r"(tests/\w+\.py)::(test_\w+)", page.read_text()):
            assert re.search(rf"^def {name}\(", (ROOT / path).read_text(), re.M), f"{page.name}: {path}::{name}"


def test_every_player_string_in_the_players_page_names_a_player() -> None:
    from cafe.ai.levels import make_player

    text = (ROOT / "docs" / "players.md").read_text()
    table = text.split("## The bots", 1)[1].split("###", 1)[0]
    specs = {s for row in re.findall(r"^\| (.+?) \|", table, re.M) for s in re.findall(r"`([^`]+)`", row)}
    specs -= {"cmd:COMMAND", "net:FILE:BUDGET", "prior:FILE:BUDGET", "learned:FILE:BUDGET"}  # files of one's own
    assert {"random", "greedy", "mcts", "easy", "expert", "mcts:2000"} <= specs
    for spec in specs:
        make_player(spec)


def test_every_command_in_the_engine_page_is_understood() -> None:
    from cafe.engine.server import EngineSession

    text = (ROOT / "docs" / "engine.md").read_text()
    commands = {m.split()[0] for m in re.findall(r"^\| `([^`]+)` \|", text, re.M)}
    assert commands == {"cep", "isready", "setoption", "newgame", "position", "go", "quit"}
    session = EngineSession("random")
    for command in commands - {"quit"}:
        answers, going = session.handle(command)
        assert going and not any(a.startswith("error unknown command") for a in answers)


def test_every_message_type_and_error_code_of_the_server_is_documented() -> None:
    from cafe.server import gateway

    text = (ROOT / "docs" / "protocol.md").read_text()
    for kind in gateway.HANDLERS:
        assert f"| `{kind}` |" in text, f"client message {kind} is not in docs/protocol.md"
    server = ROOT / "src" / "cafe" / "server"
    names = ("gateway.py", "tables.py", "chores.py", "fields.py", "app.py")
    source = "".join((server / name).read_text() for name in names)
    sent = set(re.findall(r'"type": "(\w+)"', source))
    sent |= set(re.findall(r'publish\([^,]+, "(\w+)"', source)) - {"changed"}  # events sent as they are named
    codes = set(re.findall(r'ProtocolError\("(\w+)"', source)) | {"refused"}
    for kind in sent:
        assert f"| `{kind}` |" in text, f"server message {kind} is not in docs/protocol.md"
    for code in codes:
        assert f"`{code}`" in text, f"error code {code} is not in docs/protocol.md"
    assert {"welcome", "lobby", "room", "chat", "info", "error"} <= sent
