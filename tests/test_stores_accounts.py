"""Accounts in both stores (SQLite, and PostgreSQL under scripts/with-services.sh): one account per name even when
two claim it at the same instant, sessions, erasing a person, and the migration from the schema before accounts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cafe.server.storage.account_rows import NameTaken, StillPlaying
from cafe.server.storage.postgres import MIGRATIONS, PostgresStore
from cafe.server.storage.store import Ending, Rating, Result, RoomRow, SeatRow, SQLiteStore, Store
from servers import fresh_database

Opener = Callable[[], Store]  # another connection to the same database, as another server process has


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    opened: list[Store] = []

    def sqlite() -> Store:
        opened.append(SQLiteStore(tmp_path / "cafe.sqlite3"))
        return opened[-1]

    if request.param == "sqlite":
        yield sqlite
    else:
        with fresh_database() as url:

            def postgresql() -> Store:
                opened.append(PostgresStore(url))
                return opened[-1]

            yield postgresql
            for store in opened:
                store.close()
            return
    for store in opened:
        store.close()


def test_two_claims_of_look_alike_names_at_the_same_instant_cannot_both_succeed(opener: Opener) -> None:
    first, second = opener(), opener()
    for round_ in range(8):
        name = f"Ann{round_}"
        guests = [first.add_player(name, f"a{round_}"), first.add_player(name.upper(), f"b{round_}")]
        start = threading.Barrier(2)
        won: list[bool] = []
        pairs = zip((first, second), guests, strict=True)
        threads = [threading.Thread(target=claim, args=(store, player, start, won)) for store, player in pairs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(won) == [False, True], won
        owner = first.account_named(name.lower())
        assert owner is not None and [first.password_of(g) is not None for g in guests].count(True) == 1


def claim(store: Store, player: int, start: threading.Barrier, won: list[bool]) -> None:
    """Claim a name as soon as the other thread is ready too."""
    start.wait()
    try:
        won.append(store.claim(player, f"hash of {player}"))
    except NameTaken:
        won.append(False)


def test_a_claim_ends_the_token_and_sessions_sign_in_until_they_end(opener: Opener) -> None:
    store = opener()
    ann = store.add_player("Ann", "ann's token")
    assert store.claim(ann, "argon2 hash") and not store.claim(ann, "again")
    assert store.player_by_token("ann's token") is None and store.accounts([ann, 999]) == {ann}
    store.add_session("s1", ann, 100.0)
    store.add_session("s2", ann, 200.0)
    assert store.session_player("s1", 50.0) == (ann, "Ann") and store.session_player("s1", 150.0) is None  # too old
    store.end_session("s1")
    assert store.session_player("s1", 0.0) is None and store.session_player("s2", 0.0) == (ann, "Ann")
    store.forget_sessions(150.0)  # the sweep: too old to sign anyone in
    assert store.rows("SELECT count(*) FROM sessions") == [(1,)]
    store.set_password(ann, "another hash")
    assert store.password_of(ann) == "another hash" and store.session_player("s2", 0.0) is None


def test_an_account_is_never_forgotten_as_an_unused_guest_is(opener: Opener) -> None:
    store = opener()
    ann, bob = store.add_player("Ann", "a"), store.add_player("Bob", "b")
    store.claim(ann, "hash")
    assert store.forget_players(time.time() + 1) == 1
    assert store.player_name(ann) == "Ann" and store.player_name(bob) is None


def test_erasing_a_person_leaves_a_nameless_seat_in_finished_games(opener: Opener) -> None:
    store = opener()
    ann, bob = store.add_player("Ann", "a"), store.add_player("Bob", "b")
    store.claim(ann, "hash")
    store.add_session("s", ann, time.time())
    seats = (SeatRow(0, "Ann", ann), SeatRow(1, "Bob", bob))
    store.add_room(RoomRow("r1", "Ann's table", "cards", "printed", ann, "playing", 1, seats, ()))
    with pytest.raises(StillPlaying):
        store.erase(ann)
    record = {"format": "cafe-record-1", "players": ["Ann", "Bob"]}
    results = (Result(ann, 0, 1, None, 5.0), Result(bob, 1, 2, None, 1.0))
    store.finish_game("r1", Ending(record, {ann: Rating(27.0, 7.0, 1), bob: Rating(23.0, 7.0, 1)}, results=results))
    store.save_analysis("r1", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    assert store.erase(ann) == ["r1"]
    assert store.record("r1") == {"format": "cafe-record-1", "players": ["", "Bob"]}
    assert store.analysis("r1") == {"players": [{"name": ""}, {"name": "Bob"}]}
    row = store.load_room("r1")
    assert row is not None and row.seats == (SeatRow(0, ""), SeatRow(1, "Bob", bob)) and (row.host, row.name) == (0, "")
    assert store.ratings([ann, bob]) == {bob: Rating(23.0, 7.0, 1)} and store.player_name(ann) is None
    assert store.games_of(ann, 10) == [] and [g.room for g in store.games_of(bob, 10)] == ["r1"]
    assert store.session_player("s", 0.0) is None and store.account_named("Ann") is None


@pytest.mark.services
def test_a_postgresql_database_of_the_schema_before_accounts_keeps_its_players() -> None:
    import psycopg

    before = next(n for n, m in enumerate(MIGRATIONS) if isinstance(m, str) and "password_hash" in m)
    with fresh_database() as url:
        with psycopg.connect(url, autocommit=True) as db:  # the café's database before accounts
            for migration in MIGRATIONS[:before]:
                if isinstance(migration, str):
                    db.execute(migration.encode())
                else:
                    migration(db)
            db.execute("CREATE TABLE cafe_schema (version INTEGER NOT NULL)")
            db.execute("INSERT INTO cafe_schema (version) VALUES (%s)", (before,))
            db.execute("INSERT INTO players (name, token_hash, created, name_key) VALUES ('Ann', %s, 0, 'ann')",
                       ("2e09d8a0e2c3cbd6ba73ee7ba9c44b6ab4d9bd0f7cd3d7c1c1f3bb3c3a2f2d71",))  # fmt: skip
            db.execute("INSERT INTO players (name, token_hash, created, name_key) VALUES ('ANN', 'x', 0, 'ann')")
        store = PostgresStore(url)
        (ann,) = [p for p in store.players_named("Ann") if store.player_name(p) == "Ann"]
        assert store.claim(ann, "hash") and store.account_named("ann") == (ann, "Ann", "hash")
        (other,) = set(store.players_named("Ann")) - {ann}
        with pytest.raises(NameTaken):
            store.claim(other, "hash")
        store.close()
