// A finished game's own page ("#game=ID"): step through it by step or by turn (buttons, arrow keys), the café at
// each moment, the turns with their points, and its analysis; and a player's page ("#player=ID").

import { icon, tileChips } from "./pictures.js";
import { drawBoard, markSteps } from "./board.js";
import { seatName } from "./botmarks.js";
import { h, replace, rulesText, shownName, signed } from "./dom.js";
import { language, number, t, tn } from "./i18n.js";
import { editionName } from "./lobby.js";
import { stepSentence, turnWords } from "./steps.js";

// How the analysis judges a turn, in words (cafe.ai.analysis)
const VERDICTS = {
  best: () => t("best"), good: () => t("good"), inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"),
  blunder: () => t("blunder"),
};
const verdict = (name) => VERDICTS[name]?.() ?? name;
// a turn as the analysis writes it, in words

const TOKEN = "cafe-token";
const asker = () => (localStorage.getItem(TOKEN) ? { "X-Cafe-Token": localStorage.getItem(TOKEN) } : {});

export class ReplayView {
  constructor(id, catalogue) {
    this.id = id;
    this.catalogue = catalogue;
    this.game = null;
    this.ply = 0;
    this.position = null;
    this.analysis = null; // the analysis once done
    this.board = h("div", { class: "board", id: "board" });
    this.panel = h("div", { class: "panel" });
    this.log = h("ol", { class: "log replay-log", "aria-label": t("turns") });
    this.root = h("div", { class: "room-view replay", "data-game": id, tabindex: -1 },
      h("div", { class: "table-side" }, this.board),
      h("div", { class: "side" }, this.panel, h("section", { class: "turns" }, h("h3", {}, t("Turns")), this.log)));
    this.keys = (event) => this.key(event);
    document.addEventListener("keydown", this.keys);
    this.load();
  }

  close() {
    document.removeEventListener("keydown", this.keys);
    clearTimeout(this.polling);
  }

  async load() {
    const answer = await fetch(`/games/${this.id}.json`, { headers: asker() });
    if (!answer.ok) {
      replace(this.panel, h("p", { class: "problem" }, t("There is no finished game here.")));
      return;
    }
    this.game = await answer.json();
    this.game.players = this.game.players.map((name, seat) =>
      seatName({ name: shownName(name), bot_account: this.game.bots?.includes(seat) }));
    this.track(this.game.analysis);
    await this.go(this.game.steps.length);
    this.root.focus(); // the arrow keys step through the game at once
  }

  // the first step of each turn, and the step after the last
  get starts() {
    return [...this.game.turns.map((t) => t.start), this.game.steps.length];
  }

  turnAt(ply) {
    return this.game.turns.findIndex((t, k) => ply >= t.start && ply < this.starts[k + 1]);
  }

  async go(ply) {
    const wanted = (this.ply = Math.max(0, Math.min(ply, this.game.steps.length)));
    const answer = await fetch(`/games/${this.id}/at/${wanted}.json`, { headers: asker() });
    if (wanted !== this.ply) return; // another step was asked for meanwhile: its answer is shown instead
    if (answer.status === 429) { // too many positions asked for at once (a key held down): ask again soon
      const seconds = Number(answer.headers.get("Retry-After")) || 1;
      setTimeout(() => wanted === this.ply && this.go(wanted), seconds * 1000);
      return;
    }
    this.position = await answer.json();
    this.render();
  }

  byTurn(direction) {
    const starts = this.starts;
    const next = direction > 0 ? starts.find((s) => s > this.ply) : [...starts].reverse().find((s) => s < this.ply);
    this.go(next ?? (direction > 0 ? this.game.steps.length : 0));
  }

  key(event) {
    if (!this.game || event.target.closest?.("input, textarea, select")) return;
    const moves = {
      ArrowLeft: () => (event.shiftKey ? this.byTurn(-1) : this.go(this.ply - 1)),
      ArrowRight: () => (event.shiftKey ? this.byTurn(1) : this.go(this.ply + 1)),
      ArrowUp: () => this.byTurn(-1),
      ArrowDown: () => this.byTurn(1),
      Home: () => this.go(0),
      End: () => this.go(this.game.steps.length),
    };
    if (moves[event.key]) {
      event.preventDefault();
      moves[event.key]();
    }
  }

  render() {
    const game = this.game;
    const view = this.position.view;
    const turn = this.analysis?.turns[this.turnAt(this.ply)];
    const atStart = turn && this.ply === game.turns[turn.turn - 1].start;
    Object.assign(this.root.dataset, { ply: this.ply, plies: game.steps.length });
    drawBoard(this.board, this.position.svg, new Map(), () => {}, view, this.catalogue);
    if (atStart) markSteps(this.board, turn.best.split(","), "best"); // the best alternative, where the turn begins
    const step = this.ply ? game.steps[this.ply - 1] : null;
    const you = game.you;
    replace(this.panel,
      h("header", { class: "room-head" }, h("h2", {}, game.name),
        h("p", { class: "facts" }, `${editionName(game.edition)} · ${
          rulesText(game.rules, this.catalogue, game.edition)} · ${t("finished")}`)),
      h("table", { class: "players" },
        h("tr", {}, h("th", {}, t("player")), h("th", {}, t("score"))),
        game.players.map((name, seat) => h("tr", { class: seat === you ? "you" : "" },
          h("td", {}, seat === you ? `${name} (${t("you")})` : name), h("td", {}, view.scores[seat])))),
      you !== null && view.hands?.[you] ? h("div", { class: "own-hand" }, // the hand then, as it looked
        t("Your hand then: {tiles}", { tiles: "" }).trim(), tileChips(view.hands[you], this.catalogue)) : null,
      h("p", { class: "ply", "aria-live": "polite" }, t("Step {ply} of {plies}", { ply: this.ply, plies: game.steps.length }),
        step ? ` · ${stepSentence(game.players[step.seat], step.step, this.catalogue, view.bar?.length)}${
          step.points ? ` (${signed(step.points)})` : ""}` // said in words: the line is read as it changes
          : ` · ${t("the start")}`),
      h("div", { class: "buttons replay-buttons" },
        h("button", { onclick: () => this.go(0), "aria-label": t("the start") }, icon("start")),
        h("button", { onclick: () => this.byTurn(-1), "aria-label": t("a turn back") }, icon("turnBack")),
        h("button", { onclick: () => this.go(this.ply - 1), "aria-label": t("a step back") }, icon("back")),
        h("button", { onclick: () => this.go(this.ply + 1), "aria-label": t("a step forward") }, icon("forward")),
        h("button", { onclick: () => this.byTurn(1), "aria-label": t("a turn forward") }, icon("turnForward")),
        h("button", { onclick: () => this.go(game.steps.length), "aria-label": t("the end") }, icon("end"))),
      h("p", { class: "hint-line" }, t("Keys: ← → a step, ↑ ↓ (or shift + ← →) a turn, Home and End.")),
      atStart ? h("p", { class: "best-line" }, t("Best found: {best} ({value}); played: {played}, {verdict}, lost {loss}", {
        best: turnWords(turn.best, this.catalogue), value: number(turn.best_value, 1),
        played: turnWords(turn.played, this.catalogue), verdict: verdict(turn.class),
        loss: number(turn.loss, 1) })) : null,
      this.analysisPart(),
      h("p", {}, h("a", { href: `/records/${this.id}.json`, download: `cafe-${this.id}.json` }, t("Download the record")),
        " · ", h("a", { href: "#" }, t("Back to the lobby"))));
    this.renderLog();
  }

  renderLog() {
    const game = this.game;
    const current = this.turnAt(this.ply);
    replace(this.log, game.turns.map((turn, k) => {
      const judged = this.analysis?.turns[k];
      return h("li", {
        class: `${k === current ? "current" : ""} ${judged ? judged.class : ""}`.trim(),
        tabindex: 0,
        onclick: () => this.go(turn.start),
        onkeydown: (event) => { if (event.key === "Enter") this.go(turn.start); },
      }, `${game.players[turn.seat]}: ${turnWords(turn.steps, this.catalogue)}`, turn.points ? ` (${signed(turn.points)})` : "",
      judged ? h("span", { class: "verdict" }, ` ${verdict(judged.class)}${
        judged.loss < 0.05 || judged.class === "best" ? "" : ` −${number(judged.loss, 1)}`}`) : null); // never "−0.0", nor a loss beside "best"
    }));
  }

  analysisPart() {
    const status = this.status ?? { state: "none" };
    if (status.state === "done") {
      return h("section", { class: "analysis" }, h("h3", {}, t("Analysis")),
        h("table", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("mean loss")), h("th", {}, t("mistakes")),
          h("th", {}, t("blunders"))),
        status.analysis.players.map((p) => h("tr", {}, h("td", {}, shownName(p.name)),
          h("td", {}, number(p.mean_loss, 2)), h("td", {}, p.mistake), h("td", {}, p.blunder)))));
    }
    if (status.state === "none") {
      return h("div", {}, h("button", { class: "go analyse", onclick: () => this.request() }, t("Analyse this game")),
        status.problem ? h("p", { class: "problem", role: "alert" }, status.problem) : null);
    }
    const line = status.state === "queued"
      ? tn("Waiting for the analysis: {n} game before this one (games are analysed one at a time).",
        "Waiting for the analysis: {n} games before this one (games are analysed one at a time).", status.position)
      : t("Analysing: {done} of {total} turns.", status);
    return h("p", { class: "analysing", role: "status" }, line);
  }

  async request() {
    // the token makes a player of the game go first in the queue; a full queue says why in the reader's language
    const answer = await fetch(`/games/${this.id}/analysis?lang=${language()}`, { method: "POST", headers: asker() });
    const status = await answer.json();
    this.track(answer.ok ? status : { state: "none", problem: status.error });
  }

  track(status) {
    this.status = status;
    if (status.state === "done") this.analysis = status.analysis;
    if (this.position) this.render();
    if (status.state === "queued" || status.state === "running") {
      this.polling = setTimeout(async () => {
        const answer = await fetch(`/games/${this.id}/analysis`);
        this.track(await answer.json());
      }, 700);
    }
  }
}

export async function playerView(id) {
  const answer = await fetch(`/players/${id}.json`);
  if (!answer.ok) return h("p", { class: "problem" }, t("There is no such player."));
  const player = await answer.json();
  const rating = player.rating;
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  const change = (g) => {
    if (g.rating_after === null) return t("unrated");
    const before = g.rating_before === null ? t("new") : number(g.rating_before, 1);
    const by = g.rating_after - (g.rating_before ?? 0);
    return `${before} → ${number(g.rating_after, 1)} (${by >= 0 ? "+" : "−"}${number(Math.abs(by), 1)})`;
  };
  const others = (g) => g.players
    .map((name, seat) => (seat === g.seat ? null : `${shownName(name)} ${g.scores[seat]}`))
    .filter((x) => x !== null).join(", ");
  const standing = rating.value === null
    ? t("Not rated yet: games between two or more players with accounts are rated.")
    : `${t("Rating: {value}", { value: number(rating.value, 1) })}${rating.provisional ? ` (${t("provisional")})` : ""}`;
  return h("section", { class: "player-page" }, h("h2", {}, seatName({ name: player.name, bot_account: player.bot })),
    h("p", { class: "rating" }, standing),
    h("p", { class: "how" }, t("How the rating is computed: after each rated game, OpenSkill (Plackett-Luce) updates an "
      + "estimate of your skill and of its uncertainty from the places; the rating is the estimate less three times "
      + "the uncertainty, so it rises as you play and do well, and it is never shown below 0. It is provisional for "
      + "the first {n} rated games.", { n: rating.provisional_games })),
    player.games.length
      ? h("table", {}, h("tr", {}, h("th", {}, t("date")), h("th", {}, t("game")), h("th", {}, t("score")),
        h("th", {}, t("opponents")), h("th", {}, t("place")), h("th", {}, t("rating"))),
      player.games.map((g) => h("tr", {},
        h("td", {}, when.format(new Date(g.at * 1000))),
        h("td", {}, h("a", { href: `#game=${g.room}` }, `${g.name || g.room} (${editionName(g.edition)})`)),
        h("td", {}, g.scores[g.seat] ?? ""), h("td", {}, others(g)),
        h("td", {}, g.place), h("td", {}, change(g)))))
      : h("p", {}, t("No finished games yet.")),
    h("p", {}, h("a", { href: "#" }, t("Back to the lobby"))));
}
