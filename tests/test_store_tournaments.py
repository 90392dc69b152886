"""Both stores keep a tournament's whole state across restarts, save it only over the version it was read at, and
upgrade an older database to hold tournaments."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cafe.server.storage.postgres import MIGRATIONS, PostgresStore, migrate
from cafe.server.storage.store import MIGRATIONS as SQLITE_MIGRATIONS
from cafe.server.storage.store import SQLiteStore, Store
from cafe.server.storage.tournament_rows import TournamentListed
from cafe.tournament.model import Entry, GameResult, Settings, TournamentError
from cafe.tournament.tournament import Tournament
from servers import fresh_database


def a_tournament() -> Tournament:
    entries = [Entry(f"p{i}", f"Player {i}") for i in range(5)]
    return Tournament(
        Settings(rounds=3, table_size=3, seed=1 << 61, rules={"preset": "printed", "regulars": True}), entries
    )


def play_a_round(t: Tournament) -> None:
    round_ = t.pair()
    for number, table in enumerate(round_.tables, start=1):
        scores = list(range(len(table.seats), 0, -1))
        t.record(round_.number, number, GameResult.played(scores, list(range(1, len(scores) + 1))))


def test_a_tournament_comes_back_as_it_was_saved(store: Store) -> None:
    ann = store.add_player("Ann", "secret-a")
    t = a_tournament()
    store.add_tournament("t1", "Sunday Swiss", ann, t)
    stored = store.load_tournament("t1")
    assert stored is not None and (stored.name, stored.host, stored.status, stored.version) == (
        "Sunday Swiss",
        ann,
        "open",
        0,
    )
    assert stored.tournament.to_json() == t.to_json()
    play_a_round(t)
    t.withdraw("p4")
    assert store.save_tournament("t1", t, "playing", 0)
    again = store.load_tournament("t1")
    assert again is not None and again.version == 1 and again.status == "playing"
    assert again.tournament.to_json() == t.to_json() and again.tournament.standings() == t.standings()
    assert again.tournament.pair().to_json() == t.pair().to_json()  # the next round is paired alike after a reload
    assert store.load_tournament("t2") is None


def test_a_save_over_a_version_another_saved_first_is_refused(store: Store) -> None:
    store.add_tournament("t1", "Cup", 1, a_tournament())
    first, second = store.load_tournament("t1"), store.load_tournament("t1")
    assert first is not None and second is not None
    play_a_round(first.tournament)
    assert store.save_tournament("t1", first.tournament, "playing", first.version)
    play_a_round(second.tournament)  # paired from the state before the first save: must not overwrite it
    assert not store.save_tournament("t1", second.tournament, "playing", second.version)
    stored = store.load_tournament("t1")
    assert stored is not None and stored.version == 1 and stored.tournament.to_json() == first.tournament.to_json()


def test_tournaments_are_listed_newest_first_by_status(store: Store) -> None:
    for n in range(3):
        store.add_tournament(f"t{n}", f"Cup {n}", 1, a_tournament())
    assert store.save_tournament("t1", a_tournament(), "finished", 0)
    assert [t.id for t in store.tournaments()] == ["t2", "t1", "t0"]
    assert [t.id for t in store.tournaments("open")] == ["t2", "t0"]
    (finished,) = store.tournaments("finished")
    assert isinstance(finished, TournamentListed) and (finished.name, finished.status) == ("Cup 1", "finished")
    assert len(store.tournaments(limit=2)) == 2
    store.drop_tournament("t0")
    assert [t.id for t in store.tournaments("open")] == ["t2"]


def test_a_spoilt_stored_state_is_refused_with_a_message(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "cafe.sqlite3")
    store.add_tournament("t1", "Cup", 1, a_tournament())
    store.rows("UPDATE tournaments SET state = %s", '{"version": 1, "settings": {}}')
    with pytest.raises(TournamentError, match="malformed"):
        store.load_tournament("t1")
    store.close()


def test_an_older_sqlite_database_gets_the_tournaments_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE tournaments")
    db.execute("ALTER TABLE emails DROP COLUMN invited")  # a later migration adds it, once
    before = next(n for n, m in enumerate(SQLITE_MIGRATIONS) if "CREATE TABLE IF NOT EXISTS tournaments" in m)
    db.execute(f"PRAGMA user_version = {before}")  # as it was before tournaments came
    db.commit()
    db.close()
    upgraded = SQLiteStore(path)
    upgraded.add_tournament("t1", "Cup", 1, a_tournament())
    assert upgraded.load_tournament("t1") is not None
    upgraded.close()


@pytest.mark.services
def test_an_older_postgresql_database_gets_the_tournaments_table() -> None:
    import psycopg

    with fresh_database() as url:
        PostgresStore(url).close()
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("DROP TABLE tournaments")
            before = next(n for n, m in enumerate(MIGRATIONS) if isinstance(m, str) and "EXISTS tournaments" in m)
            db.execute("UPDATE cafe_schema SET version = %s", (before,))
            assert migrate(db) == len(MIGRATIONS)
        store = PostgresStore(url)
        store.add_tournament("t1", "Cup", 1, a_tournament())
        assert store.load_tournament("t1") is not None
        store.close()


def test_a_state_with_the_cafes_part_and_fewer_than_two_entries_is_kept_and_saved_only_over_its_version(
    store: Store,
) -> None:
    state = {**a_tournament().to_json(), "entries": [], "cafe": {"clock": 0, "rooms": {}}}
    store.add_tournament_state("cup", "Cup", 7, state)
    row = store.tournament_state("cup")
    assert row is not None and row.state == state and (row.status, row.version, row.host) == ("open", 0, 7)
    entered = {**state, "entries": [{"id": "p1", "name": "Ann", "withdrawn": None}]}
    assert store.save_tournament_state("cup", entered, "open", 0)
    assert not store.save_tournament_state("cup", state, "playing", 0)  # another process saved first
    row = store.tournament_state("cup")
    assert row is not None and row.state == entered and row.version == 1
    assert store.tournament_state("none") is None
