// The account panel at "#account": a guest claims their name with a password; anyone signs in; an account
// changes its password, signs out (here or everywhere) or deletes itself. The session is an HttpOnly cookie the
// page never sees: the server sets it, and the WebSocket's hello brings it along (docs/protocol.md, "Accounts").

import { ask } from "./ask.js";
import { botPanel } from "./botaccount.js";
import { h, sentence } from "./dom.js";
import { emailPart, forgotPart, mailedLink } from "./email.js";
import { holidayPanel } from "./holidays.js";
import { language, t } from "./i18n.js";
import { settingsPanel } from "./notify.js";
import { claimPart, confirmation, listPart, signInPart } from "./passkeys.js";
import { pushSwitch } from "./push.js";

// A change, as JSON from this page (the server refuses anything else); its answer, or { error } in our language.
export async function post(path, body = {}) {
  try {
    const answer = await fetch(`/account/${path}?lang=${language()}`, { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await answer.json();
    return answer.ok ? data : { error: data.error ?? t("the server failed; try again") };
  } catch {
    return { error: t("the server failed; try again") };
  }
}

let formCount = 0;

// A form of its own: a heading, what it is for (`about`), its fields (each with its label), a place for the
// refusal, and its button (red when what it does cannot be undone); `send` gets the fields' values and says what
// went wrong (or nothing).
export function form(title, fields, button, send, { about = null, danger = false } = {}) {
  const id = `account-form-${++formCount}`;
  const problem = h("p", { class: "problem", role: "alert", id: `${id}-problem` });
  const inputs = fields.map((f) => h("input", { name: f.name, type: f.type ?? "password", autocomplete: f.autocomplete,
    required: true, maxlength: f.max ?? (f.type === "text" ? 24 : 256), ...(f.type === "text" ? {} : { minlength: f.min ?? 1 }),
    "aria-describedby": `${id}-problem` }));
  const submit = h("button", { type: "submit", class: danger ? "danger" : null }, button);
  const node = h("form", { class: "account-form", "aria-labelledby": `${id}-title`, novalidate: true, // refusals are
    // the server's, in the page's language (the browser's own would be in the browser's)
    onsubmit: async (event) => {
      event.preventDefault();
      problem.textContent = "";
      submit.disabled = true;
      const said = await send(Object.fromEntries(inputs.map((input) => [input.name, input.value])));
      submit.disabled = false;
      if (said) {
        problem.textContent = sentence(said);
        inputs.find((input) => input.type === "password")?.select();
      }
    } },
  h("h3", { id: `${id}-title` }, title), about,
  fields.map((f, i) => h("label", {}, h("span", {}, f.label), inputs[i])), problem, submit);
  return node;
}

const newPassword = (name, label) => ({ name, label, autocomplete: "new-password", min: 8 });

export async function accountView(actions) {
  const me = actions.me();
  let found = { account: false };
  try {
    found = await (await fetch("/account")).json();
  } catch {
    // offline: the forms say so when they are sent
  }
  const done = () => { location.hash = ""; location.reload(); }; // the page begins anew, with its new session
  // a change that ends this page's connection (the server closes it): the page begins anew once it is done
  const attempt = async (path, values = {}) => {
    actions.busy(true);
    const answer = await post(path, values);
    if (!answer.error) return done();
    actions.busy(false);
    return answer.error;
  };
  const signIn = form(t("Sign in"), [
    { name: "name", label: t("Name"), type: "text", autocomplete: "username" },
    { name: "password", label: t("Password"), autocomplete: "current-password" },
  ], t("Sign in"), (values) => attempt("sign-in", values));
  const parts = [await mailedLink()];
  const claimedAs = (answer) => {
    actions.forget();
    actions.claimed();
    actions.notice(t("“{name}” is yours now: sign in with it on any device.", { name: answer.name }));
    return null;
  };
  if (found.account) {
    const keys = await listPart(post);
    // an account made with a passkey confirms with one, and may choose a password
    const confirmed = (path) => async (values) => {
      const given = await confirmation(post);
      return given.error ?? attempt(path, { ...values, ...given });
    };
    parts.push(h("p", { class: "signed-in" }, t("You are signed in as {name}.", { name: found.name })),
      h("div", { class: "buttons" },
        h("button", { type: "button", onclick: () => attempt("sign-out") }, t("Sign out")),
        h("button", { type: "button", class: "quiet", onclick: () => attempt("sign-out-everywhere") },
          t("Sign out everywhere"))),
      keys.node,
      await pushSwitch(),
      botPanel(found, { post, form }),
      keys.password ? form(t("Change the password"), [
        { name: "password", label: t("Current password"), autocomplete: "current-password" },
        newPassword("new", t("New password")),
      ], t("Change the password"), (values) => attempt("password", values))
        : form(t("Choose a password"), [newPassword("new", t("New password"))], t("Choose a password"),
          confirmed("password")),
      await emailPart(),
      holidayPanel(actions.holiday),
      settingsPanel(actions.recount),
      form(t("Delete the account"), keys.password
        ? [{ name: "password", label: t("Password"), autocomplete: "current-password" }] : [],
      t("Delete the account"), async (values) => {
        const sure = await ask(t("Delete your account for good? Your name, password and rating are erased, and "
            + "finished games show “deleted player” in your place."), t("Delete the account"), t("Keep it"));
        if (!sure) return null;
        return keys.password ? attempt("delete", values) : confirmed("delete")(values);
      }, { danger: true }));
  } else {
    if (me && !me.account && actions.token()) {
      parts.push(form(t("Keep your name"), [newPassword("password", t("Choose a password"))], t("Claim the name"),
        async ({ password }) => {
          const answer = await post("claim", { token: actions.token(), password });
          return answer.error ?? claimedAs(answer);
        }, { about: h("p", {}, t("With a password, “{name}” is yours: nobody else can take it, your games and your rating "
          + "stay yours, and you can sign in on any device. Games are rated between players with accounts.",
        { name: me.name })) }), claimPart(post, actions.token(), claimedAs));
    }
    parts.push(signIn, signInPart(post, () => signIn.querySelector("input[name=name]").value, done),
      await forgotPart());
  }
  if (!found.account) parts.push(settingsPanel(actions.recount));
  return h("section", { class: "account" }, h("h2", { tabindex: -1 }, t("Your account")), parts,
    h("p", {}, h("a", { href: "#" }, t("Back to the lobby"))));
}
