"""Both stores keep puzzle ratings alike: a person's rating and streak, each puzzle's rating, and a first try only
(the PostgreSQL cases run against the server of scripts/with-services.sh)."""

from __future__ import annotations

from pathlib import Path

from cafe.server.storage.store import PuzzleTry, Rating, SQLiteStore, Store


def test_a_first_try_keeps_both_ratings_and_the_streak_and_a_second_changes_nothing(store: Store) -> None:
    ann = store.add_player("Ann", "secret-a")
    assert store.puzzle_player(ann) is None and store.puzzle_ratings() == {} and store.puzzles_tried(ann) == set()
    first = PuzzleTry(ann, "b12-40", True, Rating(26.5, 8.0, 1), 1, Rating(24.0, 7.9, 1))
    assert store.try_puzzle(first)
    again = PuzzleTry(ann, "b12-40", False, Rating(20.0, 7.0, 2), 0, Rating(30.0, 7.0, 2))
    assert not store.try_puzzle(again)  # a try again is never rated
    assert store.puzzle_player(ann) == (Rating(26.5, 8.0, 1), 1)
    assert store.puzzle_ratings() == {"b12-40": Rating(24.0, 7.9, 1)}
    assert store.try_puzzle(PuzzleTry(ann, "c3-7", False, Rating(25.1, 7.5, 2), 0, Rating(26.0, 7.8, 1)))
    assert store.puzzle_player(ann) == (Rating(25.1, 7.5, 2), 0)
    assert store.puzzles_tried(ann) == {"b12-40", "c3-7"}
    bob = store.add_player("Bob", "secret-b")
    assert store.puzzles_tried(bob) == set() and store.puzzle_player(bob) is None


def test_an_older_sqlite_database_gets_the_puzzle_tables(tmp_path: Path) -> None:
    import sqlite3

    from cafe.server.storage.store import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    old = SQLiteStore(path)
    old.close()
    db = sqlite3.connect(path)
    for table in ("puzzle_players", "puzzle_ratings", "puzzle_tries"):
        db.execute(f"DROP TABLE {table}")
    db.execute("ALTER TABLE emails DROP COLUMN invited")  # a later migration adds it, once
    before = next(n for n, m in enumerate(MIGRATIONS) if "TABLE IF NOT EXISTS puzzle_players" in m)
    db.execute(f"PRAGMA user_version = {before}")  # as it was before the puzzles came
    db.commit()
    db.close()
    upgraded = SQLiteStore(path)
    ann = upgraded.add_player("Ann", "secret-a")
    assert upgraded.try_puzzle(PuzzleTry(ann, "b1-2", True, Rating(26.0, 8.0, 1), 1, Rating(24.0, 8.0, 1)))
    assert upgraded.puzzle_player(ann) == (Rating(26.0, 8.0, 1), 1)
    upgraded.close()
