"""E-mail in both stores (SQLite, and PostgreSQL under scripts/with-services.sh): a link works once and only for
its purpose, a notice is noted as sent once whichever process asks, an address goes with its account, and a
database of today's schema before e-mail is upgraded with its accounts kept."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from cafe.server.storage.email_rows import ENDED, Email
from cafe.server.storage.postgres import MIGRATIONS as PG_MIGRATIONS
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.sent_rows import MAIL
from cafe.server.storage.store import MIGRATIONS, SQLiteStore
from servers import fresh_database
from test_stores_accounts import Opener, opener

__all__ = ["opener"]  # the fixture, shared with the accounts' store tests


def test_a_link_works_once_for_its_purpose_and_verifies_only_the_address_it_was_sent_to(opener: Opener) -> None:
    store, elsewhere = opener(), opener()
    ann = store.add_player("Ann", "a")
    store.claim(ann, "hash")
    store.set_email(ann, "ann@example.org", "de")
    assert store.email(ann) == Email("ann@example.org", False, "de")
    now = time.time()
    store.add_link("t1", ann, "verify", "ann@example.org", now, now + 60)
    assert store.take_link("t1", "reset") is None  # a link to verify resets nothing
    link = elsewhere.take_link("t1", "verify")
    assert link is not None and (link.player, link.address) == (ann, "ann@example.org")
    assert store.take_link("t1", "verify") is None  # used up, for every process
    store.add_link("t2", ann, "verify", "ann@example.org", now, now + 60)
    store.set_email(ann, "ann@example.com", "de")  # changed meanwhile: the link to the old address is void
    assert store.take_link("t2", "verify") is None
    assert not store.verify_email(ann, "ann@example.org") and store.verify_email(ann, "ann@example.com")
    assert store.verified_accounts("ANN@example.COM") == [ann]
    store.add_link("old", ann, "reset", "ann@example.com", now - 120, now - 60)
    store.add_link("t3", ann, "reset", "ann@example.com", now, now + 60)  # the expired one goes meanwhile
    assert store.take_link("old", "reset") is None and store.take_link("t3", "reset") is not None


def test_a_notice_is_noted_once_and_goes_with_the_account(opener: Opener) -> None:
    store, elsewhere = opener(), opener()
    ann = store.add_player("Ann", "a")
    store.claim(ann, "hash")
    store.set_email(ann, "ann@example.org", "en")
    assert store.note_sent(MAIL, ann, "r1", 3, 100.0) and not elsewhere.note_sent(MAIL, ann, "r1", 3, 101.0)
    assert store.note_sent(MAIL, ann, "r1", ENDED, 200.0) and store.last_sent(MAIL, ann, "r1") == 100.0  # end aside
    store.unnote_sent(MAIL, ann, "r1", 3)
    assert store.last_sent(MAIL, ann, "r1") is None and elsewhere.note_sent(MAIL, ann, "r1", 3, 300.0)
    assert store.set_notices(ann, turn=False, ended=True, every=True, invited=True, language="cs")
    assert store.email(ann) == Email("ann@example.org", False, "cs", turn=False, ended=True, every=True)
    store.add_link("t", ann, "verify", "ann@example.org", time.time(), time.time() + 60)
    store.erase(ann)
    assert store.email(ann) is None and store.take_link("t", "verify") is None
    assert store.last_sent(MAIL, ann, "r1") is None


def test_an_sqlite_database_of_the_schema_before_e_mail_is_upgraded(tmp_path: Path) -> None:
    before = next(n for n, m in enumerate(MIGRATIONS) if "emails" in m)
    path = tmp_path / "cafe.sqlite3"
    store = SQLiteStore(path)
    ann = store.add_player("Ann", "a")
    store.claim(ann, "hash")
    store.close()
    with sqlite3.connect(path) as db:  # as today's café leaves it
        for table in ("emails", "email_links", "sent_notices"):
            db.execute(f"DROP TABLE {table}")
        db.execute(f"PRAGMA user_version = {before}")
    store = SQLiteStore(path)
    assert store.account_named("ann") == (ann, "Ann", "hash")
    store.set_email(ann, "ann@example.org", "fr")
    assert store.email(ann) == Email("ann@example.org", False, "fr")
    store.close()


@pytest.mark.services
def test_a_postgresql_database_of_the_schema_before_e_mail_is_upgraded() -> None:
    import psycopg

    before = next(n for n, m in enumerate(PG_MIGRATIONS) if isinstance(m, str) and "email_links" in m)
    with fresh_database() as url:
        with psycopg.connect(url, autocommit=True) as db:  # the café's database as today's café leaves it
            for migration in PG_MIGRATIONS[:before]:
                if isinstance(migration, str):
                    db.execute(migration.encode())
                else:
                    migration(db)
            db.execute("CREATE TABLE cafe_schema (version INTEGER NOT NULL)")
            db.execute("INSERT INTO cafe_schema (version) VALUES (%s)", (before,))
            db.execute("INSERT INTO players (name, token_hash, created, name_key, password_hash) "
                       "VALUES ('Ann', 'x', 0, 'ann', 'hash')")  # fmt: skip
        store = PostgresStore(url)
        (ann, _, _) = store.account_named("Ann") or (0, "", "")
        store.set_email(ann, "ann@example.org", "cs")
        assert store.email(ann) == Email("ann@example.org", False, "cs")
        store.close()
