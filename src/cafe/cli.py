"""The ``cafe`` command: play, replay records, benchmark the engine, watch a demo, run an arena or an engine."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence

from cafe import __version__, i18n
from cafe.errors import CafeError
from cafe.i18n import N_, T, _
from cafe.record import Record, summary
from cafe.text import view_text


def main(argv: Sequence[str] | None = None) -> int:
    argv, language = _take_language(sys.argv[1:] if argv is None else list(argv))
    i18n.use(language or i18n.from_environment())
    _argparse_speaks_the_language()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except CafeError as exc:
        # replay's errors stand alone (`turn N: R...`), as scripts rely on them
        print(exc if args.command in ("replay", "analyse") else f"cafe {args.command}: {exc}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as exc:
        extra = _extra_for(args.command, exc.name or "")
        if extra is None:
            raise
        missing = (exc.name or "").split(".")[0]
        needs = _("needs the [{extra}] extra (no module named {module!r}): pip install 'cafe-international[{extra}]'",
                  extra=extra, module=missing)  # fmt: skip
        print(f"cafe {args.command}: {needs}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


# argparse's own words that a person may meet (the help's headings, its errors): in the catalogs like ours
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def _argparse_speaks_the_language() -> None:
    """argparse looks its words up with gettext's functions at the moment it uses them: they are ours."""
    setattr(argparse, "_", i18n.translate)  # noqa: B010 - the module's own name for its lookups
    setattr(argparse, "ngettext", i18n.translate_plural)  # noqa: B010


def _take_language(argv: list[str]) -> tuple[list[str], str | None]:
    """``--lang LANG`` taken out of the arguments, wherever it stands (before or after the command), and read
    before the parser is built: its help texts are in that language."""
    rest: list[str] = []
    language = None
    words = iter(argv)
    for word in words:
        if word == "--lang":
            language = next(words, None)
        elif word.startswith("--lang="):
            language = word.split("=", 1)[1]
        else:
            rest.append(word)
    return rest, language


# Each extra and the optional libraries it brings (pyproject.toml); `cafe serve`, `arena` and `play` have their own,
# `cafe selfplay` needs [cluster] (which brings [arena] and [rl]), `cafe train` needs [arena] (which brings [master])
COMMAND_EXTRA = {"serve": "serve", "arena": "arena", "play": "play", "learn": "play", "selfplay": "cluster",
                 "train": "arena", "bot": "bot"}  # fmt: skip
EXTRAS = {
    "master": {"numpy"},
    "serve": {
        "uvicorn",
        "starlette",
        "openskill",
        "numpy",
        "regex",
        "confusable_homoglyphs",
        "py_vapid",
        "pywebpush",
        "orjson",
    },
    "arena": {"rich", "matplotlib", "openskill", "numpy"},
    "play": {"textual", "rich", "numpy"},
    "scale": {"psycopg", "redis"},
    "bot": {"websockets", "numpy"},
    "rl": {"numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel"},
    "cluster": {"ray", "pyarrow", "numpy", "gymnasium", "rich"},
}


def _extra_for(command: str, module: str) -> str | None:
    """The extra that brings ``module`` (the command's own first), or None if it is no optional library."""
    top = module.split(".")[0]
    own = COMMAND_EXTRA.get(command)
    if own is not None and top in EXTRAS[own]:
        return own
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cafe", description=_("Café International: play in the terminal, replay records, run arenas and engines.")
    )
    parser.add_argument(
        "--version", action="version", version=f"cafe-international {__version__}", help=_("show the version and exit")
    )
    languages = ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())
    parser.add_argument("--lang", metavar="LANG", help=_("the language of what cafe says: {languages}; default: from "
                        "LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English", languages=languages))  # fmt: skip
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("replay", help=_("replay a game record and show the result"))
    p.add_argument("file", help=_("a record file (JSON, format cafe-record-1)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object (the replay contract)"))
    p.add_argument("--turns", action="store_true", help=_("list every turn with its player and points"))
    p.add_argument("--svg", metavar="OUT", help=_("also write the final position as an SVG file"))
    p.set_defaults(run=cmd_replay)

    from cafe.ai.analysis import DEFAULT_BUDGET

    p = sub.add_parser(
        "analyse",
        help=_("judge every turn of a game record against the search's best turns"),
        description=_(
            "For every turn: the best turns the search finds from the mover's own view (never the bag, hidden "
            "hands or face-down cards), their values in points of score margin, and what the played turn lost "
            "(docs/analysis.md). Same record, budget and seed: the same analysis."
        ),
    )
    p.add_argument("file", help=_("a game record (cafe-record-1), either edition"))
    budget = _("iterations below each candidate turn (default {n}; more is slower and steadier)", n=DEFAULT_BUDGET)
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help=budget)
    p.add_argument("--seed", type=int, default=0, help=_("seed of the search (default 0)"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help=_("processes (default: the cores)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object: turns and players"))
    p.set_defaults(run=cmd_analyse)

    p = sub.add_parser("bench", help=_("measure the engine's speed"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument("--seconds", type=float, default=3.0, help=_("time per measurement (default 3)"))
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser("demo", help=_("watch a game between random players in the terminal"))
    p.add_argument("--edition", choices=["board", "cards"], default="board", help=_("board (default) or cards"))
    p.add_argument(
        "--players", type=int, default=4, choices=range(2, 6), metavar="N", help=_("2 to 4 (cards: 5); default 4")
    )
    p.add_argument("--seed", type=int, default=None, help=_("seed for the bag and the players"))
    p.add_argument("--delay", type=float, default=0.4, help=_("seconds between turns (default 0.4)"))
    p.add_argument("--record", metavar="OUT", help=_("save the finished game's record here"))
    p.set_defaults(run=cmd_demo)

    from cafe.arena.command import add_parser as add_arena
    from cafe.arena.command import player_help
    from cafe.bot.command import add_parser as add_bot
    from cafe.learn.howto_command import add_parser as add_rules
    from cafe.learn.lesson_command import add_parser as add_learn
    from cafe.play.command import add_parser as add_play
    from cafe.selfplay.command import add_parser as add_selfplay
    from cafe.server.command import add_parser as add_serve
    from cafe.train.command import add_parser as add_train

    add_play(sub)
    add_learn(sub)
    add_arena(sub)
    add_selfplay(sub)
    add_train(sub)
    add_serve(sub)
    add_bot(sub)
    add_rules(sub)
    from cafe.learn.puzzle_command import add_parser as add_puzzles

    add_puzzles(sub)

    p = sub.add_parser(
        "engine",
        help=_("run a bot behind the engine protocol on stdin/stdout (docs/engine.md)"),
        description=_(
            "Reads commands (cep, isready, setoption, newgame, position, go, quit) one per line and answers them, "
            "like a chess engine speaking UCI."
        ),
    )
    p.add_argument("--player", default="expert", help=player_help() + _(" (default expert)"))
    p.add_argument("--seed", type=int, default=None, help=_("seed for the bot's own random choices"))
    p.set_defaults(run=cmd_engine)
    return parser


def cmd_engine(args: argparse.Namespace) -> int:
    from cafe.engine.server import serve

    def write(line: str) -> None:
        print(line, flush=True)

    serve(sys.stdin, write, args.player, args.seed)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = Record.load(args.file)
    game = record.replay()
    if args.svg:
        from cafe.svg import view_svg

        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(view_svg(game.view()))
    if args.json:
        print(json.dumps(summary(game)))
        return 0
    if args.turns:
        for number, (turn, points) in enumerate(zip(game.turns(), game.turn_points(), strict=True), start=1):
            print(f"{number:>3}. {turn:<28} {points:+d}")  # notation and numbers: the same in every language
        print()
    print(view_text(game.view()))
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from cafe.ai.analysis import VERDICT_WORDS, VERDICTS, review_record, summarise

    if args.budget < 1 or args.jobs < 1:
        raise CafeError(T("--budget and --jobs must be at least 1"))
    record = Record.load(args.file)
    progress = None if args.json else _progress(_("analysing"))
    reviews = review_record(record, args.budget, args.seed, args.jobs, progress)
    players = summarise(record.players, reviews)
    if args.json:
        out = {"budget": args.budget, "seed": args.seed, "turns": [r.to_json() for r in reviews],
               "players": [p.to_json() for p in players]}  # fmt: skip
        print(json.dumps(out))
        return 0
    head = (_("turn"), _("player"), _("played"), _("pts"), _("best"), _("value"), _("loss"), _("verdict"))
    print(f"{head[0]:>4}  {head[1]:<12} {head[2]:<26} {head[3]:>4}  {head[4]:<26} {head[5]:>6} {head[6]:>5}  {head[7]}")
    for r in reviews:
        best = "=" if r.best == r.played else r.best
        print(f"{r.turn:>4}  {r.player[:12]:<12} {r.played:<26} {r.points:>+4}  {best:<26} {r.best_value:>+6.1f} "
              f"{r.loss:>5.1f}  {i18n.translate(VERDICT_WORDS[r.verdict])}")  # fmt: skip
    print()
    verdicts = "  ".join(f"{i18n.translate(VERDICT_WORDS[v]):>11}" for v in VERDICTS)
    print(f"{_('player'):<12} {_('turns'):>5} {_('mean loss'):>9}  " + verdicts)
    for p in players:
        counts = "  ".join(f"{p.counts[v]:>11}" for v in VERDICTS)
        print(f"{p.name[:12]:<12} {p.turns:>5} {p.mean_loss:>9.2f}  {counts}")
    return 0


def _progress(what: str) -> Callable[[int, int], None] | None:
    """A progress bar on the terminal (nothing when stderr is not one)."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        filled = 30 * done // max(total, 1)
        end = "\n" if done == total else ""
        bar = "#" * filled + "." * (30 - filled)
        print(f"\r{what} [{bar}] " + _("{done}/{total} turns", done=done, total=total), end=end, file=sys.stderr,
              flush=True)  # fmt: skip

    return show


def cmd_bench(args: argparse.Namespace) -> int:
    from cafe.bench import run

    if not args.json:
        print(_("Measuring for about {n:.0f} seconds ...", n=12 * args.seconds), file=sys.stderr)
    result = run(args.seconds)
    if args.json:
        print(json.dumps(result))
    else:
        labels = {
            "games_per_second_2p": _("complete random games per second, 2 players"),
            "games_per_second_4p": _("complete random games per second, 4 players"),
            "games_per_second_4p_full_lists": _("the same, choosing from full legal-step lists"),
            "playouts_per_second_4p": _("4-player playouts per second (no undo history)"),
            "card_games_per_second_4p": _("complete random card games per second, 4 players"),
            "steps_per_second_4p": _("steps per second in those 4-player games"),
            "mean_steps_per_game_4p": _("steps per 4-player game"),
            "legal_generations_per_second": _("legal-step lists generated per second"),
            "games_per_1k_chess_plies": _("4-player games in the time of 1,000 random python-chess plies"),
            "card_games_per_1k_chess_plies": _("4-player card games in the time of 1,000 python-chess plies"),
        }
        width = max(map(len, labels.values())) + 1
        for key, label in labels.items():
            if key in result:  # the comparison with python-chess needs python-chess
                print(f"{label:<{width}} {result[key]:>10,}")
        print(_("compiled engine (mypyc)") if result["compiled"] else _("pure-Python engine"))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from cafe.ai import RandomPlayer
    from cafe.board_game import BoardGame
    from cafe.card_game import CardGame

    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][: args.players]
    game = CardGame(names, seed=seed) if args.edition == "cards" else BoardGame(names, seed=seed)
    players = [RandomPlayer(seed + p, name) for p, name in enumerate(names)]
    if args.edition == "cards":
        print(_("A demonstration card game between {n} random players (seed {seed}).", n=args.players, seed=seed))
    else:
        print(_("A demonstration game between {n} random players (seed {seed}).", n=args.players, seed=seed))
    print()
    while not game.is_over():
        player = game.current_player
        number = game.turn_number
        while game.turn_number == number:
            game.push(players[player].choose(game.view(player), game.legal_steps()))
        turn = f"{game.turns()[-1]} ({game.turn_points()[-1]:+d})"
        print(_("Turn {n}: {name} plays {turn}", n=number + 1, name=names[player], turn=turn))
        if args.delay > 0:
            print(view_text(game.view()), end="\n\n")
            time.sleep(args.delay)
    print(view_text(game.view()))
    if args.record:
        with open(args.record, "w", encoding="utf-8") as out:
            out.write(Record.of(game).dumps())
        print(_("Record saved to {path}", path=args.record))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
