"""Sending e-mail through an SMTP server (docs/deploy.md, "E-mail").

``cafe serve --smtp URL`` (or ``CAFE_SMTP``) names the server: ``smtps://user:password@host:465`` speaks TLS
from the start, ``smtp://user:password@host:587`` asks for STARTTLS and never gives a password without it
(a server without a user, such as a relay on the same machine, gets STARTTLS when it offers it).  A mail is sent
in a thread, so that neither the event loop nor any connection waits for the SMTP server; one that the server
refuses or cannot take now is tried again a few times, further apart each time.  A failure is logged with the
server's answer, never with the password or the mail's text (a link in it may sign someone in).
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
import ssl
import urllib.parse
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

log = logging.getLogger("cafe.server")

TIMEOUT = 30.0  # seconds an SMTP server may take to answer
AT_ONCE = 2  # SMTP connections open at once
WAITING = 200  # mails in this process waiting to be sent, at most (past that, one more is dropped and logged)
ADDRESS = re.compile(r"[^@\s\"<>(),;:\\\[\]]{1,64}@[^@\s\"<>(),;:\\\[\]]+\.[^@\s\"<>(),;:\\\[\].]{2,}")


class MailFailed(Exception):
    """A mail could not be sent, after every try."""


@dataclass(frozen=True)
class Smtp:
    """An SMTP server, the sender's address and the café's own address (for the links in mails)."""

    host: str
    port: int
    tls: bool  # TLS from the start (smtps://); otherwise STARTTLS
    user: str | None
    password: str | None = field(repr=False)
    sender: str
    site: str  # the café's address as people open it, ending in "/"

    @classmethod
    def parse(cls, url: str, sender: str | None, site: str) -> Smtp:
        """The server of a URL; a ValueError says what is wrong with it."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"--smtp takes smtp://[user:password@]host[:port] or smtps://..., not {parts.scheme}://")
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 587)
        except ValueError:
            raise ValueError("--smtp has a port that is not a number") from None
        user = urllib.parse.unquote(parts.username) if parts.username else None
        password = urllib.parse.unquote(parts.password) if parts.password else None
        chosen = sender or f"Café International <cafe@{urllib.parse.urlsplit(site).hostname or parts.hostname}>"
        if "@" not in parseaddr(chosen)[1]:
            raise ValueError(f"--mail-from is not an e-mail address: {chosen!r}")
        return cls(parts.hostname, port, parts.scheme == "smtps", user, password, chosen, site.rstrip("/") + "/")


def address_ok(address: str) -> bool:
    """Whether this looks like an e-mail address that a mail can go to (one @, a domain with a dot, no spaces)."""
    return len(address) <= 254 and ADDRESS.fullmatch(address) is not None


class Mailer:
    """Sends mails over one SMTP server: at once and awaited (:meth:`send`), or in the background (:meth:`post`)."""

    def __init__(self, smtp: Smtp, tries: int, wait: float) -> None:
        self.smtp = smtp
        self.tries = max(1, tries)
        self.wait = wait  # seconds before the second try; each next waits twice as long
        self.sent = 0
        self.failed = 0
        self._slots = asyncio.Semaphore(AT_ONCE)
        self._posted: set[asyncio.Task[None]] = set()

    async def send(self, to: str, subject: str, body: str) -> None:
        """One mail, tried ``tries`` times; :class:`MailFailed` if none went through."""
        message = self._message(to, subject, body)
        for attempt in range(1, self.tries + 1):
            try:
                async with self._slots:
                    await asyncio.to_thread(self._deliver, message)
                self.sent += 1
                return
            except (OSError, smtplib.SMTPException) as error:
                log.warning("mail to %s: try %d of %d failed: %s", _domain(to), attempt, self.tries, _said(error))
                if _lasting(error):
                    break
                if attempt < self.tries:
                    await asyncio.sleep(self.wait * 2 ** (attempt - 1))
        self.failed += 1
        raise MailFailed(to)

    @property
    def waiting(self) -> int:
        """Mails posted and not sent (nor given up) yet."""
        return len(self._posted)

    def post(self, to: str, subject: str, body: str) -> None:
        """One mail sent in the background (its link is nowhere else: it never rests in the database)."""
        if len(self._posted) >= WAITING:
            log.warning("mail to %s dropped: %d mails wait already", _domain(to), WAITING)
            return
        task = asyncio.ensure_future(self._background(to, subject, body))
        self._posted.add(task)
        task.add_done_callback(self._posted.discard)

    async def _background(self, to: str, subject: str, body: str) -> None:
        try:
            await self.send(to, subject, body)
        except MailFailed:
            log.error("mail to %s given up", _domain(to))

    def close(self) -> None:
        for task in self._posted:
            task.cancel()

    def _message(self, to: str, subject: str, body: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.smtp.sender
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain=self.smtp.host)
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to the café
        message.set_content(body)  # plain text, UTF-8
        return message

    def _deliver(self, message: EmailMessage) -> None:
        """In a thread: one SMTP session."""
        smtp = self.smtp
        context = ssl.create_default_context()
        if smtp.tls:
            server: smtplib.SMTP = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=TIMEOUT, context=context)
        else:
            server = smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT)
        with server:
            if not smtp.tls:
                server.ehlo()
                if smtp.user is not None or server.has_extn("starttls"):  # a password never goes in the clear
                    server.starttls(context=context)
                    server.ehlo()
            if smtp.user is not None:
                server.login(smtp.user, smtp.password or "")
            server.send_message(message)


def _domain(address: str) -> str:
    """An address as the log names it: its domain only."""
    return "…@" + address.rpartition("@")[2]


def _lasting(error: BaseException) -> bool:
    """Whether the server refused the mail for good (5xx, or no STARTTLS for a password): trying again changes
    nothing."""
    if isinstance(error, smtplib.SMTPNotSupportedError):
        return True
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


def _said(error: BaseException) -> str:
    """What went wrong, as the SMTP server or the network said it (no address but the domain)."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{code} {said.decode('utf-8', 'replace')}" for code, said in error.recipients.values())
    if isinstance(error, smtplib.SMTPResponseException):
        said = error.smtp_error
        return f"{error.smtp_code} {said.decode('utf-8', 'replace') if isinstance(said, bytes) else said}"
    return f"{type(error).__name__}: {error}"
