"""The tables: the rooms this process holds, each changed under its lock and kept as new as the store, and who
here follows which.

A change is made inside :meth:`Tables.changing` (no other request, here or in another process, changes the room
meanwhile) and its :class:`~cafe.server.rooms.Outcome` handed to :meth:`Tables.after`, which publishes the news
through the broker.  What a change sets going above the tables (computer players woken, clocks wound, notices, a
tournament's result) is a hook given to :meth:`Tables.on_change`, and what a forgotten room leaves behind there is
one given to :meth:`Tables.on_forget`: nothing here reaches up to the gateway (:mod:`cafe.server.gateway`) or the
due work (:mod:`cafe.server.chores`).  A :class:`Follower` is whatever follows rooms: the gateway's connections.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Protocol

from cafe.i18n import T
from cafe.server.broker import Broker
from cafe.server.limits import Limits
from cafe.server.rooms import Outcome, Room
from cafe.server.storage.store import RoomRow, Store
from cafe.server.tasks import Tasks

Changed = Callable[[Room, Outcome], Awaitable[None]]  # told of every change, the room still held
Forgotten = Callable[[str], None]  # told of a room that left this process


class Follower(Protocol):
    """A person's connection, as far as the tables know it: whose it is and which rooms it follows."""

    player: int | None
    rooms: set[str]


class Tables:
    def __init__(
        self,
        store: Store,
        broker: Broker,
        limits: Limits,
        counters: dict[str, int],
        followers: Mapping[int, Follower],
        tasks: Tasks,
    ) -> None:
        self.store = store
        self.broker = broker
        self.limits = limits
        self.counters = counters
        self.followers = followers  # every connection of this process, by its id (the gateway keeps them)
        self.rooms: dict[str, Room] = {}
        self._tasks = tasks
        self._following: dict[str, dict[int, Follower]] = {}  # room -> this process's followers of it, by id()
        self._changed: list[Changed] = []
        self._forgotten: list[Forgotten] = []
        for row in store.open_rooms():
            self.rooms[row.id] = Room.restore(store, row, limits.clock_hour)

    def on_change(self, hook: Changed) -> None:
        """``hook`` is told of every change, after its news went out, in the order the hooks were given."""
        self._changed.append(hook)

    def on_forget(self, hook: Forgotten) -> None:
        self._forgotten.append(hook)

    # ------------------------------------------------------------------ finding and holding rooms

    def get(self, room_id: str) -> Room | None:
        """The room, whether this process knew it or another made it (None: unknown, or finished elsewhere)."""
        return self.rooms.get(room_id) or self.load(room_id)

    def load(self, room_id: str) -> Room | None:
        """A room this process has not heard of yet (another process made it), from the store."""
        row = self.store.load_room(room_id)
        if row is None or row.status == "finished":
            return None
        return self.add(row)

    def over(self, room_id: str) -> bool:
        """Whether the store keeps the room as a finished game (one this process no longer holds)."""
        row = self.store.load_room(room_id)
        return row is not None and row.status == "finished"

    def add(self, row: RoomRow) -> Room:
        """A stored room, new to this process: everyone following the match's previous game follows it."""
        room = self.rooms[row.id] = Room.restore(self.store, row, self.limits.clock_hour)
        previous = room.match.previous if room.match else None
        for follower in self.followers.values():
            if previous in follower.rooms:
                self.follow(follower, room.id)
        return room

    def reload(self, room: Room, version: int) -> None:
        """This copy of a room brought up to the store, where another process changed it (to ``version``)."""
        room.refresh(self.store.load_room(room.id))
        room.version = version

    @contextlib.asynccontextmanager
    async def changing(self, room: Room) -> AsyncIterator[None]:
        """Hold the room (no other request, here or in another process, changes it meanwhile), up to date."""
        async with self.broker.lock(room.id) as stored:
            if stored != room.version:  # another process changed it since this copy last heard
                self.reload(room, stored)
            yield

    @contextlib.asynccontextmanager
    async def rereading(self, room: Room) -> AsyncIterator[None]:
        """Hold the room read again from the store even at the version this copy has: a change stored while the
        broker was away was never published."""
        async with self.broker.lock(room.id) as stored:
            self.reload(room, stored)
            yield

    def add_opened(self) -> None:
        """The rooms other processes opened while this one may not have heard of them."""
        for row in self.store.open_rooms():
            if row.id not in self.rooms:
                self.add(row)

    def seated(self, player: int) -> list[Room]:
        """The rooms where this player has a seat in a game not finished (or a table waiting for its start)."""
        rooms = self.rooms.values()
        return [room for room in rooms if room.seat_of(player) is not None and room.status in ("waiting", "playing")]

    # ------------------------------------------------------------------ who follows which room

    def follow(self, follower: Follower, room: str) -> None:
        """The follower hears the room's events from now on; the broker knows someone here does (a game's
        computer players play while anyone anywhere plays or watches it)."""
        if room in follower.rooms:
            return
        follower.rooms.add(room)
        here = self._following.setdefault(room, {})
        here[id(follower)] = follower
        if len(here) == 1:
            self._tasks.spawn(self.broker.follow(room))

    def unfollow(self, follower: Follower, room: str) -> None:
        """A connection that followed the room closed."""
        here = self._following.get(room, {})
        here.pop(id(follower), None)
        if not here and self._following.pop(room, None) is not None:
            self._tasks.spawn(self.broker.unfollow(room))

    def following(self, room: str) -> list[Follower]:
        """This process's followers of the room (kept by room: a room's news reaches them without a look at every
        connection of the process)."""
        return list(self._following.get(room, {}).values())

    # ------------------------------------------------------------------ changes and their news

    async def after(self, room: Room, outcome: Outcome) -> None:
        """Tell everyone what changed (the room is held)."""
        self.counters["steps"] += outcome.stepped
        news = [] if outcome.announce is None else [("info", {"message": outcome.announce.to_json()})]
        if outcome.changed:  # a closing room's last news goes first: once closed it is forgotten
            state: list[tuple[str, dict[str, Any]]] = [("changed", {})]
            news = news + state if room.status == "closed" else state + news
        for kind, body in news:
            version = await self.broker.publish(room.id, kind, body, room.seq)
            if kind == "changed":
                room.version = version
        if outcome.next_game is not None:
            await self._open_next_game(outcome.next_game)
        for hook in self._changed:
            await hook(room, outcome)

    async def _open_next_game(self, row: RoomRow) -> None:
        """A match goes on (its next game is stored already): everyone following this game follows the next."""
        following = self.add(row)
        async with self.changing(following):
            begins = T("Game {game} of the match begins", game=following.match and following.match.game)
            await self.after(following, Outcome(announce=begins, changed=True))

    async def open_rematch(self, room: Room, row: RoomRow) -> None:
        """Everyone accepted: the rematch's room opens, and those following the game follow it."""
        following = self.add(row)
        for follower in self.following(room.id):
            self.follow(follower, following.id)
        async with self.changing(following):
            begins = T("The rematch begins: {names}", names=", ".join(s.name for s in following.seats))
            await self.after(following, Outcome(announce=begins, changed=True))

    async def forget(self, room: Room) -> None:
        """A closed room, or a finished one whose time in memory is up, leaves this process (its record stays)."""
        self.rooms.pop(room.id, None)
        for hook in self._forgotten:
            hook(room.id)
        followers = self._following.pop(room.id, {})
        for follower in followers.values():
            follower.rooms.discard(room.id)
        if followers:
            await self.broker.unfollow(room.id)
        await self.broker.forget(room.id)
