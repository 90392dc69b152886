"""``cafe bot``: connect a player to a café as a bot account (docs/protocol.md, "Bots")."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from cafe import i18n
from cafe.errors import CafeError
from cafe.i18n import T, Text, _

TOKEN_VARIABLE = "CAFE_BOT_TOKEN"


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "bot",
        help=_("play in an online café as a bot account (docs/protocol.md)"),
        description=_(
            "Connects a player to a café with a bot account's API token: it sits at the tables it is invited to, "
            "plays its turns from its own seat's view, and comes back after a lost connection."
        ),
    )
    p.add_argument("--server", required=True, metavar="URL", help=_("the café's address, like http://localhost:8000"))
    p.add_argument(
        "--player",
        default="expert",
        metavar="SPEC",
        help=_("who plays: a level such as greedy or expert, or cmd:COMMAND (an engine, docs/engine.md)"),
    )
    p.add_argument(
        "--token",
        default=os.environ.get(TOKEN_VARIABLE),
        help=_("the bot account's API token (default $CAFE_BOT_TOKEN; on the command line, others may see it)"),
    )
    p.add_argument(
        "--enter",
        action="append",
        default=[],
        metavar="TOURNAMENT",
        help=_("enter this tournament (its id) before playing, and play its tables; give it again for several"),
    )
    p.add_argument("--transcript", metavar="FILE", help=_("write every message the café sends to FILE, one a line"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cafe.ai.levels import make_player
    from cafe.bot.client import Bot, close_player
    from cafe.bot.entries import enter

    if not args.token:
        raise CafeError(T("no token: give --token or set CAFE_BOT_TOKEN"))
    close_player(make_player(args.player))  # a player string that names nobody is refused before connecting

    def say(text: Text) -> None:
        print(text.render(), flush=True)

    for cup in args.enter:  # before connecting: a round under way is brought back by the hello
        say(enter(args.server, args.token, cup, i18n.active()))
    with contextlib.ExitStack() as stack:
        transcript = stack.enter_context(open(args.transcript, "a", encoding="utf-8")) if args.transcript else None
        bot = Bot(args.server, args.token, lambda: make_player(args.player), say, i18n.active(), transcript=transcript)
        stack.callback(bot.close)
        with contextlib.suppress(KeyboardInterrupt), stop_on_interrupt() as stopping:
            bot.run(stopping)
    return 0


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[Callable[[], bool]]:
    """Ctrl-C (SIGINT) asks the bot to stop, which it does between two messages (within a second), leaving the
    café cleanly: no KeyboardInterrupt raised inside the connection's own code, where it could leave the
    connection's lock held and its closing waiting for ever.  A second Ctrl-C stops it at once."""
    asked = threading.Event()

    def interrupted(signum: int, frame: FrameType | None) -> None:
        if asked.is_set():
            raise KeyboardInterrupt
        asked.set()

    before = signal.signal(signal.SIGINT, interrupted)
    try:
        yield asked.is_set
    finally:
        signal.signal(signal.SIGINT, before)
