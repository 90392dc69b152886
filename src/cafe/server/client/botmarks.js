// Bot accounts in the lobby and the rooms (docs/protocol.md, "Bots"): a bot's name is marked as such wherever a
// seat's name is shown ("Robo (bot)"), and bots have a leaderboard of their own, apart from people's.
import { h } from "./dom.js";
import { number, t } from "./i18n.js";

export function seatName(seat) {
  if (!seat) return "?";
  return seat.bot_account ? t("{name} (bot)", { name: seat.name }) : seat.name;
}

// The rated bots, once there are any (the section stays empty until then), each with a button that invites it
// to the person's open table (as "/invite NAME" there does), or says that they need one first.
export function botsBoard(actions) {
  const board = h("section", { class: "leaderboard bots-board", hidden: true });
  const problem = h("p", { class: "problem", role: "alert" });
  const invite = (name) => {
    const table = actions.mine().find((s) => s.status === "waiting" && s.host === actions.player());
    if (!table) {
      problem.textContent = t("To invite a bot, open a table of your own first; then invite it from here.");
      return;
    }
    actions.invite(table.id, name);
  };
  fetch("/leaderboard/bots").then((answer) => answer.json()).then((bots) => {
    if (!bots.length) return;
    board.hidden = false;
    board.replaceChildren(h("h2", {}, t("Bots' leaderboard")), h("table", {},
      h("tr", {}, h("th", {}, t("bot")), h("th", {}, t("rating")), h("th", {}, t("games")), h("th", {})),
      bots.map((b) => h("tr", {}, h("td", {}, h("a", { href: `#player=${b.player}` }, t("{name} (bot)", b))),
        h("td", {}, number(b.rating, 1), b.provisional ? ` (${t("provisional")})` : ""), h("td", {}, b.games),
        h("td", {}, h("button", { class: "invite-bot", onclick: () => invite(b.name),
          "aria-label": t("Invite {name} to your table", { name: b.name }) }, t("Invite")))))), problem);
  }).catch(() => {}); // offline: the people's leaderboard says so
  return board;
}
