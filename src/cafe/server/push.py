"""Web Push: a person's browsers hear that their turn began in a game over days, that such a game ended, and
that a host invites them to a table.

The café signs its pushes with a VAPID key (RFC 8292) of its own, made on its first start and kept in the data
folder (``push-key.pem``, readable by its owner only); browsers subscribe with its public half (``GET /push/key``).
A signed-in person's browser gives its subscription (``POST /push/subscribe``), which the store keeps for as long
as that sign-in lasts (:mod:`cafe.server.storage.push_rows`).

A notice is a due job (:mod:`cafe.server.due`): :mod:`cafe.server.notices` only schedules it, so that no request and no
connection waits for a push service, and one process claims it.  The job reads the room from the store, makes
sure the notice still holds (the turn is still going on), notes it as sent to each person once and for all
(:mod:`cafe.server.storage.sent_rows`), and sends it to the devices of those it was not sent to yet, in
threads, :data:`SENDERS` at a time and each within :data:`TIMEOUT` seconds.  A notice says which table and what
happened, in each device's language, and nothing else: never a hand nor the bag.  An endpoint that answers 404
or 410 is forgotten.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import secrets
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from cafe.i18n import T, Text
from cafe.server.rooms import Room
from cafe.server.storage.email_rows import ENDED
from cafe.server.storage.email_rows import INVITED as INVITATION
from cafe.server.storage.invitations import link
from cafe.server.storage.push_rows import Subscription
from cafe.server.storage.sent_rows import PUSH
from cafe.server.storage.store import DueJob, RoomRow, Store

if TYPE_CHECKING:
    from cafe.server.notices import Notices

KEY_FILE = "push-key.pem"
KIND = "push"  # the due jobs of notices: arg is the turn that began, or ENDED
INVITED = "push-invited"  # the due job of an invitation: arg is the invited person
SENDERS = 4  # pushes sent at once by one process
TIMEOUT = 10.0  # seconds a push service has to answer
TTL = 86_400  # seconds a push service keeps a notice for a device that is offline
CONTACT = "mailto:cafe@localhost"  # the VAPID contact, unless CAFE_PUSH_CONTACT gives the café's own
TITLE = "Café International"  # a notice's title: the game's name, in every language
GONE = (404, 410)  # a push service's answers for an endpoint that is no more

log = logging.getLogger("cafe.server")


class Pusher:
    """One process's sender: the café's VAPID key, and the bound on pushes in flight."""

    def __init__(self, folder: Path) -> None:
        self.key = vapid_key(folder)
        self.public = public_key(self.key)
        self.contact = os.environ.get("CAFE_PUSH_CONTACT") or CONTACT
        self._senders = asyncio.Semaphore(SENDERS)

    async def send(self, subscription: Subscription, payload: str) -> int:
        """Sends one notice; the push service's status (0: it could not be reached)."""
        async with self._senders:
            return await asyncio.to_thread(self._post, subscription, payload)

    def _post(self, subscription: Subscription, payload: str) -> int:
        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        session = requests.Session()
        session.max_redirects = 0  # a push service answers itself: a redirect leads nowhere the café should post
        try:
            answer = webpush(info, payload, Vapid02(private_key=self.key), {"sub": self.contact}, timeout=TIMEOUT,
                             ttl=TTL, requests_session=session)  # fmt: skip
            return int(getattr(answer, "status_code", 0))
        except WebPushException as refused:
            return int(getattr(refused.response, "status_code", 0))
        except requests.RequestException:
            return 0
        finally:
            session.close()


_pushers: weakref.WeakKeyDictionary[Notices, Pusher] = weakref.WeakKeyDictionary()


def attach(notices: Notices, folder: Path) -> None:
    """These notices are pushed from now on, signed with the key kept in ``folder``."""
    _pushers[notices] = Pusher(folder)
    notices.pushed = True


def public(notices: Notices) -> str | None:
    """The public key browsers subscribe with (None: the café pushes nothing)."""
    pusher = _pushers.get(notices)
    return pusher.public if pusher else None


def vapid_key(folder: Path) -> ec.EllipticCurvePrivateKey:
    """The café's VAPID key: made on the first start (P-256), kept in ``folder`` for its owner alone, read after.

    Made beside its place and linked there, so that processes starting together on one folder agree on one key."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / KEY_FILE
    if not path.exists():
        made = ec.generate_private_key(ec.SECP256R1())
        pem = made.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())  # fmt: skip
        draft = folder / f".{KEY_FILE}.{secrets.token_hex(4)}"
        handle = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(pem)
            os.link(draft, path)
        except FileExistsError:  # another process made it first: theirs it is
            pass
        finally:
            draft.unlink()
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(f"{path} is not a P-256 private key")
    return key


def public_key(key: ec.EllipticCurvePrivateKey) -> str:
    """The public half as browsers take it (``applicationServerKey``): the uncompressed point, base64url."""
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).decode().rstrip("=")


# ------------------------------------------------------------------ the notices' due jobs (cafe.server.notices)


async def run(notices: Notices, job: DueJob, clock_hour: float) -> None:
    """A notice's due job: who should hear what, if it still holds, sent once."""
    pusher, store = _pushers.get(notices), notices.store
    row = store.load_room(job.room)
    if pusher is None or row is None:
        return
    if job.kind == INVITED:
        room = Room.restore(store, row, clock_hour)
        if room.status != "waiting" or room.seat_of(job.arg) is not None:
            return  # the game has begun, or they sat down already
        host = store.player_name(room.host) or "?"
        said = T("{host} invites you to {table}", host=host, table=row.name)
        url = f"/#{link(row.id, room.invitation)}"
        await _notify(store, pusher, INVITATION, {job.arg}, row, said, url)
        return
    if job.arg == ENDED:
        people = {seat.person for seat in row.seats} - {None} if row.status == "finished" else set()
        await _notify(store, pusher, ENDED, people, row, T("The game at {table} is over", table=row.name))
        return
    room = Room.restore(store, row, clock_hour)
    game = room.game
    if game is None or room.status != "playing" or game.is_over() or game.turn_number != job.arg:
        return  # the turn is over already
    person = room.seats[game.current_player].player
    said = T("Your turn at {table}", table=row.name)
    await _notify(store, pusher, job.arg, {person} - {None}, row, said)


async def _notify(
    store: Store, pusher: Pusher, turn: int, people: set[int | None], row: RoomRow, said: Text, url: str = ""
) -> None:
    """Each device of these people gets the notice of this turn (or ENDED, or INVITATION), unless it was sent to
    them already (by this process or another); a click on it opens ``url`` (by default the room)."""
    now = time.time()
    told = [person for person in people if person is not None and store.note_sent(PUSH, person, row.id, turn, now)]
    devices = [device for person in told for device in store.subscriptions(person)]

    async def one(device: Subscription) -> None:
        payload = {"title": TITLE, "body": said.render(device.language), "url": url or f"/#room={row.id}",
                   "tag": f"cafe-{row.id}"}  # fmt: skip
        status = await pusher.send(device, json.dumps(payload, ensure_ascii=False))
        if status in GONE:
            store.forget_endpoint(device.endpoint)
        elif not 200 <= status < 300:
            log.warning("a push service answered %s for room %s", status or "nothing", row.id)

    await asyncio.gather(*(one(device) for device in devices))
