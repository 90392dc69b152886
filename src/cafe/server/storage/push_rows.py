"""Web Push subscriptions in the store: the browsers that asked to hear of a person's games.

Written once for both stores (SQLite and PostgreSQL), over the rows a store gives
(:class:`~cafe.server.storage.account_rows.Rows`).  A subscription is a browser's push endpoint and its two keys, the
language its notices are written in, and the sign-in (the hash of the session) it was made with: it lasts as
long as that sign-in, so that signing out (here or everywhere), a new password or a deletion silences the device
too.  A person keeps at most :data:`DEVICES` of them, the oldest going first.  An endpoint is one browser's:
subscribed again, by whoever is signed in there now, it moves to them.
"""

from __future__ import annotations

from dataclasses import dataclass

from cafe.server.storage.account_rows import Rows, session_hash

DEVICES = 10  # subscriptions one person keeps at most


@dataclass(frozen=True)
class Subscription:
    """One browser's push endpoint, its keys (base64url, as the browser gives them) and its reader's language."""

    endpoint: str
    p256dh: str
    auth: str
    language: str


class PushRows:
    """The push methods of :class:`~cafe.server.storage.store.Store`, for a store that is also
    :class:`~cafe.server.storage.account_rows.Rows`."""

    def subscribe(self: Rows, player: int, session: str, subscription: Subscription, now: float) -> None:
        """Keep the subscription for the player, made under this sign-in; beyond :data:`DEVICES`, the oldest go."""
        with self.atomic():
            self.rows("DELETE FROM push_subscriptions WHERE endpoint = %s", subscription.endpoint)
            self.rows(
                "INSERT INTO push_subscriptions (endpoint, player, session, p256dh, auth, language, created) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                subscription.endpoint, player, session_hash(session), subscription.p256dh, subscription.auth,
                subscription.language, now,
            )  # fmt: skip
            self.rows(
                "DELETE FROM push_subscriptions WHERE player = %s AND endpoint NOT IN (SELECT endpoint FROM "
                "push_subscriptions WHERE player = %s ORDER BY created DESC, endpoint LIMIT %s)",
                player, player, DEVICES,
            )  # fmt: skip

    def unsubscribe(self: Rows, player: int, endpoint: str) -> None:
        """The person's browser no longer wants notices (another person's endpoint stays as it is)."""
        self.rows("DELETE FROM push_subscriptions WHERE endpoint = %s AND player = %s", endpoint, player)

    def forget_endpoint(self: Rows, endpoint: str) -> None:
        """The push service says the endpoint is gone (404 or 410)."""
        self.rows("DELETE FROM push_subscriptions WHERE endpoint = %s", endpoint)

    def subscriptions(self: Rows, player: int) -> list[Subscription]:
        """The player's subscriptions whose sign-in still lasts; those whose sign-in ended are forgotten."""
        self.rows(
            "DELETE FROM push_subscriptions WHERE player = %s AND session NOT IN "
            "(SELECT id_hash FROM sessions WHERE player = %s)",
            player, player,
        )  # fmt: skip
        found = self.rows(
            "SELECT endpoint, p256dh, auth, language FROM push_subscriptions WHERE player = %s ORDER BY created",
            player,
        )
        return [Subscription(*(str(value) for value in row)) for row in found]
