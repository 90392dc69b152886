"""People come back, in a real browser (Debian's Chromium, Playwright) against a real `cafe serve --smtp`, a real
SMTP server on loopback (aiosmtpd) and a push service of the test's own: Ann and Ben make their names theirs in the
page, Ben verifies his address by the mailed link; Ann opens a private table for a game over days and copies its
invitation, Ben opens it in his own browser and is seated; they play, each from his own context, and when Ann has
moved Ben is told that it is his turn, by e-mail (with the table's name and a link to it) and by Web Push.

Ben's push subscription is registered through the café's real endpoint (`POST /push/subscribe`, from his own page
with his own sign-in) with the test's push service as its endpoint and keys the test holds: the page's own
subscription would go to Chromium's push service, which this closed machine cannot reach and whose messages the
test could not read (tests/test_browser_push.py).  The test's service decrypts what the café pushes with those
keys, as Ben's browser would."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import arrive
from push_service import Device, PushService
from servers import free_port, start_server
from smtp_box import Mailbox, smtp_server
from test_browser_accounts import claim
from test_browser_days import open_table, play_turn
from test_browser_email import verify

pytestmark = pytest.mark.browser

TABLE = "Window table"


@dataclass
class Cafe:
    site: str  # the café's address, as the mails name it
    box: Mailbox
    pushes: PushService


@pytest.fixture
def cafe_that_tells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cafe]:
    """A real ``cafe serve`` that mails through a real SMTP server and pushes to the test's push service (its
    certificate trusted by the café's process)."""
    with smtp_server() as (box, url), PushService(tmp_path) as pushes:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(pushes.ca))
        port = free_port()
        site = f"http://127.0.0.1:{port}/"
        server = start_server(port, tmp_path / "cafe", "--smtp", url, "--public-url", site)
        try:
            yield Cafe(site, box, pushes)
        finally:
            server.kill()
            server.wait()


def subscribe(page: Page, device: Device) -> None:
    """The person of the page subscribes ``device`` to their notices, with their own sign-in."""
    answer = page.evaluate(
        "(subscription) => fetch('/push/subscribe?lang=en', {method: 'POST', body: JSON.stringify(subscription), "
        "headers: {'content-type': 'application/json'}}).then((answer) => answer.json())",
        device.subscription(),
    )
    assert answer == {"subscribed": True}, answer


def move(page: Page) -> None:
    """The person of the page waits for their turn and plays it, clicking."""
    expect(page.locator(".room-view")).to_have_attribute("data-mine", "true")
    play_turn(page)


def test_ben_invited_to_a_game_over_days_hears_of_his_turn_by_e_mail_and_push(
    cafe_that_tells: Cafe, browser: Browser
) -> None:
    site, box, pushes = cafe_that_tells.site, cafe_that_tells.box, cafe_that_tells.pushes
    ben = arrive(browser, site, "Ben", phone=True)
    claim(ben)
    verify(ben, site, box, "ben@example.org")
    phone = pushes.device("ben-phone")
    subscribe(ben, phone)

    ann = arrive(browser, site, "Ann")
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    claim(ann)
    ann.click("text=Back to the lobby")
    ann.fill("input[name=name]", TABLE)
    ann.check("input[name=private]")
    room = open_table(ann, "12", "bot")
    expect(ann.locator(".days")).to_contain_text("12 hours a turn")
    ann.click("button:has-text('Invite')")
    expect(ann.locator(".invite-said")).to_have_text("The link is copied: send it to whom you invite.")
    link = ann.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{site}#room={room}&invite=")

    ben.goto(link)  # signed in already: the link seats him
    expect(ben.locator(".room-view")).to_have_attribute("data-room", room)
    expect(ben.locator(".seats li").nth(1)).to_contain_text("Ben")
    expect(ann.locator(".seats")).to_contain_text("Ben")
    ann.click("text=Start the game")

    move(ann)  # Ben's turn: he hears of it away from the café
    mail = box.wait("ben@example.org", 2)  # after the link that verified the address
    assert mail.subject == f"Your turn at {TABLE}"
    assert TABLE in mail.body and f"{site}#room={room}" in mail.body
    (pushed,) = pushes.wait(1)
    assert pushed.path == "/push/ben-phone"
    assert phone.read(pushed) == {"title": "Café International", "body": f"Your turn at {TABLE}",
                                  "url": f"/#room={room}", "tag": f"cafe-{room}"}  # fmt: skip
    move(ben)
    move(ann)  # Ben's second turn: pushed too (a mail comes once a day a game)
    second = pushes.wait(2)[1]
    assert phone.read(second)["body"] == f"Your turn at {TABLE}"
    move(ben)
    move(ann)
    assert [mail.subject for mail in box.to("ben@example.org")][1:] == [f"Your turn at {TABLE}"]
    assert {message.path for message in pushes.received} == {"/push/ben-phone"}  # Ann has no device
