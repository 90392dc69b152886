// E-mail in the account panel (docs/protocol.md, "E-mail"): an account's address, verified by a mailed link, and
// the notices it gets; "forgot your password" beside the sign-in; and the links the café mails, which arrive as
// "#account&verify=…" or "#account&reset=…" (a fragment: the browser never sends it to a server, the page posts it).

import { form, post } from "./account.js";
import { h, sentence } from "./dom.js";
import { t } from "./i18n.js";

const NOTICES = [
  ["turn", () => t("It is my turn in a game over days")],
  ["ended", () => t("A game over days of mine has ended")],
  ["every", () => t("Every turn, not only once a day per game")],
  ["invited", () => t("Someone invites me to their table")],
];

// What the café says of e-mail: whether it sends any, and (signed in) the address and the notices chosen.
async function known() {
  try {
    return await (await fetch("/account/email")).json();
  } catch {
    return { mail: false };
  }
}

// The link of a mail this page was opened with, taken out of the address bar: { purpose, token }, or null.
function mailedToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  for (const purpose of ["verify", "reset"]) {
    const token = hash.get(purpose);
    if (token) {
      history.replaceState(null, "", "#account");
      return { purpose, token };
    }
  }
  return null;
}

// The part of the panel for a mailed link: the address verified (or why not), or the form for a new password.
export async function mailedLink() {
  const mailed = mailedToken();
  if (!mailed) return null;
  if (mailed.purpose === "verify") {
    const answer = await post("email/verify", { token: mailed.token });
    const said = answer.error ? sentence(answer.error)
      : t("Your e-mail address {address} is verified.", { address: answer.verified });
    return h("p", { class: answer.error ? "problem" : "done", role: "status" }, said);
  }
  const done = h("p", { class: "done", role: "status" });
  const node = form(t("Choose a new password"), [{ name: "new", label: t("New password"), autocomplete: "new-password",
    min: 8 }], t("Change the password"), async (values) => {
    const answer = await post("reset", { token: mailed.token, new: values.new });
    if (answer.error) return answer.error;
    node.replaceWith(done);
    done.textContent = t("Your password is changed and you are signed out everywhere: sign in with the new one.");
    return null;
  });
  return node;
}

// "Forgot your password?" beside the sign-in: a link by e-mail, or why there is none.
export async function forgotPart() {
  if (!(await known()).mail) {
    return h("p", { class: "no-mail" }, t("A forgotten password cannot be reset here: this café sends no e-mail."));
  }
  const sent = h("p", { class: "done", role: "status" });
  return h("div", {}, form(t("Forgot your password?"), [{ name: "name", label: t("Name or e-mail address"),
    type: "text", autocomplete: "username", max: 254 }], t("Send me a link"), async (values) => {
    const answer = await post("forgot", values);
    if (answer.error) return answer.error;
    sent.textContent = t("If that account has a verified e-mail address, a link to choose a new password is on its "
      + "way. It holds for an hour.");
    return null;
  }), sent);
}

// The account's address and its notices (nothing when the café sends no e-mail).
export async function emailPart() {
  const found = await known();
  if (!found.mail) return null;
  const status = found.address === null ? null : h("p", { class: "mail-status" }, found.verified
    ? t("{address} is verified.", { address: found.address })
    : t("{address} is not verified yet: open the link we sent to it.", { address: found.address }));
  const address = form(t("E-mail"), [{ name: "address", label: t("E-mail address"), type: "email",
    autocomplete: "email", max: 254 }], t("Send a link to verify it"), async (values) => {
    const answer = await post("email", values);
    if (answer.error) return answer.error;
    location.reload(); // the panel anew, with the address waiting for its link
    return null;
  }, { about: h("p", {}, t("With a verified address you can reset a forgotten password, and hear of your games over "
    + "days. Nothing else is sent to it, and nobody else sees it.")) });
  if (found.address) address.querySelector("input").value = found.address;
  address.querySelector("h3").after(...(status ? [status] : []));
  const parts = [address];
  if (found.address !== null) {
    const problem = h("p", { class: "problem", role: "alert" });
    const boxes = NOTICES.map(([key, label]) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: key, checked: found[key], onchange: async () => {
        problem.textContent = "";
        const chosen = Object.fromEntries(boxes.map((box) => [box.firstChild.name, box.firstChild.checked]));
        const answer = await post("email/notices", chosen);
        if (answer.error) problem.textContent = sentence(answer.error);
      } }), " ", label()));
    parts.push(h("fieldset", { class: "account-form notices" }, h("legend", {}, t("E-mails about your games")), boxes, problem),
      h("div", { class: "buttons" }, h("button", { type: "button", class: "quiet", onclick: async () => {
        const answer = await post("email", { address: null });
        if (answer.error) problem.textContent = sentence(answer.error);
        else location.reload();
      } }, t("Remove the address"))));
  }
  return h("div", { class: "email" }, parts);
}
