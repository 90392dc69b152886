"""``cafe learn``: the tutorial in the terminal, or the list of its lessons."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cafe.i18n import _, translate


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "learn",
        help=_("learn the game, one lesson at a time: you make the moves"),
        description=_(
            "Lessons that each teach one rule with a position on the board: do what the lesson asks, and a wrong "
            "step is refused with the rule it breaks. Your progress is remembered; ctrl+n skips a lesson, ctrl+b "
            "goes back to the one before, ctrl+r starts a lesson again, ctrl+q quits."
        ),
    )
    p.add_argument("--list", action="store_true", help=_("list the lessons instead of starting"))
    p.add_argument("--json", action="store_true", help=_("with --list: one JSON list (id, title, edition, rules)"))
    p.add_argument("--lesson", metavar="ID", help=_("start with this lesson (see --list)"))
    p.add_argument("--progress", metavar="FILE", help=_("where your progress is kept (default: your data folder)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cafe.learn.lesson import lesson, lessons

    if args.list:
        listed = [
            {"id": found.id, "title": translate(found.title), "edition": found.edition, "rules": list(found.rules)}
            for found in lessons()
        ]
        if args.json:
            print(json.dumps(listed, ensure_ascii=False))
        else:
            for n, item in enumerate(listed, start=1):
                print(f"{n:>2}. {item['id']:<22} {item['title']}  ({', '.join(item['rules'])})")
        return 0
    if args.lesson:
        lesson(args.lesson)  # an unknown id is refused here, before the screen opens
    from cafe.learn.progress import Progress
    from cafe.learn.terminal import TutorialApp

    TutorialApp(Progress(Path(args.progress) if args.progress else None), args.lesson).run()
    return 0
