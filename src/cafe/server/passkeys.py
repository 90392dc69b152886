"""Passkeys over HTTP (docs/protocol.md, "Passkeys"): WebAuthn credentials as the other way into an account.

A guest makes their name theirs with a passkey instead of a password, an account adds passkeys, lists and removes
them, and anyone signs in with one on any device: without a name (the browser offers the café's passkeys it
knows, which are discoverable credentials) or with one.  Each ceremony begins with options the server makes
around a random challenge, kept in the store (:mod:`cafe.server.storage.passkey_rows`) until it is answered once or
expires, and ends with webauthn's verification of the answer against that challenge, the café's origin and its
relying party id, and the credential's signature counter.

The origin and relying party id are the café's public URL (``cafe serve --public-url``, ``$CAFE_PUBLIC_URL``)
when one is set, else the request's own (its ``Host``): behind a proxy that speaks HTTPS for the café, set it.
"""

from __future__ import annotations

import binascii
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_authenticator_data
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from cafe.i18n import T
from cafe.server import fields, names
from cafe.server.fields import ProtocolError
from cafe.server.gateway import Gateway
from cafe.server.passwords import NO_PASSWORD
from cafe.server.sessions import signed_in
from cafe.server.storage.account_rows import NameTaken
from cafe.server.storage.passkey_rows import Challenge, LastWayIn, Passkey, PasskeyTaken
from cafe.server.throttle import Throttle

CHALLENGE_SECONDS = 300  # a ceremony must be answered this soon
MAX_BODY = 8192  # bytes of a passkey's answer as JSON (its credential id alone may have 1023)
MAX_ID = 1400  # characters of a credential id in base64url
MAX_PASSKEYS = 10  # of one account
RP_NAME = "Café International"

Work = Callable[[Request, dict[str, Any]], Awaitable[Response]]


@dataclass(frozen=True)
class Doors:
    """What the account routes (:mod:`cafe.server.accounts`) give the passkey ones."""

    signs_in: Callable[..., Response]  # (player, name, request, status=200): the answer that signs a browser in
    account: Callable[[Request], tuple[int, str]]  # the signed-in account, or a refusal
    # one more sign-in attempt (by address, and name), or a refusal
    throttled: Callable[[Request, str | None], Awaitable[None]]
    changing: Callable[[Work, int], Callable[[Request], Any]]  # a POST of JSON from the café's own page


def public_origin(url: str) -> str:
    """The origin of the café's public URL (``https://cafe.example``); a ValueError says what is wrong."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        raise ValueError(url)
    port = parts.port  # a ValueError if it is not a port
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port not in (None, default) else "")


class Ceremonies:
    """The passkey routes of a café whose public URL is ``public_url`` (None: each request's own)."""

    def __init__(self, gateway: Callable[[], Gateway], public_url: str | None) -> None:
        self.gateway = gateway
        self.origin = None if public_url is None else public_origin(public_url)
        self._begun: Throttle | None = None

    def party(self, request: Request) -> tuple[str, str]:
        """The relying party id and the origin that answers must come from."""
        origin = self.origin or f"{request.url.scheme}://{request.url.netloc}"
        return urlsplit(origin).hostname or "", origin

    def begun(self, request: Request) -> None:
        """One more ceremony begun from this address: bounded as sign-ins are (each keeps a challenge a while)."""
        if self._begun is None:
            bound = self.gateway().limits
            self._begun = Throttle(bound.signins_per_address, bound.signin_seconds)
        if not self._begun.allow(request.client.host if request.client else ""):
            raise ProtocolError("rate", T("too many attempts: wait a few minutes and try again"))

    def challenge(self, kept: Callable[[float], Challenge]) -> bytes:
        """A new random challenge, kept until it expires (``kept`` makes its row from the expiry)."""
        challenge, now = secrets.token_bytes(32), time.time()
        self.gateway().store.keep_challenge(bytes_to_base64url(challenge), kept(now + CHALLENGE_SECONDS), now)
        return challenge

    def answer(self, request: Request, message: dict[str, Any], kind: str) -> tuple[dict[str, Any], str]:
        """A passkey's answer (``credential``) of a kind (``webauthn.create`` or ``webauthn.get``) from the café's
        own origin, and the challenge it answers; refused before anything changes."""
        credential = message.get("credential")
        if not isinstance(credential, dict) or not isinstance(credential.get("response"), dict):
            raise ProtocolError("field", T("not a passkey's answer"))
        data = credential["response"].get("clientDataJSON")
        try:
            client = json.loads(base64url_to_bytes(data)) if isinstance(data, str) else None
        except (ValueError, binascii.Error):
            client = None
        if not isinstance(client, dict) or client.get("type") != kind or not isinstance(client.get("challenge"), str):
            raise ProtocolError("field", T("not a passkey's answer"))
        if client.get("origin") != self.party(request)[1]:
            raise ProtocolError("origin", T("this passkey answer was made for another site"))
        return credential, client["challenge"]

    def taken(self, challenge: str, purpose: str, player: int | None = None) -> Challenge:
        """The ceremony a challenge began, used up now; refused if unknown, used, expired or not this one."""
        kept = self.gateway().store.take_challenge(challenge, time.time())
        if kept is None or kept.purpose != purpose or (player is not None and kept.player != player):
            raise ProtocolError("challenge", T("this passkey request has expired or was used already: try again"))
        return kept

    async def signed(
        self, request: Request, message: dict[str, Any], doors: Doors, player: int | None = None
    ) -> tuple[Passkey, str]:
        """The passkey and account name that answered a sign-in ceremony (the answer's credential, verified), of
        the account ``player`` when it is given (a confirmation)."""
        credential, challenge = self.answer(request, message, "webauthn.get")
        ident = credential.get("id")
        found = self.gateway().store.passkey(ident) if isinstance(ident, str) and len(ident) <= MAX_ID else None
        await doors.throttled(request, found[1] if found else None)
        kept = self.taken(challenge, "sign-in")
        if found is None or kept.name_key not in (None, found[2]) or player not in (None, found[0].player):
            raise ProtocolError("passkey", T("unknown passkey: it may have been removed; sign in another way"))
        key, name, _ = found
        rp_id, origin = self.party(request)
        try:
            counted = parse_authenticator_data(base64url_to_bytes(credential["response"]["authenticatorData"]))
            if (counted.sign_count or key.sign_count) and counted.sign_count <= key.sign_count:
                raise ProtocolError("passkey", T("this passkey's counter went back, as a copied one's does: it no "
                                                 "longer signs in; use another way"))  # fmt: skip
            verified = verify_authentication_response(
                credential=credential, expected_challenge=base64url_to_bytes(challenge), expected_rp_id=rp_id,
                expected_origin=origin, credential_public_key=base64url_to_bytes(key.public_key),
                credential_current_sign_count=key.sign_count, require_user_verification=True,
            )  # fmt: skip
        except (WebAuthnException, KeyError, TypeError, ValueError):
            raise ProtocolError("passkey", T("the passkey's answer could not be verified")) from None
        self.gateway().store.passkey_used(key.id, verified.new_sign_count, time.time())
        return key, name

    def listing(self, player: int, status: int = 200) -> Response:
        """The account's passkeys (ids, when added and last used) and whether it has a password too."""
        keys = self.gateway().store.passkeys_of(player)
        password = self.gateway().store.password_of(player) not in (None, NO_PASSWORD)
        return JSONResponse({"passkeys": [{"id": k.id, "created": k.created, "used": k.used} for k in keys],
                             "password": password}, status_code=status)  # fmt: skip

    def routes(self, doors: Doors) -> list[Route]:
        gateway = self.gateway

        def newcomer(request: Request, message: dict[str, Any]) -> tuple[int, str, bool]:
            """Who a passkey is made for: the signed-in account, or a guest (by their token) claiming their name
            (True)."""
            found = signed_in(gateway(), request)
            if found is not None:
                return *found, False
            if "token" not in message:
                raise ProtocolError("session", T("you are not signed in"))
            guest = gateway().store.player_by_token(fields.text(message, "token", 100))
            if guest is None:
                raise ProtocolError("token", T("unknown token: say hello with a name to start afresh"))
            return *guest, True

        async def options_to_add(request: Request, message: dict[str, Any]) -> Response:
            player, name, claim = newcomer(request, message)
            owner = gateway().store.account_named(name) if claim else None
            if owner is not None and owner[0] != player:  # before the device makes a passkey that cannot serve
                raise ProtocolError("taken", T("'{name}' belongs to an account already", name=name))
            known = [] if claim else gateway().store.passkeys_of(player)
            if len(known) >= MAX_PASSKEYS:
                raise ProtocolError("field", T("an account has at most {n} passkeys", n=MAX_PASSKEYS))
            self.begun(request)
            purpose = "claim" if claim else "register"
            options = generate_registration_options(
                rp_id=self.party(request)[0], rp_name=RP_NAME, user_name=name, user_display_name=name,
                user_id=player.to_bytes(8, "big"), timeout=CHALLENGE_SECONDS * 1000,
                challenge=self.challenge(lambda until: Challenge(purpose, player, None, until)),
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.REQUIRED
                ),
                exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.id)) for k in known],
            )  # fmt: skip
            return JSONResponse({"publicKey": json.loads(options_to_json(options))})

        async def add(request: Request, message: dict[str, Any]) -> Response:
            """A new passkey: an account's, or a guest's that makes their name theirs (and signs them in)."""
            player, name, claim = newcomer(request, message)
            credential, challenge = self.answer(request, message, "webauthn.create")
            self.taken(challenge, "claim" if claim else "register", player)
            rp_id, origin = self.party(request)
            try:
                verified = verify_registration_response(
                    credential=credential, expected_challenge=base64url_to_bytes(challenge), expected_rp_id=rp_id,
                    expected_origin=origin, require_user_verification=True,
                )  # fmt: skip
            except (WebAuthnException, KeyError, TypeError, ValueError):
                raise ProtocolError("passkey", T("the passkey's answer could not be verified")) from None
            public_key = bytes_to_base64url(verified.credential_public_key)
            key = Passkey(bytes_to_base64url(verified.credential_id), player, public_key, verified.sign_count,
                          time.time(), None)  # fmt: skip
            try:
                if not gateway().store.add_passkey(key, claim):
                    raise ProtocolError("session", T("you are not signed in"))
            except PasskeyTaken:
                raise ProtocolError("taken", T("this passkey is registered already")) from None
            except NameTaken:
                raise ProtocolError("taken", T("'{name}' belongs to an account already", name=name)) from None
            return doors.signs_in(player, name, request, status=201) if claim else self.listing(player, 201)

        async def options_to_sign_in(request: Request, message: dict[str, Any]) -> Response:
            """A sign-in ceremony: for any of the café's passkeys, or (``name``) that account's only."""
            key = names.key(fields.text(message, "name", names.MAX_NAME * 4)) if "name" in message else None
            self.begun(request)
            options = generate_authentication_options(
                rp_id=self.party(request)[0], timeout=CHALLENGE_SECONDS * 1000,
                challenge=self.challenge(lambda until: Challenge("sign-in", None, key, until)),
                user_verification=UserVerificationRequirement.REQUIRED,
            )  # fmt: skip
            return JSONResponse({"publicKey": json.loads(options_to_json(options))})

        async def sign_in(request: Request, message: dict[str, Any]) -> Response:
            key, name = await self.signed(request, message, doors)
            return doors.signs_in(key.player, name, request)

        async def listed(request: Request, message: dict[str, Any]) -> Response:
            return self.listing(doors.account(request)[0])

        async def remove(request: Request, message: dict[str, Any]) -> Response:
            player, _ = doors.account(request)
            try:
                if not gateway().store.remove_passkey(player, fields.text(message, "id", MAX_ID)):
                    raise ProtocolError("passkey", T("unknown passkey: it may have been removed; sign in another way"))
            except LastWayIn:
                raise ProtocolError("last", T("this passkey is your account's only way in: choose a password "
                                              "before you remove it")) from None  # fmt: skip
            return self.listing(player)

        return [
            Route("/account/passkeys", doors.changing(listed, MAX_BODY), methods=["POST"]),
            Route("/account/passkeys/new", doors.changing(options_to_add, MAX_BODY), methods=["POST"]),
            Route("/account/passkeys/add", doors.changing(add, MAX_BODY), methods=["POST"]),
            Route("/account/passkeys/remove", doors.changing(remove, MAX_BODY), methods=["POST"]),
            Route("/account/passkeys/challenge", doors.changing(options_to_sign_in, MAX_BODY), methods=["POST"]),
            Route("/account/passkeys/sign-in", doors.changing(sign_in, MAX_BODY), methods=["POST"]),
        ]
