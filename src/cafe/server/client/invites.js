// Invitations by name (docs/protocol.md, "/invite"): a table's host invites a person with an account, whose open
// pages hear "invited". Each invitation shows until it is accepted (the table opens and its seat is taken, with a
// private table's code) or declined (it goes; the host is not told). One per table: a second replaces the first.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const shown = new Map(); // room -> the invitation's element
let box = null;

function place() {
  if (!box) {
    box = h("section", { class: "invitations", "aria-live": "polite", "aria-label": t("Invitations") });
    document.body.append(box);
  }
  return box;
}

function dismiss(room) {
  shown.get(room)?.remove();
  shown.delete(room);
}

// An "invited" message: shown with its two buttons; accepting opens the invitation's link in this page.
export function invitationHeard(message) {
  dismiss(message.room);
  const link = `room=${message.room}&invite=${message.code ?? "open"}`;
  const entry = h("div", { class: "invitation", role: "group" },
    h("p", {}, t("{host} invites you to {table}", { host: message.from, table: message.table ?? "" })),
    h("button", { type: "button", class: "accept-invitation",
      onclick: () => { dismiss(message.room); location.hash = link; } }, t("Accept")),
    h("button", { type: "button", class: "quiet decline-invitation", onclick: () => dismiss(message.room) },
      t("Decline")));
  shown.set(message.room, entry);
  place().append(entry);
  entry.querySelector("button").focus?.();
}
