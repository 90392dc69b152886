// Bot accounts in the lobby and the rooms (docs/protocol.md, "Bots"): a bot's name is marked as such wherever a
// seat's name is shown ("Robo (bot)"), and bots have a leaderboard of their own, apart from people's.
import { h } from "./dom.js";
import { number, t } from "./i18n.js";

export function seatName(seat) {
  if (!seat) return "?";
  return seat.bot_account ? t("{name} (bot)", { name: seat.name }) : seat.name;
}

// The rated bots, once there are any (the section stays empty until then).
export function botsBoard() {
  const board = h("section", { class: "leaderboard bots-board", hidden: true });
  fetch("/leaderboard/bots").then((answer) => answer.json()).then((bots) => {
    if (!bots.length) return;
    board.hidden = false;
    board.replaceChildren(h("h2", {}, t("Bots' leaderboard")), h("table", {},
      h("tr", {}, h("th", {}, t("bot")), h("th", {}, t("rating")), h("th", {}, t("games"))),
      bots.map((b) => h("tr", {}, h("td", {}, h("a", { href: `#player=${b.player}` }, t("{name} (bot)", b))),
        h("td", {}, number(b.rating, 1), b.provisional ? ` (${t("provisional")})` : ""), h("td", {}, b.games)))));
  }).catch(() => {}); // offline: the people's leaderboard says so
  return board;
}
