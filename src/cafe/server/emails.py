"""An account's e-mail address over HTTP (docs/protocol.md, "E-mail"): add, change or remove it, verify it by a
mailed link, choose the notices it gets; and a forgotten password reset by a mailed link.

A link's token is random (256 bits), mailed once and kept only as its SHA-256; it expires and is used up by its
first use.  It travels in the address's fragment (``#account&reset=...``), which browsers never send to a server,
so that no log or proxy sees it; the page posts it.  Asking for a reset answers the same whether or not the name
or address has an account with a verified address, and is bounded per address and per name as sign-ins are.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cafe.i18n import DEFAULT, T, Text
from cafe.server import fields, names
from cafe.server.accounts import Bounds, account, changing
from cafe.server.fields import ProtocolError
from cafe.server.games import asked_language
from cafe.server.gateway import Gateway
from cafe.server.mail import Mailer, address_ok
from cafe.server.passwords import new_password
from cafe.server.sessions import signed_in

VERIFY_HOURS = 48  # a link that verifies an address holds this long
RESET_MINUTES = 60  # a link that resets a password holds this long
RESETS = 3  # accounts one address may get reset links for at once
NOTICES = ("turn", "ended", "every", "invited")  # the switches of what the address gets


def routes(gateway: Callable[[], Gateway], bounds: Bounds) -> list[Route]:
    """The routes, over the running gateway; ``bounds`` are those of sign-ins."""

    def mailer() -> Mailer:
        found = gateway().chores.notices.mailer
        if found is None:
            raise ProtocolError("mail", T("this café sends no e-mail: a forgotten password cannot be reset"))
        return found

    def state(player: int | None) -> dict[str, Any]:
        """What the account page shows: whether the café sends e-mail, and the person's address and notices."""
        known: dict[str, Any] = {"mail": gateway().chores.notices.mailer is not None}
        email = None if player is None else gateway().store.email(player)
        if player is not None:
            known["address"] = None if email is None else email.address
            known["verified"] = email is not None and email.verified
            for notice in NOTICES:
                known[notice] = email is not None and getattr(email, notice)
        return known

    def new_link(player: int, address: str, purpose: str, minutes: float) -> str:
        """A new link of ``purpose`` for this person and address, holding ``minutes``."""
        token, now = secrets.token_urlsafe(32), time.time()
        gateway().store.add_link(token, player, purpose, address, now, now + minutes * 60)
        return f"{mailer().smtp.site}#account&{purpose}={token}"

    def post(player: int, address: str, subject: Text, body: Text) -> None:
        """A mail in the background, in the person's language."""
        email = gateway().store.email(player)
        language = email.language if email else DEFAULT
        mailer().post(address, subject.render(language), body.render(language))

    async def taken(request: Request, message: dict[str, Any], purpose: str) -> tuple[int, str]:
        """The person and address of a mailed link, used up now; refused if it expired or was used already."""
        token = fields.text(message, "token", 100)
        await bounds.check(request, None)
        link = gateway().store.take_link(token, purpose)
        if link is None or link.expires < time.time():
            raise ProtocolError("link", T("this link has expired or was used already: ask for a new one"))
        return link.player, link.address

    async def shown(request: Request) -> Response:
        found = signed_in(gateway(), request)
        return JSONResponse(state(None if found is None else found[0]))

    async def change(request: Request, message: dict[str, Any]) -> Response:
        """A new address (a link to verify it is mailed to it), or none (``address: null``)."""
        player, name = account(gateway(), request)
        address = message.get("address")
        if address is not None:
            address = fields.text(message, "address", 254).strip()
            if not address_ok(address):
                raise ProtocolError("field", T("'{address}' is not an e-mail address", address=address[:80]))
            mailer()
            known = gateway().store.email(player)
            if known is not None and known.verified and known.address == address:
                return JSONResponse(state(player))  # the verified address again: nothing to mail
            await bounds.check(request, f"mail:{player}")  # each mails someone: bounded as sign-ins are
        gateway().store.set_email(player, address, asked_language(request))
        if address is not None:
            link = new_link(player, address, "verify", VERIFY_HOURS * 60)
            body = T("{name}, to confirm that {address} is your e-mail address at Café International, open this "
                     "link within {hours} hours:\n\n{link}\n\nIf you did not ask for this, ignore this e-mail: "
                     "nothing changes.", name=name, address=address, hours=VERIFY_HOURS, link=link)  # fmt: skip
            post(player, address, T("Confirm your e-mail address"), body)
        return JSONResponse(state(player))

    async def verify(request: Request, message: dict[str, Any]) -> Response:
        player, address = await taken(request, message, "verify")
        if not gateway().store.verify_email(player, address):  # the address changed since
            raise ProtocolError("link", T("this link has expired or was used already: ask for a new one"))
        gateway().store.email_language(player, asked_language(request))
        return JSONResponse({"verified": address})

    async def notices(request: Request, message: dict[str, Any]) -> Response:
        """Which notices the address gets: ``turn``, ``ended``, ``every`` (every turn, not once a day a game),
        ``invited``."""
        player, _ = account(gateway(), request)
        chosen = {}
        for notice in NOTICES:
            if not isinstance(message.get(notice), bool):
                raise ProtocolError("field", T("'{key}' is true or false", key=notice))
            chosen[notice] = message[notice]
        if not gateway().store.set_notices(player, **chosen, language=asked_language(request)):
            raise ProtocolError("field", T("add an e-mail address first"))
        return JSONResponse(state(player))

    async def forgot(request: Request, message: dict[str, Any]) -> Response:
        """A reset link to the verified address of the account with this name or address, if there is one; the
        answer is the same either way."""
        given = fields.text(message, "name", 254).strip()
        mailer()
        await bounds.check(request, given.lower() if "@" in given else names.key(given))
        if "@" in given:
            players = gateway().store.verified_accounts(given)[:RESETS]
        else:
            found = gateway().store.account_named(given)
            players = [] if found is None else [found[0]]
        for player in players:
            email, name = gateway().store.email(player), gateway().store.player_name(player)
            if email is None or not email.verified or name is None:
                continue
            link = new_link(player, email.address, "reset", RESET_MINUTES)
            body = T("{name}, someone (you, we hope) asked to reset the password of your account at Café "
                     "International. To choose a new password, open this link within {minutes} minutes:\n\n{link}"
                     "\n\nIf it was not you, ignore this e-mail: your password stays as it is.", name=name,
                     minutes=RESET_MINUTES, link=link)  # fmt: skip
            post(player, email.address, T("Reset your password"), body)
        return JSONResponse({"sent": True}, status_code=202)

    async def reset(request: Request, message: dict[str, Any]) -> Response:
        """A new password by a reset link (to the account's verified address still): every session of the account
        ends, here and elsewhere."""
        new = new_password(message, "new")
        player, address = await taken(request, message, "reset")
        email = gateway().store.email(player)
        if email is None or not email.verified or email.address != address:
            raise ProtocolError("link", T("this link has expired or was used already: ask for a new one"))
        gateway().store.set_password(player, await bounds.hashing.hash(new))
        gateway().sign_out(player)
        return JSONResponse({"reset": True})

    return [
        Route("/account/email", shown),
        Route("/account/email", changing(change), methods=["POST"]),
        Route("/account/email/verify", changing(verify), methods=["POST"]),
        Route("/account/email/notices", changing(notices), methods=["POST"]),
        Route("/account/forgot", changing(forgot), methods=["POST"]),
        Route("/account/reset", changing(reset), methods=["POST"]),
    ]
