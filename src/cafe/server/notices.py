"""Who hears of what, away from the café: a turn of a game over days begins for them, or the game has ended, or
a host invites them to a table (docs/protocol.md, "E-mail").

The due work (:mod:`cafe.server.chores`) calls :meth:`Notices.send` at each point with the notices that
:func:`turn_begins` and :func:`game_ends` find (and :mod:`cafe.server.invites` with an invitation); that is the one
place where each channel gets them: e-mail, and Web Push (:mod:`cafe.server.push`, whose notice of a game's end is
one job for everyone at the table).  An e-mail is a due job (:mod:`cafe.server.due`), so that with several server
processes it is sent by one of them, once: the job notes it
as sent in the store before it goes out, and a notice noted already is not sent again.  Only a verified address
gets anything, and only the notices its person wants; "your turn" comes once a day and game at most unless they
asked for every turn.  A person on holiday hears of no turn of theirs until the holiday ends.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from cafe.i18n import T
from cafe.server.due import DueWork
from cafe.server.mail import Mailer, MailFailed
from cafe.server.push import INVITED as PUSHED_INVITATION
from cafe.server.push import KIND as PUSHED
from cafe.server.rooms import Room
from cafe.server.storage import invitations
from cafe.server.storage.email_rows import ENDED, INVITED
from cafe.server.storage.sent_rows import MAIL
from cafe.server.storage.store import DueJob, Store

DAY = 86_400.0  # seconds: "your turn" once in this long per game, unless every turn is asked for
KINDS = {"mail-turn": "turn", "mail-ended": "ended", "mail-invited": "invited"}  # a due job's kind: the notice it sends


@dataclass(frozen=True)
class Notice:
    kind: str  # "turn" (it is the person's turn), "ended" (the game has ended) or "invited" (to the table)
    room: str
    player: int
    turn: int  # the turn that begins, ENDED or INVITED


def turn_begins(room: Room) -> list[Notice]:
    """The person whose turn of a game over days begins now (none in a live game, or a computer player's turn)."""
    game = room.game
    if not room.clock or game is None or room.status != "playing" or game.is_over():
        return []
    person = room.seats[game.current_player].person if game.current_player < len(room.seats) else None
    return (
        []
        if person is None or game.current_player in room.bots
        else [Notice("turn", room.id, person, game.turn_number)]
    )


def game_ends(room: Room) -> list[Notice]:
    """The people seated at a game over days that has ended."""
    if not room.clock or room.status != "finished":
        return []
    return [Notice("ended", room.id, seat.person, ENDED) for seat in room.seats if seat.person is not None]


class Notices:
    """The channels a notice goes by: e-mail once :attr:`mailer` is set (``cafe serve --smtp``), Web Push once
    :attr:`pushed` is (the café has a data folder for its key)."""

    def __init__(self, store: Store, due: DueWork) -> None:
        self.store = store
        self.due = due
        self.mailer: Mailer | None = None
        self.pushed = False

    def seen(self, player: int, language: str) -> None:
        """The language the person uses now: their e-mails are written in it."""
        if self.mailer is not None:
            self.store.email_language(player, language)

    def send(self, notices: list[Notice]) -> None:
        """Each notice to its person, by every channel there is.  "Your turn" to a person on holiday waits for the
        holiday's end (their clock stands still until then); sent again, as when the holiday ends early, it moves to
        the new time (it is sent once all the same)."""
        if self.mailer is None and not self.pushed:
            return
        now = time.time()
        away = self.store.on_holiday([notice.player for notice in notices if notice.kind == "turn"], now)
        for notice in notices:
            turn = notice.kind == "turn"
            at = max(now, away.get(notice.player, now)) if turn else now
            if self.mailer is not None:
                self.due.schedule(DueJob(f"mail-{notice.kind}", notice.room, notice.player, at), move=turn)
            if self.pushed and notice.turn == INVITED:  # one job per invited person
                self.due.schedule(DueJob(PUSHED_INVITATION, notice.room, notice.player, at), move=False)
            elif self.pushed:  # one job per turn, or per game's end: it finds the people to tell itself
                self.due.schedule(DueJob(PUSHED, notice.room, notice.turn, at), move=turn)

    async def run(self, job: DueJob, room: Room | None) -> None:
        """An e-mail notice's due job (``room``: the room as this process holds it, if it is not finished)."""
        kind, player, now = KINDS[job.kind], job.arg, time.time()
        email = self.store.email(player)
        if self.mailer is None or email is None or not email.verified or not getattr(email, kind):
            return
        site = self.mailer.smtp.site
        if kind == "turn":
            if (
                room is None
                or room.game is None
                or turn_begins(room) != [Notice("turn", room.id, player, room.game.turn_number)]
            ):
                return  # the turn is over already
            last = self.store.last_sent(MAIL, player, room.id)
            if not email.every and last is not None and now - last < DAY:
                return
            turn, table, link = room.game.turn_number, room.name, f"{site}#room={room.id}"
            subject = T("Your turn at {table}", table=table)
            body = T("It is your turn at {table} in Café International.\n\nYour move: {link}", table=table, link=link)
        elif kind == "invited":
            if room is None or room.status != "waiting" or room.seat_of(player) is not None:
                return  # the game has begun, or they sat down already
            turn, table, link = INVITED, room.name, f"{site}#{invitations.link(room.id, room.invitation)}"
            host = self.store.player_name(room.host) or "?"
            subject = T("{host} invites you to {table}", host=host, table=table)
            body = T("{host} invites you to a game at {table} in Café International.\n\nTake your seat: {link}",
                     host=host, table=table, link=link)  # fmt: skip
        else:
            row = self.store.load_room(job.room)
            if row is None or row.status != "finished":
                return
            turn, table, link = ENDED, row.name, f"{site}#game={row.id}"
            subject = T("The game at {table} has ended", table=table)
            body = T("The game at {table} in Café International has ended.\n\nSee how it went: {link}",
                     table=table, link=link)  # fmt: skip
        if not self.store.note_sent(MAIL, player, job.room, turn, now):
            return  # another process, or an earlier job, sent it
        settings = f"{site}#account"
        why = T(
            "You get this e-mail because you asked for it. To choose which e-mails you get, or to get none: {link}",
            link=settings,
        )
        language = email.language
        try:
            await self.mailer.send(email.address, subject.render(language),
                                   f"{body.render(language)}\n\n-- \n{why.render(language)}\n")  # fmt: skip
        except MailFailed:
            self.store.unnote_sent(MAIL, player, job.room, turn)
