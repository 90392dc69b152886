"""E-mail addresses in the store: a person's address and whether it is verified, the notices they want, and the
links mailed to them (to verify an address, to reset a password).  The notices sent are kept by
:mod:`cafe.server.storage.sent_rows`.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives
(:class:`~cafe.server.storage.account_rows.Rows`).  A link's token is kept as its SHA-256 only, as sessions are, and
used once: taking it deletes it.  A verification link names the address it verifies, so that a link mailed to
an address the person has changed since verifies nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from cafe.server.storage.account_rows import Rows, session_hash

ENDED = -1  # the turn under which "the game has ended" is noted as sent (cafe.server.storage.sent_rows)
INVITED = -2  # the turn under which "you are invited" to a table is noted as sent
# the switch of invitations, added to an older database by both stores' migrations
EMAIL_INVITED = "ALTER TABLE emails ADD COLUMN invited INTEGER NOT NULL DEFAULT 1"


@dataclass(frozen=True)
class Email:
    """A person's address and what they want to hear of by e-mail."""

    address: str
    verified: bool
    language: str
    turn: bool = True  # "it's your turn" in a game over days
    ended: bool = True  # "the game has ended"
    every: bool = False  # every turn, not only the first of a day in a game
    invited: bool = True  # "you are invited" to a table, by its host


@dataclass(frozen=True)
class Link:
    """A mailed link, once taken: whose it is, what for, the address it was sent to, and until when it held."""

    player: int
    purpose: str  # "verify" or "reset"
    address: str
    expires: float


class EmailRows:
    """The e-mail methods of :class:`~cafe.server.storage.store.Store`, for a store that is also
    :class:`~cafe.server.storage.account_rows.Rows`."""

    def email(self: Rows, player: int) -> Email | None:
        found = self.rows(
            "SELECT address, verified, language, turn, ended, every, invited FROM emails WHERE player = %s", player
        )
        if not found:
            return None
        address, verified, language, turn, ended, every, invited = found[0]
        return Email(str(address), bool(verified), str(language), bool(turn), bool(ended), bool(every), bool(invited))

    def set_email(self: Rows, player: int, address: str | None, language: str) -> None:
        """A new address, not verified yet (None: none); links mailed before verify nothing any more."""
        with self.atomic():
            self.rows("DELETE FROM email_links WHERE player = %s AND purpose = 'verify'", player)
            if address is None:
                self.rows("DELETE FROM emails WHERE player = %s", player)
            elif not self.rows(
                "UPDATE emails SET address = %s, verified = 0, language = %s WHERE player = %s RETURNING player",
                address, language, player,
            ):  # fmt: skip
                self.rows(
                    "INSERT INTO emails (player, address, verified, language, turn, ended, every, invited) "
                    "VALUES (%s, %s, 0, %s, 1, 1, 0, 1)",
                    player, address, language,
                )  # fmt: skip

    def set_notices(
        self: Rows, player: int, turn: bool, ended: bool, every: bool, invited: bool, language: str
    ) -> bool:
        """What the person wants to hear of (False: they have no address)."""
        changed = self.rows(
            "UPDATE emails SET turn = %s, ended = %s, every = %s, invited = %s, language = %s WHERE player = %s "
            "RETURNING player",
            int(turn), int(ended), int(every), int(invited), language, player,
        )  # fmt: skip
        return bool(changed)

    def email_language(self: Rows, player: int, language: str) -> None:
        """The language the person uses now: their e-mails are written in it."""
        self.rows("UPDATE emails SET language = %s WHERE player = %s AND language <> %s", language, player, language)

    def verified_accounts(self: Rows, address: str) -> list[int]:
        """The accounts whose verified address this is (letter case aside)."""
        found = self.rows(
            "SELECT emails.player FROM emails JOIN players ON players.id = emails.player "
            "WHERE lower(emails.address) = lower(%s) AND emails.verified = 1 AND players.password_hash IS NOT NULL",
            address,
        )
        return [int(row[0]) for row in found]

    def add_link(self: Rows, token: str, player: int, purpose: str, address: str, now: float, expires: float) -> None:
        """A link mailed now; those expired before now go."""
        with self.atomic():
            self.rows("DELETE FROM email_links WHERE expires < %s", now)
            self.rows(
                "INSERT INTO email_links (token_hash, player, purpose, address, expires) VALUES (%s, %s, %s, %s, %s)",
                session_hash(token), player, purpose, address, expires,
            )  # fmt: skip

    def take_link(self: Rows, token: str, purpose: str) -> Link | None:
        """The link of this token, which is used up by taking it (None: unknown, or used already)."""
        found = self.rows(
            "DELETE FROM email_links WHERE token_hash = %s AND purpose = %s RETURNING player, address, expires",
            session_hash(token), purpose,
        )  # fmt: skip
        return Link(int(found[0][0]), purpose, str(found[0][1]), float(found[0][2])) if found else None

    def verify_email(self: Rows, player: int, address: str) -> bool:
        """The address is the person's: True if it is still the one they have."""
        return bool(
            self.rows(
                "UPDATE emails SET verified = 1 WHERE player = %s AND address = %s RETURNING player", player, address
            )
        )
