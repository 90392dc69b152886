"""A real SMTP server for the tests (aiosmtpd on loopback): it keeps every mail it is given, and may refuse the
first ones for a while (451), as a server that is busy does."""

from __future__ import annotations

import contextlib
import email
import email.policy
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from aiosmtpd.controller import Controller

from servers import free_port


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str

    def link(self, purpose: str) -> str:
        """The token of the link of ``purpose`` (verify, reset) in this mail."""
        found = re.search(rf"#account&{purpose}=([A-Za-z0-9_-]+)", self.body)
        assert found, self.body
        return found.group(1)


class Mailbox:
    """The mails the server took, in order; ``refuse``: attempts to answer with 451 first."""

    def __init__(self, refuse: int = 0) -> None:
        self.mails: list[Mail] = []
        self.attempts = 0
        self.refuse = refuse
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.attempts += 1
        if self.attempts <= self.refuse:
            return "451 4.3.0 busy: try again later"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = message.get_body(("plain",))
        assert body is not None
        with self._arrived:
            self.mails.append(Mail(str(message["To"]), str(message["Subject"]), str(body.get_content())))
            self._arrived.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[Mail]:
        return [mail for mail in self.mails if mail.to == address]

    def wait(self, address: str, count: int = 1) -> Mail:
        """The ``count``-th mail to this address, once it arrived."""
        with self._arrived:
            arrived = self._arrived.wait_for(lambda: len(self.to(address)) >= count, timeout=60)
        assert arrived, f"no mail {count} to {address}: {self.mails}"
        return self.to(address)[count - 1]


@contextlib.contextmanager
def smtp_server(refuse: int = 0) -> Iterator[tuple[Mailbox, str]]:
    """A mailbox and the smtp:// URL of its server, for the block."""
    box = Mailbox(refuse)
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()
