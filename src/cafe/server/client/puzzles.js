// The puzzles page ("#puzzles"): a position from a game of the computer players where one whole turn is clearly
// the best. The person plays the turn on the café as in a game (board.js, steps.js); the server says after each
// step what may follow, judges the try, and moves the person's puzzle rating and the puzzle's (docs/puzzles.md).

import { drawBoard, markSteps } from "./board.js";
import { h, replace, sentence, signed } from "./dom.js";
import { number, t } from "./i18n.js";
import { editionName } from "./lobby.js";
import { movesOf, parseStep, playableTiles, tileWords, turnWords } from "./steps.js";

export class PuzzlePage {
  constructor(catalogue, token) {
    this.catalogue = catalogue;
    this.token = token;
    this.edition = "board";
    this.puzzle = null; // the puzzle as served, and its position after the steps so far
    this.at = null;
    this.steps = [];
    this.selected = null;
    this.chooser = null; // a chair whose steps differ only in a joker's nation
    this.result = null; // the judged try
    this.problem = "";
    this.board = h("div", { class: "board", id: "board" });
    this.panel = h("div", { class: "panel" });
    this.root = h("div", { class: "room-view puzzles" }, h("div", { class: "table-side" }, this.board),
      h("div", { class: "side" }, this.panel));
    this.next();
  }

  async call(path, body) {
    const response = await fetch(path, {
      method: body ? "POST" : "GET",
      headers: { "X-Cafe-Token": this.token ?? "", "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.rule ? `${sentence(answer.error)} (${answer.rule})` : sentence(answer.error));
    return answer;
  }

  async next() {
    this.result = null;
    this.steps = [];
    this.selected = this.chooser = null;
    try {
      this.puzzle = await this.call(`/puzzles/next.json?edition=${this.edition}`);
      this.at = this.puzzle;
      this.problem = "";
    } catch (error) {
      this.problem = error.message;
    }
    this.render();
    this.panel.querySelector("h2")?.focus();
  }

  async step(text) {
    const steps = [...this.steps, text];
    try {
      const at = await this.call(`/puzzles/${this.puzzle.id}/at`, { steps });
      this.steps = steps;
      this.selected = this.chooser = null;
      this.problem = "";
      if (at.done) return this.submit();
      this.at = at;
    } catch (error) {
      this.problem = error.message;
    }
    this.render();
  }

  async submit() {
    const turn = this.steps.filter((s) => s !== "stop").join(",") || "stop";
    try {
      this.result = await this.call(`/puzzles/${this.puzzle.id}/try`, { turn });
      this.at = this.puzzle; // the solution is shown on the position as it was
      this.problem = "";
    } catch (error) {
      this.problem = error.message;
    }
    this.render();
    this.panel.querySelector(".result")?.focus();
  }

  again() {
    this.steps = [];
    this.selected = this.chooser = null;
    this.at = this.puzzle;
    this.render();
  }

  render() {
    const at = this.at;
    const moves = this.selected && at?.legal ? movesOf(this.selected, at.legal, at.points) : null;
    const lit = new Map();
    if (moves && !this.result) {
      for (const [chair, steps] of moves.chairs) lit.set(chair, Math.max(...steps.map((s) => s.points)));
      if (moves.bar) lit.set(String(at.view.bar.length + 1), moves.bar.points);
    }
    if (at?.view) drawBoard(this.board, at.svg, lit, (target) => this.pick(target, moves), at.view, this.catalogue);
    else replace(this.board);
    if (this.result) markSteps(this.board, this.result.answers[0].split(","), "hinted", 1);
    replace(this.panel, this.header(), this.problem ? h("p", { class: "problem", role: "alert" }, this.problem) : null,
      at?.view ? this.players() : null, at?.view && !this.result ? this.hand() : null,
      at?.view && !this.result ? this.controls(moves) : null, this.result ? this.judged() : null);
    Object.assign(this.root.dataset, { puzzle: this.puzzle?.id ?? "", steps: this.steps.length });
  }

  header() {
    const you = this.result ? { rating: this.result.you.after, streak: this.result.you.streak } : this.puzzle?.you;
    const editions = h("div", { class: "buttons", role: "group", "aria-label": t("edition") },
      ["board", "cards"].map((edition) => h("button", {
        class: edition === this.edition ? "go" : "quiet", "aria-pressed": String(edition === this.edition),
        onclick: () => { this.edition = edition; this.next(); } }, editionName(edition))));
    return h("div", { class: "room-head" }, h("h2", { tabindex: -1 }, t("Puzzles")),
      you ? h("p", { class: "puzzle-standing" }, t("Your puzzle rating: {rating}", { rating: you.rating }), " · ",
        t("Streak: {n}", { n: you.streak })) : null,
      editions, h("a", { href: "#", class: "quiet" }, t("Lobby")));
  }

  players() {
    const view = this.at.view;
    const mover = this.puzzle.mover;
    const task = h("p", { class: "turn-line task" }, t("You play {name}: find the clearly best whole turn.",
      { name: view.players[mover] }), " ", h("span", { class: "facts" },
      t("Puzzle rating {rating} ({difficulty})", { rating: this.puzzle.rating, difficulty: this.puzzle.difficulty })));
    const rows = view.players.map((name, i) => h("tr", { class: i === mover ? "current you" : "" },
      h("td", {}, name, i === mover ? ` (${t("you")})` : ""), h("td", {}, view.scores[i]),
      h("td", {}, view.hand_counts[i])));
    const counts = view.edition === "board"
      ? t("Bar: {taken}/{stools}", { taken: view.bar.length, stools: view.bar_values.length })
        + (view.bar_values[view.bar.length] !== undefined
          ? ` · ${t("next stool {points}", { points: signed(view.bar_values[view.bar.length]) })}` : "")
      : t("Table cards left: {n}", { n: view.table_pile_count });
    return [task, h("section", { class: "position" }, h("table", { class: "players" }, h("tr", {}, h("th", {}, t("player")),
      h("th", {}, t("score")), h("th", {}, view.edition === "board" ? t("hand") : t("cards"))), rows),
    h("p", { class: "counts" }, counts),
    this.steps.length && !this.result ? h("p", { class: "steps-so-far" }, t("This turn so far: {steps}",
      { steps: turnWords(this.steps, this.catalogue) })) : null)];
  }

  hand() {
    const view = this.at.view;
    const tiles = view.hands[this.puzzle.mover] ?? [];
    const playable = playableTiles(this.at.legal);
    const nations = this.catalogue.nations;
    const buttons = tiles.map((tile, k) => {
      const nation = nations[tile.slice(0, 3)];
      return h("button", {
        class: `tile${this.selected === tile ? " selected" : ""}${nation?.light ? " light" : ""}`,
        style: { background: nation?.colour ?? "#777" }, "data-tile": tile, "data-index": k,
        title: tileWords(tile, this.catalogue),
        "aria-label": `${tile.slice(0, 3)}, ${tileWords(tile, this.catalogue)}`,
        "aria-pressed": this.selected === tile ? "true" : "false", disabled: !playable.has(tile),
        onclick: () => this.select(tile),
      }, tile.slice(0, 3), h("span", {}, tile.endsWith("f") ? "♀" : "♂"));
    });
    const down = view.edition === "cards" && view.face_down?.[this.puzzle.mover]?.length
      ? h("p", {}, t("Face down: {cards}", { cards: view.face_down[this.puzzle.mover].join(", ") })) : null;
    return h("section", { class: "hand" }, h("h3", {}, t("Your hand")),
      h("div", { class: "tiles", role: "group", "aria-label": t("Your hand") }, buttons), down);
  }

  controls(moves) {
    const steps = this.at.legal.map(parseStep);
    const has = (kind) => steps.some((s) => s.kind === kind);
    const buttons = [];
    if (moves?.bar) {
      buttons.push(h("button", { class: "bar", onclick: () => this.step(moves.bar.text) },
        t("To the bar ({points})", { points: signed(moves.bar.points) })));
    }
    if (moves?.down) {
      buttons.push(h("button", { "data-step": "down", onclick: () => this.step(moves.down.text) }, t("Lay face down")));
    }
    const word = { stop: t("End turn"), pass: t("Pass"), draw: t("Draw a card"), close: t("Close (end the game)") };
    for (const kind of ["stop", "pass", "draw", "close"]) {
      if (has(kind)) {
        buttons.push(h("button", { class: kind === "stop" ? "go" : "", "data-step": kind, onclick: () => this.step(kind) },
          word[kind]));
      }
    }
    if (this.steps.length) buttons.push(h("button", { class: "quiet", onclick: () => this.again() }, t("Start the turn again")));
    const line = this.selected ? t("{guest}: {what}", { guest: tileWords(this.selected, this.catalogue),
      what: t("choose a lit chair (click, or Enter on the café).") }) : t("Your turn: pick from your hand.");
    return h("section", { class: "controls" }, h("p", { class: "turn-line" }, line),
      this.chooser ? this.nationChooser() : null, h("div", { class: "buttons" }, buttons));
  }

  nationChooser() {
    const nations = this.catalogue.nations;
    return h("div", { class: "chooser", role: "group", "aria-label": t("the joker's nation") },
      h("p", {}, t("The joker on {chair} is of which nation?", { chair: this.chooser.chair })),
      this.chooser.steps.map((s) => h("button", {
        class: `nation${nations[s.nation]?.light ? " light" : ""}`, style: { background: nations[s.nation]?.colour },
        "data-nation": s.nation, onclick: () => this.step(s.text),
      }, `${nations[s.nation]?.name ?? s.nation} (${signed(s.points)})`)));
  }

  select(tile) {
    this.selected = this.selected === tile ? null : tile;
    this.chooser = null;
    this.render();
    if (this.selected) this.board.querySelector(".lit[data-chair], .lit[data-place]")?.focus();
  }

  pick(target, moves) {
    if (this.result || !this.selected) return;
    if (target.startsWith("stool:")) return this.step(moves?.bar?.text ?? `${this.selected}@bar`);
    const steps = moves?.chairs.get(target);
    if (!steps) return this.step(`${this.selected}@${target}`); // not lit: the server says why not
    if (steps.length === 1) return this.step(steps[0].text);
    this.chooser = { chair: target, steps };
    this.render();
    this.panel.querySelector(".chooser button")?.focus();
  }

  judged() {
    const r = this.result;
    const change = (before, after) => `${before} → ${after} (${signed(after - before)})`;
    return h("section", { class: `result ${r.solved ? "solved" : "failed"}`, role: "status", tabindex: -1 },
      h("h3", {}, r.solved ? t("Solved!") : t("Not the best turn.")),
      h("p", {}, t("Your turn: {turn}",
        { turn: turnWords(this.steps, this.catalogue) })),
      h("p", { class: "solution", "data-answers": r.answers.join(" ") }, // in notation for programs, in words for people
        t("Solution: {answer}", { answer: r.answers.map((a) => turnWords(a, this.catalogue)).join(" / ") }), " ",
        h("span", { class: "facts" }, t("(marked on the café)"))),
      h("p", {}, t("Theme: {theme}", { theme: r.theme }), " · ",
        t("{margin} points better than any other turn", { margin: number(r.margin, 1) })),
      h("p", { class: "reason" }, r.reason),
      r.rated ? [h("p", { class: "your-rating" }, t("Your puzzle rating: {rating}", { rating: change(r.you.before, r.you.after) })),
        h("p", { class: "its-rating" }, t("The puzzle's rating: {rating}", { rating: change(r.puzzle.before, r.puzzle.after) }))]
        : h("p", {}, t("You had tried this puzzle before: no rating moves.")),
      h("p", {}, t("Streak: {n}", { n: r.you.streak })),
      h("button", { class: "go", onclick: () => this.next() }, t("Next puzzle")));
  }
}
