"""Passwords: checked at the edge, hashed with Argon2id (argon2-cffi), never kept or logged as they are.

Hashing is slow on purpose (tens of milliseconds and 64 MiB each, RFC 9106's second recommended profile): it runs
in threads, a few at once (``Limits.hashers``), so that the event loop never waits for it and a flood of
sign-ins cannot take the machine's memory.  A name that has no account is checked against a hash of nothing's
password all the same, so that its answer takes the same work as a wrong password's.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from cafe.i18n import T
from cafe.server.fields import ProtocolError

MIN_PASSWORD = 8  # characters (NIST SP 800-63B: at least 8, and no rules of composition)
MAX_PASSWORD = 256
NO_PASSWORD = "!"  # the password hash of an account made with a passkey: no password matches it
HASHER = PasswordHasher()  # Argon2id with argon2-cffi's defaults (RFC 9106, low memory: t=3, m=64 MiB, p=4)


def new_password(message: dict[str, Any], key: str) -> str:
    """A password being chosen: a string of MIN_PASSWORD to MAX_PASSWORD characters, taken as it is."""
    value = message.get(key)
    if not isinstance(value, str) or len(value) < MIN_PASSWORD:
        raise ProtocolError("field", T("a password has at least {n} characters", n=MIN_PASSWORD))
    if len(value) > MAX_PASSWORD:
        raise ProtocolError("field", T("a password has at most {n} characters", n=MAX_PASSWORD))
    return value


def given_password(message: dict[str, Any], key: str) -> str:
    """A password being given to sign in or to confirm: any non-empty string of at most MAX_PASSWORD."""
    value = message.get(key)
    if not isinstance(value, str) or not value:
        raise ProtocolError("field", T("'{key}' must be a non-empty string", key=key))
    if len(value) > MAX_PASSWORD:
        raise ProtocolError("field", T("a password has at most {n} characters", n=MAX_PASSWORD))
    return value


@functools.cache
def nobodys_hash() -> str:
    """The hash that a name without an account is checked against (of a password nobody knows)."""
    return HASHER.hash(secrets.token_urlsafe(24))


class Hashing:
    """Argon2id in threads, at most ``at_once`` hashes at a time."""

    def __init__(self, at_once: int) -> None:
        self._slots = asyncio.Semaphore(max(1, at_once))

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(HASHER.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed in ``stored`` (None: no account, NO_PASSWORD: an account with
        passkeys only; the same work, and False)."""
        async with self._slots:
            return await asyncio.to_thread(_verify, stored, password)


def _verify(stored: str | None, password: str) -> bool:
    known = stored not in (None, NO_PASSWORD)  # an account without a password takes the same work as nobody
    try:
        return HASHER.verify(stored if known and stored else nobodys_hash(), password) and known
    except (VerificationError, InvalidHashError):
        return False
