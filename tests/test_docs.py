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
