"""Passkeys in a real browser (Debian's Chromium, Playwright) against a real `cafe serve`, with Chromium's virtual
authenticator (a platform authenticator that verifies its user, through the DevTools protocol): Ann makes her
name hers with a passkey, signs out, and signs in with it on other devices that hold the same credential, without
her name and with it; the passkey that is her only way in cannot be removed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browsing import arrive
from test_browser_access import serious_violations
from test_browser_accounts import claim

pytestmark = pytest.mark.browser


def authenticator(page: Page, credentials: list[dict[str, Any]] = ()) -> tuple[Any, str]:  # type: ignore[assignment]
    """A virtual passkey device in the page's browser context (holding ``credentials``): the DevTools session, and
    the authenticator's id."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    made = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})  # fmt: skip
    for credential in credentials:
        devtools.send("WebAuthn.addCredential", {"authenticatorId": made["authenticatorId"], "credential": credential})
    return devtools, made["authenticatorId"]


def test_ann_makes_her_name_hers_with_a_passkey_and_signs_in_with_it_on_another_device(cafe: str, browser: Any) -> None:
    url = cafe.replace("127.0.0.1", "localhost")  # a passkey belongs to a domain (never an IP address)
    ann = arrive(browser, url, "Ann")
    devtools, device = authenticator(ann)
    ann.click("#account-link")
    ann.get_by_role("button", name="Create a passkey").click()
    expect(ann.locator(".account .signed-in")).to_contain_text("You are signed in as Ann")
    expect(ann.locator(".passkey-list li")).to_have_count(1)
    expect(ann.locator(".passkey-list li")).to_contain_text("never used yet")
    expect(ann.get_by_role("heading", name="Choose a password")).to_be_visible()  # no password: she may choose one
    assert serious_violations(ann) == [], "the account panel with its passkeys"
    ann.get_by_role("button", name="Sign out", exact=True).click()
    expect(ann.locator("#account-link")).to_have_text("Sign in")

    [credential] = devtools.send("WebAuthn.getCredentials", {"authenticatorId": device})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone_devtools, phone_device = authenticator(phone, [credential])
    phone.goto(url)
    phone.click("text=Have an account? Sign in")
    phone.get_by_role("button", name="Sign in with a passkey").click()  # no name: the device offers its passkey
    expect(phone.locator("#status")).to_have_attribute("data-status", "online")
    expect(phone.locator("#who a.me")).to_have_text("Ann")
    phone.click("#account-link")
    expect(phone.locator(".passkey-list li")).to_contain_text("last used")
    phone.locator(".passkey-list").get_by_role("button", name="Remove").click()  # her only way in: refused
    phone.locator("dialog.ask").get_by_role("button", name="Remove").click()
    expect(phone.locator(".passkey-list .problem")).to_have_text(
        "This passkey is your account's only way in: choose a password before you remove it."
    )
    expect(phone.locator(".passkey-list li")).to_have_count(1)

    # a copy of the credential as it was before the phone used it is refused: its counter went back, as a clone's
    stale = browser.new_context().new_page()
    authenticator(stale, [credential])
    stale.goto(url + "#account")
    stale.get_by_role("button", name="Sign in with a passkey").click()
    expect(stale.locator(".passkeys .problem")).to_contain_text("This passkey's counter went back")
    expect(stale.locator("#account-link")).to_have_text("Sign in")

    # a third device, in German, where she types her name (in another form) before using the passkey; it holds
    # the credential as the phone left it
    [credential] = phone_devtools.send("WebAuthn.getCredentials", {"authenticatorId": phone_device})["credentials"]
    assert credential["signCount"] > 0
    tablet = browser.new_context(locale="de-DE").new_page()
    authenticator(tablet, [credential])
    tablet.goto(url)
    tablet.click("text=Schon ein Konto? Anmelden")
    tablet.locator("form.account-form").get_by_label("Name").fill("ANN")
    tablet.get_by_role("button", name="Mit Passkey anmelden").click()
    expect(tablet.locator("#who a.me")).to_have_text("Ann")


def test_bob_adds_a_passkey_to_his_account_and_removes_it_and_cy_deletes_hers_with_her_passkey(
    cafe: str, browser: Any
) -> None:
    url = cafe.replace("127.0.0.1", "localhost")
    bob = arrive(browser, url, "Bob")
    authenticator(bob)
    claim(bob)  # with a password
    keys = bob.locator("section.passkeys")
    expect(keys).to_contain_text("No passkey yet.")
    keys.get_by_role("button", name="Create a passkey").click()
    expect(keys.locator("li")).to_have_count(1)
    expect(bob.get_by_role("heading", name="Change the password")).to_be_visible()
    keys.get_by_role("button", name="Remove").click()
    bob.locator("dialog.ask").get_by_role("button", name="Remove").click()
    expect(keys).to_contain_text("No passkey yet.")

    cy = arrive(browser, url, "Cy")
    authenticator(cy)
    cy.click("#account-link")
    cy.get_by_role("button", name="Create a passkey").click()
    expect(cy.locator(".account .signed-in")).to_contain_text("You are signed in as Cy")
    deletion = cy.locator("form.account-form", has_text="Delete the account")
    expect(deletion.locator("input")).to_have_count(0)  # no password to give: her passkey confirms
    deletion.get_by_role("button", name="Delete the account").click()
    cy.locator("dialog.ask").get_by_role("button", name="Delete the account").click()
    expect(cy.locator("form.welcome")).to_be_visible()  # nobody on this device any more
    cy.goto(url + "#account")
    cy.get_by_role("button", name="Sign in with a passkey").click()  # her passkey went with the account
    expect(cy.locator(".passkeys .problem")).to_contain_text("Unknown passkey")
