"""The café's doors: uvicorn's HTTP and WebSocket protocols with the bounds a public server needs (docs/deploy.md).

uvicorn alone waits forever for a request's headers, takes a request whose headers arrive all at once however
large, leaves a refused WebSocket handshake open without an answer, and bounds no address.  Here:

- every open connection (HTTP requests, handshakes, WebSockets) counts toward its address's bound and the
  process's; beyond either, a new connection is answered 503 and closed at once;
- a request must arrive whole (line, headers and body) within ``request_seconds`` of its first byte, or of the
  connection's opening; otherwise the connection is closed;
- a request's line and headers longer than ``header_bytes`` are refused (400), however fast they arrive;
- a refused WebSocket handshake gets its answer (431 for a header line over 8 KiB) and is closed.
"""

from __future__ import annotations

import asyncio
import resource
from collections import defaultdict
from typing import Any, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from cafe.server.limits import Limits

KEEP_ALIVE_SECONDS = 5  # an idle HTTP connection between two requests is closed after this
PING_SECONDS = 20.0  # a WebSocket is pinged this often, and closed when its pong is this late
SPARE_FILES = 100  # file descriptors kept for the database, logs and workers below the process's `ulimit -n`
FULL = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class Doors:
    """The connections open at once, by address: every one counts until the socket is gone."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self._open: defaultdict[str, set[asyncio.BaseTransport]] = defaultdict(set)
        self._count = 0

    def enter(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in, or False when its address or the process has as many as it may."""
        address = _address(transport)
        if self._count >= self.total or len(self._open[address]) >= self.per_address:
            if not self._open[address]:
                del self._open[address]
            return False
        self._open[address].add(transport)
        self._count += 1
        return True

    def leave(self, transport: asyncio.BaseTransport) -> None:
        """A connection is gone (each is counted out once, whichever protocol had it last)."""
        address = _address(transport)
        opened = self._open.get(address)
        if opened is None or transport not in opened:
            return
        opened.remove(transport)
        self._count -= 1
        if not opened:
            del self._open[address]

    def count(self, address: str) -> int:
        return len(self._open.get(address, ()))


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


class BoundedHead(h11.Connection):
    """h11 bounds the headers only while they are incomplete; this refuses a complete request that is too long."""

    def __init__(self, header_bytes: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=header_bytes)
        self.header_bytes = header_bytes

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, h11.Request):
            lines = event.headers.raw_items()
            size = len(event.method) + len(event.target) + sum(len(name) + len(value) + 4 for name, value in lines)
            if size > self.header_bytes:
                raise h11.RemoteProtocolError("request header fields too large", error_status_hint=431)
        return event


class GuardedHttp(H11Protocol):
    """HTTP/1.1 (h11) counted at the door, with a deadline for each request and a bound on its head."""

    doors: Doors
    limits: Limits

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = BoundedHead(self.limits.header_bytes)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(cast(asyncio.Transport, transport))
        if not self.doors.enter(transport):
            self.transport.write(FULL)
            self.transport.close()
            return
        self._expect()

    def connection_lost(self, exc: Exception | None) -> None:
        self._met()
        self.doors.leave(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._met()  # the request is whole (or the connection is a WebSocket now)
        elif not self.transport.is_closing():
            self._expect()

    def _expect(self) -> None:
        """A request has begun (or may begin): it must be whole before its deadline."""
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.limits.request_seconds, self._late)

    def _met(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self.transport.get_protocol() is self and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self.transport.close()


class GuardedSocket(WebSocketsSansIOProtocol):
    """WebSockets: counted out at the door when they close; a refused handshake is answered and closed."""

    doors: Doors

    def connection_lost(self, exc: Exception | None) -> None:
        self.doors.leave(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.handshake_exc is not None and not self.handshake_initiated and not self.transport.is_closing():
            self.transport.write(b"".join(self.conn.data_to_send()))  # the refusal websockets prepared, if any
            self.transport.close()


def files_open_at_most() -> int:
    """The connections the process can hold at once: its `ulimit -n`, less what the rest of it needs."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(1, soft - SPARE_FILES) if soft != resource.RLIM_INFINITY else 1_000_000


def protocols(limits: Limits) -> tuple[type[GuardedHttp], type[GuardedSocket]]:
    """The HTTP and WebSocket protocols for ``uvicorn.run(http=..., ws=...)``, sharing one set of doors."""
    doors = Doors(limits.sockets_per_address, min(limits.connections, files_open_at_most()))
    http = type("CafeHttp", (GuardedHttp,), {"doors": doors, "limits": limits})
    socket = type("CafeSocket", (GuardedSocket,), {"doors": doors})
    return http, socket
