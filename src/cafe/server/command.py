"""``cafe serve``: the online café on one machine (SQLite in a data directory, one process)."""

from __future__ import annotations

import argparse
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
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from cafe.server.app import create_app

    app = create_app(args.data)
    print(f"Café International is open at http://{args.host}:{args.port}/ (data in {args.data})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_FRAME, log_level="warning")
    return 0
