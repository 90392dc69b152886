"""A room of the café: its seats, its commands (``/join``, ``/start`` ...), and the one authoritative game.

A room knows nothing of connections: every request returns an :class:`Outcome`
(a private answer, a chat line for everyone, whether the room changed), which
the tables (:mod:`cafe.server.tables`) publish and the gateway turns into messages.
Every accepted step is committed to the store before the outcome reports it, so nothing acknowledged is ever lost.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from cafe.ai.base import Player
from cafe.ai.levels import LEVELS, make_player
from cafe.arena.match import Game, new_game
from cafe.board_game import MAX_PLAYERS as BOARD_MAX
from cafe.card_game import MAX_PLAYERS as CARD_MAX
from cafe.errors import CafeError, JokerWithoutNationError
from cafe.i18n import DEFAULT, N_, T, Text
from cafe.options import make_rules
from cafe.record import Record
from cafe.server.matches import Match
from cafe.server.names import key as name_key
from cafe.server.ratings import rated_among, shown
from cafe.server.storage.invitations import Offer, code_matches, new_code
from cafe.server.storage.store import Ending, Result, RoomRow, SeatRow, StepConflict, Store
from cafe.steps import Step, parse_step
from cafe.svg import view_svg
from cafe.tiles import Nation

MIN_PLAYERS = 2
CLOCKS = (0, 12, 24, 48, 72, 168)  # hours on a turn's clock a table may be opened with (0: a live game)
LATE = ("bot", "end")  # when a turn-based clock runs out: a computer player plays the turn, or the others may end
REPLACEMENT_BOT = "medium"  # who takes over the seat of a player who left a game
HELP = N_(
    "/join: take a seat · /leave: give it up (in a game, a computer player takes over) · "
    "/start: begin the game (host) · /end: end a turn-based game whose player ran out of time · "
    "/bot LEVEL: seat a computer player (host; easy, medium, hard, expert, master) · "
    "/invite NAME: invite someone with an account, or a bot account, to sit (host) · "
    "/kick SEAT or NAME: remove a seat before the start (host) · /hints on|off: hints for everyone, and the game is "
    "not rated (host) · /private on|off: only those with the table's link may sit (host) · /help: this text. "
    "Anything else is chat."
)
LEVEL_WORDS = {  # the computer players' levels as people read them (the client shows the same words)
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "master": N_("master"),
}

VOWELS = "AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŸÆŒH"  # French elides "de" before these (and before a mute h)
SIBILANTS = ("s", "ß", "x", "z", "ce")  # German writes "Hans' Tisch", not "Hanss Tisch"


def table_name(name: str, language: str) -> str:
    """A room's name when its host gives none: "Ann's table", "Jürgens Tisch", "Table d'Amélie", "Stůl: Jürgen"."""
    vowel, sibilant = name[:1].upper() in VOWELS, name.lower().endswith(SIBILANTS)
    if vowel and sibilant:
        # i18n: a room's default name; {both} begins with a vowel or h and ends in s, ß, x or z ("Table d'Agnès")
        return T("{both}'s table", both=name).render(language)
    if vowel:
        # i18n: a room's default name; {vowel} begins with a vowel or h ("Table d'Amélie", "Amélies Tisch")
        return T("{vowel}'s table", vowel=name).render(language)
    if sibilant:
        # i18n: a room's default name; {sibilant} ends in s, ß, x or z ("Hans' Tisch", "Table de Hans")
        return T("{sibilant}'s table", sibilant=name).render(language)
    return T("{name}'s table", name=name).render(language)


@dataclass
class Outcome:
    """What a request did: an answer for the sender, a line for everyone, and whether the room changed."""

    answer: Text | None = None
    error: Text | None = None
    rule: str | None = None
    announce: Text | None = None
    changed: bool = False
    stepped: bool = False  # a step of the game was accepted and stored
    next_game: RoomRow | None = None  # a game of a match ended and the match goes on: the next game's room (stored)


@dataclass
class Room:
    id: str
    name: str
    edition: str
    rules: Any
    host: int
    seed: int
    store: Store
    seats: list[SeatRow] = field(default_factory=list)
    status: str = "waiting"
    game: Game | None = None
    bots: dict[int, Player] = field(default_factory=dict)
    match: Match | None = None
    seq: int = 0  # the last event's place in the room's sequence: a gap tells a client to sync
    version: int = 0  # the changes this copy has heard of (the broker counts them for every process)
    hinted: set[int] = field(default_factory=set)  # the turns (from 0) in which a player asked for a hint
    hints: bool = False  # the host allows hints to everyone: the game is not rated
    clock: int = 0  # hours on each turn's clock (CLOCKS); 0: a live game, on the server's own short clock
    late: str = "bot"  # what running out of a turn-based clock does (LATE)
    deadline: float | None = None  # when the turn in progress runs out of time (time.time(); turn-based games)
    hour: float = 3600.0  # seconds in an hour of the clock (Limits.clock_hour)
    ended: tuple[int, ...] | None = None  # each seat's place in a game the players ended before its end
    invitation: str | None = None  # a private table's code: only who brings it sits (cafe.server.storage.invitations)
    offer: Offer | None = None  # the rematch offered at the end of the game
    holidays: dict[int, float] = field(default_factory=dict)  # seated people on holiday, until when (turn-based)
    _picture: str | None = field(default=None, repr=False)  # the SVG of the current position, once drawn
    _bot_accounts: tuple[tuple[int, ...], set[int]] = field(default=((), set()), repr=False)  # seated, and bots

    @classmethod
    def create(
        cls,
        store: Store,
        room_id: str,
        name: str,
        edition: str,
        rules: Any,
        host: int,
        best_of: int | None = None,
        clock: tuple[int, str, float] = (0, "bot", 3600.0),
    ) -> Room:
        """A new waiting room, for one game or a match; the rules are checked now (a clear error, not a broken
        room later). ``clock``: the hours on a turn's clock (0: live), what running out does, seconds in an hour."""
        make_rules(edition, rules)  # raises a RulesError naming what is wrong, an unknown edition included
        match = None if best_of is None else Match.begin(best_of)
        hours, late, hour = clock
        room = cls(room_id, name, edition, rules, host, _seed(), store, match=match, clock=hours, late=late, hour=hour)
        room._store_new()
        return room

    def _next_game(self, match: Match) -> RoomRow:
        """The room of the next game of ``match`` (as this game left it): the same players, seats turned by one,
        playing at once."""
        first = self.name.rsplit(" · ", 1)[0] if self.match is not None and self.match.game > 1 else self.name
        match = match.following(self.id)
        name = f"{first} · {match.game}"  # the game's number: the same in every language ("Jürgens Tisch · 2")
        seats = tuple(_numbered(self.seats[1:] + self.seats[:1]))
        return RoomRow(secrets.token_hex(4), name, self.edition, self.rules, self.host, "playing", _seed(), seats, (),
                       match.to_json(), self.hints, self.clock, self.late,
                       self._deadline(self.seats[1 % len(self.seats)].player))  # fmt: skip

    def _store_new(self) -> None:
        """Store this new room, waiting (its seats and start follow)."""
        row = RoomRow(self.id, self.name, self.edition, self.rules, self.host, "waiting", self.seed, (), (),
                      self._match_json(), self.hints, self.clock, self.late)  # fmt: skip
        self.store.add_room(row)

    def _match_json(self) -> dict[str, Any] | None:
        return None if self.match is None else self.match.to_json()

    @classmethod
    def restore(cls, store: Store, row: RoomRow, hour: float = 3600.0) -> Room:
        """A room as it is stored (after a restart, or made by another process): its game replayed."""
        room = cls(row.id, row.name, row.edition, row.rules, row.host, row.seed, store, hour=hour)
        room.refresh(row)
        return room

    def refresh(self, row: RoomRow | None) -> None:
        """Bring this copy up to the stored room, which another server process may have changed (None: dropped)."""
        self._picture = None
        if row is None:
            self.status = "closed"
            return
        self.name, self.host, self.status, self.seats = row.name, row.host, row.status, list(row.seats)
        self.hints, self.clock, self.late, self.deadline = row.hints, row.clock, row.late, row.deadline
        self.invitation = self.store.invitation(self.id)
        self.load_holidays()
        self.offer = self.store.rematch(self.id) if row.status == "finished" else None
        self.match = None if row.match is None else Match.from_json(row.match)
        if row.status not in ("playing", "finished"):
            self.game, self.bots = None, {}
            return
        known = tuple(str(result.step) for result in self.game.results) if self.game is not None else None
        if known is None or row.steps[: len(known)] != known:  # a step taken back, or a game new to this copy
            self._begin()
            known = ()
        assert self.game is not None
        for text in row.steps[len(known) :]:
            self.game.push(text)
        for seat in self.seats:  # a person's seat given to a computer player meanwhile
            if seat.bot and seat.seat not in self.bots:
                self.bots[seat.seat] = make_player(seat.bot, seed=self.seed + seat.seat)

    # ------------------------------------------------------------------ reading

    @property
    def max_players(self) -> int:
        return BOARD_MAX if self.edition == "board" else CARD_MAX

    @property
    def plies(self) -> int:
        """Steps accepted so far: a client names it with its step, so that a stale step is refused."""
        return len(self.game.results) if self.game is not None else 0

    def seat_of(self, player: int) -> int | None:
        for seat in self.seats:  # a plain loop: asked for every follower at every step
            if seat.player == player:
                return seat.seat
        return None

    def summary(self) -> dict[str, Any]:
        """The room as the lobby lists it (``bot_account``: true on a seat of a bot account, which a program plays)."""
        marked = self.bot_accounts()
        return {
            "id": self.id,
            "name": self.name,
            "edition": self.edition,
            "rules": self.rules,
            "status": self.status,
            "seats": [
                {"seat": s.seat, "name": s.name, "bot": s.bot} | ({"bot_account": True} if s.player in marked else {})
                for s in self.seats
            ],
            "max_players": self.max_players,
            "match": self._match_json(),
            "hints": self.hints,
            "clock": self.clock,
            "late": self.late,
            "private": self.invitation is not None,
        }

    def bot_accounts(self) -> set[int]:
        """The seated players whose accounts are bots (cafe.server.bots), asked of the store when the seats change."""
        seated = tuple(s.player for s in self.seats if s.player is not None)
        if self._bot_accounts[0] != seated:
            self._bot_accounts = seated, self.store.bot_accounts(list(seated))
        return self._bot_accounts[1]

    def state_for(self, player: int) -> dict[str, Any]:
        """Everything one player may know of the room: its own view only, and its legal steps on its turn."""
        seat = self.seat_of(player)
        out = {**self.summary(), "host": self.host, "you": seat, "plies": self.plies}
        if seat is not None and self.invitation is not None and self.status == "waiting":
            out["invite"] = self.invitation  # the seated may invite others; nobody else reads the code
        if self.status == "finished":
            out["rematch"] = self._offer_json()
        if self.game is not None:
            game = self.game
            out["view"] = game.view(seat).to_json()
            out["log"] = self._log(seat)
            mine = seat is not None and not game.is_over() and game.current_player == seat
            legal = game.legal_steps() if mine else []
            out["legal"] = [str(step) for step in legal]
            out["points"] = {str(step): game.step_points(step) for step in legal}
            out["can_undo"] = mine and game.can_take_back()
            out["hints"] = mine and self.hints_allowed()
            out["can_end"] = self.late_seat(player) is not None
            if game.is_over():  # each seat's final place, as the rules rank them (RULES.md §2.8, §4.6)
                out["places"] = list(game.places() or [1 for _ in self.seats])
            elif self.ended is not None and self.status == "finished":  # ended for a player out of time
                out["places"], out["view"]["over"] = list(self.ended), True
        if self.clock:  # each seat's person on holiday: until when (time.time())
            now = time.time()
            out["holiday"] = [self._until(s.player, now) for s in self.seats]
        return out

    def _until(self, player: int | None, now: float) -> float | None:
        until = self.holidays.get(player or 0)
        return until if until is not None and until > now else None

    def _log(self, seat: int | None) -> list[dict[str, Any]]:
        """The turns so far as ``seat`` may see them (the last one maybe in progress): who, which steps, and the
        points they made."""
        game = self.game
        assert game is not None
        log: list[dict[str, Any]] = []
        turn: dict[str, Any] | None = None
        for result in game.results:
            if turn is None:
                turn = {"seat": result.player, "steps": [], "points": 0}
                log.append(turn)
            if str(result.step) != "stop":
                turn["steps"].append(game.seen_step(str(result.step), result.player, seat))
            turn["points"] += result.points
            turn["hint"] = len(log) - 1 in self.hinted
            if result.turn_over:
                turn = None
        return log

    def picture(self) -> str | None:
        """The café as everyone sees it, in SVG (drawn once per position, for the browsers that ask)."""
        if self.game is None:
            return None
        if self._picture is None:
            self._picture = view_svg(self.game.view())
        return self._picture

    def hints_allowed(self) -> bool:
        """Hints are for games without a rated opponent: no other person has a seat, or left one (a person against
        computer players; games between people are rated, to the end)."""
        return self.hints or sum(seat.person is not None for seat in self.seats) <= 1

    def late_seat(self, player: int, now: float | None = None) -> int | None:
        """The seat whose turn-based clock ran out, if ``player`` (seated elsewhere at the table) may end the game
        for it (the host chose so at the opening)."""
        game, seat = self.game, self.seat_of(player)
        if game is None or self.status != "playing" or game.is_over() or self.late != "end" or seat is None:
            return None
        late = game.current_player
        if self.deadline is None or (now or time.time()) < self.deadline or late == seat or late in self.bots:
            return None
        return late

    def _deadline(self, player: int | None) -> float | None:
        """When ``player``'s turn beginning now runs out of time (None: a live game, on the server's clock): its
        clock starts once their holiday, if any, is over."""
        if not self.clock:
            return None
        now = time.time()
        return max(now, self.holidays.get(player or 0, now)) + self.clock * self.hour

    def load_holidays(self) -> None:
        """Who of the people seated at a turn-based table is on holiday, from the store."""
        players = [s.player for s in self.seats if s.player is not None]
        self.holidays = self.store.on_holiday(players, time.time()) if self.clock else {}

    def bot_to_move(self) -> tuple[int, Player] | None:
        """The computer player whose turn it is, if any."""
        if self.game is None or self.game.is_over():
            return None
        seat = self.game.current_player
        bot = self.bots.get(seat)
        return (seat, bot) if bot is not None else None

    # ------------------------------------------------------------------ commands

    def command(self, player: int, name: str, text: str, language: str = DEFAULT) -> Outcome:
        """A line starting with '/' (``language``: the sender's, for the names it gives)."""
        word, _, arg = text[1:].partition(" ")
        word, arg = word.lower(), arg.strip()
        handler = {
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "bot": self._bot,
            "kick": self._kick,
            "hints": self._hints,
            "end": self._end,
            "private": self._private,
        }.get(word)
        if word == "help":
            return Outcome(answer=T(HELP))
        if handler is None:
            return Outcome(error=T("unknown command /{word}: try /help", word=word))
        if word == "bot":  # a computer player's name is given once, in the words of the host who seats it
            return self._bot(player, name, arg, language)
        return handler(player, name, arg)

    def _join(self, player: int, name: str, arg: str) -> Outcome:
        if self.status != "waiting":
            return Outcome(error=T("the game has started: watch, or join another room"))
        if self.seat_of(player) is not None:
            return Outcome(error=T("you already have a seat"))
        if self.invitation is not None and player != self.host:
            return Outcome(error=T("this table is private: only those with its invitation link may sit"))
        return self._sit(player, name)

    def join_invited(self, player: int, name: str, code: str) -> Outcome:
        """A person who opened the table's invitation link sits down (at a public table, like anyone)."""
        if self.invitation is not None and not code_matches(self.invitation, code):
            return Outcome(error=T("this invitation is not valid (any more): ask for a new link"))
        if self.status != "waiting":
            return Outcome(error=T("the game has started: watch, or join another room"))
        if self.seat_of(player) is not None:
            return Outcome(answer=T("you already have a seat"))
        return self._sit(player, name)

    def _sit(self, player: int, name: str) -> Outcome:
        if len(self.seats) >= self.max_players:
            return Outcome(error=T("every seat is taken ({max_players} players at most)", max_players=self.max_players))
        self.seats.append(SeatRow(len(self.seats), name, player=player))
        self.store.set_seats(self.id, tuple(self.seats))
        return Outcome(announce=T("{name} takes a seat", name=name), changed=True)

    def _leave(self, player: int, name: str, arg: str) -> Outcome:
        seat = self.seat_of(player)
        if seat is None:
            return Outcome(error=T("you have no seat here"))
        if self.status == "waiting":
            self._remove(seat)
            heir = next((s for s in self.seats if s.player is not None), None)
            if heir is None:  # nobody left to start it
                return self.close(T("{name} leaves the table; the room closes", name=name))
            if player == self.host and heir.player is not None:
                self.host = heir.player
                self.store.set_host(self.id, heir.player)
                return Outcome(
                    announce=T("{name} leaves the table; {host} is the host now", name=name, host=heir.name),
                    changed=True,
                )
            return Outcome(announce=T("{name} leaves the table", name=name), changed=True)
        if self.status == "playing":
            self.replace_by_bot(seat)
            return Outcome(
                announce=T(
                    "{name} leaves; a computer player ({level}) takes over",
                    name=name,
                    level=T(LEVEL_WORDS[REPLACEMENT_BOT]),
                ),
                changed=True,
            )
        return Outcome(error=T("the game is over"))

    def close(self, why: Text | None = None) -> Outcome:
        """A waiting room closes: nobody is left to start it."""
        self.status = "closed"
        self.store.drop_room(self.id)
        if self.invitation is not None:
            self.store.set_invitation(self.id, None)
        return Outcome(announce=why or T("Nobody has been here for a while: the room closes"), changed=True)

    def _start(self, player: int, name: str, arg: str) -> Outcome:
        if player != self.host:
            return Outcome(error=T("only the host can start the game"))
        if self.status != "waiting":
            return Outcome(error=T("the game has already started"))
        if len(self.seats) < MIN_PLAYERS:
            return Outcome(error=T("at least {n} players are needed: /join, or /bot LEVEL", n=MIN_PLAYERS))
        self.load_holidays()  # of those who sat down meanwhile too
        self.deadline = self._deadline(self.seats[0].player)
        self.store.start_room(self.id, self.deadline)
        if self.match is not None:
            self.match = Match.begin(self.match.best_of, tuple(s.name for s in self.seats))
            self.store.set_match(self.id, self.match.to_json())
        self.status = "playing"
        self._begin()
        return Outcome(
            announce=T("The game begins: {names}", names=", ".join(s.name for s in self.seats)), changed=True
        )

    def _bot(self, player: int, name: str, arg: str, language: str = DEFAULT) -> Outcome:
        level = arg.lower() or "medium"
        if player != self.host:
            return Outcome(error=T("only the host can seat computer players"))
        if self.status != "waiting":
            return Outcome(error=T("the game has already started"))
        if level not in LEVELS:
            return Outcome(error=T("unknown level '{arg}': easy, medium, hard, expert or master", arg=arg))
        if len(self.seats) >= self.max_players:
            return Outcome(error=T("every seat is taken ({max_players} players at most)", max_players=self.max_players))
        # i18n: a computer player's name, e.g. "Medium bot 3"; "bot" stays (no person may be named with it)
        bot_name = T("{level} bot {n}", level=T(LEVEL_WORDS[level]), n=len(self.seats) + 1).render(language)
        self.seats.append(SeatRow(len(self.seats), bot_name[:1].upper() + bot_name[1:], bot=level))
        self.store.set_seats(self.id, tuple(self.seats))
        return Outcome(announce=T("{bot_name} takes a seat", bot_name=self.seats[-1].name), changed=True)

    def _kick(self, player: int, name: str, arg: str) -> Outcome:
        if player != self.host:
            return Outcome(error=T("only the host can remove a seat"))
        if self.status != "waiting":
            return Outcome(error=T("seats can be changed only before the start"))
        if arg.isdigit():  # a seat by its number, as the room shows it (from 1)
            found = [s for s in self.seats if s.seat == int(arg) - 1]
            if not found:
                return Outcome(error=T("there is no seat {arg}", arg=arg))
        else:
            found = [s for s in self.seats if name_key(s.name) == name_key(arg)]
            if not found:
                return Outcome(error=T("nobody called '{arg}' has a seat", arg=arg))
            if len(found) > 1:
                return Outcome(error=T("several seats are called '{arg}': /kick the seat's number", arg=arg))
        if found[0].player == player:
            return Outcome(error=T("the host leaves with /leave, not /kick"))
        self._remove(found[0].seat)
        return Outcome(announce=T("{name} was removed from the table", name=found[0].name), changed=True)

    def _hints(self, player: int, name: str, arg: str) -> Outcome:
        if player != self.host:
            return Outcome(error=T("only the host can allow hints"))
        if self.status != "waiting":
            return Outcome(error=T("hints are allowed or not before the start"))
        if arg.lower() not in ("on", "off"):
            return Outcome(error=T("/hints on, or /hints off"))
        self.hints = arg.lower() == "on"
        self.store.set_hints(self.id, self.hints)
        if self.hints:
            return Outcome(
                announce=T("Hints are allowed to everyone at this table; the game will not be rated"), changed=True
            )
        return Outcome(announce=T("No hints at this table while other people play at it"), changed=True)

    def _end(self, player: int, name: str, arg: str) -> Outcome:
        """Another player ends a turn-based game whose player ran out of time: the late player is placed last, the
        others by their points (as Board Game Arena lets them)."""
        late = self.late_seat(player)
        if late is None:
            return Outcome(error=T("only the others at a table whose player ran out of time may end the game"))
        assert self.game is not None
        scores = self.game.scores
        others = [s for s in range(len(self.seats)) if s != late]
        places = [1 + sum(scores[o] > scores[s] for o in others) for s in range(len(self.seats))]
        places[late] = len(self.seats)
        ended = T("{name} ends the game: {late} ran out of time and is placed last", name=name,
                  late=self.seats[late].name)  # fmt: skip
        return self._finish(None, tuple(places), ended)

    def _private(self, player: int, name: str, arg: str) -> Outcome:
        if player != self.host:
            return Outcome(error=T("only the host can make the table private"))
        if self.status != "waiting":
            return Outcome(error=T("a table is made private or public before the start"))
        if arg.lower() not in ("on", "off"):
            return Outcome(error=T("/private on, or /private off"))
        self.set_private(arg.lower() == "on")
        if self.invitation is not None:
            return Outcome(
                announce=T("The table is private: only those with its invitation link may sit"), changed=True
            )
        return Outcome(announce=T("The table is open to everyone in the lobby"), changed=True)

    def set_private(self, private: bool) -> None:
        """Make the table private with a fresh code (an old link no longer seats anyone), or public."""
        self.invitation = new_code() if private else None
        self.store.set_invitation(self.id, self.invitation)

    # ------------------------------------------------------------------ rematch

    def _offer_json(self) -> dict[str, Any] | None:
        """The rematch offer as the room shows it: the seats that accepted, the seconds left, the new room."""
        offer = self.offer
        if offer is None or (offer.next is None and offer.until <= time.time()):
            return None
        seats = [s.seat for p in offer.accepted for s in self.seats if s.player == p]
        left = max(0.0, round(offer.until - time.time(), 1))
        return {"accepted": seats, "for": left, "next": offer.next}

    def rematch(self, player: int, name: str, accept: bool, seconds: float) -> tuple[Outcome, RoomRow | None]:
        """A person who played asks for a rematch, accepts one, or declines it; once every person has accepted,
        the new game's room (stored, playing): the same people and computer players, the seats turned by one."""
        people = [s.player for s in self.seats if s.player is not None]
        offer = self.offer if self.offer is not None and (self.offer.next or self.offer.until > time.time()) else None
        if self.status != "finished" or self.game is None or not self.game.is_over():
            return Outcome(error=T("a rematch is offered once the game is over")), None
        if player not in people:
            return Outcome(error=T("only those who played this game can ask for a rematch")), None
        if self.match is not None:
            return Outcome(error=T("a match plays its own games: open a new table for another")), None
        if offer is not None and offer.next is not None:
            return Outcome(error=T("the rematch has begun already")), None
        if not accept:
            if offer is None:
                return Outcome(error=T("there is no rematch offer to decline")), None
            return self.withdraw(T("{name} declines the rematch", name=name)), None
        gone = [s.left_by for s in self.seats if s.left_by is not None]
        if gone:
            left = self.store.player_name(gone[0]) or "?"
            return Outcome(error=T("{name} left the game: a rematch needs the same players", name=left)), None
        if offer is not None and player in offer.accepted:
            return Outcome(error=T("you have accepted the rematch already: waiting for the others")), None
        accepted = (*offer.accepted, player) if offer is not None else (player,)
        until = offer.until if offer is not None else time.time() + seconds
        if set(people) - set(accepted):
            self.offer = Offer(accepted, until)
            self.store.set_rematch(self.id, self.offer)
            if offer is None:
                minutes = max(1, round(seconds / 60))
                said = T("{name} offers a rematch with the seats turned (for {minutes} min)", name=name,
                         minutes=minutes)  # fmt: skip
            else:
                said = T("{name} accepts the rematch", name=name)
            return Outcome(announce=said, changed=True), None
        seats = tuple(_numbered(self.seats[1:] + self.seats[:1]))
        row = RoomRow(secrets.token_hex(4), self.name, self.edition, self.rules, self.host, "playing", _seed(), seats,
                      (), None, self.hints)  # fmt: skip
        self.store.add_room(row)
        self.offer = Offer(accepted, until, row.id)
        self.store.set_rematch(self.id, self.offer)
        return Outcome(announce=T("Everyone accepts: the rematch begins"), changed=True), row

    def withdraw(self, why: Text) -> Outcome:
        """The rematch offer is off (declined, lapsed, or someone left): nothing begins."""
        self.offer = None
        self.store.set_rematch(self.id, None)
        return Outcome(announce=why, changed=True)

    def _remove(self, seat: int) -> None:
        del self.seats[seat]
        self.seats = _numbered(self.seats)
        self.store.set_seats(self.id, tuple(self.seats))

    def _begin(self) -> None:
        self.game = new_game(self.edition, [s.name for s in self.seats], self.seed, self.rules)
        self.bots = {s.seat: make_player(s.bot, seed=self.seed + s.seat) for s in self.seats if s.bot}

    def replace_by_bot(self, seat: int) -> None:
        """A computer player takes over a person's seat in a game (they left, or stayed away too long); the person
        is rated as the seat finishes."""
        old = self.seats[seat]
        self.seats[seat] = SeatRow(seat, f"{old.name} (bot)", bot=REPLACEMENT_BOT, left_by=old.person)
        self.store.replace_seat(self.id, self.seats[seat])
        self.bots[seat] = make_player(REPLACEMENT_BOT, seed=self.seed + seat)

    # ------------------------------------------------------------------ steps

    def step(self, player: int, text: str, plies: int | None) -> Outcome:
        """A person's step: checked against the turn, the position they saw, and the rules."""
        seat = self.seat_of(player)
        if self.game is None or self.status != "playing":
            return Outcome(error=T("no game is being played in this room"))
        if seat is None:
            return Outcome(error=T("you are watching: only seated players make steps"))
        if self.game.current_player != seat:
            return Outcome(error=T("it is {name}'s turn, not yours", name=self.seats[self.game.current_player].name))
        if plies is not None and plies != self.plies:
            return Outcome(
                error=T(
                    "stale step: the game has moved on (step {plies}, you saw {seen}); sync",
                    plies=self.plies,
                    seen=plies,
                )
            )
        return self.play(seat, text)

    def take_back(self, player: int, name: str, plies: int | None) -> Outcome:
        """A person takes their last step back: only within the turn in progress, and only if it drew nothing."""
        seat = self.seat_of(player)
        if self.game is None or self.status != "playing" or seat is None or self.game.current_player != seat:
            return Outcome(error=T("you can take back only your own steps, on your turn"))
        if plies is not None and plies != self.plies:
            return Outcome(
                error=T(
                    "stale undo: the game has moved on (step {plies}, you saw {seen}); sync",
                    plies=self.plies,
                    seen=plies,
                )
            )
        if not self.game.can_take_back():
            return Outcome(error=T("nothing to take back: a turn's steps can be taken back until it ends or draws"))
        self.store.remove_step(self.id, self.plies - 1)
        step = self.game.pop()
        self._picture = None
        return Outcome(announce=T("{name} takes back {step}", name=name, step=str(step)), changed=True)

    def play(self, seat: int, text: str) -> Outcome:
        """Apply a step for ``seat``, commit it (with the game's ending, if it ends the game), and report it."""
        assert self.game is not None
        try:
            step = parse_step(text)
            self.game.push(step)
        except CafeError as error:
            if isinstance(error, JokerWithoutNationError):
                error = self._refused_under_every_nation(error) or error
            return Outcome(error=error.text, rule=error.rule or None)
        n, deadline = self.plies - 1, self.deadline
        try:
            if self.game.is_over():
                return self._finish((n, seat, str(step)))
            if self.clock and self.game.results[-1].turn_over:  # a new turn: a new clock
                deadline = self._deadline(self.seats[self.game.current_player].player)
            self.store.add_step(self.id, n, seat, str(step), deadline if deadline != self.deadline else None)
        except StepConflict:  # another server process stored this step number first: nothing changes here
            self.game.pop()
            return Outcome(error=T("the game moved on meanwhile; sync and try again"))
        except Exception:
            self.game.pop()
            raise
        self._picture, self.deadline = None, deadline
        return Outcome(changed=True, stepped=True)

    def _refused_under_every_nation(self, missing: JokerWithoutNationError) -> CafeError | None:
        """Why a joker put on a chair without a nation (a click on a chair that is not lit) may sit there under no
        nation, when every nation is refused for the same reason ("chair d11 is taken"); else None.

        The notation asks a joker's nation, which a person who clicked a refused chair never chose: the reason that
        holds for every nation is the one to tell them, not the notation's."""
        assert self.game is not None
        reasons: dict[str, CafeError] = {}
        for nation in Nation:
            try:
                self.game.push(Step.seat(missing.tile, missing.chair, nation))
            except CafeError as error:
                reasons.setdefault(error.message("en"), error)
            else:
                self.game.pop()
                return None
        return next(iter(reasons.values())) if len(reasons) == 1 else None

    def abandon(self) -> Outcome:
        """End a game that no person plays or watches any more: its record is kept, nobody is rated."""
        assert self.game is not None
        self.store.finish_game(self.id, Ending(Record.of(self.game).to_json(), {}))
        self.status = "finished"
        return Outcome(changed=True, announce=T("Nobody is left at the table: the game is abandoned"))

    def _finish(
        self, last_step: tuple[int, int, str] | None, ended: tuple[int, ...] | None = None, why: Text | None = None
    ) -> Outcome:
        """The game is over: its last step, record, ratings and match (and the match's next game) in one write.
        ``ended``: each seat's place, for a game the players ended before its end (``why`` says so)."""
        assert self.game is not None
        record = Record.of(self.game).to_json()
        people = [s for s in self.seats if s.person is not None]  # those who left included: rated as they finish
        places = ended or self.game.places() or tuple(1 for _ in self.seats)
        players = [s.person for s in people if s.person is not None]
        known = self.store.ratings(players)
        ratings = {} if self.hints else rated_among(people, places, self.store.accounts(players), known)
        results = tuple(
            Result(
                player,
                s.seat,
                places[s.seat],
                shown(known.get(player)),
                shown(ratings.get(player) or known.get(player)),
            )
            for s, player in zip(people, players, strict=True)
        )
        winner = self.game.winner() if ended is None else (places.index(1) if places.count(1) == 1 else None)
        scores = ", ".join(f"{s.name} {score}" for s, score in zip(self.seats, self.game.scores, strict=True))
        who = T("a shared first place") if winner is None else T("{name} wins", name=self.seats[winner].name)
        announce = T("Game over: {who} ({scores})", who=who, scores=scores)
        match, following = self.match, None
        if match is not None:
            match = match.won(winner)
            if not match.decided:
                then = T("the next game begins")
                following = self._next_game(match)
            else:
                champion = match.winner()
                then = T("{name} wins the match", name=champion) if champion else T("the match is shared")
            announce = T(
                "Game over: {who} ({scores}). The match: {standing}; {then}",
                who=who,
                scores=scores,
                standing=match.standing(),
                then=then,
            )
        ending = Ending(record, ratings, last_step, None if match is None else match.to_json(), following, results)
        self.store.finish_game(self.id, ending)
        self.status, self.match, self._picture, self.ended = "finished", match, None, ended
        if why is not None:
            announce = T("{why}. {then}", why=why, then=announce)
        return Outcome(changed=True, announce=announce, stepped=last_step is not None, next_game=following)


def _seed() -> int:
    """A game's secret seed: the bag's order follows from it, so it never leaves the server."""
    return random.SystemRandom().randrange(1 << 62)


def _numbered(seats: list[SeatRow]) -> list[SeatRow]:
    """The same seats, numbered afresh in their order (a match's next game begins without those who left)."""
    return [SeatRow(k, s.name, s.player, s.bot) for k, s in enumerate(seats)]
