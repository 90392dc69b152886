"""Passkeys: a guest makes their name theirs with one, signs in with it without a name or with one, adds, lists
and removes passkeys, confirms a deletion with one; and every wrong answer to a ceremony (a challenge unknown,
used, expired or of another ceremony, another site's origin, an unknown credential, a counter gone back, malformed
JSON) is refused in the reader's language with nothing changed.  Through the real application over a real SQLite
file or PostgreSQL, with an authenticator in software that signs as a real one does (ES256, "none" attestation)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.testclient import TestClient
from webauthn.helpers import bytes_to_base64url

from cafe.cli import main
from cafe.server.app import create_app
from cafe.server.storage.postgres import PostgresStore
from cafe.server.storage.store import SQLiteStore
from servers import fresh_database
from test_server import Person, served
from test_server_accounts import PASSWORD, account, call, claimed

ORIGIN = "http://testserver"  # the test client's own address: the café's origin, "testserver" its party id


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def cafe(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The café on a real SQLite file, or on PostgreSQL (under scripts/with-services.sh)."""
    options: dict[str, Any] = {"name_hold_seconds": 0.1, "signins_per_account": 50}  # bounds: the last test
    if request.param == "sqlite":
        with served(create_app(tmp_path, **options)) as client:
            yield client
        return
    with fresh_database() as url, served(create_app(store=PostgresStore(url), **options)) as client:
        yield client


class Authenticator:
    """A passkey device: discoverable ES256 credentials, each with its signature counter."""

    def __init__(self) -> None:
        self.keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, bytes, int]] = {}

    def create(self, options: dict[str, Any], origin: str = ORIGIN, rp_id: str = "testserver") -> dict[str, Any]:
        ident, key = os.urandom(16), ec.generate_private_key(ec.SECP256R1())
        user = options["publicKey"]["user"]["id"]
        self.keys[ident] = (key, user.encode(), 0)
        numbers = key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        data = (hashlib.sha256(rp_id.encode()).digest() + bytes([0x45]) + struct.pack(">I", 0) + bytes(16)
                + struct.pack(">H", len(ident)) + ident + cbor2.dumps(cose))  # fmt: skip
        client = _client("webauthn.create", options["publicKey"]["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
        return {"id": _b64(ident), "rawId": _b64(ident), "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": _b64(client), "attestationObject": _b64(attestation)}}  # fmt: skip

    def get(self, options: dict[str, Any], origin: str = ORIGIN, count: int | None = None,
            rp_id: str = "testserver") -> dict[str, Any]:  # fmt: skip
        """An answer by the newest credential (its counter one up, or ``count``)."""
        ident = list(self.keys)[-1]
        key, user, counted = self.keys[ident]
        counted = counted + 1 if count is None else count
        self.keys[ident] = (key, user, counted)
        data = hashlib.sha256(rp_id.encode()).digest() + bytes([0x05]) + struct.pack(">I", counted)
        client = _client("webauthn.get", options["publicKey"]["challenge"], origin)
        signature = key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": _b64(ident), "rawId": _b64(ident), "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": _b64(client), "authenticatorData": _b64(data),
                             "signature": _b64(signature), "userHandle": user.decode()}}  # fmt: skip


def forged(device: Authenticator, asked: dict[str, Any]) -> dict[str, Any]:
    """An answer whose signature is not the credential's."""
    answer = device.get(asked)
    answer["response"]["signature"] = _b64(b"\x30\x06\x02\x01\x01\x02\x01\x01")
    return answer


def _b64(data: bytes) -> str:
    return bytes_to_base64url(data)


def _client(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()


def options(cafe: TestClient, path: str, body: dict[str, Any], session: str | None = None) -> dict[str, Any]:
    answer, _ = call(cafe, path, body, session)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def claimed_with_passkey(cafe: TestClient, name: str, device: Authenticator) -> tuple[Person, str]:
    """A guest who makes their name theirs with a passkey: the person, and their session."""
    person = Person(cafe, name)
    made = device.create(options(cafe, "/account/passkeys/new", {"token": person.token}))
    answer, session = call(cafe, "/account/passkeys/add", {"token": person.token, "credential": made})
    assert answer.status_code == 201 and session, answer.text
    return person, session


def sign_in(cafe: TestClient, device: Authenticator, name: str | None = None, **changes: Any) -> tuple[Any, str | None]:
    asked = options(cafe, "/account/passkeys/challenge", {} if name is None else {"name": name})
    return call(cafe, "/account/passkeys/sign-in", {"credential": device.get(asked, **changes)})


def listing(cafe: TestClient, session: str) -> dict[str, Any]:
    found: dict[str, Any] = options(cafe, "/account/passkeys", {}, session)
    return found


def test_a_guest_makes_their_name_theirs_with_a_passkey_and_signs_in_with_it_without_a_name(cafe: TestClient) -> None:
    device = Authenticator()
    ann, session = claimed_with_passkey(cafe, "Ann", device)
    assert account(cafe, session) == {"player": ann.player, "name": "Ann", "account": True, "bot": False}
    known = listing(cafe, session)
    assert known["password"] is False and len(known["passkeys"]) == 1 and known["passkeys"][0]["used"] is None
    answer, second = sign_in(cafe, device)
    assert answer.status_code == 200 and second and second != session, answer.text
    assert answer.json() == {"player": ann.player, "name": "Ann", "account": True}
    assert listing(cafe, second)["passkeys"][0]["used"] is not None
    answer, third = sign_in(cafe, device, name="ANN")  # with the name (any of its forms), too
    assert answer.status_code == 200 and third
    # no password signs in to an account made with a passkey
    assert call(cafe, "/account/sign-in", {"name": "Ann", "password": "!"})[0].status_code == 401


def test_an_account_adds_a_passkey_lists_it_removes_it_but_never_its_last_way_in(cafe: TestClient) -> None:
    _, session = claimed(cafe, "Bob")
    device = Authenticator()
    made = device.create(options(cafe, "/account/passkeys/new", {}, session))
    answer, _ = call(cafe, "/account/passkeys/add", {"credential": made}, session)
    assert answer.status_code == 201 and answer.json()["password"] is True, answer.text
    [key] = answer.json()["passkeys"]
    assert sign_in(cafe, device, name="Bob")[0].status_code == 200
    assert call(cafe, "/account/passkeys/remove", {"id": key["id"]}, session)[0].json()["passkeys"] == []
    assert sign_in(cafe, device)[0].json()["code"] == "passkey"  # removed: it no longer signs in
    # an account with a passkey only keeps its last one
    other = Authenticator()
    _, cy = claimed_with_passkey(cafe, "Cy", other)
    [only] = listing(cafe, cy)["passkeys"]
    refused, _ = call(cafe, "/account/passkeys/remove?lang=fr", {"id": only["id"]}, cy)
    assert refused.status_code == 409 and refused.json()["code"] == "last"
    assert "mot de passe" in refused.json()["error"]
    assert listing(cafe, cy)["passkeys"] == [only]


def test_a_passkey_confirms_the_deletion_of_its_account_and_goes_with_it(cafe: TestClient) -> None:
    device = Authenticator()
    _, session = claimed_with_passkey(cafe, "Dee", device)
    asked = options(cafe, "/account/passkeys/challenge", {})
    answer, _ = call(cafe, "/account/delete", {"passkey": device.get(asked)}, session)
    assert answer.status_code == 200, answer.text
    assert cafe.app.state.gateway.store.rows("SELECT id FROM passkeys") == []  # type: ignore[attr-defined]
    assert sign_in(cafe, device)[0].json()["code"] == "passkey"


def test_an_account_made_with_a_passkey_chooses_a_password_confirmed_by_its_own_passkey_only(cafe: TestClient) -> None:
    device, stranger = Authenticator(), Authenticator()
    _, session = claimed_with_passkey(cafe, "Jo", device)
    claimed_with_passkey(cafe, "Kim", stranger)
    asked = options(cafe, "/account/passkeys/challenge", {})
    theirs = refused(cafe, "/account/password", {"new": PASSWORD, "passkey": stranger.get(asked)}, session)
    assert theirs["code"] == "passkey"  # Kim's passkey confirms nothing of Jo's
    asked = options(cafe, "/account/passkeys/challenge", {})
    answer, renewed = call(cafe, "/account/password", {"new": PASSWORD, "passkey": device.get(asked)}, session)
    assert answer.status_code == 200 and renewed, answer.text
    assert listing(cafe, renewed)["password"] is True
    assert call(cafe, "/account/sign-in", {"name": "Jo", "password": PASSWORD})[0].status_code == 200


def refused(cafe: TestClient, path: str, body: dict[str, Any], session: str | None = None,
            language: str = "en") -> dict[str, Any]:  # fmt: skip
    """A refusal that set no cookie and changed no passkey."""
    store = cafe.app.state.gateway.store  # type: ignore[attr-defined]
    before = store.rows("SELECT id, player, sign_count, used FROM passkeys ORDER BY id")
    answer, cookie = call(cafe, f"{path}?lang={language}", body, session)
    assert answer.status_code >= 400 and cookie is None, answer.text
    assert store.rows("SELECT id, player, sign_count, used FROM passkeys ORDER BY id") == before
    found: dict[str, Any] = answer.json()
    return found


def test_every_wrong_answer_to_a_sign_in_is_refused_and_changes_nothing(cafe: TestClient) -> None:
    device = Authenticator()
    claimed_with_passkey(cafe, "Eve", device)
    asked = options(cafe, "/account/passkeys/challenge", {})
    answer = device.get(asked)
    assert call(cafe, "/account/passkeys/sign-in", {"credential": answer})[0].status_code == 200
    used = refused(cafe, "/account/passkeys/sign-in", {"credential": answer})  # the same answer again
    assert used == {"code": "challenge", "error": "this passkey request has expired or was used already: try again"}
    made_up = device.get({"publicKey": {"challenge": _b64(os.urandom(32))}})  # a challenge the café never made
    assert refused(cafe, "/account/passkeys/sign-in", {"credential": made_up})["code"] == "challenge"
    asked = options(cafe, "/account/passkeys/challenge", {})
    cafe.app.state.gateway.store.rows("UPDATE passkey_challenges SET until = 0")  # type: ignore[attr-defined]
    expired = refused(cafe, "/account/passkeys/sign-in", {"credential": device.get(asked)}, language="de")
    assert expired["code"] == "challenge" and "abgelaufen" in expired["error"]
    asked = options(cafe, "/account/passkeys/challenge", {})
    elsewhere = refused(
        cafe, "/account/passkeys/sign-in", {"credential": device.get(asked, origin="https://evil.example")}
    )
    assert elsewhere == {"code": "origin", "error": "this passkey answer was made for another site"}
    stranger = Authenticator()
    stranger.create({"publicKey": {"user": {"id": "eA"}, "challenge": ""}})
    unknown = refused(cafe, "/account/passkeys/sign-in", {"credential": stranger.get(asked)}, language="cs")
    assert unknown["code"] == "passkey" and "klíč" in unknown["error"]
    asked = options(cafe, "/account/passkeys/challenge", {"name": "Zed"})  # another name's ceremony
    assert refused(cafe, "/account/passkeys/sign-in", {"credential": device.get(asked)})["code"] == "passkey"
    asked = options(cafe, "/account/passkeys/challenge", {})
    copied = refused(cafe, "/account/passkeys/sign-in", {"credential": device.get(asked, count=1)})  # counter went back
    assert copied["code"] == "passkey" and "counter" in copied["error"]
    asked = options(cafe, "/account/passkeys/challenge", {})
    assert refused(cafe, "/account/passkeys/sign-in", {"credential": forged(device, asked)}) == {
        "code": "passkey", "error": "the passkey's answer could not be verified"}  # fmt: skip
    for wrong in ({}, {"credential": "x"}, {"credential": {"response": {"clientDataJSON": "%%%"}}},
                  {"credential": {"id": 1, "response": {"clientDataJSON": _b64(b"[1]")}}}):  # fmt: skip
        assert refused(cafe, "/account/passkeys/sign-in", wrong) == {"code": "field", "error": "not a passkey's answer"}
    store = cafe.app.state.gateway.store  # type: ignore[attr-defined]
    sessions = store.rows("SELECT COUNT(*) FROM sessions")
    not_json = cafe.post("/account/passkeys/sign-in", content="{", headers={"content-type": "application/json"})
    assert not_json.status_code == 400 and not_json.json()["code"] == "json"
    assert store.rows("SELECT COUNT(*) FROM sessions") == sessions


def test_every_wrong_answer_to_a_registration_is_refused_and_changes_nothing(cafe: TestClient) -> None:
    device = Authenticator()
    person = Person(cafe, "Fay")
    asked = options(cafe, "/account/passkeys/new", {"token": person.token})
    wrong_site = device.create(asked, origin="https://evil.example")
    assert refused(cafe, "/account/passkeys/add", {"token": person.token, "credential": wrong_site})["code"] == "origin"
    wrong_party = device.create(asked, rp_id="evil.example")
    assert (
        refused(cafe, "/account/passkeys/add", {"token": person.token, "credential": wrong_party})["code"] == "passkey"
    )
    # that ceremony was used up by the answer of the wrong party; a sign-in's challenge is no registration's
    late = device.create(asked)
    assert refused(cafe, "/account/passkeys/add", {"token": person.token, "credential": late})["code"] == "challenge"
    signing = device.create(
        {"publicKey": {**options(cafe, "/account/passkeys/challenge", {})["publicKey"], "user": {"id": "eA"}}}
    )
    assert refused(cafe, "/account/passkeys/add", {"token": person.token, "credential": signing})["code"] == "challenge"
    other = Person(cafe, "Gus")  # another guest cannot answer Fay's ceremony
    asked = options(cafe, "/account/passkeys/new", {"token": person.token})
    theirs = device.create(asked)
    assert refused(cafe, "/account/passkeys/add", {"token": other.token, "credential": theirs})["code"] == "challenge"
    assert refused(cafe, "/account/passkeys/add", {"token": "made-up", "credential": theirs})["code"] == "token"
    assert refused(cafe, "/account/passkeys/new", {})["code"] == "session"
    assert account(cafe, "none") == {"account": False}
    # the same passkey cannot belong to two accounts
    made = device.create(options(cafe, "/account/passkeys/new", {"token": person.token}))
    assert call(cafe, "/account/passkeys/add", {"token": person.token, "credential": made})[0].status_code == 201
    again = options(cafe, "/account/passkeys/new", {"token": other.token})
    copy = device.create(again)
    copy["id"] = copy["rawId"] = made["id"]
    copy["response"]["attestationObject"] = made["response"]["attestationObject"]
    taken = refused(cafe, "/account/passkeys/add", {"token": other.token, "credential": copy})
    assert taken == {"code": "taken", "error": "this passkey is registered already"}


def test_a_guest_whose_name_became_an_accounts_is_refused_before_their_device_makes_a_passkey(
    cafe: TestClient,
) -> None:
    older = Person(cafe, "ann")
    older.close()
    time.sleep(0.2)  # gone
    claimed(cafe, "Ann")
    taken = refused(cafe, "/account/passkeys/new", {"token": older.token})
    assert taken == {"code": "taken", "error": "'ann' belongs to an account already"}


def test_passkey_sign_ins_are_bounded_as_password_sign_ins_are(tmp_path: Path) -> None:
    with served(create_app(tmp_path, signins_per_account=2, signins_per_address=50)) as cafe:
        device = Authenticator()
        claimed_with_passkey(cafe, "Hal", device)
        for _ in range(2):
            asked = options(cafe, "/account/passkeys/challenge", {})
            assert call(cafe, "/account/passkeys/sign-in", {"credential": forged(device, asked)})[0].status_code == 401
        asked = options(cafe, "/account/passkeys/challenge", {})
        late, _ = call(cafe, "/account/passkeys/sign-in", {"credential": device.get(asked)})
        assert late.status_code == 429 and late.json()["code"] == "rate"
        assert call(cafe, "/account/sign-in", {"name": "Hal", "password": PASSWORD})[0].status_code == 429


def test_with_a_public_url_passkeys_belong_to_it_whatever_the_request_says(tmp_path: Path) -> None:
    """Behind a proxy that ends TLS the café sees http:// and its own Host: the public URL is what the browser saw."""
    with served(create_app(tmp_path, public_url="https://cafe.example:443/lobby")) as cafe:
        device = Authenticator()
        person = Person(cafe, "Ida")
        asked = options(cafe, "/account/passkeys/new", {"token": person.token})
        assert asked["publicKey"]["rp"] == {"id": "cafe.example", "name": "Café International"}
        seen_here = device.create(asked)  # the origin the application sees itself: not the café's
        assert refused(cafe, "/account/passkeys/add", {"token": person.token, "credential": seen_here}) == {
            "code": "origin", "error": "this passkey answer was made for another site"}  # fmt: skip
        asked = options(cafe, "/account/passkeys/new", {"token": person.token})
        made = device.create(asked, origin="https://cafe.example", rp_id="cafe.example")
        assert call(cafe, "/account/passkeys/add", {"token": person.token, "credential": made})[0].status_code == 201
        asked = options(cafe, "/account/passkeys/challenge", {})
        assert asked["publicKey"]["rpId"] == "cafe.example"
        answer = device.get(asked, origin="https://cafe.example", rp_id="cafe.example")
        assert call(cafe, "/account/passkeys/sign-in", {"credential": answer})[0].status_code == 200


def test_cafe_serve_refuses_a_public_url_that_is_none(capsys: pytest.CaptureFixture[str]) -> None:
    for wrong in ("ftp://cafe.example", "cafe.example", "https://cafe.example:port", "https://me:pw@cafe.example"):
        assert main(["serve", "--public-url", wrong]) == 2
        assert f"--public-url must be an http:// or https:// address, not {wrong!r}" in capsys.readouterr().err


def test_an_sqlite_database_of_the_schema_before_passkeys_gets_their_tables_as_a_new_one_has_them(
    tmp_path: Path,
) -> None:
    older = tmp_path / "older.sqlite"
    with sqlite3.connect(older) as db:  # made by the café before accounts (and passkeys)
        db.executescript((Path(__file__).parent / "data" / "cafe-2026-12-01.sql").read_text())
    SQLiteStore(older).close()
    SQLiteStore(tmp_path / "new.sqlite").close()
    with sqlite3.connect(older) as upgraded, sqlite3.connect(tmp_path / "new.sqlite") as new:
        for table in ("passkeys", "passkey_challenges"):
            columns = f"SELECT name, type, \"notnull\", pk FROM pragma_table_info('{table}')"
            assert upgraded.execute(columns).fetchall() == new.execute(columns).fetchall() != []


@pytest.mark.services
def test_a_postgresql_database_of_the_schema_before_passkeys_gets_their_tables() -> None:
    import psycopg

    from cafe.server.storage.postgres import MIGRATIONS, migrate

    before = next(n for n, m in enumerate(MIGRATIONS) if isinstance(m, str) and "TABLE IF NOT EXISTS passkeys" in m)
    with fresh_database() as url, psycopg.connect(url, autocommit=True) as db:  # the café's database before passkeys
        for migration in MIGRATIONS[:before]:
            if isinstance(migration, str):
                db.execute(migration.encode())
            else:
                migration(db)
        db.execute("CREATE TABLE cafe_schema (version INTEGER NOT NULL)")
        db.execute("INSERT INTO cafe_schema (version) VALUES (%s)", (before,))
        assert migrate(db) == len(MIGRATIONS)
        found = db.execute("SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'passkey%%' "
                           "ORDER BY table_name").fetchall()  # fmt: skip
        assert found == [("passkey_challenges",), ("passkeys",)]


@pytest.mark.services
def test_a_ceremony_begun_on_one_process_ends_on_another_and_only_once() -> None:
    """Two applications on one PostgreSQL database, as two `cafe serve` processes behind one address."""
    with fresh_database() as url, served(create_app(store=PostgresStore(url))) as one, \
            served(create_app(store=PostgresStore(url))) as two:  # fmt: skip
        device = Authenticator()
        person = Person(one, "Lu")
        made = device.create(options(one, "/account/passkeys/new", {"token": person.token}))
        answer, _ = call(two, "/account/passkeys/add", {"token": person.token, "credential": made})
        assert answer.status_code == 201, answer.text
        signing = device.get(options(two, "/account/passkeys/challenge", {}))
        assert call(one, "/account/passkeys/sign-in", {"credential": signing})[0].status_code == 200
        again, _ = call(two, "/account/passkeys/sign-in", {"credential": signing})
        assert again.status_code == 401 and again.json()["code"] == "challenge"
