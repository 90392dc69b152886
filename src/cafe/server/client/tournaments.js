// The tournaments page: "#tournaments" lists them and opens one; "#tournament=ID" shows one's entries, standings and
// pairings, read again every few seconds, with a link to one's own table (docs/tournaments.md, docs/protocol.md).

import { seatName } from "./botmarks.js";
import { openForm, settingsView } from "./cupform.js";
import { h, replace, sentence } from "./dom.js";
import { number, t } from "./i18n.js";

const STATUS = { open: () => t("entries open"), playing: () => t("under way"), finished: () => t("finished") };
const POLL_MS = 3000; // how often a tournament's page reads it again while it is on screen

export class TournamentsPage {
  constructor(catalogue, token, id) {
    this.catalogue = catalogue;
    this.token = token;
    this.id = id;
    this.problem = h("p", { class: "problem", role: "alert" });
    this.root = h("div", { class: "tournaments" }, h("p", {}, t("loading…")));
    if (id) this.poll();
    else this.list();
  }

  async call(path, body) {
    const response = await fetch(path, {
      method: body ? "POST" : "GET",
      headers: { "X-Cafe-Token": this.token ?? "", "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(sentence(answer.error));
    return answer;
  }

  async act(path, body) {
    try {
      this.show(await this.call(path, body));
      this.problem.textContent = "";
    } catch (error) {
      this.problem.textContent = error.message;
    }
  }

  async list() {
    const found = await this.call("/tournaments.json");
    const form = openForm(this.catalogue, async (asked) => {
      const opened = await this.call("/tournaments/open", asked);
      location.hash = `tournament=${opened.id}`;
    }, this.problem);
    replace(this.root, h("h1", {}, t("Tournaments")),
      h("ul", { class: "cup-list" }, found.map((cup) => h("li", {}, h("a", { href: `#tournament=${cup.id}` }, cup.name),
        " · ", STATUS[cup.status]?.() ?? ""))),
      form);
  }

  async poll() {
    if (this.timer !== undefined && !this.root.isConnected) return; // the page was left
    try {
      this.show(await this.call(`/tournaments/${this.id}.json`));
    } catch (error) {
      this.problem.textContent = error.message;
    }
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  show(cup) {
    const path = `/tournaments/${cup.id}`;
    const buttons = [];
    if (cup.entries_open && !cup.you) buttons.push(h("button", { onclick: () => this.act(`${path}/enter`, {}) }, t("Enter the tournament")));
    if (cup.you && !cup.final) buttons.push(h("button", { onclick: () => this.act(`${path}/withdraw`, {}) }, t("Withdraw")));
    if (cup.directing && cup.entries_open) {
      buttons.push(h("button", { onclick: () => this.act(`${path}/enter`, { bot: "medium" }) }, t("Add a computer player")));
    }
    if (cup.directing && !cup.final) buttons.push(h("button", { onclick: () => this.act(`${path}/start`, {}) }, t("Start the next round")));
    const table = cup.table ? h("p", { class: "your-table" }, h("a", { href: `#room=${cup.table}`, class: "button" }, t("Go to your table"))) : null;
    const standings = h("table", { class: "standings" },
      h("tr", {}, h("th", {}, "#"), h("th", {}, t("player")), h("th", {}, t("match points")), h("th", {}, t("wins")),
        h("th", {}, t("score"))),
      cup.standings.map((row) => h("tr", {}, h("td", {}, row.rank), h("td", {}, seatName(row)),
        h("td", {}, number(row.match_points, 2)), h("td", {}, row.wins), h("td", {}, row.score))));
    const last = cup.played.at(-1);
    const programs = new Set(cup.entries.filter((e) => e.bot_account).map((e) => e.id)); // bot accounts' entries
    const seated = (tbl) => tbl.seats.map((name, k) => seatName({ name, bot_account: programs.has(tbl.entries[k]) }));
    const pairing = last ? h("section", { class: "pairing" }, h("h2", {}, t("Round {round}", { round: last.number })),
      h("ol", {}, last.tables.map((tbl) => h("li", {}, seated(tbl).join(" – "), tbl.done ? ` (${t("done")})` : "")))) : null;
    replace(this.root, h("p", {}, h("a", { href: "#tournaments" }, t("Tournaments"))), h("h1", {}, cup.name),
      h("p", {}, cup.final ? t("The tournament is over.") : cup.entries_open ? t("Entries are open.") : ""),
      table, buttons, this.problem, settingsView(cup, this.catalogue),
      h("h2", {}, t("Standings")), standings, pairing,
      h("p", {}, t("Entries: {names}", { names: cup.entries.map(seatName).join(", ") })));
  }
}
