// The tutorial at "#learn" and "#learn=ID": lessons that make the person do the moves, one idea each (docs/learn.md).
// The café is drawn and played as in a room (board.js, steps.js); the server checks every step with the engine
// (POST /lessons/ID) and keeps nothing: the steps of the lesson in progress are here, and what the person has done
// of the tutorial stays in this browser (localStorage).

import { drawBoard, markSteps, nationChooser, tileButton } from "./board.js";
import { announce, announcer, h, replace, sentence, signed } from "./dom.js";
import { language, t } from "./i18n.js";
import { movesOf, parseStep, tileWords, whereTo } from "./steps.js";

const KEY = "cafe-lessons";

// What this browser has done of the tutorial: { done: [ids], skipped: [ids] }.
export function progress() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    const list = (value) => (Array.isArray(value) ? value : []);
    return { done: list(kept.done), skipped: list(kept.skipped) };
  } catch {
    return { done: [], skipped: [] };
  }
}

function keep(id, done) {
  const now = progress();
  if (done) {
    now.done = [...new Set([...now.done, id])];
    now.skipped = now.skipped.filter((other) => other !== id);
  } else if (!now.done.includes(id)) now.skipped = [...new Set([...now.skipped, id])];
  localStorage.setItem(KEY, JSON.stringify(now));
}

// The lobby's way in: first of all for a person who has never played nor begun the tutorial, else a line.
export function learnEntry(newcomer) {
  const { done } = progress();
  if (newcomer && !done.length) {
    return h("section", { class: "learn-offer" }, h("h2", {}, t("New to Café International?")),
      h("p", {}, t("Learn the game in a few minutes: short lessons in which you make the moves yourself.")),
      h("a", { class: "button go", href: "#learn" }, t("Learn to play")));
  }
  return h("p", { class: "learn-link" },
    h("a", { href: "#learn" }, done.length ? t("Go on with the tutorial") : t("Learn to play: the tutorial")));
}

export class LearnView {
  constructor(catalogue) {
    this.catalogue = catalogue;
    this.lessons = [];
    this.lesson = null;
    this.state = null; // the server's last answer: steps, done, view, svg, legal, points
    this.selected = null;
    this.selectedAt = null;
    this.chooser = null; // a chair whose steps differ only in a joker's nation
    this.refusal = null;
    this.shown = false; // "Show me": the steps of an accepted turn marked on the café
    this.board = h("div", { class: "board", id: "board" });
    this.panel = h("div", { class: "panel" });
    this.spoken = announcer();
    this.root = h("div", { class: "room-view learn-view" }, h("div", { class: "table-side" }, this.board),
      h("div", { class: "side" }, this.panel), this.spoken);
  }

  // The lesson of the page's address, or the first this browser has neither done nor skipped.
  async show(id) {
    if (!this.lessons.length) {
      this.lessons = (await (await fetch(`/lessons.json?lang=${language()}`)).json()).lessons;
    }
    const { done, skipped } = progress();
    const lesson = this.lessons.find((l) => l.id === id)
      ?? this.lessons.find((l) => !done.includes(l.id) && !skipped.includes(l.id)) ?? this.lessons[0];
    if (this.lesson?.id === lesson.id && this.state) return;
    this.lesson = lesson;
    await this.ask([]);
    this.centreOn(this.lesson.paths[0].map(parseStep).find((step) => step.target && step.target !== "bar")?.target);
    this.panel.querySelector("h2")?.focus();
  }

  // A café larger than its frame (a phone's) is panned to where the lesson plays, not left at its middle.
  centreOn(target) {
    const box = target && this.board.querySelector(`[data-chair="${target}"], [data-place="${target}"]`);
    if (!box) return;
    const [at, frame] = [box.getBoundingClientRect(), this.board.getBoundingClientRect()];
    this.board.scrollLeft += at.left + at.width / 2 - (frame.left + frame.width / 2);
    this.board.scrollTop += at.top + at.height / 2 - (frame.top + frame.height / 2);
  }

  // Asks the server for the lesson after these steps and, maybe, one more.
  // Only the answer to the last question counts (a second click before the first answer came).
  async ask(steps, step) {
    const asked = (this.asked = (this.asked ?? 0) + 1);
    let answer;
    let body;
    try {
      answer = await fetch(`/lessons/${encodeURIComponent(this.lesson.id)}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ steps, ...(step ? { step } : {}), lang: language() }),
      });
      body = await answer.json();
    } catch {
      answer = { ok: false };
      body = { error: t("offline") };
    }
    if (asked !== this.asked) return;
    if (!answer.ok) {
      this.refusal = { message: body.error ?? String(answer.status), nudge: "" };
    } else if (body.refusal) {
      this.refusal = body.refusal;
      this.tell(`${this.refused()} ${this.refusal.nudge}`);
    } else {
      const played = this.state && body.steps.length > this.state.steps.length;
      this.state = body;
      this.refusal = null;
      this.selected = this.selectedAt = this.chooser = null;
      this.shown = false;
      if (body.done) {
        keep(this.lesson.id, true);
        this.tell(this.lesson.done);
      } else if (played) this.tell(t("Played: {step}. Go on.", { step: body.steps.at(-1) }));
    }
    this.render();
    if (this.state?.done) this.panel.querySelector(".next")?.focus();
  }

  // The engine's refusal as a sentence with its rule id ("… (R2.3.1)"); a legal step off the lesson's way has none.
  refused() {
    const { rule, message } = this.refusal;
    return rule && rule !== "other" ? `${sentence(message)} (${rule})` : sentence(message);
  }

  tell(text) {
    announce(this.spoken, text);
  }

  render() {
    const had = this.root.contains(document.activeElement) ? document.activeElement : null;
    const tileAt = had?.dataset?.index;
    const state = this.state;
    if (!state) return;
    const view = state.view;
    const moves = this.selected ? movesOf(this.selected, state.legal, state.points) : null;
    const lit = new Map();
    if (moves) {
      for (const [chair, steps] of moves.chairs) lit.set(chair, Math.max(...steps.map((s) => s.points)));
      if (moves.bar) lit.set(String(view.bar.length + 1), moves.bar.points);
    }
    Object.assign(this.root.dataset, { lesson: this.lesson.id, steps: state.steps.length, done: state.done });
    drawBoard(this.board, state.svg, lit, (target) => this.pick(target, moves), view, this.catalogue);
    if (this.shown) markSteps(this.board, this.rest(), "hinted", state.steps.length + 1); // where, in order
    const number = this.lessons.indexOf(this.lesson) + 1;
    replace(this.panel,
      h("div", { class: "room-head" }, h("h2", { tabindex: -1 }, this.lesson.title),
        h("span", { class: "facts" }, `${t("Lesson {n} of {total}", { n: number, total: this.lessons.length })} · ${
          t("Rules: {rules}", { rules: this.lesson.rules.join(", ") })}`)),
      h("p", { class: "lesson-intro" }, this.lesson.intro),
      h("p", { class: "lesson-goal" }, h("strong", {}, this.lesson.goal)),
      this.refusal ? h("div", { class: "refusal", role: "alert" }, h("p", {}, `✗ ${this.refused()}`),
        this.refusal.nudge ? h("p", { class: "nudge" }, this.refusal.nudge) : null) : null,
      state.done ? h("p", { class: "lesson-done", role: "status" }, `✓ ${this.lesson.done}`) : null,
      this.scores(),
      this.shown && !state.done
        ? h("p", { class: "shown" }, t("Try: {steps}", { steps: this.rest().join(" → ") })) : null,
      state.done ? null : this.hand(),
      this.controls(moves),
      this.list());
    if (had && !this.root.contains(document.activeElement)) {
      const again = tileAt !== undefined ? this.panel.querySelector(`.tile[data-index="${tileAt}"]`) : null;
      (again ?? this.panel.querySelector(".tile:not(:disabled)") ?? this.panel.querySelector("h2"))?.focus();
    }
  }

  // The steps still to take of the first accepted turn that the steps so far begin ("Show me").
  rest() {
    const done = this.state.steps;
    const path = this.lesson.paths.find((p) => done.every((step, k) => p[k] === step)) ?? [];
    return path.slice(done.length);
  }

  // Both seats' points as they stand (after the end with the penalties in them): what the lesson's steps scored.
  scores() {
    const { players, scores, penalties } = this.state.view;
    const points = (n) => (n < 0 ? `−${-n}` : String(n)); // a true minus, as print has it
    return h("p", { class: "counts" }, t("Points: {scores}", { scores: players.map((name, i) => `${name} ${
      points(scores[i])}${penalties[i] ? ` (${t("−{n} penalty", { n: penalties[i] })})` : ""}`).join(" · ") }));
  }

  hand() {
    const tiles = this.state.view.hands[0] ?? [];
    const shown = this.shown ? tiles.indexOf(parseStep(this.rest()[0] ?? "").tile) : -1; // "Show me": the guest to pick
    return h("section", { class: "hand" }, h("h3", {}, t("Your hand")),
      h("div", { class: "tiles", role: "group", "aria-label": t("Your hand") }, tiles.map((tile, k) =>
        tileButton(tile, k, this.catalogue,
          { selected: this.selectedAt === k, hinted: shown === k, onclick: () => this.select(tile, k) }))));
  }

  controls(moves) {
    const state = this.state;
    const buttons = [];
    const step = (text) => this.ask(state.steps, text);
    if (!state.done) {
      const has = (kind) => state.legal.includes(kind);
      if (moves?.bar) {
        buttons.push(h("button", { class: "bar", onclick: () => step(moves.bar.text) },
          t("To the bar ({points})", { points: signed(moves.bar.points) })));
      }
      if (moves?.down) buttons.push(h("button", { onclick: () => step(moves.down.text) }, t("Lay face down")));
      if (has("stop")) buttons.push(h("button", { class: "go", onclick: () => step("stop") }, t("End turn")));
      if (has("pass")) buttons.push(h("button", { onclick: () => step("pass") }, t("Pass")));
      if (has("draw")) buttons.push(h("button", { onclick: () => step("draw") }, t("Draw a card")));
      if (has("close")) buttons.push(h("button", { onclick: () => step("close") }, t("Close (end the game)")));
      buttons.push(h("button", { class: "quiet", onclick: () => { this.shown = true; this.render(); } }, t("Show me")));
    }
    const last = this.lessons.indexOf(this.lesson) === this.lessons.length - 1;
    if (state.done && !last) {
      buttons.push(h("button", { class: "go next", onclick: () => this.next() }, t("Next lesson")));
    }
    buttons.push(h("button", { class: "quiet", onclick: () => this.again() }, t("Start again")));
    if (!state.done && !last) buttons.push(h("button", { class: "quiet", onclick: () => this.skip() }, t("Skip")));
    buttons.push(h("a", { class: "button quiet", href: "#" }, t("Lobby")));
    const line = state.done ? (last ? t("That was the last lesson.") : "") : this.selected
      ? t("{guest}: {what}",
        { guest: tileWords(this.selected, this.catalogue), what: whereTo(moves, state.view.edition) })
      : t("Pick from your hand, or use the buttons.");
    return h("section", { class: "controls" }, line ? h("p", { class: "turn-line" }, line) : null,
      this.chooser ? nationChooser(this.chooser, this.catalogue, (text) => this.ask(this.state.steps, text)) : null,
      h("div", { class: "buttons" }, buttons));
  }



  // Every lesson, those done ticked: any may be opened, again too.
  list() {
    const { done } = progress();
    return h("details", { class: "lesson-list" },
      h("summary", {}, t("All lessons ({done} of {total} done)", { done: done.length, total: this.lessons.length })),
      h("ol", {}, this.lessons.map((l) => h("li", { class: l === this.lesson ? "current" : "" },
        h("a", { href: `#learn=${l.id}` }, l.title), done.includes(l.id) ? ` ✓` : ""))));
  }

  select(tile, at) {
    [this.selected, this.selectedAt] = this.selectedAt === at ? [null, null] : [tile, at];
    this.chooser = null;
    this.render();
    if (this.selected) this.board.querySelector(".lit[data-chair], .lit[data-place]")?.focus();
  }

  // A chair, place or stool picked: its step, or (not lit) the step all the same, for the engine to say why not.
  pick(target, moves) {
    if (this.state.done) return;
    if (!this.selected) {
      this.refusal = { message: t("Pick a guest from your hand first."), nudge: "" };
      this.tell(this.refusal.message);
      return this.render();
    }
    if (target.startsWith("stool:")) return this.ask(this.state.steps, moves?.bar?.text ?? `${this.selected}@bar`);
    const steps = moves?.chairs.get(target);
    if (!steps) return this.ask(this.state.steps, `${this.selected}@${target}`);
    if (steps.length === 1) return this.ask(this.state.steps, steps[0].text);
    this.chooser = { chair: target, steps };
    this.render();
    this.panel.querySelector(".chooser button")?.focus();
  }

  next() {
    const at = this.lessons.indexOf(this.lesson);
    location.hash = `learn=${this.lessons[at + 1].id}`;
  }

  skip() {
    keep(this.lesson.id, false);
    this.next();
  }

  again() {
    this.state = null;
    this.show(this.lesson.id);
  }
}
