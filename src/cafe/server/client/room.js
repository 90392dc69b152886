// A room: the café, the players, your hand and what you may do, the turn log, the chat, the end.

import { drawBoard, markSteps } from "./board.js";
import { h, replace, rulesText, signed } from "./dom.js";
import { movesOf, parseStep, playableTiles, tileWords } from "./steps.js";

export class RoomView {
  constructor(catalogue, actions) {
    this.catalogue = catalogue;
    this.actions = actions; // step(text), undo(), say(text), lobby()
    this.state = null;
    this.svg = "";
    this.selected = null; // a tile of your hand ...
    this.selectedAt = null; // ... and where it is in the hand (alike tiles are interchangeable)
    this.chooser = null; // a chair whose steps differ only in a joker's nation
    this.lines = [];
    this.board = h("div", { class: "board", id: "board" });
    this.panel = h("div", { class: "panel" });
    this.log = h("ol", { class: "log", "aria-label": "turns" });
    this.chatLines = h("ul", { class: "chat-lines", "aria-live": "polite" });
    const input = h("input", { name: "chat", placeholder: "chat, or /help", maxlength: 500, autocomplete: "off" });
    this.chatForm = h("form", {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        if (input.value.trim()) this.actions.say(input.value.trim());
        input.value = "";
      },
    }, input, h("button", { type: "submit" }, "Send"));
    this.root = h("div", { class: "room-view" },
      h("div", { class: "table-side" }, this.board),
      h("div", { class: "side" }, this.panel,
        h("section", { class: "turns" }, h("h3", {}, "Turns"), this.log),
        h("section", { class: "chat" }, h("h3", {}, "Chat"), this.chatLines, this.chatForm)));
  }

  show(state, svg) {
    if (this.state && (state.plies !== this.state.plies || state.status !== this.state.status)) {
      this.selected = this.selectedAt = null;
      this.chooser = null;
    }
    this.state = state;
    if (svg !== undefined && svg !== null) this.svg = svg;
    this.render();
  }

  showHint(step) {
    this.hint = { step, plies: this.state.plies };
    this.say(`Hint: ${step}`, "info");
    this.render();
  }

  say(line, kind = "chat") {
    this.lines.push({ line, kind });
    this.chatLines.append(h("li", { class: kind }, line));
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  get mine() {
    return this.state?.legal?.length > 0;
  }

  render() {
    const state = this.state;
    const view = state.view;
    Object.assign(this.root.dataset, { room: state.id, plies: state.plies, status: state.status, mine: this.mine });
    const moves = this.selected && this.mine ? movesOf(this.selected, state.legal, state.points) : null;
    const lit = new Map();
    if (moves) {
      for (const [chair, steps] of moves.chairs) lit.set(chair, Math.max(...steps.map((s) => s.points)));
      if (moves.bar && view) lit.set(String(view.bar.length + 1), moves.bar.points);
    }
    if (view) drawBoard(this.board, this.svg, lit, (target) => this.pick(target, moves));
    else replace(this.board, this.waiting());
    if (view && this.hint?.plies === state.plies) markSteps(this.board, [this.hint.step], "hinted");
    replace(this.panel, this.header(), view ? this.players() : null, view ? this.counts() : null,
      view && !view.over ? this.hand() : null, view && !view.over ? this.controls(moves) : null,
      view?.over ? this.gameOver() : null);
    this.renderLog();
  }

  header() {
    const state = this.state;
    const facts = `${state.edition === "board" ? "board game" : "card game"} · ${
      rulesText(state.rules, this.catalogue.options[state.edition])}`;
    const leave = state.you !== null && state.status !== "finished"
      ? h("button", { class: "quiet", onclick: () => this.actions.say("/leave") }, "Leave seat") : null;
    const match = state.match?.entrants.length
      ? h("p", { class: "match" }, `Match, best of ${state.match.best_of}, game ${state.match.game}: `,
        state.match.entrants.map((name, i) => `${name} ${state.match.wins[i]}`).join(", "))
      : state.match ? h("p", { class: "match" }, `A match: best of ${state.match.best_of}`) : null;
    return h("div", { class: "room-head" },
      h("h2", {}, state.name), h("span", { class: "facts" }, facts), match,
      h("button", { class: "quiet", onclick: () => this.actions.lobby() }, "Lobby"), leave);
  }

  waiting() {
    const state = this.state;
    const host = state.host === this.actions.player();
    const level = h("select", { "aria-label": "computer player level" },
      this.catalogue.levels.map((l) => h("option", { value: l, selected: l === "medium" }, l)));
    return h("div", { class: "waiting" },
      h("h3", {}, "Waiting for players"),
      h("ol", { class: "seats" }, state.seats.map((seat) =>
        h("li", {}, seat.name, seat.bot ? ` (computer, ${seat.bot})` : "",
          host && seat.seat !== state.you
            ? h("button", { class: "quiet", onclick: () => this.actions.say(`/kick ${seat.seat + 1}`) }, "remove") : null))),
      h("p", {}, `${state.seats.length} of at most ${state.max_players} seats taken; 2 are needed to start.`),
      state.you === null && state.seats.length < state.max_players
        ? h("button", { onclick: () => this.actions.say("/join") }, "Take a seat") : null,
      host ? h("div", { class: "host" }, level,
        h("button", { onclick: () => this.actions.say(`/bot ${level.value}`) }, "Add computer player"),
        h("button", { class: "quiet", onclick: () => this.actions.say(state.hints ? "/hints off" : "/hints on") },
          state.hints ? "No hints" : "Allow hints (not rated)"),
        h("button", { class: "go", disabled: state.seats.length < 2, onclick: () => this.actions.say("/start") },
          "Start the game")) : h("p", {}, "The host starts the game."));
  }

  players() {
    const { view, seats } = this.state;
    return h("table", { class: "players" },
      h("tr", {}, h("th", {}, "player"), h("th", {}, "score"), h("th", {}, view.edition === "board" ? "hand" : "cards")),
      seats.map((seat, i) => {
        const current = !view.over && view.current_player === i;
        const out = view.eliminated?.[i];
        const cards = view.edition === "cards" && view.face_down_counts[i] ? ` +${view.face_down_counts[i]} down` : "";
        return h("tr", { class: [current ? "current" : "", i === this.state.you ? "you" : ""].join(" ") },
          h("td", {}, current ? "▶ " : "", seat.name, i === this.state.you ? " (you)" : "", out ? " (out)" : ""),
          h("td", {}, view.scores[i], view.penalties[i] ? ` (−${view.penalties[i]} penalty)` : ""),
          h("td", {}, `${view.hand_counts[i]}${cards}`));
      }));
  }

  counts() {
    const view = this.state.view;
    if (view.edition === "board") {
      const next = view.bar_values[view.bar.length];
      return h("p", { class: "counts" }, `Bag: ${view.bag_count} guests · Bar: ${view.bar.length}/${view.bar_values.length}`,
        next !== undefined ? ` · next stool ${signed(next)}` : "");
    }
    return h("p", { class: "counts" }, `Deck: ${view.deck_count} cards · Table cards left: ${view.table_pile_count}`);
  }

  hand() {
    const { view, you } = this.state;
    if (you === null) return h("p", { class: "watching" }, "You are watching this game.");
    const tiles = view.hands[you] ?? [];
    const playable = playableTiles(this.state.legal);
    const nations = this.catalogue.nations;
    const buttons = tiles.map((tile, k) => {
      const nation = nations[tile.slice(0, 3)];
      return h("button", {
        class: `tile${this.selectedAt === k ? " selected" : ""}${nation?.light ? " light" : ""}`,
        style: { background: nation?.colour ?? "#777" },
        "data-tile": tile,
        "data-index": k,
        title: tileWords(tile, nations),
        "aria-pressed": this.selectedAt === k ? "true" : "false",
        disabled: this.mine && !playable.has(tile),
        onclick: () => this.select(tile, k),
      }, tile.slice(0, 3), h("span", {}, tile.endsWith("f") ? "♀" : "♂"));
    });
    const down = view.edition === "cards" && view.face_down?.[you]?.length
      ? h("p", {}, `Face down: ${view.face_down[you].join(", ")}`) : null;
    return h("section", { class: "hand" }, h("h3", {}, "Your hand"), h("div", { class: "tiles" }, buttons), down);
  }

  controls(moves) {
    const state = this.state;
    if (state.you === null) return null;
    if (!this.mine) {
      const who = state.seats[state.view.current_player]?.name ?? "someone";
      return h("p", { class: "turn-line" }, `${who} is on turn.`);
    }
    const steps = state.legal.map(parseStep);
    const has = (kind) => steps.some((s) => s.kind === kind);
    const line = this.selected
      ? `${tileWords(this.selected, this.catalogue.nations)}: click a lit ${state.view.edition === "board" ? "chair" : "place"}.`
      : "Your turn: pick from your hand.";
    const buttons = [];
    if (moves?.bar) buttons.push(h("button", { onclick: () => this.actions.step(moves.bar.text) },
      `To the bar (${signed(moves.bar.points)})`));
    if (moves?.down) buttons.push(h("button", { onclick: () => this.actions.step(moves.down.text) }, "Lay face down"));
    if (has("stop")) buttons.push(h("button", { class: "go", onclick: () => this.actions.step("stop") }, "End turn"));
    if (has("pass")) buttons.push(h("button", { onclick: () => this.actions.step("pass") }, "Pass"));
    if (has("draw")) buttons.push(h("button", { onclick: () => this.actions.step("draw") }, "Draw a card"));
    if (has("close")) buttons.push(h("button", { onclick: () => this.actions.step("close") }, "Close (end the game)"));
    if (state.can_undo) buttons.push(h("button", { class: "quiet", onclick: () => this.actions.undo() }, "Undo"));
    if (state.hints) buttons.push(h("button", { class: "quiet hint", onclick: () => this.actions.hint() }, "Hint"));
    return h("section", { class: "controls" }, h("p", { class: "turn-line" }, line),
      this.chooser ? this.nationChooser() : null, h("div", { class: "buttons" }, buttons));
  }

  nationChooser() {
    const nations = this.catalogue.nations;
    return h("div", { class: "chooser", role: "dialog", "aria-label": "the joker's nation" },
      h("p", {}, `The joker on ${this.chooser.chair} is of which nation?`),
      this.chooser.steps.map((s) => h("button", {
        class: `nation${nations[s.nation]?.light ? " light" : ""}`,
        style: { background: nations[s.nation]?.colour },
        "data-nation": s.nation,
        onclick: () => this.actions.step(s.text),
      }, `${nations[s.nation]?.name ?? s.nation} (${signed(s.points)})`)),
      h("button", { class: "quiet", onclick: () => { this.chooser = null; this.render(); } }, "Cancel"));
  }

  select(tile, at) {
    [this.selected, this.selectedAt] = this.selectedAt === at ? [null, null] : [tile, at];
    this.chooser = null;
    this.render();
  }

  pick(target, moves) {
    if (!this.mine) return this.actions.notice("It is not your turn.");
    if (!this.selected) return this.actions.notice("Pick a guest from your hand first.");
    if (target.startsWith("stool:")) {
      if (moves?.bar) this.actions.step(moves.bar.text);
      else this.actions.step(`${this.selected}@bar`); // the server says why not
      return;
    }
    const steps = moves?.chairs.get(target);
    if (!steps) return this.actions.step(`${this.selected}@${target}`); // not lit: the server says why not
    if (steps.length === 1) return this.actions.step(steps[0].text);
    this.chooser = { chair: target, steps };
    this.render();
  }

  renderLog() {
    const { log, seats } = this.state;
    replace(this.log, (log ?? []).map((turn) => h("li", {},
      `${seats[turn.seat]?.name ?? "?"}: ${turn.steps.join(", ") || "—"}`, turn.points ? ` (${signed(turn.points)})` : "",
      turn.hint ? h("span", { class: "hint-used" }, " (hint)") : null)));
    this.log.scrollTop = this.log.scrollHeight;
  }

  gameOver() {
    const { view, seats, id } = this.state;
    const order = seats.map((s, i) => i).sort((a, b) => view.scores[b] - view.scores[a]);
    const winner = view.winner === null ? "A shared first place" : `${seats[view.winner].name} wins`;
    return h("section", { class: "game-over", role: "status" },
      h("h3", {}, `Game over: ${winner}`),
      h("p", { class: "played" }, `Played: ${rulesText(this.state.rules, this.catalogue.options[this.state.edition])}`),
      view.end_reason ? h("p", {}, `The game ended: ${view.end_reason}.`) : null,
      h("table", {}, h("tr", {}, h("th", {}, "player"), h("th", {}, "score"), h("th", {}, "penalties (in the score)")),
        order.map((i) => h("tr", {}, h("td", {}, seats[i].name), h("td", {}, view.scores[i]),
          h("td", {}, view.penalties[i] ? `−${view.penalties[i]}` : "0")))),
      h("p", {}, h("a", { href: `#game=${id}`, class: "replay-link" }, "Replay and analyse this game")),
      h("p", {}, h("a", { href: `/records/${id}.json`, download: `cafe-${id}.json`, class: "record" },
        "Download the game record"), " (replay it with ", h("code", {}, "cafe replay"), ")"),
      h("button", { onclick: () => this.actions.lobby() }, "Back to the lobby"));
  }
}
