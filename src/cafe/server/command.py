"""``cafe serve``: the online café on one machine (SQLite in a data directory, one process)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

MAX_FRAME = 64 * 1024  # bytes: larger WebSocket frames are refused by the server itself


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the online café: rooms, chat, games in the browser (docs/protocol.md)",
        description="Starts the game server with its embedded defaults: an SQLite file in the data directory, "
        "one process.  Prints the address to open.",
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument("--data", type=Path, default=Path("cafe-data"), help="where the database lives (default cafe-data)")
    p.add_argument(
        "--database",
        default=os.environ.get("CAFE_DATABASE"),
        metavar="URL",
        help="a PostgreSQL database (postgresql://user@host/name) instead of SQLite in --data, for several server "
        "processes sharing it; default $CAFE_DATABASE, else SQLite (needs the [scale] extra)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from cafe.server.app import create_app

    if args.database:
        if not args.database.startswith(("postgresql://", "postgres://")):
            print(f"cafe serve: --database must be a postgresql:// URL, not {args.database!r}", file=sys.stderr)
            return 2
        try:
            from cafe.server.postgres import PostgresStore

            store = PostgresStore(args.database)
        except ImportError:
            print(
                "cafe serve: PostgreSQL needs the [scale] extra: pip install 'cafe-international[scale]'",
                file=sys.stderr,
            )
            return 2
        except Exception as error:  # the database cannot be reached or refused us: say so, no traceback
            print(f"cafe serve: cannot open the database: {error}".strip(), file=sys.stderr)
            return 1
        app = create_app(store=store)
        where = "data in PostgreSQL"
    else:
        app = create_app(args.data)
        where = f"data in {args.data}"
    print(f"Café International is open at http://{args.host}:{args.port}/ ({where})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_FRAME, log_level="warning")
    return 0
