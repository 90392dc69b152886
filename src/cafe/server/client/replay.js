// A finished game's own page ("#game=ID"): step through it by step or by turn (buttons, arrow keys), the café at
// each moment, the turns with their points, and its analysis; and a player's page ("#player=ID").

import { icon, tileChips } from "./pictures.js";
import { drawBoard, markSteps } from "./board.js";
import { h, replace, rulesText, signed } from "./dom.js";
import { t, tn } from "./i18n.js";
import { editionName } from "./lobby.js";

// How the analysis judges a turn, in words (cafe.ai.analysis)
const VERDICTS = {
  best: () => t("best"), good: () => t("good"), inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"),
  blunder: () => t("blunder"),
};
const verdict = (name) => VERDICTS[name]?.() ?? name;

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
    this.ply = Math.max(0, Math.min(ply, this.game.steps.length));
    const answer = await fetch(`/games/${this.id}/at/${this.ply}.json`, { headers: asker() });
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
        step ? ` · ${game.players[step.seat]}: ${step.step}${step.points ? ` (${signed(step.points)})` : ""}`
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
        best: turn.best, value: turn.best_value.toFixed(1), played: turn.played, verdict: verdict(turn.class),
        loss: turn.loss.toFixed(1) })) : null,
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
      }, `${game.players[turn.seat]}: ${turn.steps.join(", ") || "—"}`, turn.points ? ` (${signed(turn.points)})` : "",
      judged ? h("span", { class: "verdict" }, ` ${verdict(judged.class)}${
        judged.loss < 0.05 ? "" : ` −${judged.loss.toFixed(1)}`}`) : null); // nothing lost is not "−0.0"
    }));
  }

  analysisPart() {
    const status = this.status ?? { state: "none" };
    if (status.state === "done") {
      return h("section", { class: "analysis" }, h("h3", {}, t("Analysis")),
        h("table", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("mean loss")), h("th", {}, t("mistakes")),
          h("th", {}, t("blunders"))),
        status.analysis.players.map((p) => h("tr", {}, h("td", {}, p.name), h("td", {}, p.mean_loss.toFixed(2)),
          h("td", {}, p.mistake), h("td", {}, p.blunder)))));
    }
    if (status.state === "none") {
      return h("button", { class: "go analyse", onclick: () => this.request() }, t("Analyse this game"));
    }
    const line = status.state === "queued"
      ? tn("Waiting for the analysis: {n} game before this one (games are analysed one at a time).",
        "Waiting for the analysis: {n} games before this one (games are analysed one at a time).", status.position)
      : t("Analysing: {done} of {total} turns.", status);
    return h("p", { class: "analysing", role: "status" }, line);
  }

  async request() {
    const answer = await fetch(`/games/${this.id}/analysis`, { method: "POST" });
    this.track(await answer.json());
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
  const change = (g) => (g.rating_after === null ? t("unrated")
    : `${g.rating_before === null ? t("new") : g.rating_before.toFixed(1)} → ${g.rating_after.toFixed(1)}`);
  return h("section", { class: "player-page" }, h("h2", {}, player.name),
    player.games.length
      ? h("table", {}, h("tr", {}, h("th", {}, t("game")), h("th", {}, t("place")), h("th", {}, t("rating"))),
        player.games.map((g) => h("tr", {},
          h("td", {}, h("a", { href: `#game=${g.room}` }, `${g.name} (${editionName(g.edition)})`)),
          h("td", {}, g.place), h("td", {}, change(g)))))
      : h("p", {}, t("No finished games yet.")),
    h("p", {}, h("a", { href: "#" }, t("Back to the lobby"))));
}
