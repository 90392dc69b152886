"""Notices in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`: the switch in the account
panel asks for the permission only when turned on, registers the café's service worker at the site's root, and says
so in the reader's language when the browser cannot subscribe.

What a headless Chromium can and cannot do here: a subscription needs the browser's push service (Google's, for
Chromium), which this closed machine cannot reach; ``PushManager.subscribe`` then never answers (in a persistent
profile) or is refused at once (in the incognito contexts Playwright opens).  So no subscription of a real browser
reaches the server here: tests/test_server_push.py gives the server real subscriptions (keys made as a browser makes
them) and decrypts what it pushes.  Here: the service worker's registration, the switch's behaviour, and the notice
the worker shows when a push reaches it (delivered through Chromium's DevTools protocol, as a push service would)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browsing import CHROMIUM, FLAGS, arrive
from push_service import PushService
from servers import free_port, start_server
from test_browser_access import serious_violations
from test_browser_accounts import claim
from test_scale import OPEN, Player
from test_server_push import play_turns, post

pytestmark = pytest.mark.browser


def eventually(check: Callable[[], Any]) -> Any:
    """What ``check`` gives once it gives something (the browser works on its own time), or a failure."""
    for _ in range(200):
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("it never came")


def deliver(page: Page, cafe: str, data: str) -> list[list[str]]:
    """The café's service worker registered on the page, a push of ``data`` delivered to it as a push service would
    (Chromium's DevTools protocol): the notices it shows (title, body, tag, link), once it shows one."""
    devtools = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    devtools.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    devtools.send("ServiceWorker.enable")
    page.evaluate("navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => 0)")
    page.evaluate("navigator.serviceWorker.ready.then(() => 0)")  # active: it hears pushes
    eventually(lambda: any(r["scopeURL"] == cafe and not r["isDeleted"] for r in registrations))
    (registration,) = {r["registrationId"] for r in registrations if r["scopeURL"] == cafe}
    shown = "navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) => all.map((n) => " \
            "[n.title, n.body, n.tag, n.data.url]))"  # fmt: skip

    def delivered() -> list[list[str]]:
        """Delivered again until shown, as a push service retries: on a busy machine Chromium may drop a push that
        reaches a worker still starting (a notice of the same tag replaces the one before)."""
        devtools.send("ServiceWorker.deliverPushMessage", {"origin": cafe.rstrip("/"), "registrationId": registration,
                                                           "data": data})  # fmt: skip
        for _ in range(40):
            found: list[list[str]] = page.evaluate(shown)
            if found:
                return found
            time.sleep(0.05)
        return []

    for _ in range(10):
        found = delivered()
        if found:
            return found
    raise AssertionError("no notice was shown")


def switch(page: Page) -> None:
    """The person opens their account panel and turns notices on."""
    expect(page.locator(".account .signed-in")).to_be_visible()
    page.get_by_label(
        "Tell me on this device when my turn begins in a game over days, and when such a game ends"
    ).check()


def test_turning_notices_on_registers_the_service_worker_at_the_root(
    cafe: str, browser: Browser, tmp_path: Path
) -> None:
    ann = arrive(browser, cafe, "Ann")
    ann.context.grant_permissions(["notifications"], origin=cafe.rstrip("/"))
    claim(ann)
    assert ann.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => r === undefined)")  # not before
    switch(ann)
    problem = ann.locator("#push-problem")
    expect(problem).to_have_text("This browser could not subscribe to notices.")  # no push service here
    expect(ann.locator("#push-switch")).not_to_be_checked()
    expect(ann.locator("#push-switch")).to_be_enabled()
    assert serious_violations(ann) == [], "the account panel with its switch"
    scope, script = ann.evaluate(
        "navigator.serviceWorker.getRegistration('/').then((r) => [r.scope, (r.active ?? r.waiting ?? r.installing)"
        ".scriptURL])"
    )
    assert scope == cafe and script == f"{cafe}sw.js"  # its scope is the whole café
    with sqlite3.connect(tmp_path / "cafe.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM push_subscriptions").fetchone() == (0,)


def test_a_browser_that_does_not_allow_notices_is_told_how_in_the_readers_language(cafe: str, browser: Browser) -> None:
    anna = arrive(browser, cafe, "Anna", locale="de-DE")  # the permission is not granted: the browser denies it
    anna.click("#account-link")
    form = anna.locator("form.account-form").first  # keep her name, with a password
    form.locator("input[type=password]").fill("correct horse battery")
    form.get_by_role("button", name="Namen sichern").click()
    expect(anna.locator(".account .signed-in")).to_be_visible()
    anna.locator("#push-switch").check()
    expect(anna.locator("#push-problem")).to_have_text(
        "Der Browser lässt die Benachrichtigungen des Cafés nicht zu: "
        "Erlaube sie in seinen Einstellungen für diese Seite."
    )
    expect(anna.locator("#push-switch")).not_to_be_checked()
    assert anna.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => r === undefined)")


def test_a_push_service_that_never_answers_leaves_the_switch_off_and_usable(
    cafe: str, browser: Browser, tmp_path: Path
) -> None:
    """In a profile of its own (not incognito), Chromium asks its push service, which cannot be reached here and never
    answers: the switch gives up after a while and says so, instead of waiting for ever."""
    profile = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=FLAGS, headless=True
    )
    try:
        profile.grant_permissions(["notifications"], origin=cafe.rstrip("/"))
        ann = profile.new_page()
        ann.goto(cafe)
        ann.fill("input[name=player]", "Ann")
        ann.press("input[name=player]", "Enter")
        claim(ann)
        switch(ann)
        expect(ann.locator("#push-switch")).to_be_disabled()  # waiting for the push service
        expect(ann.locator("#push-problem")).to_have_text(
            "This browser could not subscribe to notices.", timeout=30_000
        )
        expect(ann.locator("#push-switch")).not_to_be_checked()
        expect(ann.locator("#push-switch")).to_be_enabled()
    finally:
        profile.close()


def test_a_turn_pushed_by_the_cafe_reaches_the_service_worker_and_is_shown(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole way but the browser's own push service: `cafe serve` pushes Bob's turn to the test's push service,
    which decrypts it with the keys of Bob's subscription and hands it to the service worker, which shows it."""
    with PushService(tmp_path) as service:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(service.ca))  # the café's process trusts the test's service
        port = free_port()
        server = start_server(port, tmp_path / "cafe")
        try:
            ann, bob = Player(port, "Ann"), Player(port, "Bob")
            _, session = post(port, "/account/claim", {"token": bob.token, "password": "correct horse battery"})
            device = service.device("bob")
            post(port, "/push/subscribe?lang=fr", device.subscription(), session)
            room = play_turns(ann, bob, 1)
            notice = device.read(service.wait(1)[0])
            page = browser.new_context().new_page()
            cafe = f"http://127.0.0.1:{port}/"
            page.context.grant_permissions(["notifications"], origin=cafe.rstrip("/"))
            page.goto(cafe)
            assert deliver(page, cafe, json.dumps(notice)) == [
                ["Café International", "À vous de jouer : Ann's table", f"cafe-{room}", f"/#room={room}"]
            ]
        finally:
            while OPEN:
                OPEN.pop().close()
            server.kill()
            server.wait()
