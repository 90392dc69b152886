"""``cafe play``: start (or resume) a game in the terminal."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cafe.i18n import _

DEFAULT_SEATS = {"board": "you,medium,medium,medium", "cards": "you,medium,medium"}


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help=_("play in the terminal, against the computer or with friends at the same keyboard"),
        description=_(
            "Starts at once: the board game, you against three computer players of medium strength. Type moves in "
            "notation (USAm@h3) or in words ('american gentleman h3'); ctrl+z undoes a step of this turn, ctrl+h "
            "gives a hint, ctrl+s saves, ctrl+q quits."
        ),
    )
    p.add_argument("--edition", choices=["board", "cards"], default="board", help=_("board (default) or cards"))
    p.add_argument(
        "--seats",
        help=_(
            "who sits where, in seat order: 'you' or 'human[:Name]' for a person, or a bot (easy, medium, hard, "
            "expert, master, random, greedy, mcts:0.5s ...); default: you and three medium bots (card game: two)"
        ),
    )
    p.add_argument("--players", type=int, help=_("the number of players: you and medium bots (ignored with --seats)"))
    p.add_argument("--rules", help=_("a preset (printed, original-1989, brettspielwelt) or a JSON rules object"))
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_(
            "a rule option by name, on top of --rules (repeatable): surprise_guests=true, regulars=true, "
            "scoring=basic, bar_values=straight, joker_to_bar=when-unplaceable, joker_exchange=either-nation; "
            "card game: tribe_and_circle=true (docs/rules.md)"
        ),
    )
    p.add_argument("--seed", type=int, help=_("seed for the bag and the bots"))
    p.add_argument("--resume", metavar="FILE", help=_("go on with a saved game"))
    p.add_argument("--review", metavar="FILE", help=_("step through a saved game with the arrow keys, and analyse it"))
    p.add_argument("--save", metavar="FILE", help=_("where the record goes (default cafe-game.json)"))
    p.add_argument(
        "--delay", type=float, default=0.4, help=_("seconds a bot's move stays before the next (default 0.4)")
    )
    p.set_defaults(run=run)


def build_session(args: argparse.Namespace) -> Any:
    from cafe.options import rules_from_text, with_options
    from cafe.play.session import Session, parse_seats

    if args.resume:
        session = Session.resume(Path(args.resume))
        if args.save:
            session.record_path = Path(args.save)
        return session
    seats_text = args.seats
    if seats_text is None:
        seats_text = DEFAULT_SEATS[args.edition]
        if args.players is not None:
            seats_text = ",".join(["you"] + ["medium"] * (args.players - 1))
    seats = parse_seats(seats_text, args.edition)
    rules = with_options(args.edition, rules_from_text(args.edition, args.rules), args.option)
    return Session.new(args.edition, seats, rules, args.seed, Path(args.save or "cafe-game.json"))


def run(args: argparse.Namespace) -> int:
    from cafe.play.app import run as run_app

    if args.review:
        from cafe.play.review import ReviewApp
        from cafe.record import Record

        ReviewApp(Record.load(args.review)).run()
        return 0

    session = build_session(args)
    path = run_app(session, args.delay)
    if path is not None and path.exists():
        print(_("The game's record is in {path}; go on with: cafe play --resume {path}", path=path))
    return 0
