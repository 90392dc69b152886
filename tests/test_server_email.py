"""E-mail: an address verified by a mailed link, a forgotten password reset by one, links that expire and are
used once, and the notices of games over days (your turn, at most once a day a game unless every turn is asked
for; the game's end).  Through the real application over a real SQLite file or PostgreSQL, with a real SMTP
server on loopback (aiosmtpd); each case failed before the café sent e-mail."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from cafe.server.app import create_app
from cafe.server.mail import Mailer, MailFailed, Smtp
from cafe.server.storage.postgres import PostgresStore
from servers import fresh_database
from smtp_box import Mailbox, smtp_server
from test_server import Person, served
from test_server_accounts import PASSWORD, Signed, account, call, claimed

NEW = "a new and better password"


@dataclass
class Cafe:
    client: TestClient
    box: Mailbox
    app: Starlette

    def sql(self, statement: str, *args: Any) -> list[tuple[Any, ...]]:
        """The café's own store, as a person with the database's password would see it."""
        return list(self.app.state.gateway.store.rows(statement, *args))

    def sent(self) -> int:
        """The mails the café has sent, once none waits to be."""
        mailer = self.app.state.gateway.chores.notices.mailer
        while mailer.waiting:
            time.sleep(0.01)
        return int(mailer.sent)

    def settled(self) -> None:
        """Once every notice due has been sent (or found to have nothing to send)."""
        while self.sql("SELECT count(*) FROM due WHERE kind LIKE %s", "mail-%")[0][0]:
            time.sleep(0.01)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def cafe(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cafe]:
    """The café with e-mail, on a real SQLite file or on PostgreSQL (under scripts/with-services.sh)."""
    options: dict[str, Any] = {"bot_delay": 0.0, "name_hold_seconds": 0.1, "mail_retry_seconds": 0.05}
    with smtp_server(refuse=getattr(request, "refuse", 0)) as (box, url):
        mail = Smtp.parse(url, None, "http://testserver/")
        if request.param == "sqlite":
            app = create_app(tmp_path, mail=mail, **options)
            with served(app) as client:
                yield Cafe(client, box, app)
            return
        with fresh_database() as database:
            app = create_app(store=PostgresStore(database), mail=mail, **options)
            with served(app) as client:
                yield Cafe(client, box, app)


def verified(cafe: Cafe, session: str, address: str) -> None:
    """The person of ``session`` adds ``address`` and opens the link mailed to it."""
    before = len(cafe.box.to(address))
    answer, _ = call(cafe.client, "/account/email", {"address": address}, session)
    assert answer.status_code == 200 and answer.json()["verified"] is False, answer.text
    token = cafe.box.wait(address, before + 1).link("verify")
    answer, _ = call(cafe.client, "/account/email/verify", {"token": token})
    assert answer.status_code == 200 and answer.json() == {"verified": address}, answer.text


def shown(cafe: Cafe, session: str) -> dict[str, Any]:
    cafe.client.cookies.clear()
    found: dict[str, Any] = cafe.client.get("/account/email", headers={"cookie": f"cafe-session={session}"}).json()
    return found


def test_an_address_is_verified_by_the_link_mailed_to_it_once(cafe: Cafe) -> None:
    _, session = claimed(cafe.client, "Ann")
    answer, _ = call(cafe.client, "/account/email?lang=de", {"address": "ann@example.org"}, session)
    assert answer.status_code == 200 and answer.json()["verified"] is False
    mail = cafe.box.wait("ann@example.org")
    assert mail.subject == "Bestätige deine E-Mail-Adresse" and "Ann" in mail.body  # in the person's language
    token = mail.link("verify")
    assert not any(token in str(row) for row in cafe.sql("SELECT token_hash FROM email_links"))  # kept hashed
    assert shown(cafe, session)["verified"] is False
    answer, _ = call(cafe.client, "/account/email/verify", {"token": token})
    assert answer.status_code == 200
    assert shown(cafe, session) == {"mail": True, "address": "ann@example.org", "verified": True, "turn": True,
                                    "ended": True, "every": False, "invited": True}  # fmt: skip
    again, _ = call(cafe.client, "/account/email/verify?lang=fr", {"token": token})
    assert again.status_code == 410 and again.json()["code"] == "link" and "lien" in again.json()["error"]
    answer, _ = call(cafe.client, "/account/email", {"address": "ann@example.org"}, session)
    assert answer.json()["verified"] is True and cafe.sent() == 1  # the same address again: no mail
    answer, _ = call(cafe.client, "/account/email", {"address": "not an address"}, session)
    assert answer.status_code == 400 and shown(cafe, session)["address"] == "ann@example.org"  # nothing changed
    answer, _ = call(cafe.client, "/account/email", {"address": None}, session)
    assert answer.status_code == 200 and shown(cafe, session)["address"] is None


def test_a_forgotten_password_is_reset_by_the_mailed_link_which_signs_out_everywhere(cafe: Cafe) -> None:
    _, session = claimed(cafe.client, "Ann")
    verified(cafe, session, "ann@example.org")
    elsewhere = Signed(cafe.client, session)
    answer, _ = call(cafe.client, "/account/forgot", {"name": "ANN"})
    assert answer.status_code == 202 and answer.json() == {"sent": True}
    mail = cafe.box.wait("ann@example.org", 2)
    assert mail.subject == "Reset your password"
    token = mail.link("reset")
    answer, _ = call(cafe.client, "/account/reset", {"token": token, "new": NEW})
    assert answer.status_code == 200, answer.text
    assert account(cafe.client, session) == {"account": False}  # every session ended
    assert elsewhere.expect("error")["code"] == "signed-out"  # and its connections closed
    answer, _ = call(cafe.client, "/account/sign-in", {"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 401
    answer, _ = call(cafe.client, "/account/sign-in", {"name": "Ann", "password": NEW})
    assert answer.status_code == 200
    used, _ = call(cafe.client, "/account/reset", {"token": token, "new": "yet another password"})
    assert used.status_code == 410  # used once
    answer, _ = call(cafe.client, "/account/sign-in", {"name": "Ann", "password": NEW})
    assert answer.status_code == 200  # and it changed nothing


def test_an_expired_link_or_one_to_an_address_changed_since_is_refused_and_changes_nothing(cafe: Cafe) -> None:
    _, session = claimed(cafe.client, "Ann")
    verified(cafe, session, "ann@example.org")
    call(cafe.client, "/account/forgot", {"name": "ann@example.org"})
    token = cafe.box.wait("ann@example.org", 2).link("reset")
    cafe.sql("UPDATE email_links SET expires = %s", time.time() - 1)
    answer, _ = call(cafe.client, "/account/reset?lang=cs", {"token": token, "new": NEW})
    assert answer.status_code == 410 and "odkaz" in answer.json()["error"], answer.text
    assert account(cafe.client, session)["account"] is True
    answer, _ = call(cafe.client, "/account/sign-in", {"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 200
    call(cafe.client, "/account/forgot", {"name": "Ann"})
    token = cafe.box.wait("ann@example.org", 3).link("reset")
    call(cafe.client, "/account/email", {"address": "ann@example.com"}, session)  # changed since: the link is void
    answer, _ = call(cafe.client, "/account/reset", {"token": token, "new": NEW})
    assert answer.status_code == 410 and account(cafe.client, session)["account"] is True


def test_a_reset_is_asked_alike_for_anyone_and_mails_no_unverified_address(cafe: Cafe) -> None:
    _, session = claimed(cafe.client, "Bob")
    call(cafe.client, "/account/email", {"address": "bob@example.org"}, session)
    cafe.box.wait("bob@example.org")  # the link to verify it, never opened
    answers = [call(cafe.client, "/account/forgot", {"name": name})[0] for name in ("Bob", "bob@example.org", "Zoe")]
    assert {(a.status_code, a.text) for a in answers} == {(202, '{"sent":true}')}
    assert cafe.sent() == 1  # the link to verify, nothing since
    for _ in range(4):
        call(cafe.client, "/account/forgot", {"name": "Zoe"})
    refused, _ = call(cafe.client, "/account/forgot", {"name": "Zoe"})
    assert refused.status_code == 429  # bounded per name, as sign-ins are


def test_without_smtp_the_cafe_says_a_forgotten_password_cannot_be_reset(tmp_path: Path) -> None:
    with served(create_app(tmp_path)) as client:
        assert client.get("/account/email").json() == {"mail": False}
        answer, _ = call(client, "/account/forgot?lang=de", {"name": "Ann"})
        assert answer.status_code == 503 and answer.json()["code"] == "mail"
        assert "Passwort" in answer.json()["error"]


def turn(mover: Person, room: str, plies: int) -> int:
    """The mover plays their whole turn (each step the first legal one): the room's steps after it."""
    while (state := mover.at(plies))["status"] == "playing" and state["view"]["current_player"] == mover.seat:
        time.sleep(0.05)  # two people's pace stays within the rate limit
        mover.send({"type": "step", "room": room, "step": state["legal"][0], "plies": plies})
        plies += 1
    return plies


def test_your_turn_is_mailed_once_a_day_a_game_unless_every_turn_is_asked_for(cafe: Cafe) -> None:
    client = cafe.client
    _, ann_session = claimed(client, "Ann")
    _, bob_session = claimed(client, "Bob")
    verified(cafe, ann_session, "ann@example.org")
    verified(cafe, bob_session, "bob@example.org")
    ann, bob = Signed(client, ann_session), Signed(client, bob_session, **{"accept-language": "cs"})
    ann.send({"type": "create", "edition": "cards", "clock": 24, "name": "Tisch am Fenster"})
    room = ann.room()["id"]
    bob.send({"type": "enter", "room": room})
    bob.say(room, "/join")
    while len(ann.room()["seats"]) < 2:
        pass
    ann.say(room, "/start")
    ann.seat, bob.seat = 0, 1  # type: ignore[attr-defined]
    ann.room(status="playing")
    mail = cafe.box.wait("ann@example.org", 2)  # after the link that verified the address
    assert mail.subject == "Your turn at Tisch am Fenster" and f"http://testserver/#room={room}" in mail.body
    plies = turn(ann, room, 0)
    assert cafe.box.wait("bob@example.org", 2).subject == "Jste na tahu: Tisch am Fenster"  # Bob's browser's language
    plies = turn(bob, room, plies)  # Ann's second turn: no mail, one came today
    cafe.settled()
    assert len(cafe.box.to("ann@example.org")) == 2
    answer, _ = call(
        client, "/account/email/notices", {"turn": True, "ended": True, "every": True, "invited": True}, ann_session
    )
    assert answer.status_code == 200 and answer.json()["every"] is True
    plies = turn(ann, room, plies)
    plies = turn(bob, room, plies)
    assert cafe.box.wait("ann@example.org", 3).subject == "Your turn at Tisch am Fenster"  # every turn, as asked now
    cafe.settled()
    assert len(cafe.box.to("bob@example.org")) == 2  # Bob had his one today


def test_the_end_of_a_game_over_days_is_mailed_and_nothing_to_who_turned_it_off_or_an_unverified_address(
    cafe: Cafe,
) -> None:
    client = cafe.client
    _, ann_session = claimed(client, "Ann")
    _, bob_session = claimed(client, "Bob")
    _, cid_session = claimed(client, "Cid")
    verified(cafe, ann_session, "ann@example.org")
    verified(cafe, bob_session, "bob@example.org")
    call(
        client, "/account/email/notices", {"turn": False, "ended": False, "every": False, "invited": False}, bob_session
    )
    call(client, "/account/email", {"address": "cid@example.org"}, cid_session)  # its link never opened
    cafe.box.wait("cid@example.org")
    people = [Signed(client, session) for session in (ann_session, bob_session, cid_session)]
    ann = people[0]
    ann.send({"type": "create", "edition": "cards", "clock": 24})
    room = ann.room()["id"]
    for person in people[1:]:
        person.send({"type": "enter", "room": room})
        person.say(room, "/join")
    while len(ann.room()["seats"]) < 3:
        pass
    ann.say(room, "/start")
    for seat, person in enumerate(people):
        person.seat = seat  # type: ignore[attr-defined]
    ann.room(status="playing")
    plies = 0
    while (state := ann.at(plies))["status"] == "playing":
        plies = turn(people[state["view"]["current_player"]], room, plies)
    cafe.settled()
    ended = [mail for mail in cafe.box.to("ann@example.org") if "ended" in mail.subject]
    assert len(ended) == 1 and f"http://testserver/#game={room}" in ended[0].body
    assert len(cafe.box.to("bob@example.org")) == 1  # the link that verified it, nothing since
    assert len(cafe.box.to("cid@example.org")) == 1  # the link to verify it, nothing since


def test_a_busy_smtp_server_is_tried_again_and_the_log_holds_no_link(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with smtp_server(refuse=2) as (box, url):
        app = create_app(tmp_path, mail=Smtp.parse(url, None, "http://testserver/"), mail_retry_seconds=0.05)
        with served(app) as client:
            _, session = claimed(client, "Ann")
            call(client, "/account/email", {"address": "ann@example.org"}, session)
            token = box.wait("ann@example.org").link("verify")
    assert box.attempts == 3 and len(box.mails) == 1
    failures = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert len(failures) == 2 and all("451" in line and "example.org" in line for line in failures)
    assert not any(token in r.getMessage() or "ann@" in r.getMessage() for r in caplog.records)


def test_a_wrong_smtp_url_is_named_and_nothing_starts(capsys: pytest.CaptureFixture[str]) -> None:
    from cafe.cli import main

    for wrong, says in (("http://mail.example.org", "smtp://"), ("smtp://mail.example.org:port", "not a number")):
        assert main(["serve", "--smtp", wrong]) == 2
        assert says in capsys.readouterr().err
    assert main(["serve", "--smtp", "smtp://u:secret@mail.example.org", "--mail-from", "nobody"]) == 2
    said = capsys.readouterr().err
    assert "--mail-from" in said and "secret" not in said
    smtp = Smtp.parse("smtps://cafe%40example.org:s%3Acret@mail.example.org", None, "https://cafe.example.org")
    assert (smtp.host, smtp.port, smtp.tls, smtp.user, smtp.password) == (
        "mail.example.org", 465, True, "cafe@example.org", "s:cret")  # fmt: skip
    assert smtp.sender == "Café International <cafe@cafe.example.org>" and smtp.site == "https://cafe.example.org/"
    assert "s:cret" not in repr(smtp)


def test_a_password_never_goes_to_an_smtp_server_without_starttls(caplog: pytest.LogCaptureFixture) -> None:
    with smtp_server() as (box, url):  # aiosmtpd here offers no STARTTLS
        smtp = Smtp.parse(url.replace("smtp://", "smtp://cafe:secret@"), None, "http://testserver/")
        mailer = Mailer(smtp, tries=3, wait=0.0)
        with pytest.raises(MailFailed):
            asyncio.run(mailer.send("ann@example.org", "Hello", "Hello, Ann"))
    assert box.attempts == 0 and mailer.failed == 1
    (said,) = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]  # tried once: it is for good
    assert "STARTTLS" in said and "secret" not in said
