"""The notices sent, by every channel, in one table of both stores (SQLite, and PostgreSQL under
scripts/with-services.sh): a notice is noted once per person and channel whichever process asks, the notices of
turns are forgotten after a while and those of a game's end are not, everything goes with the account; and a
database that kept e-mails sent and pushes sent in two tables is upgraded with their rows moved over.  Each failed
while there were two tables."""

from __future__ import annotations

from typing import Any

from cafe.server.storage.email_rows import ENDED, INVITED
from cafe.server.storage.postgres import MIGRATIONS as PG_MIGRATIONS
from cafe.server.storage.sent_rows import KEPT_SECONDS, MAIL, PAGE, PUSH, SENT_SQLITE
from cafe.server.storage.store import MIGRATIONS, RoomRow, SeatRow, SQLiteStore, Store
from test_stores_accounts import Opener, opener

__all__ = ["opener"]  # the fixture, shared with the accounts' store tests


def sql(store: Store, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    return list(store.rows(statement, *args))  # type: ignore[attr-defined]


def test_a_notice_is_noted_once_per_person_and_channel_and_only_the_turns_are_forgotten(opener: Opener) -> None:
    store, elsewhere = opener(), opener()
    ann, bob = store.add_player("Ann", "a"), store.add_player("Bob", "b")
    assert store.note_sent(MAIL, ann, "r1", 3, 100.0) and not elsewhere.note_sent(MAIL, ann, "r1", 3, 101.0)
    assert store.note_sent(PUSH, ann, "r1", 3, 102.0)  # the same notice by push: a channel of its own
    assert store.note_sent(MAIL, bob, "r1", 3, 103.0)  # and to another person
    assert store.last_sent(MAIL, ann, "r1") == 100.0 and store.last_sent(PUSH, ann, "r1") == 102.0
    assert store.note_sent(PUSH, ann, "r1", ENDED, 104.0) and store.note_sent(PAGE, bob, "r2", INVITED, 105.0)
    assert store.last_sent(PUSH, ann, "r1") == 102.0  # the game's end is no turn's
    store.unnote_sent(PUSH, ann, "r1", 3)
    assert store.last_sent(PUSH, ann, "r1") is None and store.last_sent(MAIL, ann, "r1") == 100.0
    later = 110.0 + KEPT_SECONDS
    assert elsewhere.note_sent(MAIL, ann, "r1", 9, later)  # long after: the turns of then are forgotten
    assert store.note_sent(MAIL, ann, "r1", 3, later + 1) and store.note_sent(MAIL, bob, "r1", 3, later + 2)
    assert not store.note_sent(PUSH, ann, "r1", ENDED, later) and not store.note_sent(PAGE, bob, "r2", INVITED, later)
    store.claim(ann, "hash")
    store.erase(ann)
    assert sql(store, "SELECT DISTINCT player FROM sent_notices") == [(bob,)]


def test_a_database_with_a_table_of_e_mails_sent_and_one_of_pushes_sent_is_upgraded_with_their_rows(
    opener: Opener,
) -> None:
    store = opener()
    ann, bob, cid = store.add_player("Ann", "a"), store.add_player("Bob", "b"), store.add_player("Cid", "c")
    seats = (SeatRow(0, "Ann", ann), SeatRow(1, "Computer", bot="easy", left_by=bob), SeatRow(2, "Easy", bot="easy"))
    store.add_room(RoomRow("r1", "Ann's table", "board", "printed", ann, "playing", 7, seats, ()))
    store.add_room(RoomRow("r2", "Cid's table", "board", "printed", cid, "waiting", 8, (SeatRow(0, "Cid", cid),), ()))
    for statement in (  # as the café kept them before
        "DROP TABLE sent_notices",
        "CREATE TABLE notices_sent (player BIGINT NOT NULL, room TEXT NOT NULL, turn INTEGER NOT NULL, "
        "at DOUBLE PRECISION NOT NULL, PRIMARY KEY (player, room, turn))",
        "CREATE TABLE push_sent (key TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
    ):
        sql(store, statement)
    for player, turn, at in ((ann, 3, 100.0), (ann, ENDED, 200.0), (bob, 4, 150.0)):
        sql(store, "INSERT INTO notices_sent (player, room, turn, at) VALUES (%s, 'r1', %s, %s)", player, turn, at)
    pushed = {"turn:r1:4": 300.0, "end:r1": 400.0, f"invited:r2:{bob}": 500.0, f"invite:r2:{bob}": 600.0,
              f"invite:r2:{ann}": 700.0}  # fmt: skip
    for key, at in pushed.items():
        sql(store, "INSERT INTO push_sent (key, at) VALUES (%s, %s)", key, at)
    if isinstance(store, SQLiteStore):
        sql(store, f"PRAGMA user_version = {MIGRATIONS.index(SENT_SQLITE)}")
    else:
        moved = next(n for n, m in enumerate(PG_MIGRATIONS) if isinstance(m, str) and "DROP TABLE push_sent" in m)
        sql(store, "UPDATE cafe_schema SET version = %s", moved)
    upgraded = opener()
    assert sorted(sql(upgraded, "SELECT channel, player, room, turn, at FROM sent_notices")) == sorted([
        (MAIL, ann, "r1", 3, 100.0), (MAIL, ann, "r1", ENDED, 200.0), (MAIL, bob, "r1", 4, 150.0),
        (PUSH, ann, "r1", 4, 300.0), (PUSH, bob, "r1", 4, 300.0),  # the turn's person among those seated
        (PUSH, ann, "r1", ENDED, 400.0), (PUSH, bob, "r1", ENDED, 400.0),  # Bob left his seat to a computer player
        (PUSH, bob, "r2", INVITED, 500.0), (PAGE, bob, "r2", INVITED, 600.0), (PAGE, ann, "r2", INVITED, 700.0),
    ])  # fmt: skip
    assert not upgraded.note_sent(PUSH, bob, "r1", 4, 800.0) and not upgraded.note_sent(PAGE, ann, "r2", INVITED, 800.0)
    assert upgraded.last_sent(MAIL, ann, "r1") == 100.0
    tables = (
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        if isinstance(upgraded, SQLiteStore)
        else "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    )
    assert {"notices_sent", "push_sent"}.isdisjoint(name for (name,) in sql(upgraded, tables))
