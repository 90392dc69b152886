"""Passkeys in the store: each account's WebAuthn credentials, and the challenges of ceremonies under way.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives
(:class:`~cafe.server.storage.account_rows.Rows`).  A credential keeps its id, its public key and its signature
counter (a counter that goes back is a copied authenticator's, :mod:`cafe.server.passkeys`).  A challenge is kept
as its hash until it is used once or expires, in the database so that any of several server processes can finish a
ceremony another began; taking it deletes it, so that two answers to one challenge cannot both count.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from cafe.server.passwords import NO_PASSWORD
from cafe.server.storage.account_rows import NameTaken, Rows, session_hash


@dataclass(frozen=True)
class Passkey:
    """One credential of an account (``id`` and ``public_key`` base64url, as WebAuthn writes them)."""

    id: str
    player: int
    public_key: str
    sign_count: int
    created: float
    used: float | None


@dataclass(frozen=True)
class Challenge:
    """A ceremony under way: what it is for (``register`` or ``sign-in``), for whom, until when."""

    purpose: str
    player: int | None  # the account (or guest) a registration is for
    name_key: str | None  # the name a sign-in was asked for (None: any passkey of the café)
    until: float


class PasskeyTaken(Exception):
    """The credential is some account's already."""


class LastWayIn(Exception):
    """The passkey is the only way into an account without a password."""


class PasskeyRows:
    """The passkey methods of :class:`~cafe.server.storage.store.Store`, for a store that is also :class:`Rows`."""

    def keep_challenge(self: Rows, challenge: str, kept: Challenge, now: float) -> None:
        """Keep a new ceremony's challenge (those expired meanwhile go)."""
        with self.atomic():
            self.rows("DELETE FROM passkey_challenges WHERE until < %s", now)
            self.rows(
                "INSERT INTO passkey_challenges (challenge_hash, purpose, player, name_key, until) "
                "VALUES (%s, %s, %s, %s, %s)",
                session_hash(challenge), kept.purpose, kept.player, kept.name_key, kept.until,
            )  # fmt: skip

    def take_challenge(self: Rows, challenge: str, now: float) -> Challenge | None:
        """The ceremony of this challenge, once (it is gone afterwards); None if unknown, used or expired."""
        found = self.rows(
            "DELETE FROM passkey_challenges WHERE challenge_hash = %s RETURNING purpose, player, name_key, until",
            session_hash(challenge),
        )
        if not found or float(found[0][3]) < now:
            return None
        purpose, player, key, until = found[0]
        return Challenge(str(purpose), None if player is None else int(player), key, float(until))

    def passkeys_of(self: Rows, player: int) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        found = self.rows(
            "SELECT id, player, public_key, sign_count, created, used FROM passkeys WHERE player = %s "
            "ORDER BY created, id",
            player,
        )
        return [_passkey(row) for row in found]

    def passkey(self: Rows, credential: str) -> tuple[Passkey, str, str] | None:
        """A credential, with its account's name and name key."""
        found = self.rows(
            "SELECT passkeys.id, passkeys.player, public_key, sign_count, passkeys.created, used, players.name, "
            "players.name_key FROM passkeys JOIN players ON players.id = passkeys.player "
            "WHERE passkeys.id = %s AND players.password_hash IS NOT NULL",
            credential,
        )  # fmt: skip
        return (_passkey(found[0][:6]), str(found[0][6]), str(found[0][7])) if found else None

    def add_passkey(self: Rows, key: Passkey, claim: bool = False) -> bool:
        """Keep a new passkey of an account; with ``claim``, the guest's name becomes theirs with it (as with a
        password, :meth:`~cafe.server.storage.account_rows.AccountRows.claim`, but none).  False: the player is no
        account (or, claiming, no guest); :class:`PasskeyTaken`, :class:`NameTaken` as they say."""
        try:
            with self.atomic():
                if claim:
                    changed = self.rows(
                        "UPDATE players SET password_hash = %s, token_hash = %s WHERE id = %s "
                        "AND password_hash IS NULL RETURNING id",
                        NO_PASSWORD, session_hash(secrets.token_urlsafe(32)), key.player,
                    )  # fmt: skip
                else:
                    changed = self.rows("SELECT id FROM players WHERE id = %s AND password_hash IS NOT NULL",
                                        key.player)  # fmt: skip
                if not changed:
                    return False
                if self.rows("SELECT 1 FROM passkeys WHERE id = %s", key.id):
                    raise PasskeyTaken
                self.rows(
                    "INSERT INTO passkeys (id, player, public_key, sign_count, created) VALUES (%s, %s, %s, %s, %s)",
                    key.id, key.player, key.public_key, key.sign_count, key.created,
                )  # fmt: skip
        except self.unique:
            raise NameTaken if claim else PasskeyTaken from None
        return True

    def passkey_used(self: Rows, credential: str, sign_count: int, now: float) -> None:
        """A passkey signed in (or confirmed): its counter as the authenticator gave it."""
        self.rows("UPDATE passkeys SET sign_count = %s, used = %s WHERE id = %s", sign_count, now, credential)

    def remove_passkey(self: Rows, player: int, credential: str) -> bool:
        """One of the account's passkeys goes (False: the account has no such passkey); :class:`LastWayIn` if it
        is the last of an account without a password."""
        with self.atomic():  # the account's row, locked (PostgreSQL) so that two removals cannot both take the last
            kept = self.rows("UPDATE players SET password_hash = password_hash WHERE id = %s RETURNING password_hash",
                             player)  # fmt: skip
            others = self.rows("SELECT id FROM passkeys WHERE player = %s AND id <> %s", player, credential)
            if kept and kept[0][0] == NO_PASSWORD and not others:
                raise LastWayIn
            return bool(
                self.rows("DELETE FROM passkeys WHERE id = %s AND player = %s RETURNING id", credential, player)
            )


def _passkey(row: tuple[Any, ...]) -> Passkey:
    ident, player, public_key, count, created, used = row
    return Passkey(str(ident), int(player), str(public_key), int(count), float(created),
                   None if used is None else float(used))  # fmt: skip
