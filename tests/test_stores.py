"""Every storage backend keeps the same promises: SQLite (the default) and PostgreSQL (several processes).

The PostgreSQL cases run against a real server started by scripts/with-services.sh.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from cafe.server.storage.postgres import MIGRATIONS, PostgresStore, migrate, rekey
from cafe.server.storage.store import MIGRATIONS as SQLITE_MIGRATIONS
from cafe.server.storage.store import (
    ChatLine,
    DueJob,
    Ending,
    Rating,
    RoomRow,
    SeatRow,
    SQLiteStore,
    StepConflict,
    Store,
)
from servers import fresh_database


def room(room_id: str = "r1", match: dict[str, object] | None = None) -> RoomRow:
    return RoomRow(room_id, "Ann's table", "board", {"preset": "printed", "regulars": True}, 1, "waiting", 1 << 61,
                   (), (), match)  # fmt: skip


def test_players_are_found_by_their_token_only(store: Store) -> None:
    ann = store.add_player("Ann", "secret-a")
    bob = store.add_player("Bob", "secret-b")
    assert ann != bob
    assert store.player_by_token("secret-a") == (ann, "Ann")
    assert store.player_by_token("nonsense") is None


def test_a_room_its_seats_and_steps_come_back_as_they_were(store: Store) -> None:
    store.add_room(room(match={"best_of": 5}))
    seats = (SeatRow(0, "Ann", player=1), SeatRow(1, "Easy bot 2", bot="easy"))
    store.set_seats("r1", seats)
    store.set_host("r1", 2)
    store.start_room("r1")
    for n, step in enumerate(["USAm@h3", "stop", "GERf@bar"]):
        store.add_step("r1", n, n % 2, step)
    store.remove_step("r1", 2)
    store.replace_seat("r1", SeatRow(0, "Ann (bot)", bot="medium", left_by=1))
    store.set_match("r1", {"best_of": 5, "game": 1})
    (row,) = store.open_rooms()
    assert row.rules == {"preset": "printed", "regulars": True} and row.seed == 1 << 61 and row.host == 2
    assert row.status == "playing" and row.steps == ("USAm@h3", "stop") and row.match == {"best_of": 5, "game": 1}
    assert row.seats == (SeatRow(0, "Ann (bot)", bot="medium", left_by=1), SeatRow(1, "Easy bot 2", bot="easy"))
    assert row.seats[0].person == 1  # Ann left her seat to a computer player: she is rated as it finishes


def test_two_appends_of_the_same_step_cannot_both_succeed(store: Store) -> None:
    store.add_room(room())
    store.add_step("r1", 0, 0, "USAm@h3")
    with pytest.raises(StepConflict, match="step 0"):
        store.add_step("r1", 0, 0, "GERf@bar")
    assert store.open_rooms()[0].steps == ("USAm@h3",)


def test_finishing_stores_the_last_step_record_ratings_and_next_game_together(store: Store) -> None:
    ann, bob = store.add_player("Ann", "a"), store.add_player("Bob", "b")
    store.add_room(room())
    assert store.record("r1") is None
    record = {"format": "cafe-record-1", "turns": ["pass"]}
    seats = (SeatRow(0, "Bob", player=bob), SeatRow(1, "Ann", player=ann))
    following = RoomRow("r2", "Ann's table · game 2", "board", "printed", 1, "playing", 5, seats, (),
                        {"best_of": 3, "game": 2})  # fmt: skip
    ending = Ending(record, {ann: Rating(27.0, 7.0, 1), bob: Rating(23.0, 7.0, 1)}, (0, 0, "pass"),
                    {"best_of": 3, "game": 1, "wins": [1, 0]}, following)  # fmt: skip
    store.finish_game("r1", ending)
    assert store.record("r1") == record
    assert [r.id for r in store.open_rooms()] == ["r2"] and store.open_rooms()[0] == following
    assert store.ratings([ann, bob]) == {ann: Rating(27.0, 7.0, 1), bob: Rating(23.0, 7.0, 1)}
    assert [(player, name) for player, name, _ in store.leaderboard(10)] == [(ann, "Ann"), (bob, "Bob")]
    assert len(store.leaderboard(1)) == 1
    with pytest.raises(StepConflict):  # finished twice: nothing of the second is written
        store.finish_game("r1", Ending({"turns": []}, {ann: Rating(1.0, 1.0, 9)}, (0, 0, "pass")))
    assert store.record("r1") == record and store.ratings([ann])[ann].games == 1


def test_an_abandoned_game_keeps_its_record_without_ratings(store: Store) -> None:
    store.add_room(room())
    store.add_step("r1", 0, 0, "pass")
    store.finish_game("r1", Ending({"format": "cafe-record-1", "turns": ["pass"]}, {}))
    assert store.open_rooms() == [] and store.record("r1") == {"format": "cafe-record-1", "turns": ["pass"]}


def test_players_are_found_by_name_and_unused_ones_forgotten(store: Store) -> None:
    ann, seated, rated, dee, left = (store.add_player(name, name) for name in ("Ann", "Bob", "Cy", "Dee", "Eli"))
    assert store.players_named("ANN") == [ann] and store.players_named("Eve") == []
    assert store.players_named("\u0410nn") == [ann]  # a Cyrillic A: the same name to the eye
    seats = (SeatRow(0, "Bob", seated), SeatRow(1, "Eli (bot)", bot="medium", left_by=left))
    store.add_room(RoomRow("r1", "t", "board", "printed", seated, "waiting", 1, seats, ()))
    store.finish_game("r1", Ending({}, {rated: Rating(25.0, 8.0, 1)}))
    assert store.forget_players(0.0) == 0  # made after that moment
    assert store.forget_players(time.time() + 1) == 2  # Ann and Dee never sat, hosted or were rated (Eli sat)
    assert store.player_by_token("Ann") is None and store.player_by_token("Dee") is None
    assert store.player_by_token("Bob") == (seated, "Bob") and store.player_by_token("Cy") == (rated, "Cy")
    assert store.players_named("Dee") == [] and dee not in store.ratings([dee])


def test_a_room_keeps_its_last_chat_lines_only(store: Store) -> None:
    store.add_room(room())
    store.add_room(room("r2"))
    for k in range(7):
        store.add_chat("r1", ChatLine("Ann", 1, f"line {k}", 1000.0 + k), kept=5)
    store.add_chat("r2", ChatLine("Bob", 2, "elsewhere", 1000.0), kept=5)
    assert [line.text for line in store.chat("r1", 50)] == [f"line {k}" for k in range(2, 7)]  # oldest first
    assert store.chat("r1", 2) == [ChatLine("Ann", 1, "line 5", 1005.0), ChatLine("Ann", 1, "line 6", 1006.0)]
    assert store.chat("r2", 50) == [ChatLine("Bob", 2, "elsewhere", 1000.0)]
    store.drop_room("r1")  # a waiting room that closes takes its chat along
    assert store.chat("r1", 50) == []


def test_a_waiting_room_can_be_dropped_but_not_a_started_one(store: Store) -> None:
    store.add_room(room("r1"))
    store.add_room(room("r2"))
    store.set_seats("r1", (SeatRow(0, "Ann", player=1),))
    store.set_seats("r2", (SeatRow(0, "Bob", player=2), SeatRow(1, "Easy bot 2", bot="easy")))
    store.start_room("r2")
    store.drop_room("r1")
    store.drop_room("r2")
    assert [r.id for r in store.open_rooms()] == ["r2"] and len(store.open_rooms()[0].seats) == 2
    assert store.load_room("r1") is None
    assert store.load_room("r2") == store.open_rooms()[0]


def test_a_due_job_is_claimed_by_one_process_until_its_lease_ends(store: Store) -> None:
    now = 1000.0
    clock = DueJob("clock", "r1", 7, now + 5)
    bot = DueJob("bot", "r1", 12, now)
    store.schedule(clock)
    store.schedule(bot)
    store.schedule(DueJob("bot", "r1", 12, now + 60), move=False)  # already kept: it stays when it was
    assert store.claim_due("one", now, 10, 20) == [bot]  # the clock is not due yet
    assert store.claim_due("two", now + 1, 10, 20) == []  # held by "one"
    assert store.claim_due("two", now + 11, 10, 20) == [bot, clock]  # "one" died: its lease ran out
    store.extend(clock, "two", now + 30)
    store.finish(bot, "one")  # no longer its owner: nothing happens
    assert store.claim_due("three", now + 25, 10, 20) == [bot]
    store.release(clock, "two", now + 26)
    store.finish(bot, "three")
    assert store.claim_due("three", now + 26, 10, 20) == [DueJob("clock", "r1", 7, now + 26)]  # due again then
    assert store.claim_due("three", now + 30, 10, 20) == []  # held by "three" itself, until its lease ends


def test_a_new_turns_clock_replaces_the_last_unless_it_runs(store: Store) -> None:
    store.schedule(DueJob("clock", "r1", 3, 10.0))
    store.schedule(DueJob("clock", "r1", 4, 20.0))
    store.schedule(DueJob("away", "r1", 9, 10.0))
    store.unschedule("r1", "clock", before=5)
    store.schedule(DueJob("clock", "r1", 5, 30.0))
    assert store.claim_due("one", 100.0, 10, 20) == [DueJob("away", "r1", 9, 10.0), DueJob("clock", "r1", 5, 30.0)]
    store.unschedule("r1", "clock", before=6)  # held by "one": it stays
    assert store.claim_due("two", 200.0, 10, 20) == [DueJob("away", "r1", 9, 10.0), DueJob("clock", "r1", 5, 30.0)]


def test_a_job_scheduled_again_while_it_runs_is_due_once_more_when_it_ends(store: Store) -> None:
    bot = DueJob("bot", "r1", 12, 10.0)
    store.schedule(bot)
    assert store.claim_due("one", 10.0, 10, 20) == [bot]
    store.schedule(DueJob("bot", "r1", 12, 11.0), move=False)  # what the job checks changed while it ran
    assert store.finish(bot, "one") is True
    assert store.claim_due("two", 11.0, 10, 20) == [bot]  # due again at once, for any process
    assert store.finish(bot, "two") is False
    assert store.claim_due("two", 100.0, 10, 20) == []


def test_a_new_name_is_held_for_one_person_at_a_time(store: Store) -> None:
    assert store.hold_name("Ann", 100.0, 60) is True
    assert store.hold_name("\u0410NN", 130.0, 60) is False  # a look-alike, while it is held
    assert store.hold_name("Bob", 130.0, 60) is True
    assert store.hold_name("ann", 161.0, 60) is True  # the hold ended
    store.forget_holds(300.0)
    assert store.hold_name("Ann", 300.0, 60) is True


def test_an_older_sqlite_databases_name_keys_become_confusable_skeletons(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "cafe.sqlite3")
    ann = store.add_player("Ann", "a")
    store._db.execute("UPDATE players SET name_key = 'ann-before'")  # as the database was before the skeletons
    store._db.execute("ALTER TABLE seats DROP COLUMN left_by")  # and the later migrations undone
    store._db.execute("DROP TABLE chat")
    store._db.execute("DROP TABLE sessions")
    store._db.execute("DROP INDEX players_account")
    store._db.execute("ALTER TABLE players DROP COLUMN password_hash")
    for column in ("clock", "late", "deadline"):
        store._db.execute(f"ALTER TABLE rooms DROP COLUMN {column}")
    store._db.execute("ALTER TABLE emails DROP COLUMN invited")
    rekeyed = SQLITE_MIGRATIONS.index("ALTER TABLE seats ADD COLUMN left_by INTEGER") - 1  # the skeletons' migration
    store._db.execute(f"PRAGMA user_version = {rekeyed}")
    store.close()
    store = SQLiteStore(tmp_path / "cafe.sqlite3")
    assert store.players_named("\u0410nn") == [ann]
    store.close()


@pytest.mark.services
def test_an_older_postgresql_databases_name_keys_become_confusable_skeletons() -> None:
    import psycopg

    with fresh_database() as url:
        store = PostgresStore(url)
        ann = store.add_player("Ann", "a")
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("UPDATE players SET name_key = 'ann-before'")  # as the database was before the skeletons
            db.execute("ALTER TABLE seats DROP COLUMN left_by")  # and the later migrations undone
            db.execute("DROP TABLE chat")
            db.execute("DROP TABLE due")
            db.execute("DROP TABLE name_holds")
            db.execute("DROP TABLE sessions")
            db.execute("ALTER TABLE players DROP COLUMN password_hash")
            db.execute("ALTER TABLE rooms DROP COLUMN clock, DROP COLUMN late, DROP COLUMN deadline")
            db.execute("DROP TABLE invitations, rematches")
            db.execute("ALTER TABLE emails DROP COLUMN invited")
            db.execute("UPDATE cafe_schema SET version = %s", (MIGRATIONS.index(rekey),))
            assert migrate(db) == len(MIGRATIONS)
        assert store.players_named("\u0410nn") == [ann]
        store.close()


@pytest.mark.services
def test_postgresql_migrations_run_once_even_from_processes_starting_together() -> None:
    import psycopg

    with fresh_database() as url:
        first, second = PostgresStore(url), PostgresStore(url)  # the second finds the schema made
        with psycopg.connect(url, autocommit=True) as db:
            assert migrate(db) == len(MIGRATIONS)
            assert db.execute("SELECT version FROM cafe_schema").fetchall() == [(len(MIGRATIONS),)]
        first.close()
        second.close()


@pytest.mark.services
def test_the_cafe_plays_and_restarts_on_postgresql() -> None:

    from cafe.server.app import create_app
    from test_server import Person, close_all, served

    with fresh_database() as url:
        with served(create_app(store=PostgresStore(url), bot_delay=0.0)) as client:
            ann = Person(client, "Ann")
            ann.send({"type": "create", "edition": "cards"})
            room = ann.room()["id"]
            ann.say(room, "/bot easy")
            ann.say(room, "/start")
            state = ann.room(status="playing")
            while state["plies"] < 12:
                if state["legal"]:
                    ann.send({"type": "step", "room": room, "step": state["legal"][0], "plies": state["plies"]})
                state = ann.room()
            close_all()
        with served(create_app(store=PostgresStore(url), bot_delay=0.0)) as client:
            again = Person(client, token=ann.token)
            after = again.room(id=room)
            close_all()
        assert (
            after["plies"] >= state["plies"]
            and after["view"]["turns"][: len(state["view"]["turns"])] == state["view"]["turns"]
        )


def test_serve_names_a_database_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    from cafe.cli import main

    assert main(["serve", "--database", "mysql://nowhere/cafe"]) == 2
    assert "postgresql://" in capsys.readouterr().err
    assert main(["serve", "--database", "postgresql://nobody@127.0.0.1:1/none"]) == 1
    assert "cannot open the database" in capsys.readouterr().err
    assert main(["serve", "--broker", "redis://127.0.0.1:1/0"]) == 2  # a broker alone joins no other process
    assert "--broker joins server processes that share a --database" in capsys.readouterr().err


def test_a_turn_based_rooms_clock_and_its_turns_deadline_come_back(store: Store) -> None:
    days = RoomRow("r2", "Ann's table", "board", {"preset": "printed"}, 1, "waiting", 7, (), (), clock=48, late="end")
    store.add_room(days)
    store.set_seats("r2", (SeatRow(0, "Ann", player=1), SeatRow(1, "Bob", player=2)))
    store.start_room("r2", deadline=1000.0)
    assert store.load_room("r2") == replace(days, status="playing", seats=store.load_room("r2").seats, deadline=1000.0)
    store.add_step("r2", 0, 0, "USAm@h3")  # within the turn: the deadline stays
    store.add_step("r2", 1, 0, "stop", deadline=2000.0)  # the turn ends: the next one's clock, with the step
    row = store.load_room("r2")
    assert row is not None and (row.clock, row.late, row.deadline, row.steps) == (
        48,
        "end",
        2000.0,
        ("USAm@h3", "stop"),
    )
    with pytest.raises(StepConflict):
        store.add_step("r2", 1, 0, "stop", deadline=3000.0)
    assert store.load_room("r2").deadline == 2000.0  # a refused step moves no clock
