"""``cafe serve``: the online café on one machine (SQLite in a data directory, one process)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import Any

from cafe.i18n import T, Text, _
from cafe.server.limits import Limits, parse_limit
from cafe.server.mail import Smtp

MAX_FRAME = 64 * 1024  # bytes: larger WebSocket frames are refused by the server itself
FULL_PASS_EVERY = 1000  # the garbage collector's middle passes between two full ones (Python's default: 10)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help=_("run the online café: rooms, chat, games in the browser (docs/protocol.md)"),
        description=_(
            "Starts the game server with its embedded defaults: an SQLite file in the data directory, one "
            "process.  Prints the address to open."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help=_("the address to listen on (default 127.0.0.1)"))
    p.add_argument("--port", type=int, default=8000, help=_("the port (default 8000)"))
    p.add_argument(
        "--data", type=Path, default=Path("cafe-data"), help=_("where the database lives (default cafe-data)")
    )
    p.add_argument(
        "--database",
        default=os.environ.get("CAFE_DATABASE"),
        metavar="URL",
        help=_(
            "a PostgreSQL database (postgresql://user@host/name) instead of SQLite in --data, for several server "
            "processes sharing it; default $CAFE_DATABASE, else SQLite (needs the [scale] extra)"
        ),
    )
    p.add_argument(
        "--broker",
        default=os.environ.get("CAFE_BROKER"),
        metavar="URL",
        help=_(
            "a Redis server (redis://host:port/0) that carries room events between server processes sharing one "
            "--database; default $CAFE_BROKER, else this process alone"
        ),
    )
    p.add_argument(
        "--public-url",
        default=os.environ.get("CAFE_PUBLIC_URL") or None,
        metavar="URL",
        help=_(
            "the address people open (https://cafe.example): passkeys belong to it and e-mails link to it; default "
            "$CAFE_PUBLIC_URL, else the address each request names (e-mails: the address it listens on)"
        ),
    )
    p.add_argument(
        "--smtp",
        default=os.environ.get("CAFE_SMTP"),
        metavar="URL",
        help=_(
            "an SMTP server for e-mail (smtp://user:password@host:587 with STARTTLS, smtps://...:465 with TLS): "
            "verified addresses, forgotten passwords, notices of games over days; default $CAFE_SMTP, else no e-mail"
        ),
    )
    p.add_argument(
        "--mail-from",
        default=os.environ.get("CAFE_MAIL_FROM"),
        metavar="ADDRESS",
        help=_("the sender of the café's e-mails; default $CAFE_MAIL_FROM, else cafe@ the host of --public-url"),
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_(
            "change one of the server's limits (repeatable), e.g. --limit turn_seconds=180 --limit "
            "per_address=50; docs/deploy.md lists them and their defaults"
        ),
    )
    p.set_defaults(run=run)


class Unusable(Exception):
    """A --database or --broker that cannot be used; the text says why, the code is the exit status."""

    def __init__(self, text: Text, code: int = 2) -> None:
        super().__init__(text)
        self.code = code


def run(args: argparse.Namespace) -> int:
    from cafe.server.app import create_app

    try:
        limits = Limits()
        for text in args.limit:
            limits = parse_limit(text, limits)
        site = args.public_url or f"http://{args.host}:{args.port}/"
        mail = Smtp.parse(args.smtp, args.mail_from, site) if args.smtp else None
    except ValueError as error:
        print(f"cafe serve: {error}", file=sys.stderr)
        return 2
    try:
        _public(args.public_url)
        if args.broker and not args.database:
            raise Unusable(T("--broker joins server processes that share a --database (PostgreSQL)"))
        if args.database:
            app, where = _shared(args, limits, mail)
        else:
            app, where = (
                create_app(args.data, limits=limits, public_url=args.public_url, mail=mail),
                _("data in {path}", path=args.data),
            )
        _push_key(args.data)  # once the database is known to open: a start that fails leaves nothing behind
    except Unusable as error:
        print(f"cafe serve: {error}", file=sys.stderr)
        return error.code
    url = f"http://{args.host}:{args.port}/"
    print(_("Café International is open at {url} ({where})", url=url, where=where), flush=True)
    serve(app, args.host, args.port, limits)
    return 0


def serve(app: Any, host: str, port: int, limits: Limits) -> None:
    """uvicorn with the café's doors (:func:`doors`), until it is stopped."""
    import uvicorn

    server = uvicorn.Server(doors(app, host, port, limits))
    quiet_collector()
    server.run()


def quiet_collector() -> None:
    """Fewer and shorter pauses of Python's cyclic garbage collector, whose full pass stops the event loop while it
    walks every object: what the server has loaded by now (modules, catalogs, data) is frozen out of its passes,
    and a full pass comes a hundred times less often (every few minutes under load instead of every few seconds).
    Measured with bench/capacity.py on one process: at 500 games a full pass of up to 190 ms came every 3 s or so
    and the p99 round trip was 150 ms; at 1,000 games, 230 ms passes.  With both, the p99 at 1,000 games is 24 ms."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_PASS_EVERY)


def doors(app: Any, host: str, port: int, limits: Limits) -> Any:
    """uvicorn's configuration with the café's doors (cafe.server.sockets): h11, whose sizes are bounded (httptools
    reads a request's head whole, however long), deadlines for requests and idle connections, bounds on
    connections."""
    import uvicorn

    from cafe.server.sockets import KEEP_ALIVE_SECONDS, PING_SECONDS, protocols

    http, ws = protocols(limits)
    return uvicorn.Config(app, host=host, port=port, http=http, ws=ws, ws_max_size=MAX_FRAME, log_level="warning",
                          h11_max_incomplete_event_size=limits.header_bytes, timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          limit_concurrency=http.doors.total, ws_ping_interval=PING_SECONDS,
                          ws_ping_timeout=PING_SECONDS)  # fmt: skip


def _public(url: str | None) -> None:
    """A --public-url that is one (passkeys belong to its origin)."""
    from cafe.server.passkeys import public_origin

    try:
        if url is not None:
            public_origin(url)
    except ValueError:
        raise Unusable(T("--public-url must be an http:// or https:// address, not {url!r}", url=url)) from None


def _shared(args: argparse.Namespace, limits: Limits, mail: Smtp | None) -> tuple[Any, str]:
    """The application on PostgreSQL (and Redis): one of several processes sharing them."""
    from cafe.server.app import create_app

    if not args.database.startswith(("postgresql://", "postgres://")):
        raise Unusable(T("--database must be a postgresql:// URL, not {database!r}", database=args.database))
    try:
        from cafe.server.broker import RedisBroker, namespace_for
        from cafe.server.storage.postgres import PostgresStore
    except ImportError:
        raise Unusable(
            T("PostgreSQL and Redis need the [scale] extra: pip install 'cafe-international[scale]'")
        ) from None
    try:
        store = PostgresStore(args.database)
    except Exception as error:  # the database cannot be reached or refused us: say so, no traceback
        raise Unusable(T("cannot open the database: {error}", error=str(error).strip()), 1) from None
    broker = RedisBroker(args.broker, namespace_for(args.database)) if args.broker else None
    where = _("data in PostgreSQL, events through Redis") if broker else _("data in PostgreSQL")
    return create_app(
        args.data, store=store, broker=broker, limits=limits, public_url=args.public_url, mail=mail
    ), where


def _push_key(data: Path) -> None:
    """The café's push key, made on its first start (cafe.server.push): one that cannot be read stops the start."""
    from cafe.server.push import KEY_FILE, vapid_key

    try:
        vapid_key(data)
    except (OSError, ValueError) as error:
        said = T("cannot use the push key {path}: {error}", path=str(data / KEY_FILE), error=str(error))
        raise Unusable(said) from None
