// Notices on this device: a signed-in person turns them on in the account panel, and hears when their turn begins
// in a game over days and when such a game ends, even with the café closed. Turning them on asks the browser's
// permission (only then), registers the service worker (/sw.js), subscribes with the café's public key and gives
// the subscription to the server; turning them off takes it back (docs/protocol.md, "Web Push").

import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const PATIENCE = 15000; // ms the browser's push service has to give a subscription (offline, it never answers)

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function post(path, body) {
  try {
    const answer = await fetch(`/push/${path}?lang=${language()}`, { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return answer.ok ? null : (await answer.json()).error ?? t("the server failed; try again");
  } catch {
    return t("the server failed; try again");
  }
}

// The café's public key, as the bytes PushManager wants.
async function serverKey() {
  const { key } = await (await fetch("/push/key")).json();
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function subscription() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

// Turns notices on; what went wrong, or null.
async function turnOn() {
  if (await Notification.requestPermission() !== "granted") {
    return t("The browser does not allow the café's notices: allow them in its settings for this site.");
  }
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const late = new Promise((_, fail) => { setTimeout(() => fail(new Error("no push service")), PATIENCE); });
    const found = await registration.pushManager.getSubscription() ?? await Promise.race([late,
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: await serverKey() })]);
    return await post("subscribe", found.toJSON());
  } catch {
    return t("This browser could not subscribe to notices.");
  }
}

async function turnOff() {
  const found = await subscription().catch(() => null);
  if (!found) return null;
  const said = await post("unsubscribe", { endpoint: found.endpoint });
  await found.unsubscribe().catch(() => null);
  return said;
}

// The switch in the account panel (for a signed-in person). A subscription this browser holds is given to the
// server again, so that it is known there with the page's language.
export async function pushSwitch() {
  if (!supported()) return h("p", { class: "push" }, t("This browser cannot show the café's notices."));
  const held = await subscription().catch(() => null);
  if (held && Notification.permission === "granted") await post("subscribe", held.toJSON());
  const problem = h("p", { class: "problem", role: "alert", id: "push-problem" });
  const box = h("input", { type: "checkbox", id: "push-switch", checked: Boolean(held) && Notification.permission
    === "granted", "aria-describedby": "push-problem",
  onchange: async () => {
    box.disabled = true;
    problem.textContent = "";
    const said = box.checked ? await turnOn() : await turnOff();
    if (said) {
      problem.textContent = said;
      box.checked = !box.checked;
    }
    box.disabled = false;
  } });
  return h("section", { class: "account-form push" }, h("h3", {}, t("Notices")),
    h("label", { class: "switch" }, box, h("span", {}, t("Tell me on this device when my turn begins in a game over days, and when "
      + "such a game ends"))), problem);
}
