"""The browser client's stylesheet as a browser reads it: a block left open swallows every rule after it (they
then apply only inside that block's media query, on phones), and nothing in the page says so."""

from __future__ import annotations

import re
from pathlib import Path

STYLE = Path(__file__).parent.parent / "src" / "cafe" / "server" / "client" / "style.css"


def test_every_block_of_the_stylesheet_is_closed_where_it_should_be() -> None:
    text = re.sub(r"/\*.*?\*/", "", STYLE.read_text(), flags=re.S)  # comments may hold braces
    depth, at_rule_lines = 0, []
    for number, line in enumerate(text.splitlines(), 1):
        inside = depth > 0
        for char in line:
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                assert depth >= 0, f"style.css:{number}: a brace closes a block that is not open"
        if line.startswith("@media"):
            at_rule_lines.append(number)
        elif inside and not line.startswith((" ", "\t", "}")) and line.strip():
            raise AssertionError(f"style.css:{number}: a rule at the left margin inside an open block: {line!r}")
    assert depth == 0 and at_rule_lines  # the phone's rules are in media queries, each closed
