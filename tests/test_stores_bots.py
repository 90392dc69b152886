"""Bot accounts in both stores (SQLite, and PostgreSQL under scripts/with-services.sh): which accounts are bots,
their API tokens (kept hashed, replaced, revoked), a leaderboard apart from people's, and the tables they sit at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cafe.server.storage.bot_rows import Rated
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import Ending, Rating, RoomRow, SeatRow, SQLiteStore, Store
from servers import fresh_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened: Store = SQLiteStore(tmp_path / "cafe.sqlite3")
    else:
        url = request.getfixturevalue("postgres_url")
        opened = PostgresStore(url)
    yield opened
    opened.close()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def accounts(store: Store, *names: str) -> list[int]:
    """Players with a password (accounts), named so."""
    made = []
    for name in names:
        player = store.add_player(name, f"guest-{name}")
        assert store.claim(player, "argon2-hash-of-nothing")
        made.append(player)
    return made


def test_a_bots_token_signs_it_in_until_it_is_replaced_or_revoked(store: Store) -> None:
    robo, ann = accounts(store, "Robo", "Ann")
    assert not store.set_bot_token(robo, "t-1")  # a person's account has no bot token
    store.set_bot(robo, True, 1.0)
    assert store.bot_accounts([robo, ann]) == {robo} and store.bot_accounts([]) == set()
    assert store.bot_by_token("t-1") is None  # none made yet
    assert store.set_bot_token(robo, "t-1")
    assert store.bot_by_token("t-1") == (robo, "Robo")
    assert store.set_bot_token(robo, "t-2")
    assert store.bot_by_token("t-1") is None and store.bot_by_token("t-2") == (robo, "Robo")
    assert store.set_bot_token(robo, None)
    assert store.bot_by_token("t-2") is None
    assert store.rows("SELECT token_hash FROM bots") == [(None,)]  # type: ignore[attr-defined]
    store.set_bot_token(robo, "t-3")
    (kept,) = store.rows("SELECT token_hash FROM bots")  # type: ignore[attr-defined]
    assert "t-3" not in str(kept)  # only its hash
    store.set_bot(robo, False, 2.0)  # a person again, before any rated game
    assert store.bot_accounts([robo]) == set() and store.bot_by_token("t-3") is None


def test_bots_and_people_are_ranked_apart_and_a_rated_account_stays_what_it_is(store: Store) -> None:
    robo, ann, bob = accounts(store, "Robo", "Ann", "Bob")
    store.set_bot(robo, True, 1.0)
    store.add_room(RoomRow("r1", "Ann's table", "board", "printed", ann, "waiting", 5, (), ()))
    seats = (SeatRow(0, "Ann", player=ann), SeatRow(1, "Robo", player=robo), SeatRow(2, "Bob", player=bob))
    store.set_seats("r1", seats)
    assert store.tables_of(robo) == 1 and store.tables_of(9999) == 0
    store.start_room("r1")
    rated = {robo: Rating(30.0, 6.0, 1), ann: Rating(26.0, 7.0, 1), bob: Rating(20.0, 7.0, 1)}
    store.finish_game("r1", Ending({"format": "cafe-record-1", "turns": ["pass"]}, rated, (0, 0, "pass")))
    assert store.tables_of(robo) == 0  # a finished game is no table any more
    assert [(p, n) for p, n, *_ in store.ranked(10, bots=False)] == [(ann, "Ann"), (bob, "Bob")]
    assert [(p, n, mu, sigma, games) for p, n, mu, sigma, games in store.ranked(10, bots=True)] == [
        (robo, "Robo", 30.0, 6.0, 1)
    ]
    assert len(store.ranked(1, bots=False)) == 1
    with pytest.raises(Rated):
        store.set_bot(robo, False, 2.0)
    with pytest.raises(Rated):
        store.set_bot(ann, True, 2.0)
    assert store.bot_accounts([robo, ann]) == {robo}


def test_an_erased_bot_leaves_no_row(store: Store) -> None:
    (robo,) = accounts(store, "Robo")
    store.set_bot(robo, True, 1.0)
    store.set_bot_token(robo, "t-1")
    store.erase(robo)
    assert store.bot_by_token("t-1") is None and store.bot_accounts([robo]) == set()
