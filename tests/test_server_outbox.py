"""A connection's outbox: bounded by the bytes its messages take on the wire, sent in order, never waited for."""

from __future__ import annotations

import asyncio

from cafe.server.outbox import Outbox, utf8_size


def test_a_message_counts_the_bytes_it_takes_in_utf8() -> None:
    assert utf8_size('{"name":"Ann"}') == 14
    assert utf8_size('{"name":"Věra Müller"}') == len('{"name":"Věra Müller"}') + 2  # ě and ü: two bytes each


def test_the_outbox_overflows_on_bytes_not_characters() -> None:
    async def scenario() -> tuple[bool, bool]:
        sent: list[str] = []

        async def write(text: str) -> None:
            sent.append(text)

        ascii_box, czech_box = Outbox(write, limit=12), Outbox(write, limit=12)
        ascii_box.put("x" * 12)  # twelve bytes: it fits
        czech_box.put("č" * 7)  # seven characters, fourteen bytes: it does not
        return ascii_box.overflowed.is_set(), czech_box.overflowed.is_set()

    assert asyncio.run(scenario()) == (False, True)


def test_the_outbox_sends_in_order_and_counts_down_what_waits() -> None:
    async def scenario() -> tuple[list[str], int, int]:
        sent: list[str] = []

        async def write(text: str) -> None:
            sent.append(text)

        box = Outbox(write, limit=1000)
        box.put("první")
        box.put({"type": "say", "text": "druhá"})
        waiting = box.waiting
        writer = asyncio.ensure_future(box.run())
        while len(sent) < 2:
            await asyncio.sleep(0)
        writer.cancel()
        return sent, waiting, box.waiting

    sent, waiting, left = asyncio.run(scenario())
    assert sent == ["první", '{"type": "say", "text": "druh\\u00e1"}']
    assert waiting == utf8_size("první") + len(sent[1]) and left == 0
