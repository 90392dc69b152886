// A room: the café, the players, your hand and what you may do, the turn log, the chat, the end.

import { ask } from "./ask.js";
import { seatName } from "./botmarks.js";
import { drawBoard, markSteps, nationChooser, tileButton } from "./board.js";
import { announce, announcer, h, replace, rulesText, sentence, signed } from "./dom.js";
import { t, tn } from "./i18n.js";
import { daysLine } from "./days.js";
import { tileChips } from "./pictures.js";
import { editionName } from "./lobby.js";
import { movesOf, parseStep, playableTiles, stepSentence, stepWords, tileWords, turnWords, whereTo } from "./steps.js";

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
    this.level = "medium"; // the computer players' level the host chose last
    this.awayAt = []; // each seat's person away since when (Date.now()), or null
    this.ticker = setInterval(() => this.tick(), 1000); // the away clocks run
    this.heardHistory = false; // the room's last chat lines are shown once, when the room opens
    this.board = h("div", { class: "board", id: "board" });
    this.panel = h("div", { class: "panel" });
    // both scroll: a keyboard can reach them to scroll them
    this.log = h("ol", { class: "log", "aria-label": t("turns"), tabindex: 0 });
    this.chatLines = h("ul", { class: "chat-lines", "aria-live": "polite", "aria-label": t("Chat"), tabindex: 0 });
    this.spoken = announcer();
    const input = h("input", { name: "chat", placeholder: t("chat, or /help"), "aria-label": t("chat, or /help"),
      maxlength: 500, autocomplete: "off" });
    this.chatForm = h("form", {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        if (input.value.trim()) this.actions.say(input.value.trim());
        input.value = "";
      },
    }, input, h("button", { type: "submit" }, t("Send")));
    this.root = h("div", { class: "room-view" },
      h("div", { class: "table-side" }, this.board),
      h("div", { class: "side" }, this.panel,
        h("section", { class: "turns" }, h("h3", {}, t("Turns")), this.log),
        h("section", { class: "chat" }, h("h3", {}, t("Chat")), this.chatLines, this.chatForm)), this.spoken);
  }

  show(state, svg) {
    const before = this.state;
    if (before && (state.plies !== before.plies || state.status !== before.status)) {
      this.selected = this.selectedAt = null;
      this.chooser = null;
    }
    this.state = state;
    this.awayAt = (state.away ?? []).map((seconds) => (seconds === null ? null : Date.now() - seconds * 1000));
    if (before && state.plies > before.plies) for (const line of this.newSteps(before)) this.tell(line);
    if (svg !== undefined && svg !== null) this.svg = svg;
    this.render();
    if (state.view?.over && !before?.view?.over) { // the end comes into view by itself
      this.panel.querySelector(".game-over")?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  }

  // A hint: the rest of the turn, step by step; the guest to play next is marked in the hand, and where each
  // step goes on the café, numbered in order.
  // The line says the steps in words; it keeps them in notation too (data-steps), as a tile keeps its data-tile.
  showHint(steps) {
    this.hint = { steps, plies: this.state.plies };
    const words = steps.map((s, k) => `${k + 1}. ${stepWords(s, this.catalogue)}`).join(" → ");
    this.say(t("Hint: {step}", { step: words }), "info");
    this.chatLines.lastElementChild.dataset.steps = steps.join(" ");
    this.render();
  }

  // The hint's steps still to play: none once the turn went otherwise than it said.
  hintLeft() {
    const hint = this.hint;
    const done = this.state.plies - (hint?.plies ?? Infinity);
    if (!hint || done < 0 || done >= hint.steps.length) return [];
    const played = done ? this.state.log?.at(-1)?.steps.slice(-done) ?? [] : [];
    return played.every((step, k) => step === hint.steps[k]) && played.length === done ? hint.steps.slice(done) : [];
  }

  // Says something to screen readers only (what the page shows anyway, as it happens).
  tell(text) {
    if (text) announce(this.spoken, text);
  }

  refused(message) {
    this.say(`✗ ${sentence(message)}`, "error");
    this.tell(sentence(message));
  }

  // Every step since the state before, each in words ("Ann seats the Chinese lady on bar stool 3 (−2)"), a
  // computer player's whole turn too; then whose turn it is.
  newSteps(before) {
    const { log = [], seats, view } = this.state;
    const name = (seat) => seatName(seats[seat]);
    const known = (before.log ?? []).reduce((n, turn) => n + turn.steps.length, 0);
    const steps = log.flatMap((turn, k) => turn.steps.map((text) => ({ k, text }))).slice(known);
    const lines = [];
    let stool = (view?.bar?.length ?? 0) - steps.filter((s) => parseStep(s.text).kind === "bar").length;
    steps.forEach(({ k, text }, i) => {
      if (parseStep(text).kind === "bar") stool += 1;
      const line = stepSentence(name(log[k].seat), text, this.catalogue, stool);
      const last = steps[i + 1]?.k !== k; // the turn's points, once its new steps are said
      const points = last ? log[k].points - (before.log?.[k]?.points ?? 0) : 0;
      lines.push(points ? `${line} (${signed(points)})` : line);
    });
    const turn = log.at(-1);
    if (!steps.length && turn) lines.push(stepSentence(name(turn.seat), "stop", this.catalogue)); // a turn's end
    const next = view && !view.over ? seats[view.current_player] : null;
    if (this.mine) lines.push(t("Your turn."));
    else if (next && next.seat !== turn?.seat) lines.push(t("{name} is on turn.", { name: next.name }));
    return lines.map((line) => (/[.!?]$/.test(line) ? line : `${line}.`));
  }

  say(line, kind = "info") {
    this.lines.push({ line, kind });
    this.chatLines.append(h("li", { class: kind }, line));
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  // A seated person left, or is back: the room hears it, and the seat shows it.
  presence(message) {
    this.awayAt[message.seat] = message.away === null ? null : Date.now() - (message.for ?? 0) * 1000;
    this.say(message.text, "info");
    this.render();
  }

  // Whether a seat's person is here, or away and for how long (nothing for a computer player).
  presenceOf(seat) {
    if (seat.bot) return null;
    const since = this.awayAt[seat.seat];
    if (since === null || since === undefined) return h("span", { class: "presence here" }, ` · ${t("here")}`);
    return h("span", { class: "presence away", "data-since": since }, ` · ${awayFor(since)}`);
  }

  tick() {
    if (!this.root.isConnected) return clearInterval(this.ticker); // this room's page is gone
    for (const clock of this.root.querySelectorAll(".presence.away")) {
      clock.textContent = ` · ${awayFor(Number(clock.dataset.since))}`;
    }
  }

  // A person's line of chat: who said it, then what.
  chat(from, text, player) {
    this.lines.push({ from, text, player, kind: "chat" });
    this.chatLines.append(chatLine(from, text, player));
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  // The room's last chat lines, said before this page came in: above everything it heard since (once).
  history(lines) {
    if (this.heardHistory) return;
    this.heardHistory = true;
    this.chatLines.prepend(...lines.map((line) => chatLine(line.from, line.text, line.player, "past")));
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  get mine() {
    return this.state?.legal?.length > 0;
  }

  render() {
    const had = this.root.contains(document.activeElement) ? document.activeElement : null;
    const tileAt = had?.dataset?.index;
    const key = had?.dataset?.focus; // a control drawn anew under the same name ("Add computer player")
    this.draw();
    if (!had || this.root.contains(document.activeElement)) return;
    // the element with the focus was drawn anew: the focus goes to its successor, or where play goes on
    const again = tileAt !== undefined ? this.panel.querySelector(`.tile[data-index="${tileAt}"]:not(:disabled)`)
      : key ? this.root.querySelector(`[data-focus="${key}"]:not(:disabled)`) : null;
    (again ?? this.nextFocus() ?? this.root.querySelector("h2"))?.focus();
  }

  // Where the keyboard begins on a room's page just opened: its name.
  focusStart() {
    this.root.querySelector("h2")?.focus();
  }

  nextFocus() {
    if (!this.mine) return this.board.querySelector("[tabindex='0']");
    return this.panel.querySelector("button.tile:not(:disabled)") ?? this.panel.querySelector(".controls button");
  }

  draw() {
    const state = this.state;
    const view = state.view;
    Object.assign(this.root.dataset, { room: state.id, plies: state.plies, status: state.status, mine: this.mine });
    const moves = this.selected && this.mine ? movesOf(this.selected, state.legal, state.points) : null;
    const lit = new Map();
    if (moves) {
      for (const [chair, steps] of moves.chairs) lit.set(chair, Math.max(...steps.map((s) => s.points)));
      if (moves.bar && view) lit.set(String(view.bar.length + 1), moves.bar.points);
    }
    if (view) drawBoard(this.board, this.svg, lit, (target) => this.pick(target, moves), view, this.catalogue);
    else replace(this.board, this.waiting());
    const hinted = view && this.mine ? this.hintLeft() : [];
    if (hinted.length) markSteps(this.board, hinted, "hinted", this.hint.steps.length - hinted.length + 1);
    replace(this.panel, this.header(), view ? this.players() : null, view ? this.counts() : null,
      view && !view.over ? this.hand() : null, view && !view.over ? this.controls(moves) : null,
      view?.over ? this.gameOver() : null);
    this.renderLog();
  }

  header() {
    const state = this.state;
    const facts = `${editionName(state.edition)} · ${rulesText(state.rules, this.catalogue, state.edition)}`;
    const leave = state.you !== null && state.status !== "finished"
      ? h("button", { class: "quiet leave", onclick: () => this.leave() }, t("Leave seat")) : null;
    const match = state.match?.entrants.length
      ? h("p", { class: "match" }, `${t("Match, best of {best_of}, game {game}:", state.match)} `,
        state.match.entrants.map((name, i) => `${name} ${state.match.wins[i]}`).join(", "))
      : state.match ? h("p", { class: "match" }, t("A match: best of {best_of}", state.match)) : null;
    return h("div", { class: "room-head" },
      h("h2", { tabindex: -1, "data-focus": "name" }, state.name), h("span", { class: "facts" }, facts), match,
      daysLine(state, this.actions),
      h("button", { class: "quiet", onclick: () => this.actions.lobby() }, t("Lobby")), leave);
  }

  // Leaving a game in play is for good: asked first.
  async leave() {
    if (this.state.status === "playing" && !await ask(
      t("Leave your seat? A computer player takes it for the rest of the game, and you cannot take it back."),
      t("Leave the seat"), t("Stay"))) return;
    this.actions.say("/leave");
  }

  // The bar: a stool whose value would take the player below 0 puts them out of the game, so it is asked first.
  async toBar(step) {
    if (this.barOut() && !await ask(t("Your score would go below 0: you would be out of the game. Seat the guest "
      + "at the bar all the same?"), t("To the bar, and out"), t("Cancel"))) return;
    this.actions.step(step.text);
  }

  // Whether the next stool would take this player's score below 0 (RULES.md §2.5).
  barOut() {
    const view = this.state.view;
    const next = view?.bar_values?.[view.bar.length];
    return next !== undefined && view.scores[this.state.you] + next < 0;
  }

  waiting() {
    const state = this.state;
    const host = state.host === this.actions.player();
    const levels = { easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert"), master: t("master") };
    const level = h("select", { "aria-label": t("computer player level"), "data-focus": "level",
      onchange: () => (this.level = level.value) },
      this.catalogue.levels.map((l) => h("option", { value: l, selected: l === this.level }, levels[l] ?? l)));
    return h("div", { class: "waiting" },
      h("h3", {}, t("Waiting for players")),
      h("ol", { class: "seats" }, state.seats.map((seat) =>
        h("li", {}, seatName(seat), levelNote(seat, levels),
          this.presenceOf(seat),
          host && seat.seat !== state.you
            ? h("button", { class: "quiet", onclick: () => this.actions.say(`/kick ${seat.seat + 1}`),
              "aria-label": t("remove {name}", { name: seat.name }) }, t("remove")) : null))),
      h("p", {}, tn("{n} of at most {seats} seats taken; 2 are needed to start.",
        "{n} of at most {seats} seats taken; 2 are needed to start.", state.seats.length, { seats: state.max_players })),
      state.private && state.you === null
        ? h("p", { class: "private-note" }, t("This table is private: only those with its invitation link may sit."))
        : state.you === null && state.seats.length < state.max_players
          ? h("button", { "data-focus": "join", onclick: () => this.actions.say("/join") }, t("Take a seat")) : null,
      state.invite ? this.invitation() : null,
      host ? h("div", { class: "host" }, level,
        h("button", { "data-focus": "bot", onclick: () => this.actions.say(`/bot ${level.value}`) },
          t("Add computer player")),
        // hints work anyway where one person plays against computer players: nothing to allow there
        state.hints || state.seats.filter((s) => !s.bot).length > 1
          ? h("button", { class: "quiet", "data-focus": "hints",
            onclick: () => this.actions.say(state.hints ? "/hints off" : "/hints on") },
            state.hints ? t("No hints") : t("Allow hints (not rated)"))
          : state.seats.some((s) => s.bot) // said once a computer player sits: before, there is no one to play
            ? h("p", { class: "hints-note" }, t("Hints are there for the asking: you play against computer players only."))
            : null,
        h("button", { class: "quiet", "data-focus": "private",
          onclick: () => this.actions.say(state.private ? "/private off" : "/private on") },
        state.private ? t("Open to everyone") : t("Make private")),
        h("button", { class: "go", "data-focus": "start", disabled: state.seats.length < 2,
          onclick: () => this.actions.say("/start") }, t("Start the game"))) : h("p", {}, t("The host starts the game.")));
  }

  // "Invite": the table's link to the clipboard; where the browser will not, the link itself, selected to copy.
  invitation() {
    const url = this.actions.inviteLink(this.state);
    const shown = h("input", { class: "invite-link", readonly: true, value: url, "aria-label": t("Invitation link"),
      hidden: !this.inviteShown });
    const said = h("p", { class: "invite-said", role: "status" }, this.inviteSaid ?? "");
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(url);
        this.inviteSaid = t("The link is copied: send it to whom you invite.");
      } catch {
        this.inviteShown = true;
        this.inviteSaid = t("Copy this link and send it to whom you invite:");
      }
      this.render();
      if (this.inviteShown) this.root.querySelector(".invite-link")?.select();
    };
    return h("div", { class: "invite" },
      h("button", { "data-focus": "invite", onclick: copy }, t("Invite")), said, shown);
  }

  // At the end: a rematch with the seats turned, offered, accepted or declined by those who played.
  rematch() {
    const { rematch: offer, seats, you } = this.state;
    if (you === null || seats[you]?.bot) return null;
    if (!offer) {
      return h("p", { class: "rematch" }, h("button", { class: "go", "data-focus": "rematch",
        onclick: () => this.actions.rematch(true) }, t("Rematch (seats turned)")));
    }
    const waiting = seats.filter((s) => !s.bot && !offer.accepted.includes(s.seat)).map((s) => s.name).join(", ");
    if (offer.accepted.includes(you)) {
      return h("p", { class: "rematch" }, t("Rematch: waiting for {names}…", { names: waiting }));
    }
    return h("div", { class: "rematch" },
      h("p", {}, t("A rematch is offered, with the seats turned.")),
      h("button", { class: "go", "data-focus": "rematch", onclick: () => this.actions.rematch(true) },
        t("Accept the rematch")),
      h("button", { class: "quiet", onclick: () => this.actions.rematch(false) }, t("Decline")));
  }

  players() {
    const { view, seats } = this.state;
    return h("table", { class: "players" },
      h("tr", {}, h("th", {}, t("player")), h("th", {}, t("score")),
        h("th", {}, view.edition === "board" ? t("hand") : t("cards"))),
      seats.flatMap((seat, i) => {
        const current = !view.over && view.current_player === i;
        const out = view.eliminated?.[i];
        const cards = view.edition === "cards" && view.face_down_counts[i]
          ? ` ${t("+{n} face down", { n: view.face_down_counts[i] })}` : "";
        // the board game's hands are open (unless the guests are a surprise): the others' guests are seen too
        const open = i !== this.state.you && !view.over && view.hands?.[i]?.length;
        return [h("tr", { class: [current ? "current" : "", i === this.state.you ? "you" : ""].join(" ") },
          h("td", {}, current ? [h("span", { "aria-hidden": "true" }, "▶ "), h("span", { class: "announcer" },
            `${t("on turn:")} `)] : "", seatName(seat),
          i === this.state.you ? ` (${t("you")})` : "", out ? ` (${t("eliminated")})` : "", this.presenceOf(seat)),
          h("td", {}, view.scores[i], view.penalties[i] ? ` (${t("−{n} penalty", { n: view.penalties[i] })})` : ""),
          h("td", {}, `${view.hand_counts[i]}${cards}`)),
        open ? h("tr", { class: "open-hand" }, h("td", { colspan: 3 }, this.openHand(seat, view.hands[i]))) : null];
      }));
  }

  counts() {
    const view = this.state.view;
    if (view.edition === "board") {
      const next = view.bar_values[view.bar.length];
      return h("p", { class: "counts" },
        `${tn("Bag: {n} guest", "Bag: {n} guests", view.bag_count)} · ${
          t("Bar: {taken}/{stools}", { taken: view.bar.length, stools: view.bar_values.length })}`,
        next !== undefined ? ` · ${t("next stool {points}", { points: signed(next) })}` : "");
    }
    return h("p", { class: "counts" }, `${tn("Deck: {n} card", "Deck: {n} cards", view.deck_count)} · ${
      t("Table cards left: {n}", { n: view.table_pile_count })}`);
  }

  // What to do on one's turn with nothing picked: from the hand, or else what the only way on is (never "pick
  // from your hand" when nothing in it can be played).
  turnLine(steps, has) {
    if (steps.some((s) => s.tile)) return t("Your turn: pick from your hand.");
    if (has("stop")) return t("Your turn: nothing more can be played, so end the turn.");
    if (has("draw")) return t("Your turn: no card can be played, so draw a card.");
    if (has("pass")) return t("Your turn: nothing can be played, so pass.");
    return t("Your turn.");
  }

  openHand(seat, tiles) {
    const chips = tileChips(tiles, this.catalogue);
    chips.setAttribute("aria-label", t("{name}'s guests", { name: seat.name }));
    return chips;
  }

  hand() {
    const { view, you } = this.state;
    if (you === null) return h("p", { class: "watching" }, t("You are watching this game."));
    const tiles = view.hands[you] ?? [];
    const playable = playableTiles(this.state.legal);
    const hinted = this.mine ? parseStep(this.hintLeft()[0] ?? "").tile : null; // the guest the hint plays next
    const hintAt = hinted ? tiles.indexOf(hinted) : -1;
    const buttons = tiles.map((tile, k) => tileButton(tile, k, this.catalogue, { selected: this.selectedAt === k,
      hinted: hintAt === k, disabled: this.mine && !playable.has(tile), onclick: () => this.select(tile, k) }));
    const down = view.edition === "cards" && view.face_down?.[you]?.length
      ? h("p", {}, t("Face down: {cards}", { cards: view.face_down[you].join(", ") })) : null;
    return h("section", { class: "hand" }, h("h3", {}, t("Your hand")),
      h("div", { class: "tiles", role: "group", "aria-label": t("Your hand") }, buttons), down);
  }

  controls(moves) {
    const state = this.state;
    if (state.you === null) return null;
    if (!this.mine) {
      const who = state.seats[state.view.current_player]?.name ?? "?";
      return h("p", { class: "turn-line" }, t("{name} is on turn.", { name: who }));
    }
    const steps = state.legal.map(parseStep);
    const has = (kind) => steps.some((s) => s.kind === kind);
    const line = this.selected
      ? sentence(t("{guest}: {what}", { guest: tileWords(this.selected, this.catalogue),
        what: whereTo(moves, state.view.edition) })) // "Kubanischer Herr: ...", never a small letter first
      : this.turnLine(steps, has);
    const buttons = [];
    if (moves?.bar) {
      const stool = signed(state.view.bar_values[state.view.bar.length]);
      buttons.push(h("button", { class: "bar", onclick: () => this.toBar(moves.bar) }, this.barOut()
        ? t("To the bar ({points}): you would be out", { points: stool })
        : t("To the bar ({points})", { points: signed(moves.bar.points) })));
    }
    if (moves?.down) buttons.push(h("button", { onclick: () => this.actions.step(moves.down.text) }, t("Lay face down")));
    if (has("stop")) buttons.push(h("button", { class: "go", onclick: () => this.actions.step("stop") }, t("End turn")));
    if (has("pass")) buttons.push(h("button", { onclick: () => this.actions.step("pass") }, t("Pass")));
    if (has("draw")) buttons.push(h("button", { onclick: () => this.actions.step("draw") }, t("Draw a card")));
    if (has("close")) buttons.push(h("button", { onclick: () => this.actions.step("close") }, t("Close (end the game)")));
    if (state.can_undo) buttons.push(h("button", { class: "quiet", onclick: () => this.actions.undo() }, t("Undo")));
    if (state.hints) buttons.push(h("button", { class: "quiet hint", onclick: () => this.actions.hint() }, t("Hint")));
    return h("section", { class: "controls" }, h("p", { class: "turn-line" }, line),
      this.chooser ? nationChooser(this.chooser, this.catalogue, (text) => this.actions.step(text),
        h("button", { class: "quiet", onclick: () => { this.chooser = null; this.render(); } }, t("Cancel"))) : null,
      h("div", { class: "buttons" }, buttons));
  }



  select(tile, at) {
    [this.selected, this.selectedAt] = this.selectedAt === at ? [null, null] : [tile, at];
    this.chooser = null;
    this.render();
    if (this.selected) { // the first chair (or place) the guest may take is next: the keyboard goes there, never
      // to the bar, which has its own button (a second Enter must not seat a guest on a negative stool)
      this.board.querySelector(".lit[data-chair], .lit[data-place]")?.focus();
    }
  }

  pick(target, moves) {
    if (!this.mine) return this.refusedHere(t("It is not your turn."));
    if (!this.selected) return this.refusedHere(t("Pick a guest from your hand first."));
    if (target.startsWith("stool:")) {
      if (moves?.bar) this.toBar(moves.bar);
      else this.actions.step(`${this.selected}@bar`); // the server says why not
      return;
    }
    const steps = moves?.chairs.get(target);
    if (!steps) return this.actions.step(`${this.selected}@${target}`); // not lit: the server says why not
    if (steps.length === 1) return this.actions.step(steps[0].text);
    this.chooser = { chair: target, steps };
    this.render();
    this.panel.querySelector(".chooser button")?.focus(); // the choice is next: the keyboard goes there
  }

  refusedHere(text) {
    this.actions.notice(text);
    this.tell(text);
  }

  renderLog() {
    const { log, seats } = this.state;
    replace(this.log, (log ?? []).map((turn) => h("li", {},
      `${seats[turn.seat]?.name ?? "?"}: ${turnWords(turn.steps, this.catalogue)}`,
      turn.points ? ` (${signed(turn.points)})` : "",
      turn.hint ? h("span", { class: "hint-used" }, ` (${t("hint")})`) : null)));
    this.log.scrollTop = this.log.scrollHeight;
  }

  gameOver() {
    const { view, seats, id } = this.state;
    // by final place as the rules rank them (RULES.md §2.8: the eliminated after those still in), winner first
    const places = this.state.places ?? seats.map(() => 1);
    const order = seats.map((s, i) => i).sort((a, b) => places[a] - places[b] || a - b);
    const winner = view.winner === null ? t("A shared first place") : t("{name} wins", { name: seats[view.winner].name });
    return h("section", { class: "game-over", role: "status" },
      h("h3", {}, t("Game over: {winner}", { winner })),
      h("p", { class: "played" }, t("Played: {rules}", { rules: rulesText(this.state.rules, this.catalogue, this.state.edition) })),
      view.end_reason ? h("p", {}, t("The game ended: {reason}.", { reason: t(view.end_reason) })) : null,
      h("table", { class: "standings" }, h("tr", {}, h("th", {}, t("place")), h("th", {}, t("player")),
        h("th", {}, t("score")), h("th", {}, t("penalties (in the score)"))),
      order.map((i) => h("tr", { "data-seat": i }, h("td", {}, places[i]),
        h("td", {}, seatName(seats[i]), view.eliminated?.[i] ? h("span", { class: "eliminated" }, ` (${t("eliminated")})`) : ""),
        h("td", {}, view.scores[i]), h("td", {}, view.penalties[i] ? `−${view.penalties[i]}` : "0")))),
      h("p", {}, h("a", { href: `#game=${id}`, class: "replay-link" }, t("Replay and analyse this game"))),
      h("p", {}, h("a", { href: `/records/${id}.json`, download: `cafe-${id}.json`, class: "record" },
        t("Download the game record")), ` (${t("replay it with")} `, h("code", {}, "cafe replay"), ")"),
      this.rematch(),
      h("button", { onclick: () => this.actions.lobby() }, t("Back to the lobby")));
  }
}

// A chat line says who spoke with the player's number beside the name: names may look alike, the number
// comes from the server and cannot be typed into a name.
function chatLine(from, text, player, more = "") {
  return h("li", { class: `chat ${more}`.trim() }, h("b", { class: "from" }, from), " ",
    h("span", { class: "speaker", title: t("Player number {number}", { number: player }) }, `#${player}`), ": ", text);
}

// "away 1:05": how long a person has been gone, by the clock of this page.
function awayFor(since) {
  const seconds = Math.max(0, Math.floor((Date.now() - since) / 1000));
  return t("away {time}", { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` });
}

// What a computer player's seat adds after its name: " (computer, medium)" in the reader's words, or nothing when the
// name ("Medium bot 2", "Bot 2 (mittel)") says the level already. Names are in the host's language, so only a reader
// of another language, who may not find their own word in it, is told.
function levelNote(seat, levels) {
  if (!seat.bot) return "";
  const level = levels[seat.bot] ?? seat.bot;
  return seatName(seat).toLocaleLowerCase().includes(level.toLocaleLowerCase())
    ? "" : ` (${t("computer, {level}", { level })})`;
}
