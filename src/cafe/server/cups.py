"""Tournaments in the café (docs/tournaments.md, "In the café"): opened by a director, entered by people and the
café's computer players, each round's tables played in rooms of their own on the round's deal.

The whole of a tournament is one row of the store's ``tournaments`` table: the state of :mod:`cafe.tournament`
(its settings, entries and rounds) and beside it, under ``"cafe"``, what the café adds (who directs it, which
player or computer player each entry is, the rooms of the tables, the clock).  Every change reads the row, changes
it and saves it over the version it read; when another process saved first, the change is made again on what it
saved, so that a round is never paired twice nor a result lost.  A table's room is named in the state before it is
made, so a process that dies in between leaves a room that the next look makes.

Every table of a round plays the same deal, so the tables of a round not over are kept from the round's entrants
who do not play at them, and their records from everyone (:meth:`Cups.may_follow`, :meth:`Cups.hidden`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cafe.ai.levels import LEVELS
from cafe.errors import CafeError
from cafe.i18n import T
from cafe.options import make_rules, rules_from
from cafe.server import bots, cup_times, fields
from cafe.server.fields import ProtocolError
from cafe.server.rooms import CLOCKS, LATE, LEVEL_WORDS, Outcome, Room
from cafe.server.storage.store import DueJob, RoomRow, SeatRow
from cafe.tournament.model import FORMATS, Entry, GameResult, Settings, TournamentError
from cafe.tournament.tournament import MOST_ENTRIES, TABLE_SIZES, Tournament

if TYPE_CHECKING:
    from cafe.server.due import DueWork
    from cafe.server.tables import Tables

log = logging.getLogger("cafe.server")

LOOK_SECONDS = 2.0  # how often the tournaments under way are read again (other processes change them too)
TRIES = 20  # saves tried over another process's before a change gives up
PAIRED_HERE = 40  # entries paired on the event loop; a larger field is paired in a thread
MOST_ROUNDS = 30


@dataclass(frozen=True)
class TableRef:
    """A room that is a tournament's table: which game it is, who plays there, who plays in its round."""

    cup: str
    round: int
    table: int
    game: int
    here: frozenset[int]  # the people at this table
    round_players: frozenset[int]  # the people at every table of the round
    over: bool  # the round is over: its records and tables are open to all


@dataclass
class Cup:
    """A café tournament as stored: the row's status and version, and its state (JSON)."""

    id: str
    name: str
    director: int
    status: str
    version: int
    state: dict[str, Any]

    @property
    def cafe(self) -> dict[str, Any]:
        return self.state["cafe"]  # type: ignore[no-any-return]

    @property
    def settings(self) -> Settings:
        return Settings.from_json(self.state["settings"])

    @property
    def entries(self) -> list[Entry]:
        return [Entry.from_json(entry) for entry in self.state["entries"]]

    def tournament(self) -> Tournament:
        """The tournament of :mod:`cafe.tournament` (two entries at least: from the first round on)."""
        return Tournament.from_json({key: self.state[key] for key in ("version", "settings", "entries", "rounds")})

    def keep(self, tournament: Tournament) -> None:
        self.state = {**tournament.to_json(), "cafe": self.cafe}

    def rooms(self) -> dict[str, str]:
        """``"round.table.game"`` -> the room of that game."""
        return self.cafe["rooms"]  # type: ignore[no-any-return]

    def entry_of(self, player: int) -> str | None:
        return next((entry for entry, known in self.cafe["players"].items() if known == player), None)


def _rules(edition: Any, asked: Any) -> str | dict[str, Any]:
    """A room's rules from what the director asked (a preset's name, or an object of options)."""
    if edition not in ("board", "cards"):
        raise ProtocolError("field", T("'edition' is board or cards"))
    try:
        made = make_rules(edition, asked)
        preset = asked if isinstance(asked, str) else asked.get("preset", "printed")
        return rules_from(preset, made)
    except CafeError as error:
        raise ProtocolError("rules", error.text) from None


def _whole(message: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    number = message.get(key, default)
    if type(number) is not int or not low <= number <= high:
        raise ProtocolError("field", T("'{key}' is a whole number from {low} to {high}", key=key, low=low, high=high))
    return number


def settings_of(message: dict[str, Any]) -> tuple[Settings, dict[str, Any]]:
    """A new tournament's settings and the café's part of it, from what the director sent; checked whole."""
    edition = message.get("edition", "board")
    rules = _rules(edition, message.get("rules", "printed"))
    form = message.get("format", "swiss")
    if form not in FORMATS:
        raise ProtocolError("field", T("'format' is swiss, round_robin or league"))
    size = _whole(message, "table_size", 4, TABLE_SIZES[0], TABLE_SIZES[-1])
    rounds = _whole(message, "rounds", 3 if form == "swiss" else 0, 0, MOST_ROUNDS)
    if form == "swiss" and rounds < 1:
        raise ProtocolError("field", T("a Swiss tournament plays one round at least"))
    hours = message.get("clock", 0)
    if hours not in CLOCKS or isinstance(hours, bool):
        choices = ", ".join(map(str, CLOCKS))
        raise ProtocolError("field", T("'clock' is the hours on each turn's clock: {choices} (0: a live game)",
                                       choices=choices))  # fmt: skip
    late = message.get("late", "bot")
    if late not in LATE:
        raise ProtocolError("field", T("'late' is what running out of time does: bot or end"))
    if late == "end" and not hours:
        raise ProtocolError("field", T("the others may end a game for a player out of time only on a turn-based "
                                       "clock: choose the hours of each turn's clock"))  # fmt: skip
    duplicate = message.get("duplicate", True)
    if not isinstance(duplicate, bool):
        raise ProtocolError("field", T("'duplicate' is true or false"))
    compare = message.get("compare", "score")
    if compare not in ("score", "margin"):
        raise ProtocolError("field", T("'compare' is score or margin"))
    seed = random.SystemRandom().randrange(1 << 62)  # secret: every deal follows from it
    settings = Settings(form, edition, rules, seed, size, rounds if form == "swiss" else 0, compare)
    try:  # the settings as the tournament will check them, with two entries for now
        Tournament(settings, [Entry("a", "a"), Entry("b", "b")])
    except TournamentError as error:
        if form == "swiss" or size == 2:
            raise ProtocolError("field", error.text) from None
    cafe = {"clock": hours, "late": late, "duplicate": duplicate, "closed": False, "players": {}, "bots": {},
            "rooms": {}}  # fmt: skip
    cafe["next_at"], cafe["pause"] = cup_times.start_of(message, time.time()), cup_times.pause_of(message)
    return settings, cafe


class Cups:
    """The café's tournaments, over the tables (:mod:`cafe.server.tables`) that seat their games."""

    def __init__(self, tables: Tables, due_work: DueWork) -> None:
        self.seating = tables
        self.store = tables.store
        self.due_work = due_work  # where rounds that start on time wait (cafe.server.cup_times)
        self.tables: dict[str, TableRef] = {}  # room -> the tournament table it is (tournaments under way)
        self._scheduled: set[str] = set()  # next rounds' starts known to be in the store's due work
        for listed in self.store.tournaments("playing"):  # known before the first computer player's step
            cup = self.load(listed.id)
            if cup is not None:
                self._index(cup)

    # ------------------------------------------------------------------ reading

    def load(self, cup_id: str) -> Cup | None:
        row = self.store.tournament_state(cup_id) if len(cup_id) <= 16 else None
        if row is None or "cafe" not in row.state:  # a tournament the café did not open has no tables here
            return None
        return Cup(row.id, row.name, row.host, row.status, row.version, row.state)

    def _index(self, cup: Cup) -> None:
        """Learn the tournament's rooms (and forget them once it is over)."""
        for room in [room for room, ref in self.tables.items() if ref.cup == cup.id]:
            del self.tables[room]
        if cup.status != "playing":
            return
        tournament = cup.tournament()
        players = cup.cafe["players"]
        for played in tournament.rounds:
            over = tournament.round_finished(played.number)
            everyone = frozenset(players[e] for table in played.tables for e in table.seats if e in players)
            for key, room in cup.rooms().items():
                number, table, game = map(int, key.split("."))
                if number == played.number:
                    here = frozenset(players[e] for e in played.tables[table - 1].seats if e in players)
                    self.tables[room] = TableRef(cup.id, number, table, game, here, everyone, over)

    async def look(self) -> None:
        """Read the tournaments under way again: rooms of a round another process started are made if missing, a
        result a dying process left out goes in, a next round's start by itself that a process left unscheduled is
        scheduled, and a tournament another process finished is forgotten."""
        looked = set()
        for listed in self.store.tournaments("playing"):
            looked.add(listed.id)
            cup = self.load(listed.id)
            if cup is not None:
                self._index(cup)
                await self._open_rooms(cup)
                await self._record_missed(cup)
                at = cup.cafe.get("next_at")
                job = cup_times.job(cup.id, len(cup.state["rounds"]) + 1, at) if at is not None else None
                if job is not None and job.key not in self._scheduled:
                    self.due_work.schedule(job, move=False)
                    self._scheduled.add(job.key)
        for cup_id in {ref.cup for ref in self.tables.values()} - looked:  # finished by another process, say
            cup = self.load(cup_id)
            if cup is not None:
                self._index(cup)

    async def run_forever(self) -> None:
        while True:
            try:
                await self.look()
            except Exception:  # the next look tries again
                log.exception("tournaments could not be read")
            await asyncio.sleep(LOOK_SECONDS)

    def holds(self, room: str) -> bool:
        """The room is a table of a round under way: its computer players play even when nobody watches."""
        ref = self.tables.get(room)
        return ref is not None and not ref.over

    def hidden(self, room: str) -> bool:
        """The room's game is of a round not over: its record is kept from everyone until then."""
        return self.holds(room)

    def may_follow(self, player: int | None, room: Any) -> None:
        """Refuse an entrant of a round a look at another table of it (they play the same deal)."""
        ref = self.tables.get(room) if isinstance(room, str) else None
        if ref is not None and not ref.over and player in ref.round_players and player not in ref.here:
            raise ProtocolError("tournament", T("you play in this round: the other tables open when it is over"))

    # ------------------------------------------------------------------ changes

    async def _change(self, cup_id: str, change: Callable[[Cup], str], thread: bool = False) -> Cup:
        """Apply ``change`` (which returns the new status, or raises ProtocolError) to the stored tournament, saved
        over the version read; tried again on another process's newer save.  ``thread``: ``change`` is long (it
        only reads and changes the :class:`Cup`), so it runs off the event loop."""
        for _ in range(TRIES):
            cup = self.load(cup_id)
            if cup is None:
                raise ProtocolError("missing", T("there is no tournament '{id}'", id=cup_id[:16]))
            status = await asyncio.to_thread(change, cup) if thread else change(cup)
            if self.store.save_tournament_state(cup.id, cup.state, status, cup.version):
                cup.status, cup.version = status, cup.version + 1
                self._index(cup)
                return cup
            await asyncio.sleep(random.random() * 0.05)
        raise ProtocolError("busy", T("the tournament is changing; try again in a moment"))

    def open(self, director: int, message: dict[str, Any]) -> str:
        name = fields.text(message, "name", 60)
        settings, cafe = settings_of(message)
        cup_id = secrets.token_hex(4)
        state = {"version": 1, "settings": settings.to_json(), "entries": [], "rounds": [], "cafe": cafe}
        if cafe["next_at"] is not None:  # scheduled first: a job whose tournament is missing does nothing
            self.due_work.schedule(cup_times.job(cup_id, 1, cafe["next_at"]))
        self.store.add_tournament_state(cup_id, name, director, state)
        return cup_id

    async def enter(self, cup_id: str, player: int, name: str, level: Any, language: str,
                    account: Any = None) -> Cup:  # fmt: skip
        """A person or a bot account enters (``level`` None), or the director enters a computer player of that
        level, or a bot account by its name (``account``)."""
        if account is not None and level is not None:
            raise ProtocolError("field", T("enter a computer player ('bot') or a bot account ('account'), not both"))
        entrant = None if account is None else bots.named(self.store, account)

        def change(cup: Cup) -> str:
            if entrant is None and level is None and cup.entry_of(player) is not None:
                raise ProtocolError("entered", T("you have entered already"))
            _open_for_entries(cup)
            if len(cup.state["entries"]) >= MOST_ENTRIES:
                raise ProtocolError("full", T("a tournament takes {most} entries at most", most=MOST_ENTRIES))
            if entrant is not None:
                if player != cup.director:
                    raise ProtocolError("director", T("only the director enters bot accounts"))
                if cup.entry_of(entrant[0]) is not None:
                    raise ProtocolError("entered", T("{name} has entered already", name=entrant[1]))
                entry, shown = f"p{entrant[0]}", entrant[1]
                cup.cafe["players"][entry] = entrant[0]
            elif level is None:
                entry, shown = f"p{player}", name
                cup.cafe["players"][entry] = player
            else:
                if player != cup.director:
                    raise ProtocolError("director", T("only the director enters computer players"))
                if level not in LEVELS:
                    raise ProtocolError("field", T("unknown level '{arg}': easy, medium, hard, expert or master",
                                                   arg=str(level)[:20]))  # fmt: skip
                number = len(cup.cafe["bots"]) + 1
                entry = f"c{number}"
                said = T("{level} bot {n}", level=T(LEVEL_WORDS[level]), n=number).render(language)
                shown = said[:1].upper() + said[1:]
                cup.cafe["bots"][entry] = level
            cup.state["entries"].append(Entry(entry, shown).to_json())
            return cup.status

        return await self._change(cup_id, change)

    async def withdraw(self, cup_id: str, player: int, entry: Any) -> Cup:
        """An entrant withdraws (or the director withdraws an entry): before the first round it is struck out;
        after, it is not paired again and its game under way is played on by a computer player, as its forfeit."""
        seats: list[tuple[str, int]] = []

        def change(cup: Cup) -> str:
            seats.clear()
            mine = cup.entry_of(player)
            wanted = mine if entry is None else entry
            if wanted is None or (wanted != mine and player != cup.director):
                raise ProtocolError("entry", T("you have not entered this tournament"))
            if not any(known["id"] == wanted for known in cup.state["entries"]):
                raise ProtocolError("entry", T("there is no entry '{entry}'", entry=str(wanted)[:20]))
            if cup.status == "finished":
                raise ProtocolError("over", T("the tournament is over"))
            if cup.status == "open":
                cup.state["entries"] = [known for known in cup.state["entries"] if known["id"] != wanted]
                cup.cafe["players"].pop(wanted, None)
                cup.cafe["bots"].pop(wanted, None)
                return "open"
            tournament = cup.tournament()
            try:
                tournament.withdraw(wanted)
            except TournamentError as error:
                raise ProtocolError("entry", error.text) from None
            cup.keep(tournament)
            last = tournament.rounds[-1]
            for key, room in cup.rooms().items():
                number, table, _ = map(int, key.split("."))
                if number == last.number and wanted in last.tables[table - 1].seats:
                    seats.append((room, cup.cafe["players"].get(wanted, -1)))
            return "playing"

        cup = await self._change(cup_id, change)
        for room_id, gone in seats:  # a game of theirs under way goes on with a computer player in their seat
            room = self.seating.rooms.get(room_id)
            if room is not None and room.status == "playing" and room.seat_of(gone) is not None:
                async with self.seating.changing(room):
                    seat = room.seat_of(gone)
                    if seat is not None and room.status == "playing":
                        name = room.seats[seat].name
                        room.replace_by_bot(seat)
                        said = T("{name} withdraws from the tournament: a computer player plays on", name=name)
                        await self.seating.after(room, Outcome(announce=said, changed=True))
        return cup

    async def start(self, cup_id: str, player: int | None, due: int | None = None) -> Cup:
        """The director starts the next round (``player``), or its time came (``due``: the round, None once
        started): it is paired, and its tables open, one room each."""
        cup = self.load(cup_id)
        if cup is None:
            raise ProtocolError("missing", T("there is no tournament '{id}'", id=cup_id[:16]))
        if player is not None and cup.director != player:
            raise ProtocolError("director", T("only the tournament's director starts its rounds"))
        if cup.status == "open" and len(cup.state["entries"]) < 2:
            raise ProtocolError("entries", T("a tournament needs two entries at least"))
        large = len(cup.state["entries"]) > PAIRED_HERE

        def change(cup: Cup) -> str:
            if cup.status == "finished":
                raise ProtocolError("over", T("the tournament is over"))
            if due is not None and due != len(cup.state["rounds"]) + 1:
                raise ProtocolError("round", T("round {round} has started already", round=due))
            tournament = cup.tournament()
            try:
                played = tournament.pair()
            except TournamentError as error:
                raise ProtocolError("round", error.text) from None
            cup.keep(tournament)
            cup.cafe["closed"] = True
            cup.cafe["next_at"] = None  # started: early by hand, or on time
            for number in range(1, len(played.tables) + 1):
                cup.rooms()[f"{played.number}.{number}.1"] = secrets.token_hex(4)
            return "playing"

        saved = await self._change(cup_id, change, thread=large)  # a large field's search: not on the event loop
        await self._open_rooms(saved)
        return saved

    async def due(self, job: DueJob) -> None:
        """A round's time came (a due job of :mod:`cafe.server.cup_times`): it starts, unless it has started.  A
        tournament with too few entries waits for its director, no longer promising a time."""
        try:
            await self.start(job.room, None, job.arg)
        except ProtocolError as refused:
            log.info("round %d of tournament %s does not start by itself: %s", job.arg, job.room, refused.code)
            if refused.code == "entries":
                await self._change(job.room, lambda cup: _no_start(cup, job.arg))

    async def _open_rooms(self, cup: Cup) -> None:
        """Make every room the state names and the store lacks (this process's, or one left by a process that
        died between saving the round and making its rooms)."""
        if cup.status != "playing":
            return
        tournament = cup.tournament()
        for key, room_id in cup.rooms().items():
            if room_id in self.seating.rooms or self.store.load_room(room_id) is not None:
                continue
            number, table, game = map(int, key.split("."))
            if number != len(tournament.rounds):
                continue
            await self._open_room(cup, tournament, room_id, number, table, game)

    async def _record_missed(self, cup: Cup) -> None:
        """The result of a table whose game ended in a process that died before it went in: in now."""
        tournament = cup.tournament() if cup.status == "playing" else None
        for room_id, ref in list(self.tables.items()):
            if tournament is None or ref.cup != cup.id or tournament.next_game(ref.round, ref.table) != ref.game:
                continue
            room = self.seating.rooms.get(room_id)
            row = self.store.load_room(room_id) if room is None else None
            if row is not None and row.status == "finished":
                room = Room.restore(self.store, row, self.seating.limits.clock_hour)
            if room is not None and room.status == "finished":
                await self.after(room)

    async def _open_room(self, cup: Cup, tournament: Tournament, room_id: str, number: int, table: int,
                         game: int) -> None:  # fmt: skip
        settings, cafe = cup.settings, cup.cafe
        names = {entry.id: entry.name for entry in tournament.entries}
        seats = []
        for k, entry in enumerate(tournament.seats(number, table, game)):
            if entry in cafe["bots"]:
                seats.append(SeatRow(k, names[entry], bot=cafe["bots"][entry]))
            else:
                seats.append(SeatRow(k, names[entry], player=cafe["players"][entry]))
        if cafe["duplicate"]:
            seed = tournament.deal_seed(number, game)
        else:  # each table a deal of its own
            seed = int.from_bytes(secrets.token_bytes(8), "big") >> 2
        hours = cafe["clock"]
        deadline = time.time() + hours * self.seating.limits.clock_hour if hours else None
        name = f"{cup.name} · {number}.{table}" + (f".{game}" if game > 1 else "")
        row = RoomRow(room_id, name, settings.edition, settings.rules, cup.director, "playing", seed, tuple(seats),
                      (), None, False, hours, cafe.get("late", "bot"), deadline)  # fmt: skip
        try:
            self.store.add_room(row)
        except Exception:  # another process made it a moment ago
            if self.store.load_room(room_id) is None:
                raise
            return
        room = self.seating.add(row)
        for follower in list(self.seating.followers.values()):  # the players here see their table at once
            if follower.player is not None and room.seat_of(follower.player) is not None:
                self.seating.follow(follower, room.id)
        await bots.seated(self.seating.broker, room)  # and those of accounts on other processes
        async with self.seating.changing(room):
            said = T("{name}: round {round}, table {table} begins", name=cup.name, round=number, table=table)
            await self.seating.after(room, Outcome(announce=said, changed=True))

    async def after(self, room: Room) -> None:
        """A room changed: if it is a tournament's table whose game just ended, its result goes in (once)."""
        ref = self.tables.get(room.id)
        if ref is None or room.status != "finished" or room.game is None:
            return
        game = room.game
        places = room.ended or game.places() or tuple(1 for _ in room.seats)
        result = table_result(room, list(places))
        known = self.load(ref.cup)
        if known is None or known.status != "playing" or known.tournament().next_game(ref.round, ref.table) != ref.game:
            return  # recorded already (the room changed again after its end)
        following: list[tuple[str, int]] = []

        def change(cup: Cup) -> str:
            following.clear()
            tournament = cup.tournament()
            if tournament.next_game(ref.round, ref.table) != ref.game:
                return cup.status  # recorded already
            tournament.record(ref.round, ref.table, result)
            cup.keep(tournament)
            upcoming = tournament.next_game(ref.round, ref.table)
            if upcoming is not None:  # a league match goes on: its next game's room
                key = f"{ref.round}.{ref.table}.{upcoming}"
                cup.rooms().setdefault(key, secrets.token_hex(4))
                following.append((cup.rooms()[key], upcoming))
            elif tournament.round_finished(ref.round) and not tournament.is_over():
                minute = self.seating.limits.clock_hour / 60
                cup.cafe["next_at"] = cup_times.after_round(cup.cafe.get("pause"), minute)
            return "finished" if tournament.is_over() else "playing"

        cup = await self._change(ref.cup, change)
        if following:
            await self._open_rooms(cup)
        if cup.cafe.get("next_at") is not None and cup.status == "playing":
            self.due_work.schedule(cup_times.job(cup.id, ref.round + 1, cup.cafe["next_at"]))

    # ------------------------------------------------------------------ what people see

    def public(self, cup: Cup, player: int | None) -> dict[str, Any]:
        """The tournament as anyone may see it: no seed, no deal of a round not over, no result of a round not
        over (its tables play the same deal)."""
        settings, cafe = cup.settings, cup.cafe
        tournament = cup.tournament() if len(cup.state["entries"]) >= 2 else None
        mine = None if player is None else cup.entry_of(player)
        names = {entry.id: entry.name for entry in cup.entries}
        rounds = []
        for played in tournament.rounds if tournament is not None else []:
            over = tournament is not None and tournament.round_finished(played.number)
            tables = []
            for number, table in enumerate(played.tables, start=1):
                prefix = f"{played.number}.{number}."
                rooms = [room for key, room in sorted(cup.rooms().items()) if key.startswith(prefix)]
                done = tournament is not None and tournament.next_game(played.number, number) is None
                shown: dict[str, Any] = {"number": number, "seats": [names[e] for e in table.seats],
                                         "entries": list(table.seats), "rooms": rooms, "done": done}  # fmt: skip
                if over:
                    shown["games"] = [game.to_json() for game in table.games]
                tables.append(shown)
            shown_round: dict[str, Any] = {"number": played.number, "over": over, "tables": tables}
            if over and cafe["duplicate"] and tournament is not None:
                shown_round["deal"] = tournament.deal_seed(played.number)
            rounds.append(shown_round)
        standings = [row.to_json() for row in tournament.standings()] if tournament is not None else []
        accounts = self.store.bot_accounts(list(cafe["players"].values()))
        programs = {entry for entry, known in cafe["players"].items() if known in accounts}  # bot accounts' entries
        table_now = None
        if mine is not None and tournament is not None and tournament.rounds:
            last = tournament.rounds[-1]
            for number, table in enumerate(last.tables, start=1):
                if mine in table.seats:
                    game = tournament.next_game(last.number, number)
                    table_now = cup.rooms().get(f"{last.number}.{number}.{game or 1}")
        return {
            "id": cup.id,
            "name": cup.name,
            "status": cup.status,
            "director": self.store.player_name(cup.director),
            "directing": player is not None and player == cup.director,
            "format": settings.format,
            "edition": settings.edition,
            "rules": settings.rules,
            "table_size": settings.table_size,
            "rounds": tournament.planned_rounds if tournament is not None else settings.rounds,
            "compare": settings.compare,
            "clock": cafe["clock"],
            "late": cafe.get("late", "bot"),
            "duplicate": cafe["duplicate"],
            "next_start": cup_times.iso(cafe.get("next_at")),
            "pause": cafe.get("pause"),
            "entries_open": cup.status == "open",
            "entries": [
                {
                    "id": e.id,
                    "name": e.name,
                    "bot": cafe["bots"].get(e.id),
                    "bot_account": e.id in programs,
                    "withdrawn": e.withdrawn,
                }
                for e in cup.entries
            ],
            "played": rounds,
            "standings": [{**row, "bot_account": row["entry"] in programs} for row in standings],
            "final": cup.status == "finished",
            "you": mine,
            "table": table_now,
        }

    def games(self, cup: Cup) -> dict[str, Any]:
        """A finished tournament with every game's record, as one download."""
        tournament = cup.tournament()
        games = []
        for key, room in sorted(cup.rooms().items()):
            number, table, game = map(int, key.split("."))
            games.append({"round": number, "table": table, "game": game, "room": room,
                          "seats": list(tournament.seats(number, table, game)),
                          "record": self.store.record(room)})  # fmt: skip
        public = self.public(cup, None)
        return {"tournament": public, "games": games}


def table_result(room: Room, places: list[int]) -> GameResult:
    """A table's game as the tournament counts it: played, the seats a computer player took over absent; or, ended
    by the others for a player out of time (the director chose so: ``late`` ``end``), not played, that player
    absent, since a game cut short is no deal's whole result to compare with the other tables'."""
    game = room.game
    assert game is not None
    seats = len(room.seats)
    if room.ended is not None and not game.is_over() and room.late == "end":
        return GameResult.unplayed([place == seats for place in places])  # the late player, placed last alone
    return GameResult.played(list(game.scores), places, [seat.left_by is not None for seat in room.seats])


def _no_start(cup: Cup, number: int) -> str:
    if len(cup.state["rounds"]) + 1 == number:
        cup.cafe["next_at"] = None
    return cup.status


def _open_for_entries(cup: Cup) -> None:
    if cup.status != "open":
        raise ProtocolError("closed", T("entries are closed: the tournament has begun"))
