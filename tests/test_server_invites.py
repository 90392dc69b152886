"""``/invite NAME`` for a person with an account: the invited person hears it in the page (on their connection,
through the broker), by e-mail (read from the test's SMTP server) and by Web Push (decrypted by the test's push
service); the invitation seats them; refusals change nothing and are said in the reader's language; the switch
of invitation e-mails is kept in both stores.  Each failed before people could be invited by name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cafe.server.app import create_app
from cafe.server.mail import Smtp
from cafe.server.storage.email_rows import EMAIL_INVITED, Email
from cafe.server.storage.postgres import MIGRATIONS, PostgresStore, migrate
from cafe.server.storage.store import MIGRATIONS as SQLITE_MIGRATIONS
from cafe.server.storage.store import SQLiteStore
from push_service import PushService
from servers import fresh_database
from smtp_box import smtp_server
from test_server import Person, served
from test_server_accounts import Signed, call, claimed
from test_server_email import Cafe, shown, verified
from test_server_push import subscribe


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PushService]:
    with PushService(tmp_path) as running:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(running.ca))
        yield running


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def cafe(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cafe]:
    """The café with e-mail and Web Push, on a real SQLite file or on PostgreSQL."""
    options: dict[str, Any] = {"name_hold_seconds": 0.1, "invites_per_minute": 3}
    with smtp_server() as (box, url):
        mail = Smtp.parse(url, None, "http://testserver/")
        store = {}
        if request.param == "postgresql":
            database = request.getfixturevalue("postgres_url")
            store = {"store": PostgresStore(database)}
        app = create_app(tmp_path / "data", mail=mail, **store, **options)
        with served(app) as client:
            yield Cafe(client, box, app)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def private_table(host: Person) -> str:
    host.send({"type": "create", "edition": "cards", "private": True, "name": "Ann's corner"})
    room: str = host.room()["id"]
    return room


def test_an_invited_person_hears_it_in_the_page_by_email_and_by_push_and_sits(cafe: Cafe, service: PushService) -> None:
    client = cafe.client
    ann, _ = claimed(client, "Ann")
    _, ben_session = claimed(client, "Ben")
    verified(cafe, ben_session, "ben@example.org")
    phone = service.device("ben-phone")
    assert subscribe(client, ben_session, phone, "de").json() == {"subscribed": True}
    ben = Signed(client, ben_session, **{"accept-language": "fr"})
    room = private_table(ann)
    ann.say(room, "/invite ben")  # any form of the name
    ann.expect("info", room=room, text="Ben is invited")
    heard = ben.expect("invited")
    code = heard["code"]
    assert heard == {"type": "invited", "room": room, "from": "Ann", "code": code, "table": "Ann's corner"}
    mail = cafe.box.wait("ben@example.org", 2)  # after the link that verified the address
    assert mail.subject == "Ann vous invite à la table Ann's corner"  # the language Ben's browser reads
    assert f"http://testserver/#room={room}&invite={code}" in mail.body
    (message,) = service.wait(1)
    notice = phone.read(message)
    assert (
        notice["body"] == "Ann lädt dich an den Tisch Ann's corner ein"
        and notice["url"] == f"/#room={room}&invite={code}"
    )
    ben.send({"type": "join", "room": room, "code": code})  # the page accepts it
    assert [seat["name"] for seat in ann.room(id=room)["seats"]] == ["Ann", "Ben"]
    ann.say(room, "/invite Ben")
    assert "has a seat here already" in ann.expect("error")["message"]
    assert len(cafe.box.to("ben@example.org")) == 2 and len(service.received) == 1  # nothing more went out


def test_invitation_emails_can_be_turned_off_and_the_switch_is_kept(cafe: Cafe) -> None:
    client = cafe.client
    ann, _ = claimed(client, "Ann")
    _, ben_session = claimed(client, "Ben")
    verified(cafe, ben_session, "ben@example.org")
    assert shown(cafe, ben_session)["invited"] is True
    chosen = {"turn": True, "ended": True, "every": False, "invited": False}
    answer, _ = call(client, "/account/email/notices", chosen, ben_session)
    assert answer.status_code == 200 and answer.json()["invited"] is False
    assert cafe.sql("SELECT invited FROM emails")[0][0] == 0
    ben = Signed(client, ben_session)
    room = private_table(ann)
    ann.say(room, "/invite Ben")
    assert ben.expect("invited")["room"] == room  # in the page still
    cafe.settled()
    assert len(cafe.box.to("ben@example.org")) == 1  # the link that verified the address, no invitation
    missing, _ = call(client, "/account/email/notices", {"turn": True, "ended": True, "every": False}, ben_session)
    assert missing.status_code == 400 and shown(cafe, ben_session)["invited"] is False


def test_refusals_are_said_in_the_readers_language_and_change_nothing(cafe: Cafe) -> None:
    client = cafe.client
    _, ann_session = claimed(client, "Ann")
    for name in ("Ben", "Cid", "Dan", "Eve"):
        claimed(client, name)
    Person(client, "Gus")  # a guest
    host = Signed(client, ann_session, **{"accept-language": "de"})
    room = private_table(host)
    refusals = {
        "/invite Nobody": "kein Konto",
        "/invite Gus": "Einladungslink",  # a guest gets the table's link instead
        "/invite Ann": "nicht selbst",
    }
    for line, said in refusals.items():
        host.say(room, line)
        refused = host.expect("error")
        assert refused["code"] == "refused" and said in refused["message"], refused
    host.say(room, "/invite Ben")
    host.expect("info", room=room, text="Ben ist eingeladen")
    host.say(room, "/invite Ben")
    assert "bereits eingeladen" in host.expect("error")["message"]  # one invitation per table and person
    host.say(room, "/invite Cid")
    host.expect("info", room=room, text="Cid ist eingeladen")
    host.say(room, "/invite Dan")  # the fourth in a minute, past the bound of three
    assert host.expect("error")["code"] == "busy"
    guest = Person(client, "Zoe")
    guest.send({"type": "enter", "room": room})
    guest.say(room, "/invite Eve")  # only the host invites
    assert guest.expect("error")["code"] == "refused"
    seats = guest.latest["seats"]  # type: ignore[index]  # the room as the guest entered it, after all of that
    assert [seat["name"] for seat in seats] == ["Ann"]  # nobody sat


def test_a_started_game_or_a_full_table_takes_no_invitation(cafe: Cafe) -> None:
    client = cafe.client
    ann, _ = claimed(client, "Ann")
    ben, _ = claimed(client, "Ben")
    claimed(client, "Cid")
    ann.send({"type": "create", "edition": "cards"})
    room = ann.room()["id"]
    ben.send({"type": "enter", "room": room})
    ben.say(room, "/join")
    while len(seats := ann.room()["seats"]) < 2:
        pass
    full = ann.latest["max_players"]  # type: ignore[index]
    for _ in range(len(seats), full):
        ann.say(room, "/bot easy")
    while len(ann.room()["seats"]) < full:
        pass
    ann.say(room, "/invite Cid")
    assert "every seat is taken" in ann.expect("error")["message"]
    ann.say(room, "/kick 1")
    ann.say(room, "/start")
    ann.room(status="playing")
    ann.say(room, "/invite Cid")
    assert "before the start" in ann.expect("error")["message"]


def test_an_older_sqlite_database_gets_the_switch_of_invitations_on(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "cafe.sqlite3")
    ann = store.add_player("Ann", "a")
    store.set_email(ann, "ann@example.org", "en")
    store._db.execute("ALTER TABLE emails DROP COLUMN invited")  # as it was before invitations by name
    store._db.execute(f"PRAGMA user_version = {SQLITE_MIGRATIONS.index(EMAIL_INVITED)}")
    store.close()
    store = SQLiteStore(tmp_path / "cafe.sqlite3")
    assert store.email(ann) == Email("ann@example.org", False, "en", invited=True)
    assert store.set_notices(ann, True, True, False, False, "en") and store.email(ann).invited is False  # type: ignore[union-attr]
    store.close()


@pytest.mark.services
def test_an_older_postgresql_database_gets_the_switch_of_invitations_on(postgres_url: str) -> None:
    import psycopg

    store = PostgresStore(postgres_url)
    ann = store.add_player("Ann", "a")
    store.set_email(ann, "ann@example.org", "en")
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("ALTER TABLE emails DROP COLUMN invited")  # as it was before invitations by name
        switch = next(n for n, m in enumerate(MIGRATIONS) if isinstance(m, str) and "COLUMN IF NOT EXISTS invited" in m)
        db.execute("UPDATE cafe_schema SET version = %s", (switch,))
        assert migrate(db) == len(MIGRATIONS)
    assert store.email(ann) == Email("ann@example.org", False, "en", invited=True)
    store.close()
