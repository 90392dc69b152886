"""The bounds a server keeps so that no client, clumsy or hostile, costs the others (docs/deploy.md).

Every limit has a default that suits one machine and is set with ``cafe serve --limit NAME=VALUE``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Limits:
    away_seconds: float = 120.0  # a seated player gone this long from a game in progress is replaced by a bot
    left_seconds: float = 5.0  # a seated player gone this long is announced as gone (a reload is not)
    turn_seconds: float = 300.0  # a person's turn lasting longer is played by a computer player (0: no clock)
    clock_hour: float = 3600.0  # seconds in an hour of a turn-based game's clock (shorter only to try clocks out)
    bot_delay: float = 0.3  # seconds a computer player waits before its step, so that people can follow
    thinkers: int = 2  # computer players thinking at once (the rest wait their turn)
    side_thinkers: int = 1  # of those, threads that hints and games of computer players only may use at once
    rate: float = 20.0  # messages a second one connection may send on average ...
    burst: int = 40  # ... and at most this many at once
    send_buffer: int = 1_000_000  # bytes waiting to go out to one connection; past that it is dropped
    per_address: int = 20  # WebSocket connections open at once from one address
    sockets_per_address: int = 40  # connections of any kind (HTTP, handshakes, WebSockets) from one address
    connections: int = 1000  # connections of any kind open at once in one process (at most `ulimit -n` less 100)
    request_seconds: float = 5.0  # an HTTP request (or handshake) must arrive whole this soon
    hello_seconds: float = 10.0  # a WebSocket that has not said hello this long after opening is closed
    max_rooms: int = 1000  # rooms waiting or playing at once in one process
    rooms_per_player: int = 3  # rooms one person may host at once, waiting or playing
    lobby_rooms: int = 200  # rooms a lobby message lists at most (waiting ones first, newest first)
    rules_bytes: int = 1024  # a room's rules object, as JSON
    waiting_seconds: float = 600.0  # a room where no person has been this long closes (or, playing, is abandoned)
    finished_seconds: float = 300.0  # a finished game stays in memory this long; its record stays in the store
    unused_player_days: float = 7.0  # players who never sat, hosted or were rated are forgotten after this
    sweep_seconds: float = 10.0  # how often the server looks for rooms to close and players to forget
    header_bytes: int = 16_384  # an HTTP request's line and headers, at most
    replays_per_address: int = 2  # finished games' replays computed at once for one address
    replay_cache: int = 512  # finished games' replays and positions kept computed (they never change)
    analysts: int = 1  # worker processes analysing finished games (games wait their turn in a queue)
    analysis_queue: int = 20  # finished games waiting for their analysis at most (one per person and address)
    analysis_budget: int = 64  # the analyser's iterations below each candidate turn (docs/analysis.md)
    hint_seconds: float = 1.0  # the strongest level's thinking time for a hint
    name_hold_seconds: float = 2.0  # a new guest's name is theirs alone this long, until every process sees them
    lease_seconds: float = 10.0  # a due job (a bot's step, a clock) held by a process that died is taken up after this
    chat_kept: int = 50  # a room's last chat lines kept in the store, for those who enter or come back
    signins_per_account: int = 5  # sign-ins (and passwords given to confirm) for one name in signin_seconds ...
    signins_per_address: int = 20  # ... and from one address
    signin_seconds: float = 300.0
    hashers: int = 2  # passwords hashed or checked at once (Argon2id: 64 MiB each)
    session_days: float = 180.0  # a sign-in lasts this long on its device
    holiday_days: int = 21  # days a year a person with an account may stop their turn-based clocks (0: no holidays)
    bot_tables: int = 4  # tables (waiting or playing) a bot account sits at at once
    invites_per_minute: int = 5  # people a host invites by name (/invite NAME) in a minute at most
    rematch_seconds: float = 120.0  # a rematch offered at the end of a game lapses unless everyone accepts by then
    mail_tries: int = 4  # an e-mail the SMTP server cannot take now is tried this often at most ...
    mail_retry_seconds: float = 30.0  # ... the second time after this long, each next try twice as long after


def parse_limit(text: str, limits: Limits) -> Limits:
    """``limits`` with one ``NAME=VALUE`` changed; a ValueError names what is wrong."""
    name, sep, value = text.partition("=")
    known = {f.name: f for f in fields(Limits)}
    if not sep or name.strip() not in known:
        raise ValueError(f"--limit takes NAME=VALUE, NAME one of {', '.join(known)}; not {text!r}")
    name = name.strip()
    whole = isinstance(getattr(limits, name), int)
    try:
        number: Any = int(value) if whole else float(value)
    except ValueError:
        raise ValueError(f"--limit {name} takes {'a whole number' if whole else 'a number'}, not {value!r}") from None
    if number < 0:
        raise ValueError(f"--limit {name} cannot be negative")
    return replace(limits, **{name: number})
