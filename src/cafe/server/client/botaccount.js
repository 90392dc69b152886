// The bot part of the account panel: an account becomes a bot (a program plays it, docs/protocol.md "Bots"), or
// a person again while it has no rated game; a bot gets its API token here, shown this once, or revokes it.

import { h, sentence } from "./dom.js";
import { t } from "./i18n.js";

// `found`: the account as GET /account gives it; `post(path, body)` and `form(...)` are the panel's own.
export function botPanel(found, { post, form }) {
  const said = h("p", { class: "problem", role: "alert" });
  const turn = (bot) => async () => {
    said.textContent = "";
    const answer = await post("bot", { bot });
    if (answer.error) said.textContent = sentence(answer.error);
    else location.reload(); // the server closed this page's connection: it says hello again as what it is now
  };
  if (!found.bot) {
    return h("section", { class: "account-form bot-account" }, h("h3", {}, t("A bot account")),
      h("p", {}, t("A program can play as this account: it is then shown as a bot everywhere and rated on the bots' "
        + "leaderboard, apart from people. Only an account without rated games can become one.")),
      said, h("button", { type: "button", onclick: turn(true) }, t("Make this account a bot")));
  }
  const token = h("output", { class: "bot-token" });
  const made = form(t("A new API token"), [{ name: "password", label: t("Password"), autocomplete: "current-password" }],
    t("Make a new token"), async (values) => {
      const answer = await post("bot-token", values);
      if (answer.error) return answer.error;
      token.replaceChildren(h("code", {}, answer.token),
        h("span", {}, ` ${t("Copy it now: it is shown this once. An older token no longer works.")}`));
      return null;
    }, { about: h("p", {}, t("The program says hello with it: cafe bot --server ADDRESS --token TOKEN")) });
  const revoke = async () => {
    said.textContent = "";
    const answer = await post("bot-token/revoke");
    said.textContent = answer.error ? sentence(answer.error) : t("The token no longer works.");
  };
  return h("section", { class: "account-form bot-account" }, h("h3", {}, t("This account is a bot")), made, token, said,
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "quiet", onclick: revoke }, t("Revoke the token")),
      h("button", { type: "button", class: "quiet", onclick: turn(false) }, t("Make it a person again"))));
}
