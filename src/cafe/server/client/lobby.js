// The lobby: every room, a form to open one, and the leaderboard.

import { botsBoard, seatName } from "./botmarks.js";
import { h, rulesText } from "./dom.js";
import { number, t, tn } from "./i18n.js";
import { learnEntry } from "./learn.js";
import { CLOCKS, clockText, ordered, turnNote, yourTurn } from "./days.js";

export const editionName = (edition) => (edition === "board" ? t("board game") : t("card game"));
const STATUS = { waiting: () => t("waiting"), playing: () => t("playing"), finished: () => t("finished") };

export function lobbyView(rooms, catalogue, actions) {
  const presets = catalogue.presets;
  const edition = h("select", { name: "edition", "aria-label": t("edition") },
    ["board", "cards"].map((value) => h("option", { value }, editionName(value))));
  const rules = h("select", { name: "rules", "aria-label": t("rules") });
  const more = h("div", { class: "options" });
  const fillRules = () => {
    rules.replaceChildren(...presets[edition.value].map((p) => h("option", { value: p.value }, p.label)));
    more.replaceChildren(...catalogue.options[edition.value].map(optionControl));
    showPreset();
  };
  const showPreset = () => { // every option shows what the chosen preset plays
    const values = presets[edition.value].find((p) => p.value === rules.value)?.values ?? {};
    for (const o of catalogue.options[edition.value]) {
      const control = more.querySelector(`[name="${o.key}"]`);
      if (o.choices) control.value = typeof values[o.key] === "string" ? values[o.key] : o.default;
      else control.checked = values[o.key] === true;
    }
  };
  edition.addEventListener("change", fillRules);
  rules.addEventListener("change", showPreset);
  fillRules();
  const chosen = () => { // the preset, and every option as the form shows it: the server keeps what differs
    const out = { preset: rules.value };
    for (const o of catalogue.options[edition.value]) {
      const control = more.querySelector(`[name="${o.key}"]`);
      out[o.key] = o.choices ? control.value : control.checked;
    }
    return out;
  };
  const name = h("input", { name: "name", placeholder: t("room name (optional)"), "aria-label": t("room name (optional)"),
    maxlength: 40 });
  const secret = h("input", { type: "checkbox", name: "private" });
  const match = h("select", { name: "match", "aria-label": t("one game or a match") },
    h("option", { value: "" }, t("one game")), h("option", { value: "5" }, t("a match: best of five")));
  const clock = h("select", { name: "clock", "aria-label": t("time for each turn") },
    CLOCKS.map((hours) => h("option", { value: hours }, hours ? clockText(hours) : t("live: a few minutes a turn"))));
  const late = h("select", { name: "late", "aria-label": t("when a turn's time is up"), hidden: true },
    h("option", { value: "bot" }, t("out of time: a computer player plays the turn")),
    h("option", { value: "end" }, t("out of time: the others may end the game")));
  clock.addEventListener("change", () => (late.hidden = clock.value === "0"));
  const create = h("form", {
    class: "create",
    onsubmit: (event) => {
      event.preventDefault();
      const days = clock.value !== "0" ? { clock: Number(clock.value), late: late.value } : {};
      actions.create(edition.value, chosen(), name.value.trim(), match.value ? Number(match.value) : null, days,
        secret.checked);
    },
  }, h("h2", {}, t("Open a table")), edition, rules,
  h("details", { class: "more" }, h("summary", {}, t("More options")), more),
  match, clock, late, name, h("label", { class: "option private" }, secret, h("span", {}, t("Private table")),
    h("small", {}, t("Only those you invite by its link may sit."))),
  h("p", { class: "problem", role: "alert", id: "create-problem" }),
  h("button", { type: "submit" }, t("Create room")));

  const board = h("section", { class: "leaderboard" }, h("h2", {}, t("Leaderboard")), h("p", {}, t("loading…")));
  actions.leaderboard().then((players) => {
    const table = players.length
      ? h("table", {},
          h("tr", {}, h("th", {}, t("player")), h("th", {}, t("rating")), h("th", {}, t("games"))),
          players.map((p) => h("tr", {}, h("td", {}, h("a", { href: `#player=${p.player}` }, p.name)),
            h("td", {}, number(p.rating, 1), p.provisional ? ` (${t("provisional")})` : ""), h("td", {}, p.games))))
      : h("p", {}, t("No rated games yet: games between two or more players with accounts are rated."));
    board.replaceChildren(h("h2", {}, t("Leaderboard")), table);
  });
  // a game of one's own to resume comes first; the tutorial, for a person who has none and never played
  const newcomer = actions.newcomer() && !actions.mine().length;
  const puzzles = h("section", { class: "puzzles-link" }, h("h2", {}, t("Puzzles")),
    h("p", {}, t("Find the clearly best turn in positions from real games, and watch your puzzle rating grow.")),
    h("a", { href: "#puzzles", class: "button" }, t("Solve puzzles")));
  const tournaments = h("section", { class: "tournaments-link" }, h("h2", {}, t("Tournaments")),
    h("a", { href: "#tournaments", class: "button" }, t("Tournaments")));
  return h("div", { class: "lobby" }, learnEntry(newcomer), roomsView(rooms, catalogue, actions),
    h("aside", {}, create, puzzles, tournaments, board, botsBoard(actions)));
}

// The lobby's rooms anew (a room opened, filled or ended), leaving the form to open a table as the person left it,
// and the focus on the same room's button if it was on one.
export function refreshRooms(lobby, rooms, catalogue, actions) {
  const focused = document.activeElement?.closest?.(".rooms-side [data-room]")?.dataset.room;
  lobby.querySelector(".rooms-side").replaceWith(roomsView(rooms, catalogue, actions));
  if (focused) lobby.querySelector(`.rooms-side [data-room="${CSS.escape(focused)}"] button`)?.focus();
}

function roomsView(rooms, catalogue, actions) {
  const list = [...rooms.values()].filter((room) => room.status === "waiting" || room.status === "playing");
  const mine = ordered(actions.mine()); // those waiting for you first
  const seated = new Set(mine.map((room) => room.id));
  const goIn = (room) => (seated.has(room.id) ? t("Resume") : room.status === "waiting" ? t("Enter") : t("Watch"));
  const yours = mine.length
    ? h("section", { class: "yours" }, h("h2", {}, t("Your games")), h("ul", {}, mine.map((room) =>
      h("li", { class: `room ${room.status}${yourTurn(room) ? " waits" : ""}`, "data-room": room.id },
        h("div", { class: "room-name" }, room.name),
        h("div", { class: "room-seats" }, room.seats.map(seatName).join(", ")),
        turnNote(room) ? h("div", { class: "room-turn" }, turnNote(room)) : null,
        h("button", { class: "go", onclick: () => actions.enter(room.id), "aria-label": `${t("Resume")}: ${room.name}` },
          t("Resume"))))))
    : null;
  const rows = list.map((room) =>
    h("li", { class: `room ${room.status}`, "data-room": room.id },
      h("div", { class: "room-name" }, room.name),
      h("div", { class: "room-facts" },
        `${editionName(room.edition)} · ${rulesText(room.rules, catalogue, room.edition)} · `,
        `${t("seats: {taken}/{seats}", { taken: room.seats.length, seats: room.max_players })} · `,
        STATUS[room.status]?.() ?? room.status,
        room.private ? ` · ${t("private")}` : "",
        room.match ? ` · ${t("match, game {game} of {best_of} at most", room.match)}` : "",
        room.clock ? ` · ${clockText(room.clock)}` : ""),
      h("div", { class: "room-seats" }, room.seats.map(seatName).join(", ") || t("no one yet")),
      h("button", { onclick: () => actions.enter(room.id), "aria-label": `${goIn(room)}: ${room.name}` }, goIn(room))));
  return h("div", { class: "rooms-side" }, yours, h("section", { class: "rooms" }, h("h2", {}, t("Rooms")),
    rows.length ? h("ul", {}, rows) : h("p", {}, t("No rooms yet: open a table.")),
    h("p", { class: "total" }, // open: a seat may still be taken, where the others' games are under way
      tn("{n} open room", "{n} open rooms", list.filter((room) => room.status === "waiting").length))));
}

export function nameView(onName, problem) {
  const input = h("input", { name: "player", placeholder: t("your name"), maxlength: 24, required: true,
    autofocus: true });
  return h("form", {
    class: "welcome",
    onsubmit: (event) => {
      event.preventDefault();
      if (input.value.trim()) onName(input.value.trim());
    },
  }, h("h2", {}, t("Welcome to the café")), problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
  h("label", {}, `${t("Your name")} `, input), h("button", { type: "submit" }, t("Enter the café")),
  h("p", { class: "learn-link" }, h("a", { href: "#learn" }, t("New to the game? Learn to play first, no name needed."))),
  h("p", { class: "sign-in" }, h("a", { href: "#account" }, t("Have an account? Sign in"))));
}

// One option of the rules: a switch, or a choice of values, each with its line of help.
function optionControl(option) {
  if (!option.choices) {
    return h("label", { class: "option" }, h("input", { type: "checkbox", name: option.key }), h("span", {}, option.label),
      h("small", {}, option.help));
  }
  const select = h("select", { name: option.key },
    option.choices.map((c) => h("option", { value: c.value }, c.help)));
  return h("label", { class: "option" }, h("span", {}, option.label), select);
}
