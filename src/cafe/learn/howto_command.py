"""``cafe rules``: how to play an edition, in the terminal, with its examples drawn as text."""

from __future__ import annotations

import argparse
from typing import Any

from cafe.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "rules",
        help=_("how to play, in five minutes, with drawn examples"),
        description=_("The rules of an edition, short, with positions drawn as text (the same as the café's "
                      "\"How to play\")."),
    )  # fmt: skip
    p.add_argument("--edition", choices=["board", "cards"], default="board", help=_("board (default) or cards"))
    p.set_defaults(run=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    from cafe.learn.howto import text

    print(text(args.edition), end="")
    return 0
