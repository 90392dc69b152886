"""The café's due work, what each job does: a computer player's step, a turn's clock running out, a seated person
away too long, a rematch offer lapsing, a notice; and the sweeper that closes what nobody uses any more.

:mod:`cafe.server.due` keeps the jobs and runs them in whichever process claims them (a job checks the room before
it acts, so that a job run twice acts once); :mod:`cafe.server.thinking` gives computer players their threads.
The chores change rooms through the tables (:mod:`cafe.server.tables`) and hear of every change from them, to wake
the next computer player and wind the next clock; they know nothing of connections.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from cafe.ai.base import Player
from cafe.ai.levels import make_player
from cafe.i18n import T
from cafe.server import push
from cafe.server.broker import Broker
from cafe.server.due import DueWork, Run
from cafe.server.limits import Limits
from cafe.server.notices import KINDS, Notices, game_ends, turn_begins
from cafe.server.rooms import REPLACEMENT_BOT, Outcome, Room
from cafe.server.storage.store import DueJob, Store
from cafe.server.tables import Tables
from cafe.server.thinking import Kind, Pool

PRUNE_SECONDS = 3600.0  # how often unused players are looked for

log = logging.getLogger("cafe.server")


class Chores:
    """The due work of the tables (``held``: whether a room is a tournament's table, whose computer players play
    on with nobody there)."""

    def __init__(self, tables: Tables, store: Store, broker: Broker, limits: Limits, held: Callable[[str], bool]):
        self.tables = tables
        self.store = store
        self.broker = broker
        self.limits = limits
        self._held = held
        self.due = DueWork(store, self.run, limits.lease_seconds)
        self.jobs: dict[str, Run] = {}  # the due jobs of other parts, by kind (a tournament's round on time)
        self.notices = Notices(store, self.due)  # who hears of their turn or a game's end, away from the café
        self.thinkers = Pool(limits.thinkers, limits.side_thinkers)  # computer players' threads, and hints'
        self._thinking: set[str] = set()  # rooms where one of this process's computer players is thinking
        self._clocks: dict[str, int] = {}  # room -> the turn whose clock this process wound last
        self._quiet: dict[str, float] = {}  # room -> since when no person has been there
        self._finished: dict[str, float] = {}  # finished room -> when it finished (it leaves memory later)
        self._pruned = 0.0

    def close(self) -> None:
        self.due.close()
        self.thinkers.shutdown()

    async def changed(self, room: Room, outcome: Outcome) -> None:
        """A room changed (it is held): its next computer player and clock go on; notices of its end go out."""
        self.wake_bot(room)
        self.wind_clock(room)
        self.notices.send(game_ends(room) if outcome.changed else [])

    def forgotten(self, room: str) -> None:
        self._quiet.pop(room, None)
        self._finished.pop(room, None)
        self._clocks.pop(room, None)

    def finished(self, room: Room) -> None:
        """The room's game is over: it leaves memory ``finished_seconds`` from now."""
        self._finished.setdefault(room.id, time.monotonic())

    async def run(self, job: DueJob) -> None:
        """One due job (cafe.server.due), in whichever process claimed it."""
        if job.kind in KINDS:  # a notice by e-mail: the room as it is now (None once finished)
            return await self.notices.run(job, self.tables.get(job.room))
        if job.kind in (push.KIND, push.INVITED):
            return await push.run(self.notices, job, self.limits.clock_hour)
        if job.kind in self.jobs:
            return await self.jobs[job.kind](job)
        room = self.tables.get(job.room)
        if room is None:  # closed or finished meanwhile: nothing left to do
            return
        version = await self.broker.version(room.id)
        if version != room.version:  # changed by another process a moment ago
            self.tables.reload(room, version)
        if job.kind == "bot":
            await self._bot_step(room, job.arg)
        elif job.kind == "clock":
            await self._take_over(room, job.arg)
        elif job.kind == "away":
            await self._replace_if_away(room, job.arg)
        elif job.kind == "rematch":
            await self._lapse(room)

    # ------------------------------------------------------------------ computer players and clocks

    def wake_bot(self, room: Room) -> None:
        """A computer player whose turn it is will step, after ``bot_delay``, in whichever process is free."""
        if room.bot_to_move() is not None:
            self.due.schedule(DueJob("bot", room.id, room.plies, time.time() + self.limits.bot_delay), move=False)

    async def _someone_there(self, room: Room) -> bool:
        """A person follows the room here, or one of its seated people is connected anywhere (or it is a
        tournament's table, whose computer players play on regardless)."""
        if self._held(room.id):
            return True
        if self.tables.following(room.id):
            return True
        for seat in room.seats:
            if seat.player is not None and await self.broker.present(seat.player):
                return True
        return await self.broker.followed(room.id)  # a spectator in another process

    async def _think(self, bot: Player, room: Room, seat: int, kind: Kind | None = None) -> str:
        """A computer player's step, thought out in the bounded pool (the event loop never thinks); by default
        as urgent as the room's kind of game (:class:`~cafe.server.thinking.Kind`)."""
        game = room.game
        assert game is not None
        view, legal = game.view(seat), game.legal_steps()
        if kind is None:
            kind = Kind.PLAYING if any(s.player is not None for s in room.seats) else Kind.SPECTACLE
        try:
            step = await self.thinkers.run(kind, bot.choose, view, legal)
        except Exception:  # a failing computer player must not stop the room: a legal step instead
            log.exception("computer player %s failed in room %s; it plays a legal step instead", bot.name, room.id)
            step = legal[0]
        return str(step)

    async def _bot_step(self, room: Room, plies: int) -> None:
        """The step of the computer player woken when the room had ``plies`` steps (taken already: nothing)."""
        turn = room.bot_to_move()
        if room.plies != plies or turn is None or room.id in self._thinking or not await self._someone_there(room):
            return  # nobody is there: the computer players wait (a person coming back wakes them)
        seat, bot = turn
        self._thinking.add(room.id)
        try:
            step = await self._think(bot, room, seat)
        finally:
            self._thinking.discard(room.id)
        async with self.tables.changing(room):
            if room.plies == plies and room.bot_to_move() == (seat, bot):  # nothing else happened meanwhile
                await self.tables.after(room, room.play(seat, step))

    def wind_clock(self, room: Room) -> None:
        """A person's turn runs on a clock (a turn-based game's own, else Limits.turn_seconds), wound once a turn in
        whichever process changes the room first; the last turn's clock, if it has not run, goes."""
        game = room.game
        live = not room.clock
        if (live and self.limits.turn_seconds <= 0) or game is None or room.status != "playing" or game.is_over():
            return
        turn = game.turn_number
        if self._clocks.get(room.id) == turn or room.bot_to_move() is not None:
            return
        self._clocks[room.id] = turn
        self.notices.send(turn_begins(room))
        at = time.time() + self.limits.turn_seconds if live else room.deadline
        if at is None:
            self.due.unschedule(room.id, "clock", before=turn)
        else:  # one write: the last turn's clock goes, this turn's comes (a turn-based clock runs out at the time
            # stored with the room: restarts change nothing)
            self.due.schedule(DueJob("clock", room.id, turn, at), move=False, replacing=True)

    async def _take_over(self, room: Room, turn: int) -> None:
        """The clock of ``turn`` ran out: if the turn is still going on, a computer player plays the rest of it for
        the person, who keeps the seat (as BrettspielWelt's clock did)."""
        async with self.tables.changing(room):
            game = room.game
            if game is None or game.turn_number != turn:
                return
            seat = game.current_player

            def still() -> bool:
                return (
                    game is not None and room.status == "playing" and game.turn_number == turn
                    and game.current_player == seat and seat not in room.bots
                )  # fmt: skip

            if not still():
                return
            if room.deadline is not None and room.deadline > time.time():  # moved meanwhile (cafe.server.holidays)
                self.due.schedule(DueJob("clock", room.id, turn, room.deadline))
                return
            name = room.seats[seat].name
            if room.clock and room.late == "end":  # the others decide: they may end the game, or wait on
                up = T("{name}'s time is up: the others may end the game (/end), or wait", name=name)
                await self.tables.after(room, Outcome(announce=up, changed=True))
                return
            stand_in = make_player(REPLACEMENT_BOT, seed=room.seed + turn)
            await self.tables.after(
                room, Outcome(announce=T("{name}'s time is up: a computer player plays this turn", name=name))
            )
            while still():
                outcome = room.play(seat, await self._think(stand_in, room, seat))
                if outcome.error is not None:
                    break
                await self.tables.after(room, outcome)

    # ------------------------------------------------------------------ people away, rematches lapsing

    def expect_back(self, room: Room, player: int, move: bool) -> None:
        """A seated person is gone: unless they are back by then, a computer player takes over their seat after
        ``away_seconds`` (``move``: counted from now, even if they were gone before)."""
        self.due.schedule(DueJob("away", room.id, player, time.time() + self.limits.away_seconds), move)

    async def _replace_if_away(self, room: Room, player: int) -> None:
        async with self.tables.changing(room):
            seat = room.seat_of(player)
            if seat is None or room.status != "playing" or await self.broker.present(player):
                return
            name = room.seats[seat].name
            room.replace_by_bot(seat)
            await self.tables.after(
                room, Outcome(announce=T("{name} is away: a computer player takes over", name=name), changed=True)
            )

    def lapse_later(self, room: Room) -> None:
        """The room's rematch offer lapses when its time is up, unless everyone accepted by then."""
        assert room.offer is not None
        self.due.schedule(DueJob("rematch", room.id, 0, room.offer.until))

    async def _lapse(self, room: Room) -> None:
        """A rematch offer's time is up: unless everyone accepted meanwhile, it is off."""
        async with self.tables.changing(room):
            offer = room.offer
            if offer is not None and offer.next is None and offer.until <= time.time():
                await self.tables.after(room, room.withdraw(T("Not everyone accepted in time: the rematch is off")))

    # ------------------------------------------------------------------ the sweeper

    async def sweeper(self) -> None:
        """Now and then: rooms nobody is in close, finished games leave memory, unused players are forgotten, and
        seated people gone from every process are expected back (or replaced)."""
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the next round tries again
                log.exception("sweeping failed")

    async def sweep(self) -> None:
        now = time.monotonic()
        for room in list(self.tables.rooms.values()):
            if room.status == "finished":
                if now - self._finished.setdefault(room.id, now) >= self.limits.finished_seconds:
                    await self.tables.forget(room)
                continue
            if room.status == "playing":  # what a process that died may have left unscheduled
                self.wake_bot(room)
                self.wind_clock(room)
                for seat in room.seats if not room.clock else ():  # people whose connections ended with it
                    if seat.player is not None and not await self.broker.present(seat.player):
                        self.expect_back(room, seat.player, move=False)
            if await self._someone_there(room):
                self._quiet.pop(room.id, None)
            elif now - self._quiet.setdefault(room.id, now) >= self._patience(room):
                await self._close_quiet(room)
        if time.time() - self._pruned >= PRUNE_SECONDS:
            self._pruned = time.time()
            self.store.forget_holds(time.time())
            forgotten = self.store.forget_players(time.time() - self.limits.unused_player_days * 86_400)
            if forgotten:
                log.info("forgot %d players who never played", forgotten)
            self.store.forget_sessions(time.time() - self.limits.session_days * 86_400)

    def _patience(self, room: Room) -> float:
        """How long a room waits for a person before it closes: a table for a game over days waits one of its
        turns (its players come by now and then), any other ``waiting_seconds``."""
        return max(self.limits.waiting_seconds, room.clock * self.limits.clock_hour)

    async def _close_quiet(self, room: Room) -> None:
        """No person has been in the room for a while: a waiting room closes; a game whose seats are all
        computer players by now is abandoned (a person's seat waits for them)."""
        async with self.tables.changing(room):
            if room.status == "waiting":
                await self.tables.after(room, room.close())
            elif room.status == "playing" and all(s.player is None for s in room.seats):
                await self.tables.after(room, room.abandon())
