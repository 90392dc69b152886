// Games over days: a table's clock per turn, the time left on a turn, your games (those waiting for you first),
// the next game waiting for you after your move, and the tab's title and badge when a turn of yours waits.

import { h } from "./dom.js";
import { holidayNotes } from "./holidays.js";
import { language, t, tn } from "./i18n.js";

export const CLOCKS = [0, 12, 24, 48, 72, 168]; // hours a turn (0: a live game), as the server takes them

// "12 hours a turn", "2 days a turn"; a live game has none.
export function clockText(hours) {
  if (!hours) return "";
  return hours < 24 ? tn("{n} hour a turn", "{n} hours a turn", hours) : tn("{n} day a turn", "{n} days a turn", hours / 24);
}

const unit = (n, name) => new Intl.NumberFormat(language(), { style: "unit", unit: name, unitDisplay: "long" }).format(n);

// A duration as the reader's language writes it: "1 day, 3 hours", "2 Stunden, 5 Minuten", "40 secondes".
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const [d, hr, m] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60];
  const parts = d ? [unit(d, "day"), hr && unit(hr, "hour")] : hr ? [unit(hr, "hour"), m && unit(m, "minute")]
    : m ? [unit(m, "minute")] : [unit(s, "second")];
  return new Intl.ListFormat(language(), { style: "long", type: "unit" }).format(parts.filter(Boolean));
}

// The seconds left on a room state's turn clock now (it came with the state: `heard` is when), or null.
export function left(state) {
  return typeof state.left === "number" ? state.left - (Date.now() - (state.heard ?? Date.now())) / 1000 : null;
}

export const yourTurn = (state) => state.status === "playing" && state.you !== null && state.view
  && !state.view.over && state.view.current_player === state.you;

// Your games: those waiting for you first, the least time left first; then the others, the least time left first.
export function ordered(games) {
  const rest = (s) => left(s) ?? Infinity;
  return [...games].sort((a, b) => yourTurn(b) - yourTurn(a) || rest(a) - rest(b));
}

// Whose turn it is in a game of yours, and the time left on it.
export function turnNote(state) {
  if (state.status !== "playing" || !state.view || state.view.over) return "";
  const whose = yourTurn(state) ? t("your turn")
    : t("{name}'s turn", { name: state.seats[state.view.current_player]?.name ?? "" });
  const time = left(state);
  if (time === null) return whose;
  return `${whose} · ${time > 0 ? t("{time} left", { time: duration(time) }) : t("the time is up")}`;
}

// A room's line of its clock, its time left, and what the players may do: end the game for a player out of time,
// or, once it is no longer your turn, go on to your next game waiting for you (as Yucata offers).
export function daysLine(state, actions) {
  if (!state.clock) return null;
  const late = state.late === "end" ? t("out of time: the others may end the game")
    : t("out of time: a computer player plays the turn");
  const end = state.can_end
    ? h("button", { class: "end-late", onclick: () => actions.say("/end") }, t("End the game")) : null;
  const next = !yourTurn(state) ? ordered(actions.mine().filter((s) => s.id !== state.id && yourTurn(s)))[0] : null;
  const go = next ? h("button", { class: "next-game", onclick: () => actions.enter(next.id) },
    t("Your next game: {name}", { name: next.name })) : null;
  return h("div", { class: "days" }, h("p", {}, `${clockText(state.clock)} (${late})`),
    turnNote(state) ? h("p", { class: "turn-left" }, turnNote(state)) : null, holidayNotes(state), end, go);
}

// The tab's title and its badge: how many of your games wait for you, other than the one on the screen.
export function signal(games, shown) {
  const waiting = games.filter((s) => s.id !== shown && yourTurn(s)).length;
  const base = document.title.replace(/^\(\d+\) /, "");
  document.title = waiting ? `(${waiting}) ${base}` : base;
  const badge = document.getElementById("waiting-badge");
  if (!waiting) badge?.remove();
  else if (badge) badge.textContent = tn("{n} game waits for you", "{n} games wait for you", waiting);
  else {
    document.getElementById("who")?.before(h("a", { id: "waiting-badge", href: "#", class: "badge" },
      tn("{n} game waits for you", "{n} games wait for you", waiting)));
  }
}
