// Passkeys in the account panel (docs/protocol.md, "Passkeys"): a guest makes their name theirs with one instead of
// a password, anyone signs in with one (with the name typed in the sign-in form, or without: the browser offers the
// café's passkeys it knows), an account adds passkeys, lists and removes them, and an account without a password
// confirms a change with one. Each ceremony's options come from the server, the browser asks the authenticator,
// and the server verifies its answer. Shown only where the browser can use passkeys.

import { ask } from "./ask.js";
import { h, sentence } from "./dom.js";
import { t } from "./i18n.js";

export const supported = () => Boolean(window.isSecureContext && window.PublicKeyCredential
  && navigator.credentials?.create && navigator.credentials?.get);

// WebAuthn's binary fields travel as base64url text.
const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

// The answer of the authenticator as JSON, the way the server reads it.
function answerOf(credential) {
  const response = {};
  for (const key of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (credential.response[key]) response[key] = text(credential.response[key]);
  }
  if (credential.response.getTransports) response.transports = credential.response.getTransports();
  return { id: credential.id, rawId: text(credential.rawId), type: credential.type, response,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults() };
}

// One ceremony: its options from the server (`path`), then the browser's passkey; { credential } or { error }.
async function ceremony(post, path, body, create) {
  const asked = await post(`passkeys/${path}`, body);
  if (asked.error) return asked;
  const options = asked.publicKey;
  options.challenge = bytes(options.challenge);
  try {
    if (create) {
      options.user.id = bytes(options.user.id);
      for (const known of options.excludeCredentials ?? []) known.id = bytes(known.id);
      return { credential: answerOf(await navigator.credentials.create({ publicKey: options })) };
    }
    for (const known of options.allowCredentials ?? []) known.id = bytes(known.id);
    return { credential: answerOf(await navigator.credentials.get({ publicKey: options })) };
  } catch (error) {
    if (error?.name === "InvalidStateError") return { error: t("this device has a passkey for this account already") };
    if (error?.name === "NotAllowedError") return { error: t("no passkey was used: it was cancelled, or took too long") };
    return { error: t("the browser could not use a passkey here") };
  }
}

// A passkey's answer that confirms a change of an account without a password: { passkey } or { error }.
export async function confirmation(post) {
  const found = await ceremony(post, "challenge", {}, false);
  return found.error ? found : { passkey: found.credential };
}

// A button that does `work` (which says what went wrong, or nothing) and shows its refusal beside it.
function button(label, work, attrs = {}) {
  const problem = h("p", { class: "problem", role: "alert" });
  const node = h("button", { type: "button", ...attrs, onclick: async () => {
    problem.textContent = "";
    node.disabled = true;
    const said = await work();
    node.disabled = false;
    if (said) problem.textContent = sentence(said);
  } }, label);
  return [node, problem];
}

// "Sign in with a passkey": with the name typed in the sign-in form (`name()`), or any of the café's passkeys.
export function signInPart(post, name, done) {
  if (!supported()) return null;
  return h("div", { class: "account-form passkeys" }, button(t("Sign in with a passkey"), async () => {
    const typed = name().trim();
    const found = await ceremony(post, "challenge", typed ? { name: typed } : {}, false);
    if (found.error) return found.error;
    const answer = await post("passkeys/sign-in", { credential: found.credential });
    return answer.error ?? done();
  }));
}

// For a guest: their name becomes theirs with a passkey instead of a password.
export function claimPart(post, token, claimed) {
  if (!supported()) return null;
  return h("div", { class: "account-form passkeys" },
    h("p", {}, t("Or keep your name with a passkey instead of a password: your device unlocks it with your "
      + "fingerprint, your face or its PIN.")),
    button(t("Create a passkey"), async () => {
      const found = await ceremony(post, "new", { token }, true);
      if (found.error) return found.error;
      const answer = await post("passkeys/add", { token, credential: found.credential });
      return answer.error ?? claimed(answer);
    }));
}

const when = (seconds) => new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang,
  { year: "numeric", month: "long", day: "numeric" });

// For an account: its passkeys (each with "Remove") and "Create a passkey", redrawn after each change; and whether
// the account has a password.
export async function listPart(post) {
  if (!supported()) return { node: null, password: true };
  const node = h("section", { class: "account-form passkeys", "aria-labelledby": "passkeys-title" });
  const draw = (found) => {
    if (found.error) return found.error;
    node.replaceChildren(h("h3", { id: "passkeys-title" }, t("Passkeys")),
      found.passkeys.length ? h("ul", { class: "passkey-list" }, found.passkeys.map((key) => h("li", {},
        h("span", {}, key.used ? t("Added on {date}, last used on {used}", { date: when(key.created), used: when(key.used) })
          : t("Added on {date}, never used yet", { date: when(key.created) })),
        button(t("Remove"), async () => {
          const sure = await ask(t("Remove this passkey? It will no longer sign you in."), t("Remove"), t("Keep it"));
          return sure ? draw(await post("passkeys/remove", { id: key.id })) : null;
        }, { class: "quiet" })))) : h("p", {}, t("No passkey yet.")),
      ...button(t("Create a passkey"), async () => {
        const made = await ceremony(post, "new", {}, true);
        return made.error ?? draw(await post("passkeys/add", { credential: made.credential }));
      }));
    return null;
  };
  const found = await post("passkeys");
  if (found.error) node.append(h("p", { class: "problem", role: "alert" }, sentence(found.error)));
  else draw(found);
  return { node, password: found.password !== false };
}
